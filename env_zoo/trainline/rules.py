"""Trainline's rules for UK rail: when a train is peak (Off-Peak tickets are not valid on it), how child and
Railcard discounts price each passenger (34% off, Family & Friends 60% off children, the 16-25 and 26-30 minimum
fare of £12 on weekday mornings, Two Together not before 09:30 on weekdays), when Advance fares go off sale,
seat reservations, and the refund and change rules with their tiered admin fees. Times are UK local
`YYYY-MM-DDTHH:MM` strings compared with the simulated clock read as UK local time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import parse_date

from .schema import route_fares, services, stations, tickets

FARE_TYPES = ("ADVANCE", "OFF_PEAK", "ANYTIME")
EUROSTAR = "Eurostar"
RESERVED = ("ADVANCE", "EUROSTAR")  # train-specific fares: quota per train, seat always reserved
EUROSTAR_REFUND_DAYS = 7  # Eurostar Standard and Plus refund (less a fee) only 7 days or more before departure
EUROSTAR_REFUND_FEE = 2500  # per person per leg
EUROSTAR_CHANGE_CUTOFF = timedelta(hours=1)  # free changes until an hour before the booked departure
LONDON_TERMINALS = ("KGX", "EUS", "PAD", "STP", "LST", "MYB")
CHILD_SHARE = 50  # children aged 5-15 pay half the adult fare
RAILCARD_SHARE = 66  # a Railcard takes 34% off
FAMILY_CHILD_SHARE = 40  # Family & Friends takes 60% off child fares
MORNING_MINIMUM = 1200  # 16-25 and 26-30: no fare below £12 for weekday departures 04:30-09:59
REFUND_WINDOW_DAYS = 28
COACHES = {"STANDARD": ("A", "B", "C", "D", "E", "F"), "FIRST": ("K", "L")}
SEATS_PER_COACH = {"STANDARD": 64, "FIRST": 36}
QUIET_COACHES = ("A", "L")

#: Railcard type -> (name, adults discounted, children discounted, rules)
RAILCARDS: dict[str, dict[str, Any]] = {
    "16-25": {"name": "16-25 Railcard", "adults": 1, "children": 0, "morning_minimum": True},
    "26-30": {"name": "26-30 Railcard", "adults": 1, "children": 0, "morning_minimum": True},
    "SENIOR": {"name": "Senior Railcard", "adults": 1, "children": 0},
    "DISABLED": {"name": "Disabled Persons Railcard", "adults": 2, "children": 0},
    "TWO_TOGETHER": {"name": "Two Together Railcard", "adults": 2, "children": 0, "not_before": "09:30"},
    "FAMILY_AND_FRIENDS": {
        "name": "Family & Friends Railcard",
        "adults": 4,
        "children": 4,
        "needs_child": True,
        "standard_only": True,
    },
}

#: Refund fee per ticket by ticket value (pence): (up to and including, fee)
REFUND_FEES = ((199, 0), (299, 100), (399, 150), (499, 200), (599, 300), (699, 400))
REFUND_FEE_CAP = 500
#: Change (exchange) admin fee per ticket by ticket value (pence)
EXCHANGE_FEES = (
    (199, 0), (299, 100), (399, 150), (499, 200), (599, 300), (699, 400), (799, 500), (899, 600), (999, 700),
    (1099, 750), (1199, 800), (1299, 900),
)  # fmt: skip
EXCHANGE_FEE_CAP = 1000

CONDITIONS: dict[str, dict[str, Any]] = {
    "ADVANCE": {
        "summary": "Valid only on the booked train, in the class shown, with the seat reserved. Single only. "
        "On sale until 18:00 the day before travel while the train's Advance quota lasts.",
        "refundable": False,
        "changeable": True,
        "change_rule": "Change the time or date before the booked train departs, same origin and destination: "
        "pay the difference to the new fare plus the admin fee per ticket; a cheaper new fare is not refunded.",
        "refund_rule": "Non-refundable, unless the train is cancelled (then a full refund with no fee).",
    },
    "EUROSTAR": {
        "summary": "Eurostar between London St Pancras International, Paris Gare du Nord and Brussels-Midi: "
        "valid only on the booked train with the seat reserved, STANDARD (Eurostar Standard) or FIRST (Eurostar "
        "Plus), booked one leg at a time. Railcards don't apply.",
        "refundable": True,
        "changeable": True,
        "change_rule": "Change the time or date with no fee until one hour before the booked train departs, same "
        "stations; pay any fare difference (a cheaper fare is not refunded).",
        "refund_rule": "Refundable 7 days or more before departure less £25 per person per leg; non-refundable "
        "after that (unless the train is cancelled).",
    },
    "OFF_PEAK": {
        "summary": "Any off-peak train on the date shown (not weekday trains departing before 09:30, nor those "
        "leaving London terminals 16:00-18:59 on weekdays). Return part within one calendar month.",
        "refundable": True,
        "changeable": True,
        "change_rule": "Change the date before the booked train departs: pay any difference plus the admin fee.",
        "refund_rule": "Refundable while unused (not activated) up to 28 days after it expires, less the refund "
        "fee per ticket; a return only if both parts are unused.",
    },
    "ANYTIME": {
        "summary": "Any train on the date shown, peak included. Return part within one calendar month.",
        "refundable": True,
        "changeable": True,
        "change_rule": "Change the date before the booked train departs: pay any difference plus the admin fee.",
        "refund_rule": "Refundable while unused (not activated) up to 28 days after it expires, less the refund "
        "fee per ticket; a return only if both parts are unused.",
    },
}


def round_down_5(pence: int) -> int:
    """Discounted fares are rounded down to the nearest 5p."""
    return pence - pence % 5


def local_now(db: Database) -> str:
    """The simulated clock as a UK local `YYYY-MM-DDTHH:MM`."""
    return db.now().strftime("%Y-%m-%dT%H:%M")


def weekday(service: dict[str, Any]) -> bool:
    return parse_date(service["travel_date"], "travel_date").weekday() < 5


def clock(service: dict[str, Any]) -> str:
    return str(service["departs"])[11:16]


def is_peak(service: dict[str, Any]) -> bool:
    """Weekday trains departing before 09:30, and those leaving a London terminal 16:00-18:59, are peak."""
    if service["operator"] == EUROSTAR or not weekday(service):
        return False
    time = clock(service)
    return time < "09:30" or (service["origin"] in LONDON_TERMINALS and "16:00" <= time < "19:00")


def service(db: Database, service_id: str) -> dict[str, Any]:
    return db.find_one(services, not_found=f"Journey {service_id} not found.", id=service_id.strip())


def bookable_service(db: Database, service_id: str) -> dict[str, Any]:
    row = service(db, service_id)
    if row["status"] == "CANCELLED":
        raise Conflict(f"The {clock(row)} {row['operator']} service on {row['travel_date']} is cancelled.")
    if row["departs"] <= local_now(db):
        raise InvalidRequest("This train has already departed.")
    return row


def advance_on_sale(db: Database, row: dict[str, Any]) -> bool:
    """Advance fares are sold until 18:00 the day before travel."""
    day = parse_date(row["travel_date"], "travel_date")
    return local_now(db) < f"{(day - timedelta(days=1)).isoformat()}T18:00"


def route_fare(db: Database, origin: str, destination: str, fare_type: str, travel_class: str) -> dict[str, Any]:
    found = db.find(route_fares, origin=origin, destination=destination, fare_type=fare_type, travel_class=travel_class)
    if not found:
        raise NotFound(f"No {fare_type} {travel_class} fare between {origin} and {destination}.")
    return found[0]


def route_fares_of(db: Database, origin: str, destination: str) -> dict[tuple[str, str], dict[str, Any]]:
    """A route's walk-up fares by (fare type, class), read once for a search over many trains."""
    found = db.find(route_fares, origin=origin, destination=destination)
    return {(row["fare_type"], row["travel_class"]): row for row in found}


def fare_types(row: dict[str, Any]) -> tuple[str, ...]:
    """The fare types a train sells: Eurostar fares on Eurostar, the National Rail ones elsewhere."""
    return ("EUROSTAR",) if row["operator"] == EUROSTAR else FARE_TYPES


def adult_fare(
    db: Database,
    row: dict[str, Any],
    fare_type: str,
    travel_class: str,
    journey_type: str,
    known: dict[tuple[str, str], dict[str, Any]] | None = None,
) -> int:
    """The undiscounted adult fare for one passenger, or an error saying why the fare isn't sold on this train;
    `known` holds the route's walk-up fares when the caller has read them already."""
    if (fare_type == "EUROSTAR") != (row["operator"] == EUROSTAR):
        if fare_type == "EUROSTAR":
            raise InvalidRequest("Eurostar fares are only sold on Eurostar trains.")
        raise InvalidRequest("Eurostar trains sell Eurostar fares only (fare_type EUROSTAR).")
    if fare_type == "EUROSTAR":
        if journey_type == "RETURN":
            raise InvalidRequest("Book each Eurostar leg as its own single.")
        return int(row["advance_standard" if travel_class == "STANDARD" else "advance_first"])
    if fare_type == "ADVANCE":
        if journey_type == "RETURN":
            raise InvalidRequest("Advance tickets are sold as singles only.")
        price = row["advance_standard" if travel_class == "STANDARD" else "advance_first"]
        if price is None:
            raise Conflict("No Advance fares are sold on this train.")
        if not advance_on_sale(db, row):
            raise Conflict("Advance fares for this train went off sale at 18:00 the day before travel.")
        return int(price)
    if fare_type == "OFF_PEAK" and is_peak(row):
        raise Conflict(f"Off-Peak tickets are not valid on the {clock(row)} departure (a peak train).")
    if known is not None and (fare_type, travel_class) in known:
        fare = known[(fare_type, travel_class)]
    else:
        fare = route_fare(db, row["origin"], row["destination"], fare_type, travel_class)
    return int(fare["return_fare" if journey_type == "RETURN" else "single"])


def duration_minutes(db: Database, row: dict[str, Any]) -> int:
    """Minutes on board: times are local to each station, and Paris and Brussels are an hour ahead of the UK."""
    countries = {r["code"]: r["country"] for r in db.find(stations, code=row["origin"])}
    countries.update({r["code"]: r["country"] for r in db.find(stations, code=row["destination"])})
    shift = {"GB": 0}.get(countries[row["origin"]], 60) - {"GB": 0}.get(countries[row["destination"]], 60)
    start = int(row["departs"][11:13]) * 60 + int(row["departs"][14:16])
    end = int(row["arrives"][11:13]) * 60 + int(row["arrives"][14:16])
    return end - start + shift


def moment_text(row: dict[str, Any], before: timedelta) -> str:
    """A train's departure less `before`, as a local `YYYY-MM-DDTHH:MM`."""
    hours, minutes = int(row["departs"][11:13]), int(row["departs"][14:16])
    day = parse_date(row["travel_date"], "travel_date")
    total = hours * 60 + minutes - int(before.total_seconds() // 60)
    day = day + timedelta(days=total // (24 * 60))
    total %= 24 * 60
    return f"{day.isoformat()}T{total // 60:02d}:{total % 60:02d}"


def advance_left(row: dict[str, Any], travel_class: str) -> int:
    return int(row["advance_standard_left" if travel_class == "STANDARD" else "advance_first_left"])


def railcard_problem(card: dict[str, Any], row: dict[str, Any], travel_class: str, adults: int, children: int) -> str:
    """Why a Railcard can't be used for this train and party, or "" when it can."""
    kind = RAILCARDS[card["type"]]
    if row["operator"] == EUROSTAR:
        return "Railcards can't be used on Eurostar."
    if card["expires"] < row["travel_date"]:
        return f"Your {kind['name']} expires on {card['expires']}, before the travel date."
    if kind.get("standard_only") and travel_class != "STANDARD":
        return f"The {kind['name']} discount is for Standard class only."
    if kind.get("needs_child") and children < 1:
        return f"The {kind['name']} needs at least one child travelling."
    if card["type"] == "TWO_TOGETHER" and adults < 2:
        return "The Two Together Railcard needs both named cardholders travelling together."
    if kind.get("not_before") and weekday(row) and clock(row) < kind["not_before"]:
        return f"The {kind['name']} isn't valid before {kind['not_before']} on weekdays."
    return ""


def price_passengers(
    base: int, kinds: list[str], card: dict[str, Any] | None, row: dict[str, Any], holders_first: list[bool]
) -> list[tuple[int, bool]]:
    """(price, railcard applied) per passenger, in order. `holders_first` marks passengers the card names; a
    Railcard discounts its holders first, then other adults, up to its numbers."""
    rule = RAILCARDS[card["type"]] if card else None
    adults_left = rule["adults"] if rule else 0
    children_left = rule["children"] if rule else 0
    order = sorted(range(len(kinds)), key=lambda i: (not holders_first[i], i))
    priced: dict[int, tuple[int, bool]] = {}
    for i in order:
        full = base if kinds[i] == "ADULT" else round_down_5(base * CHILD_SHARE // 100)
        if rule and kinds[i] == "ADULT" and adults_left:
            adults_left -= 1
            price = round_down_5(full * RAILCARD_SHARE // 100)
            if rule.get("morning_minimum") and weekday(row) and "04:30" <= clock(row) < "10:00":
                price = max(price, min(full, MORNING_MINIMUM))
            priced[i] = (price, True)
        elif rule and kinds[i] == "CHILD" and children_left:
            children_left -= 1
            priced[i] = (max(round_down_5(full * FAMILY_CHILD_SHARE // 100), 100), True)
        else:
            priced[i] = (full, False)
    return [priced[i] for i in range(len(kinds))]


def taken_seats(db: Database, service_id: str) -> set[tuple[str, int]]:
    """Seats reserved on a train by live tickets, outward or return."""
    out = db.select(tickets, "service_id = ? AND status IN ('ISSUED', 'ACTIVATED') AND seat IS NOT NULL", (service_id,))
    back = db.select(
        tickets,
        "return_service_id = ? AND status IN ('ISSUED', 'ACTIVATED') AND return_seat IS NOT NULL",
        (service_id,),
    )
    return {(t["coach"], t["seat"]) for t in out} | {(t["return_coach"], t["return_seat"]) for t in back}


def seat_features(coach: str, seat: int) -> list[str]:
    features = ["WINDOW" if seat % 4 in (0, 1) else "AISLE"]
    if seat % 8 in (5, 6, 7, 0):
        features.append("TABLE")
    if coach in QUIET_COACHES:
        features.append("QUIET")
    return features


def all_seats(row: dict[str, Any], travel_class: str) -> list[tuple[str, int]]:
    """Reservable seats of a train's class, coach by coach."""
    capacity = row["seats_standard" if travel_class == "STANDARD" else "seats_first"]
    per = SEATS_PER_COACH[travel_class]
    seats = [(coach, n) for coach in COACHES[travel_class] for n in range(1, per + 1)]
    return seats[:capacity]


def pick_seats(
    db: Database, row: dict[str, Any], travel_class: str, count: int, preference: str | None
) -> list[tuple[str, int]]:
    """The first free seats (together in one coach where possible) matching a preference."""
    taken = taken_seats(db, row["id"])
    free = [s for s in all_seats(row, travel_class) if s not in taken]
    liked = [s for s in free if preference is None or preference in seat_features(*s)]
    for pool in (liked, free):
        for coach in COACHES[travel_class]:
            in_coach = [s for s in pool if s[0] == coach]
            if len(in_coach) >= count:
                return in_coach[:count]
    if len(free) < count:
        raise Conflict("Not enough reservable seats left on this train.")
    return free[:count]


def _tiered(value: int, table: tuple[tuple[int, int], ...], cap: int) -> int:
    for upto, fee in table:
        if value <= upto:
            return fee
    return cap


def refund_fee(price: int) -> int:
    return _tiered(price, REFUND_FEES, REFUND_FEE_CAP)


def exchange_fee(price: int) -> int:
    return _tiered(price, EXCHANGE_FEES, EXCHANGE_FEE_CAP)


def expiry(db: Database, ticket: dict[str, Any]) -> str:
    """The last day a ticket is valid: its travel date, or the return journey's date."""
    last = ticket["return_service_id"] or ticket["service_id"]
    return str(service(db, last)["travel_date"])


def refund_problem(db: Database, ticket: dict[str, Any]) -> str:
    """Why a ticket can't be refunded now, or "" when it can (cancelled trains always refund in full)."""
    if ticket["status"] != "ISSUED":
        if ticket["status"] == "ACTIVATED":
            return "This mobile ticket has been activated and can no longer be refunded."
        return f"This ticket is already {ticket['status'].lower()}."
    if service(db, ticket["service_id"])["status"] == "CANCELLED":
        return ""
    if ticket["fare_type"] == "ADVANCE":
        return "Advance tickets are non-refundable; they can be changed before the booked train departs."
    if ticket["fare_type"] == "EUROSTAR":
        day = parse_date(service(db, ticket["service_id"])["travel_date"], "travel_date")
        if (day - db.now().date()).days < EUROSTAR_REFUND_DAYS:
            return (
                "Eurostar tickets can't be refunded within 7 days of departure; they can be changed until an hour "
                "before the train leaves."
            )
        return ""
    last = parse_date(expiry(db, ticket), "expiry")
    if db.now().date() > last + timedelta(days=REFUND_WINDOW_DAYS):
        return "Refunds must be requested within 28 days of the ticket's expiry."
    return ""


def ticket_refund(db: Database, ticket: dict[str, Any]) -> tuple[int, int]:
    """(fee, amount) refunded for one refundable ticket: the fee is waived when its train was cancelled."""
    if service(db, ticket["service_id"])["status"] == "CANCELLED":
        return 0, int(ticket["price"])
    if ticket["fare_type"] == "EUROSTAR":
        fee = min(EUROSTAR_REFUND_FEE, int(ticket["price"]))
    else:
        fee = refund_fee(int(ticket["price"]))
    return fee, max(int(ticket["price"]) - fee, 0)
