"""OpenTable tools: the restaurant directory, availability, slot locks and reservations (book, modify, cancel),
the same-day waitlist, the diner's profile, saved restaurants, dining points and reviews, plus what only the
diner does (signing in, approving a card hold in their bank app, checking in at the host stand)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, paginate, tool

from .objects import (
    AvailabilityObject,
    CancellationResult,
    CardObject,
    DinerProfile,
    ExperienceObject,
    Occasion,
    RedemptionResult,
    ReservationObject,
    RestaurantObject,
    RestaurantSummary,
    ReviewObject,
    ReviewSummary,
    RewardObject,
    SavedRestaurant,
    SeatingObject,
    SeatingOption,
    SessionObject,
    SlotLockObject,
    SlotObject,
    WaitlistObject,
)
from .rules import (
    DAY_NAMES,
    bookable_times,
    busy_tables,
    card_required,
    check_party_and_date,
    experience_of,
    fmt,
    free_table,
    local_now,
    overlapping_booking,
    own_reservation,
    parse_date_time,
    points_for,
    policy,
    ratings,
    reservation_object,
    restaurant,
    seating_times,
    signed_in,
    tables_of,
)
from .schema import (
    charges,
    diner_sessions,
    diners,
    dining_tables,
    experiences,
    favorites,
    points_activity,
    reservations,
    restaurants,
    reviews,
    rewards,
    seatings,
    slot_locks,
    waitlist_entries,
)

LOCK_MINUTES = 10
MAX_REQUEST = 250
REVIEW_DAYS = 30
REWARDS = {2000: 2000, 5000: 5000, 10000: 10000}  # points -> cents off the bill ($20, $50, $100)


# ---------------------------------------------------------------- what only the diner does


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(User only) The diner signs in to their OpenTable account; the password never reaches the assistant.

    Args:
        email: The diner's account email.
    """
    found = db.find(diners, email=email.strip().lower())
    if not found:
        raise NotFound("We couldn't find an OpenTable account with that email and password.")
    db.start_session(diner_sessions, diner_id=found[0]["id"])
    return SessionObject(diner_id=found[0]["id"], first_name=found[0]["first_name"], email=found[0]["email"])


@tool(user_only=True)
def confirm_card_hold(db: Database, confirmation_number: str) -> ReservationObject:
    """(User only, in the bank app) The diner approves the card hold that guarantees a reservation; the booking
    is then confirmed.

    Args:
        confirmation_number: The reservation waiting for the card hold.
    """
    row = own_reservation(db, signed_in(db), confirmation_number)
    if row["status"] != "pending" or row["card_hold_status"] != "awaiting_confirmation":
        raise Conflict(f"Reservation {row['id']} has no card hold waiting for approval.")
    return reservation_object(db, db.update(reservations, row["id"], status="booked", card_hold_status="confirmed"))


@tool(user_only=True)
def check_in(db: Database, confirmation_number: str) -> ReservationObject:
    """(User only, at the host stand) The diner checks in and is seated, from 30 minutes before to 15 minutes
    after the reservation time; the booking's dining points are credited.

    Args:
        confirmation_number: The reservation being checked in.
    """
    row = own_reservation(db, signed_in(db), confirmation_number)
    if row["status"] == "pending":
        raise Conflict("The card hold for this reservation hasn't been approved yet.")
    if row["status"] != "booked":
        raise Conflict(f"Reservation {row['id']} is {row['status']} and can't be checked in.")
    moment, now = datetime.fromisoformat(row["date_time"]), local_now(db)
    if now < moment - timedelta(minutes=30):
        raise Conflict("Too early to check in: the host seats parties from 30 minutes before their time.")
    if now > moment + timedelta(minutes=15):
        raise Conflict("This reservation is more than 15 minutes late; the host must seat you as a walk-in.")
    diner = db.get(diners, row["diner_id"], "Diner")
    db.update(diners, diner["id"], points_balance=diner["points_balance"] + row["points"])
    rest = db.get(restaurants, row["rid"], "Restaurant")
    db.insert(
        points_activity,
        id=db.new_id(points_activity, "pts_"),
        diner_id=diner["id"],
        reservation_id=row["id"],
        points=row["points"],
        description=f"Dined at {rest['name']}",
        created_at=db.now_iso(),
    )
    return reservation_object(db, db.update(reservations, row["id"], status="seated"))


# ---------------------------------------------------------------- directory


def _saved(db: Database, rid: str) -> bool:
    session = db.find(diner_sessions, id="current")
    return bool(session) and bool(db.find(favorites, id=f"{session[0]['diner_id']}-{rid}"))


@tool(read_only=True)
def search_restaurants(
    db: Database,
    query: str = "",
    neighborhood: str | None = None,
    cuisine: str | None = None,
    price_band: Literal["$", "$$", "$$$", "$$$$"] | None = None,
    page_size: int = 10,
    cursor: str | None = None,
) -> Page[RestaurantSummary]:
    """Search Chicago restaurants on OpenTable by name, cuisine, neighborhood or words of their description,
    best rated first.

    Args:
        query: Words to look for (case-insensitive); empty lists every restaurant.
        neighborhood: Only this neighborhood, e.g. "West Loop", "Logan Square".
        cuisine: Only restaurants serving this cuisine, e.g. "Italian", "Sushi".
        price_band: Only this price band: $, $$, $$$ or $$$$.
        page_size: Restaurants per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    words = query.casefold().split()
    found = []
    for rest in db.find(restaurants):
        text = " ".join([rest["name"], rest["neighborhood"], rest["description"], *rest["cuisines"]]).casefold()
        if not all(w in text for w in words):
            continue
        if neighborhood and rest["neighborhood"].casefold() != neighborhood.casefold():
            continue
        if cuisine and cuisine.casefold() not in (c.casefold() for c in rest["cuisines"]):
            continue
        if price_band and rest["price_band"] != price_band:
            continue
        score = ratings(db, rest["rid"])
        found.append(
            RestaurantSummary(
                **{k: rest[k] for k in ("rid", "name", "cuisine", "neighborhood", "price_band", "dining_style")},
                rating=score.overall,
                review_count=score.review_count,
                saved=_saved(db, rest["rid"]),
            )
        )
    found.sort(key=lambda r: (-(r.rating or 0), r.name))
    return paginate(found, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_restaurant(db: Database, rid: str) -> RestaurantObject:
    """A restaurant's profile: address, price band, hours (seatings), booking and cancellation policies, upcoming
    special experiences, ratings and the latest reviews.

    Args:
        rid: The restaurant's id, from search_restaurants.
    """
    rest = restaurant(db, rid)
    today = local_now(db).date().isoformat()
    latest = sorted(db.find(reviews, rid=rest["rid"]), key=lambda r: (r["dined_on"], r["id"]), reverse=True)[:5]
    authors = {r["diner_id"]: db.get(diners, r["diner_id"], "Diner") for r in latest}
    return RestaurantObject(
        **{k: rest[k] for k in RestaurantObject.model_fields if k in rest},
        seatings=[
            SeatingObject(
                name=s["name"],
                days=[DAY_NAMES[d] for d in s["days"]],
                first_seating=s["first_seating"],
                last_seating=s["last_seating"],
            )
            for s in db.find(seatings, rid=rest["rid"])
        ],
        experiences=[
            ExperienceObject(**{k: e[k] for k in ExperienceObject.model_fields})
            for e in db.find(experiences, rid=rest["rid"], order_by=[experiences.c.date])
            if e["date"] >= today
        ],
        ratings=ratings(db, rest["rid"]),
        recent_reviews=[
            ReviewSummary(
                diner=f"{authors[r['diner_id']]['first_name']} {authors[r['diner_id']]['last_name'][0]}.",
                overall=r["overall"],
                text=r["text"],
                dined_on=r["dined_on"],
            )
            for r in latest
        ],
        saved=_saved(db, rest["rid"]),
    )


# ---------------------------------------------------------------- availability and booking


@tool(read_only=True)
def find_availability(
    db: Database,
    rid: str,
    date_time: str,
    party_size: int,
    backward_minutes: int = 30,
    forward_minutes: int = 90,
    experience_id: str | None = None,
) -> AvailabilityObject:
    """Bookable times around a requested local time for a party, with the seating options free at each time,
    whether a credit card guarantee is needed (large parties, special experiences) and the points it earns.

    Args:
        rid: The restaurant's id.
        date_time: The requested local time, e.g. "2025-05-09T19:30".
        party_size: Number of guests.
        backward_minutes: How far before the requested time to look, 0 to 150.
        forward_minutes: How far after the requested time to look, 0 to 150.
        experience_id: Only times of this special experience, from get_restaurant.
    """
    rest = restaurant(db, rid)
    moment = parse_date_time(date_time)
    if not (0 <= backward_minutes <= 150 and 0 <= forward_minutes <= 150):
        raise InvalidRequest("backward_minutes and forward_minutes must be between 0 and 150.")
    check_party_and_date(db, rest, moment, party_size)
    experience = experience_of(db, rest, experience_id)
    tables = tables_of(db, rest, experience)
    held = busy_tables(db, rest["rid"], moment.date().isoformat())
    low, high = moment - timedelta(minutes=backward_minutes), moment + timedelta(minutes=forward_minutes)
    slots = []
    for when in bookable_times(db, rest, moment, experience):
        if not low <= when <= high:
            continue
        options = sorted(
            {t["section"] for t in tables if free_table([t], held, when, party_size, None)},
            key=["standard", "bar", "outdoor", "counter", "private_room"].index,
        )
        if options:
            slots.append(
                SlotObject(
                    date_time=fmt(when),
                    seating_options=options,
                    credit_card_required=card_required(rest, party_size, experience),
                    points=points_for(rest, when),
                    experience_id=experience_id,
                )
            )
    return AvailabilityObject(rid=rest["rid"], party_size=party_size, requested=fmt(moment), slots=slots)


@tool()
def lock_slot(
    db: Database,
    rid: str,
    date_time: str,
    party_size: int,
    seating_option: SeatingOption = "standard",
    experience_id: str | None = None,
) -> SlotLockObject:
    """Hold a table at a bookable time for the signed-in diner for 10 minutes; complete the booking with
    create_reservation before the lock expires.

    Args:
        rid: The restaurant's id.
        date_time: One of the times find_availability returned, e.g. "2025-05-09T19:30".
        party_size: Number of guests.
        seating_option: standard, bar, outdoor, counter or private_room, as offered for that time.
        experience_id: The special experience being booked, if any.
    """
    diner = signed_in(db)
    rest = restaurant(db, rid)
    moment = parse_date_time(date_time)
    check_party_and_date(db, rest, moment, party_size)
    experience = experience_of(db, rest, experience_id)
    if moment not in bookable_times(db, rest, moment, experience):
        raise InvalidRequest(f"{fmt(moment)} is not a bookable time at {rest['name']}; use find_availability.")
    clash = overlapping_booking(db, diner["id"], moment)
    if clash is not None:
        raise Conflict(
            f"You already have a reservation at {clash['date_time']} (confirmation {clash['id']}); "
            "OpenTable doesn't allow overlapping reservations."
        )
    held = busy_tables(db, rest["rid"], moment.date().isoformat())
    table = free_table(tables_of(db, rest, experience), held, moment, party_size, seating_option)
    if table is None:
        raise Conflict(f"No {seating_option} table for {party_size} is free at {fmt(moment)} any more.")
    expires = (db.now() + timedelta(minutes=LOCK_MINUTES)).strftime("%Y-%m-%dT%H:%M:%SZ")
    lock = db.insert(
        slot_locks,
        id=db.new_id(slot_locks, "lock_"),
        rid=rest["rid"],
        diner_id=diner["id"],
        table_id=table["id"],
        date_time=fmt(moment),
        party_size=party_size,
        experience_id=experience_id,
        expires_at=expires,
        used=False,
    )
    needs_card = card_required(rest, party_size, experience)
    return SlotLockObject(
        slot_lock_id=lock["id"],
        rid=rest["rid"],
        date_time=fmt(moment),
        party_size=party_size,
        seating_option=table["section"],
        experience_id=experience_id,
        credit_card_required=needs_card,
        cancellation_policy=policy(rest, experience, moment, party_size) if needs_card else None,
        expires_at=expires,
    )


def _request_text(text: str) -> str:
    body = text.strip()
    if len(body) > MAX_REQUEST:
        raise InvalidRequest(f"special_request is limited to {MAX_REQUEST} characters.")
    return body


@tool()
def create_reservation(
    db: Database, slot_lock_id: str, special_request: str = "", occasion: Occasion | None = None
) -> ReservationObject:
    """Book the table held by a slot lock for the signed-in diner. Bookings that need a credit card guarantee
    place a hold on the diner's saved card and stay pending until the diner approves it in their bank app.

    Args:
        slot_lock_id: The lock from lock_slot, before it expires.
        special_request: A note for the restaurant (not guaranteed), up to 250 characters.
        occasion: birthday, anniversary, date_night, business_meal or celebration.
    """
    diner = signed_in(db)
    found = db.find(slot_locks, id=slot_lock_id)
    if not found or found[0]["diner_id"] != diner["id"]:
        raise NotFound(f"Slot lock {slot_lock_id} not found.")
    lock = found[0]
    if lock["used"]:
        raise Conflict("This slot lock was already used for a reservation.")
    if lock["expires_at"] <= db.now_iso():
        raise Conflict("The slot lock expired; lock the time again.")
    rest = restaurant(db, lock["rid"])
    experience = experience_of(db, rest, lock["experience_id"])
    needs_card = card_required(rest, lock["party_size"], experience)
    if needs_card and diner["card"] is None:
        raise InvalidRequest(
            f"{rest['name']} needs a credit card guarantee for this booking; add a card to your "
            "OpenTable account first."
        )
    request = _request_text(special_request)
    moment = datetime.fromisoformat(lock["date_time"])
    db.update(slot_locks, lock["id"], used=True)
    row = db.insert(
        reservations,
        id=db.new_id(reservations, "21105", 5),
        rid=rest["rid"],
        diner_id=diner["id"],
        table_id=lock["table_id"],
        date_time=lock["date_time"],
        party_size=lock["party_size"],
        experience_id=lock["experience_id"],
        status="pending" if needs_card else "booked",
        credit_card_required=needs_card,
        card_hold_status="awaiting_confirmation" if needs_card else None,
        special_request=request,
        occasion=occasion,
        points=points_for(rest, moment),
        created_at=db.now_iso(),
        cancelled_at=None,
    )
    return reservation_object(db, row)


@tool(read_only=True)
def list_reservations(
    db: Database,
    scope: Literal["upcoming", "past", "cancelled", "all"] = "upcoming",
    page_size: int = 10,
    cursor: str | None = None,
) -> Page[ReservationObject]:
    """The signed-in diner's reservations: upcoming (pending or booked) soonest first, otherwise newest first.

    Args:
        scope: upcoming, past (seated, done or no-show), cancelled, or all.
        page_size: Reservations per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    diner = signed_in(db)
    wanted = {
        "upcoming": {"pending", "booked"},
        "past": {"seated", "done", "no_show"},
        "cancelled": {"cancelled"},
        "all": None,
    }[scope]
    rows = [r for r in db.find(reservations, diner_id=diner["id"]) if wanted is None or r["status"] in wanted]
    rows.sort(key=lambda r: r["date_time"], reverse=scope != "upcoming")
    page = paginate(rows, page_size, cursor, max_page_size=50)
    return Page[ReservationObject](
        results=[reservation_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_reservation(db: Database, confirmation_number: str) -> ReservationObject:
    """One of the signed-in diner's reservations with its status, card hold and cancellation policy.

    Args:
        confirmation_number: The reservation's confirmation number.
    """
    return reservation_object(db, own_reservation(db, signed_in(db), confirmation_number))


def _inside_window(db: Database, row: dict, rest: dict, experience: dict | None) -> bool:
    hours = (experience or rest)["cancellation_window_hours"]
    return local_now(db) > datetime.fromisoformat(row["date_time"]) - timedelta(hours=hours)


@tool()
def modify_reservation(
    db: Database,
    confirmation_number: str,
    date_time: str | None = None,
    party_size: int | None = None,
    special_request: str | None = None,
    occasion: Occasion | None = None,
) -> ReservationObject:
    """Change an upcoming reservation's time, party size, special request or occasion. A new time or size must be
    available. Growing a party to the card-guarantee size puts a new hold on the saved card (pending until the
    diner approves it); guaranteed bookings can't change time or size inside their cancellation window.

    Args:
        confirmation_number: The reservation to change.
        date_time: The new local time, e.g. "2025-05-09T20:00".
        party_size: The new number of guests.
        special_request: A new note for the restaurant, up to 250 characters.
        occasion: birthday, anniversary, date_night, business_meal or celebration.
    """
    diner = signed_in(db)
    row = own_reservation(db, diner, confirmation_number)
    if row["status"] not in ("pending", "booked"):
        raise Conflict(f"Reservation {row['id']} is {row['status']} and can't be changed.")
    if date_time is None and party_size is None and special_request is None and occasion is None:
        raise InvalidRequest("Nothing to change: give a new time, party size, special request or occasion.")
    rest = restaurant(db, row["rid"])
    experience = experience_of(db, rest, row["experience_id"])
    changes: dict = {}
    if special_request is not None:
        changes["special_request"] = _request_text(special_request)
    if occasion is not None:
        changes["occasion"] = occasion
    moment = parse_date_time(date_time) if date_time is not None else datetime.fromisoformat(row["date_time"])
    size = row["party_size"] if party_size is None else party_size
    if fmt(moment) != row["date_time"] or size != row["party_size"]:
        if row["credit_card_required"] and _inside_window(db, row, rest, experience):
            raise Conflict(
                f"This guaranteed reservation is inside {rest['name']}'s cancellation window; call the "
                f"restaurant at {rest['phone']} to change it."
            )
        check_party_and_date(db, rest, moment, size)
        if moment not in bookable_times(db, rest, moment, experience):
            raise InvalidRequest(f"{fmt(moment)} is not a bookable time at {rest['name']}; use find_availability.")
        clash = overlapping_booking(db, diner["id"], moment, exclude=row["id"])
        if clash is not None:
            raise Conflict(f"You already have a reservation at {clash['date_time']} (confirmation {clash['id']}).")
        held = busy_tables(db, rest["rid"], moment.date().isoformat(), exclude=row["id"])
        tables = tables_of(db, rest, experience)
        section = db.get(dining_tables, row["table_id"], "Table")["section"]
        table = free_table(tables, held, moment, size, section) or free_table(tables, held, moment, size, None)
        if table is None:
            raise Conflict(f"No table for {size} is free at {fmt(moment)}; try another time.")
        needs_card = card_required(rest, size, experience)
        if needs_card and diner["card"] is None:
            raise InvalidRequest(
                f"Parties of {rest['cc_party_threshold']} or more at {rest['name']} need a credit "
                "card guarantee; add a card to your OpenTable account first."
            )
        changes.update(date_time=fmt(moment), party_size=size, table_id=table["id"], points=points_for(rest, moment))
        if needs_card and not row["credit_card_required"]:
            changes.update(credit_card_required=True, status="pending", card_hold_status="awaiting_confirmation")
        elif not needs_card and row["credit_card_required"]:
            changes.update(credit_card_required=False, status="booked", card_hold_status="released")
    return reservation_object(db, db.update(reservations, row["id"], **changes))


@tool()
def cancel_reservation(db: Database, confirmation_number: str) -> CancellationResult:
    """Cancel an upcoming reservation. Guaranteed bookings cancelled inside the restaurant's (or experience's)
    cancellation window are charged the late-cancellation fee per guest; otherwise the card hold is released.

    Args:
        confirmation_number: The reservation to cancel.
    """
    row = own_reservation(db, signed_in(db), confirmation_number)
    if row["status"] not in ("pending", "booked"):
        raise Conflict(f"Reservation {row['id']} is already {row['status']}.")
    if local_now(db) >= datetime.fromisoformat(row["date_time"]):
        raise Conflict("The reservation time has passed; contact the restaurant.")
    rest = restaurant(db, row["rid"])
    experience = experience_of(db, rest, row["experience_id"])
    fee, hold = 0, row["card_hold_status"]
    if row["card_hold_status"] == "confirmed" and _inside_window(db, row, rest, experience):
        fee = (experience or rest)["no_show_fee_per_person"] * row["party_size"]
        db.insert(
            charges,
            id=db.new_id(charges, "chg_"),
            reservation_id=row["id"],
            diner_id=row["diner_id"],
            kind="late_cancellation",
            amount=fee,
            created_at=db.now_iso(),
        )
        hold = "charged"
    elif hold in ("confirmed", "awaiting_confirmation"):
        hold = "released"
    db.update(reservations, row["id"], status="cancelled", card_hold_status=hold, cancelled_at=db.now_iso())
    return CancellationResult(confirmation_number=row["id"], status="cancelled", fee_charged=fee, card_hold_status=hold)


# ---------------------------------------------------------------- waitlist


def _waitlist_object(db: Database, row: dict) -> WaitlistObject:
    rest = db.get(restaurants, row["rid"], "Restaurant")
    return WaitlistObject(**{k: row[k] for k in WaitlistObject.model_fields if k in row}, restaurant_name=rest["name"])


@tool()
def join_waitlist(db: Database, rid: str, party_size: int) -> WaitlistObject:
    """Put the signed-in diner on a restaurant's waitlist for today, when it takes one and no table is free in
    the next two hours; the restaurant texts when the table is ready.

    Args:
        rid: The restaurant's id.
        party_size: Number of guests.
    """
    diner = signed_in(db)
    rest = restaurant(db, rid)
    if not rest["accepts_waitlist"]:
        raise Conflict(f"{rest['name']} doesn't take a waitlist on OpenTable.")
    now = local_now(db)
    check_party_and_date(db, rest, now, party_size)
    upcoming = [t for t in seating_times(db, rest["rid"], now) if t >= now]
    if not upcoming:
        raise Conflict(f"{rest['name']} has no more seatings today.")
    held = busy_tables(db, rest["rid"], now.date().isoformat())
    tables = tables_of(db, rest, None)
    for when in bookable_times(db, rest, now, None):
        if when <= now + timedelta(hours=2) and free_table(tables, held, when, party_size, None):
            raise Conflict(f"A table for {party_size} is free at {fmt(when)}; book it instead of waiting.")
    today = now.date().isoformat()
    waiting = [w for w in db.find(waitlist_entries, rid=rest["rid"], date=today) if w["status"] == "waiting"]
    if any(w["diner_id"] == diner["id"] for w in waiting):
        raise Conflict(f"You're already on {rest['name']}'s waitlist today.")
    row = db.insert(
        waitlist_entries,
        id=db.new_id(waitlist_entries, "wl_"),
        rid=rest["rid"],
        diner_id=diner["id"],
        date=today,
        party_size=party_size,
        status="waiting",
        quoted_wait_minutes=20 * (len(waiting) + 1) + (10 if party_size > 4 else 0),
        created_at=db.now_iso(),
    )
    return _waitlist_object(db, row)


@tool()
def leave_waitlist(db: Database, waitlist_id: str) -> WaitlistObject:
    """Take the signed-in diner off a waitlist.

    Args:
        waitlist_id: The waitlist entry, from get_diner_profile or join_waitlist.
    """
    diner = signed_in(db)
    found = db.find(waitlist_entries, id=waitlist_id)
    if not found or found[0]["diner_id"] != diner["id"]:
        raise NotFound(f"Waitlist entry {waitlist_id} not found.")
    if found[0]["status"] != "waiting":
        raise Conflict(f"This waitlist entry is already {found[0]['status']}.")
    return _waitlist_object(db, db.update(waitlist_entries, waitlist_id, status="cancelled"))


# ---------------------------------------------------------------- the diner


def _reward(row: dict) -> RewardObject:
    return RewardObject(**{k: row[k] for k in RewardObject.model_fields})


@tool(read_only=True)
def get_diner_profile(db: Database) -> DinerProfile:
    """The signed-in diner's account: contact details, dining points, saved card, saved restaurants, number of
    upcoming reservations, today's waitlist entries and unused rewards."""
    diner = signed_in(db)
    card = diner["card"]
    saved = [db.get(restaurants, f["rid"], "Restaurant") for f in db.find(favorites, diner_id=diner["id"])]
    return DinerProfile(
        **{
            k: diner[k]
            for k in (
                "id",
                "first_name",
                "last_name",
                "email",
                "phone",
                "member_since",
                "points_balance",
                "dietary_notes",
            )
        },
        card=CardObject(brand=card["brand"], last4=card["last4"]) if card else None,
        saved_restaurants=[
            SavedRestaurant(rid=r["rid"], name=r["name"]) for r in sorted(saved, key=lambda r: r["name"])
        ],
        upcoming_reservations=sum(
            1 for r in db.find(reservations, diner_id=diner["id"]) if r["status"] in ("pending", "booked")
        ),
        waitlist=[_waitlist_object(db, w) for w in db.find(waitlist_entries, diner_id=diner["id"], status="waiting")],
        rewards=[_reward(r) for r in db.find(rewards, diner_id=diner["id"], status="active")],
    )


@tool()
def save_restaurant(db: Database, rid: str, saved: bool = True) -> RestaurantSummary:
    """Add a restaurant to, or remove it from, the signed-in diner's saved restaurants (saving twice changes
    nothing).

    Args:
        rid: The restaurant's id.
        saved: True to save it, False to remove it.
    """
    diner = signed_in(db)
    rest = restaurant(db, rid)
    key = f"{diner['id']}-{rest['rid']}"
    exists = bool(db.find(favorites, id=key))
    if saved and not exists:
        db.insert(favorites, id=key, diner_id=diner["id"], rid=rest["rid"])
    if not saved and exists:
        db.delete(favorites, key)
    score = ratings(db, rest["rid"])
    return RestaurantSummary(
        **{k: rest[k] for k in ("rid", "name", "cuisine", "neighborhood", "price_band", "dining_style")},
        rating=score.overall,
        review_count=score.review_count,
        saved=saved,
    )


@tool()
def redeem_points(db: Database, points: Literal[2000, 5000, 10000]) -> RedemptionResult:
    """Redeem dining points for a reward taken off a future bill: 2,000 points for $20, 5,000 for $50, 10,000 for
    $100.

    Args:
        points: 2000, 5000 or 10000.
    """
    diner = signed_in(db)
    if diner["points_balance"] < points:
        raise Conflict(f"You have {diner['points_balance']:,} points; {points:,} are needed for this reward.")
    balance = diner["points_balance"] - points
    db.update(diners, diner["id"], points_balance=balance)
    db.insert(
        points_activity,
        id=db.new_id(points_activity, "pts_"),
        diner_id=diner["id"],
        reservation_id=None,
        points=-points,
        description=f"Redeemed for a ${REWARDS[points] // 100} dining reward",
        created_at=db.now_iso(),
    )
    row = db.insert(
        rewards,
        id=db.new_id(rewards, "rwd_"),
        diner_id=diner["id"],
        points=points,
        amount=REWARDS[points],
        status="active",
        created_at=db.now_iso(),
    )
    return RedemptionResult(reward=_reward(row), points_balance=balance)


@tool()
def submit_review(
    db: Database,
    confirmation_number: str,
    overall: int,
    food: int,
    service: int,
    ambience: int,
    value: int,
    text: str,
) -> ReviewObject:
    """Review a restaurant after dining there: only for a reservation where the diner was seated, once per
    reservation, within 30 days of the meal. Ratings are 1 to 5 stars.

    Args:
        confirmation_number: The reservation the review is for.
        overall: Overall rating, 1 to 5.
        food: Food rating, 1 to 5.
        service: Service rating, 1 to 5.
        ambience: Ambience rating, 1 to 5.
        value: Value rating, 1 to 5.
        text: The review, 20 to 2000 characters.
    """
    diner = signed_in(db)
    row = own_reservation(db, diner, confirmation_number)
    if row["status"] not in ("seated", "done"):
        raise Conflict(
            f"Only diners who were seated can review; this reservation is {row['status'].replace('_', '-')}."
        )
    if db.find(reviews, reservation_id=row["id"]):
        raise Conflict("You already reviewed this reservation.")
    if local_now(db) > datetime.fromisoformat(row["date_time"]) + timedelta(days=REVIEW_DAYS):
        raise Conflict(f"Reviews can be written up to {REVIEW_DAYS} days after dining.")
    scores = {"overall": overall, "food": food, "service": service, "ambience": ambience, "value": value}
    for name, score in scores.items():
        if not 1 <= score <= 5:
            raise InvalidRequest(f"{name} must be between 1 and 5 stars.")
    body = text.strip()
    if not 20 <= len(body) <= 2000:
        raise InvalidRequest("The review text must be 20 to 2000 characters.")
    review = db.insert(
        reviews,
        id=db.new_id(reviews, "rev_"),
        rid=row["rid"],
        diner_id=diner["id"],
        reservation_id=row["id"],
        **scores,
        text=body,
        dined_on=row["date_time"][:10],
        submitted_at=db.now_iso(),
    )
    return ReviewObject(
        id=review["id"],
        confirmation_number=row["id"],
        rid=row["rid"],
        **scores,
        text=body,
        dined_on=review["dined_on"],
        restaurant_ratings=ratings(db, row["rid"]),
    )
