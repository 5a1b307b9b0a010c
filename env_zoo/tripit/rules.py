"""TripIt's itinerary rules: numeric ids, a trip that stretches to cover every plan put in it (and refuses dates
that would leave one of its plans outside), plans that end after they start, the flight status codes a segment
carries, and how a forwarded confirmation is filed: into the traveler's trip whose dates overlap it, else into a
new trip named after the place."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_date

from .schema import alerts, inbox, invitees, objects, segments, trips

FLIGHT_STATUS = {
    100: "Not monitorable",
    200: "Not monitored",
    300: "Scheduled",
    301: "On time",
    302: "In flight, on time",
    303: "Arrived on time",
    400: "Cancelled",
    401: "Delayed",
    402: "In flight, late",
    403: "Arrived late",
    404: "Diverted",
}
PURPOSES = {"B": "Business", "L": "Leisure", "C": "Conference", "H": "Holiday"}


def trip_id(db: Database) -> str:
    """The next trip id; new trips follow the account's 3184xxxxx ids."""
    return str(318400000 + db.next_number("trip_ids"))


def object_id(db: Database) -> str:
    """The next travel object id."""
    return str(2104600000 + db.next_number("object_ids"))


def segment_id(db: Database) -> str:
    """The next air segment id."""
    return str(88140000 + db.next_number("segment_ids"))


def day(value: str, name: str) -> date:
    """A date argument, parsed."""
    return parse_date(value, name, example="2026-04-18")


def check_span(
    start_date: str, start_time: str | None, end_date: str, end_time: str | None, what: str, zones: bool = False
) -> None:
    """Refuse a plan that ends before it starts. Local times in two time zones (a flight's) compare by date only:
    a flight west over the date line lands at an earlier clock time than it left."""
    start = (day(start_date, "start_date"), "" if zones else start_time or "00:00")
    end = (day(end_date, "end_date"), "" if zones else end_time or "23:59")
    if end < start:
        raise InvalidRequest(f"{what} ends before it starts ({end_date} before {start_date}).")


def cover(db: Database, trip: dict[str, Any], start_date: str, end_date: str, when: str) -> dict[str, Any]:
    """Stretch a trip's dates to cover a plan, as TripIt does when a plan falls outside them."""
    start = min(trip["start_date"], start_date)
    end = max(trip["end_date"], end_date)
    return db.update(trips, trip["id"], start_date=start, end_date=end, last_modified=when)


def plan_span(db: Database, trip_id_: str) -> tuple[str, str] | None:
    """The first and last dates of a trip's plans (None without plans)."""
    found = db.select(objects, "trip_id = ?", (trip_id_,))
    if not found:
        return None
    return min(row["start_date"] for row in found), max(row["end_date"] for row in found)


def check_trip_dates(db: Database, trip: dict[str, Any], start_date: str, end_date: str) -> None:
    """Refuse trip dates that end before they start or leave one of the trip's plans outside."""
    if day(end_date, "end_date") < day(start_date, "start_date"):
        raise InvalidRequest("The trip's end date must be on or after its start date.")
    span = plan_span(db, trip["id"])
    if span and (span[0] < start_date or span[1] > end_date):
        raise Conflict(
            f"Trip {trip['id']} has plans from {span[0]} to {span[1]}; its dates must cover them. Move or delete "
            "those plans first."
        )


def delete_object_rows(db: Database, object_id_: str) -> None:
    """Delete a travel object with its segments, unlinking alerts and inbox items that point at them."""
    for segment in db.find(segments, object_id=object_id_):
        for alert in db.find(alerts, segment_id=segment["id"]):
            db.update(alerts, alert["id"], segment_id=None)
        db.delete(segments, segment["id"])
    for item in db.find(inbox, object_id=object_id_):
        db.update(inbox, item["id"], object_id=None)
    db.delete(objects, object_id_)


def delete_trip_rows(db: Database, trip_id_: str) -> None:
    """Delete a trip with its plans and invitations; inbox items filed to it go back to unfiled."""
    for row in db.find(objects, trip_id=trip_id_):
        delete_object_rows(db, row["id"])
    for row in db.find(invitees, trip_id=trip_id_):
        db.delete(invitees, row["id"])
    for item in db.find(inbox, trip_id=trip_id_):
        db.update(inbox, item["id"], trip_id=None, object_id=None, status="unfiled")
    db.delete(trips, trip_id_)


def matching_trip(db: Database, profile_ref: str, start_date: str, end_date: str) -> dict[str, Any] | None:
    """The traveler's own trip whose dates overlap a plan's, a day either side counting (first by start date)."""
    before = (day(start_date, "start_date") - timedelta(days=1)).isoformat()
    after = (day(end_date, "end_date") + timedelta(days=1)).isoformat()
    found = db.select(
        trips,
        "owner_ref = ? AND start_date <= ? AND end_date >= ?",
        (profile_ref, after, before),
        order_by="start_date",
    )
    return found[0] if found else None


def check_new_conf(db: Database, trip_id_: str, conf: str | None) -> None:
    """Refuse a second plan with the same confirmation number in one trip."""
    if conf and db.find(objects, trip_id=trip_id_, supplier_conf_num=conf):
        raise Conflict(f"Trip {trip_id_} already has a plan with confirmation number {conf}.")


def insert_plan(db: Database, trip: dict[str, Any], created_by: str, **fields: Any) -> dict[str, Any]:
    """Store a travel object in a trip and stretch the trip to cover it."""
    zones = fields["type"] == "air"
    check_span(
        fields["start_date"], fields.get("start_time"), fields["end_date"], fields.get("end_time"), "The plan", zones
    )
    check_new_conf(db, trip["id"], fields.get("supplier_conf_num"))
    stored = db.insert(objects, id=object_id(db), trip_id=trip["id"], created_by=created_by, **fields)
    cover(db, trip, fields["start_date"], fields["end_date"], db.now_iso())
    return stored


def insert_flight(
    db: Database,
    trip: dict[str, Any],
    created_by: str,
    supplier_name: str,
    conf: str | None,
    site: str | None,
    flights: list[dict[str, Any]],
    cost: str | None,
    notes: str | None,
) -> dict[str, Any]:
    """Store an air object and its segments (already checked to be in flying order)."""
    for number, flight in enumerate(flights, start=1):
        check_span(
            flight["start_date"],
            flight["start_time"],
            flight["end_date"],
            flight["end_time"],
            f"Segment {number}",
            True,
        )
    for earlier, later in zip(flights, flights[1:]):
        if (later["start_date"], later["start_time"]) < (earlier["end_date"], earlier["end_time"]):
            raise InvalidRequest("Segments must be in flying order: each departs after the previous one lands.")
    first, last = flights[0], flights[-1]
    stored = insert_plan(
        db,
        trip,
        created_by,
        type="air",
        display_name=f"{first['start_airport_code']} to {first['end_airport_code']}",
        supplier_name=supplier_name,
        supplier_conf_num=conf,
        booking_site_name=site,
        start_date=first["start_date"],
        start_time=first["start_time"],
        end_date=last["end_date"],
        end_time=last["end_time"],
        location=first["start_airport_code"],
        details={},
        total_cost=cost,
        notes=notes,
    )
    today = db.now().date().isoformat()
    for flight in flights:
        db.insert(
            segments,
            id=segment_id(db),
            object_id=stored["id"],
            flight_status=300 if flight["start_date"] >= today else 200,
            departure_terminal=None,
            departure_gate=None,
            estimated_departure_time=None,
            **{key: flight.get(key) for key in SEGMENT_FIELDS},
        )
    return stored


SEGMENT_FIELDS = (
    "marketing_airline_code",
    "marketing_flight_number",
    "start_airport_code",
    "end_airport_code",
    "start_date",
    "start_time",
    "end_date",
    "end_time",
    "seats",
    "service_class",
)


def resync_flight(db: Database, object_row: dict[str, Any]) -> dict[str, Any]:
    """Set an air object's dates from its segments after one changed, and stretch its trip."""
    found = db.find(segments, object_id=object_row["id"], order_by=[segments.c.start_date, segments.c.start_time])
    first, last = found[0], found[-1]
    stored = db.update(
        objects,
        object_row["id"],
        start_date=first["start_date"],
        start_time=first["start_time"],
        end_date=last["end_date"],
        end_time=last["end_time"],
    )
    cover(db, db.get(trips, stored["trip_id"], "Trip"), stored["start_date"], stored["end_date"], db.now_iso())
    return stored


def trip_name(city: str, start_date: str) -> str:
    """The name TripIt gives a trip it makes for a forwarded plan: the place and the month."""
    start = day(start_date, "start_date")
    return f"{city}, {start.strftime('%B')} {start.year}"


def filing_trip(
    db: Database, profile: dict[str, Any], parsed: dict[str, Any], chosen: dict[str, Any] | None
) -> dict[str, Any]:
    """The trip a forwarded plan goes into: the one chosen, else the traveler's overlapping trip, else a new one."""
    if chosen is not None:
        return chosen
    found = matching_trip(db, profile["ref"], parsed["start_date"], parsed["end_date"])
    if found is not None:
        return found
    return db.insert(
        trips,
        id=trip_id(db),
        owner_ref=profile["ref"],
        display_name=trip_name(parsed["city"], parsed["start_date"]),
        primary_location=parsed["city"],
        start_date=parsed["start_date"],
        end_date=parsed["end_date"],
        description=None,
        purpose_type_code=None,
        is_private=False,
        last_modified=db.now_iso(),
    )


def file_parsed(db: Database, trip: dict[str, Any], created_by: str, parsed: dict[str, Any]) -> dict[str, Any]:
    """Store the plan read from a forwarded confirmation in a trip."""
    if parsed["type"] == "air":
        return insert_flight(
            db,
            trip,
            created_by,
            parsed["supplier_name"],
            parsed.get("supplier_conf_num"),
            parsed.get("booking_site_name"),
            parsed["segments"],
            parsed.get("total_cost"),
            None,
        )
    fields = (
        "display_name",
        "supplier_name",
        "supplier_conf_num",
        "booking_site_name",
        "start_date",
        "start_time",
        "end_date",
        "end_time",
        "location",
        "details",
        "total_cost",
    )
    return insert_plan(
        db, trip, created_by, type=parsed["type"], notes=None, **{key: parsed.get(key) for key in fields}
    )
