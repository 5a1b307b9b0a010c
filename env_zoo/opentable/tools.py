"""OpenTable tools: the restaurant directory, availability, slot locks and reservations (book, modify, cancel),
the same-day waitlist, the diner's profile, saved restaurants, dining points and reviews, plus what only the
diner does (signing in, approving a card hold in their bank app, checking in at the host stand)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.fields import ErrorText, NonBlankText, page_size

from . import access, bookings, loyalty
from .objects import (
    AvailabilityObject,
    CancellationResult,
    DinerProfile,
    Occasion,
    RedemptionResult,
    ReservationObject,
    RestaurantObject,
    RestaurantSummary,
    ReviewObject,
    SeatingOption,
    SessionObject,
    SlotLockObject,
    SlotObject,
    WaitlistObject,
    cancellation_policy,
    diner_profile,
    ratings,
    reservation_object,
    restaurant_object,
    restaurant_summary,
    review_object,
    reward_object,
    saved_rids,
    waitlist_object,
)
from .rules import (
    card_required,
    check_party_and_date,
    directory,
    experience_of,
    fmt,
    open_slots,
    parse_date_time,
    points_for,
    restaurant,
    starts_at,
)
from .schema import favorites, reservations, waitlist_entries

LocalTime = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$"),
    ErrorText("must be a local time like 2025-05-09T19:30"),
]
PartySize = Annotated[
    int, Field(ge=1, le=20), ErrorText("must be 1 to 20 guests; for larger parties please call the restaurant.")
]
WindowMinutes = Annotated[int, Field(ge=0, le=150), ErrorText("must be between 0 and 150 minutes.")]
PageSize = page_size(50)
SpecialRequest = Annotated[str, Field(max_length=250), ErrorText("must be at most 250 characters.")]
Stars = Annotated[int, Field(ge=1, le=5), ErrorText("must be between 1 and 5 stars.")]
ReviewText = Annotated[str, Field(min_length=20, max_length=2000), ErrorText("must be 20 to 2000 characters.")]
SCOPES = {"upcoming": ("pending", "booked"), "past": ("seated", "done", "no_show"), "cancelled": ("cancelled",)}


# ---------------------------------------------------------------- what only the diner does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The diner signs in to their OpenTable account; the password never reaches the assistant.

    Args:
        email: The diner's account email.
    """
    diner = access.sign_in(db, email)
    return SessionObject(diner_id=diner["id"], first_name=diner["first_name"], email=diner["email"])


@tool(user_only=True)
def confirm_card_hold(db: Database, confirmation_number: str) -> ReservationObject:
    """(User only, in the bank app) The diner approves the card hold that guarantees a reservation; the booking
    is then confirmed.

    Args:
        confirmation_number: The reservation waiting for the card hold.
    """
    row = access.own_reservation(db, access.signed_in(db), confirmation_number)
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
    row = access.own_reservation(db, access.signed_in(db), confirmation_number)
    bookings.refuse_check_in(db, row)
    return reservation_object(db, loyalty.seat(db, row))


# ---------------------------------------------------------------- directory


@tool(read_only=True)
def search_restaurants(
    db: Database,
    query: str = "",
    neighborhood: str | None = None,
    cuisine: str | None = None,
    price_band: Literal["$", "$$", "$$$", "$$$$"] | None = None,
    page_size: PageSize = 10,
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
    saved = saved_rids(db, access.signed_in_id(db))
    found = [
        restaurant_summary(rest, ratings(db, rest["rid"]), rest["rid"] in saved)
        for rest in directory(db, query, neighborhood, cuisine, price_band)
    ]
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
    return restaurant_object(db, rest, rest["rid"] in saved_rids(db, access.signed_in_id(db)))


# ---------------------------------------------------------------- availability and booking


@tool(read_only=True)
def find_availability(
    db: Database,
    rid: str,
    date_time: LocalTime,
    party_size: PartySize,
    backward_minutes: WindowMinutes = 30,
    forward_minutes: WindowMinutes = 90,
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
    check_party_and_date(db, rest, moment, party_size)
    experience = experience_of(db, rest, experience_id)
    needs_card = card_required(rest, party_size, experience)
    slots = [
        SlotObject(
            date_time=fmt(when),
            seating_options=options,
            credit_card_required=needs_card,
            points=points_for(rest, when),
            experience_id=experience_id,
        )
        for when, options in open_slots(db, rest, moment, party_size, (backward_minutes, forward_minutes), experience)
    ]
    return AvailabilityObject(rid=rest["rid"], party_size=party_size, requested=fmt(moment), slots=slots)


@tool()
def lock_slot(
    db: Database,
    rid: str,
    date_time: LocalTime,
    party_size: PartySize,
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
    diner = access.signed_in(db)
    rest = restaurant(db, rid)
    moment = parse_date_time(date_time)
    experience = experience_of(db, rest, experience_id)
    lock = bookings.lock_table(db, diner, rest, moment, party_size, seating_option, experience)
    needs_card = card_required(rest, party_size, experience)
    return SlotLockObject(
        slot_lock_id=lock["id"],
        rid=rest["rid"],
        date_time=lock["date_time"],
        party_size=party_size,
        seating_option=seating_option,
        experience_id=experience_id,
        credit_card_required=needs_card,
        cancellation_policy=cancellation_policy(rest, experience, moment, party_size) if needs_card else None,
        expires_at=lock["expires_at"],
    )


@tool()
def create_reservation(
    db: Database, slot_lock_id: str, special_request: SpecialRequest = "", occasion: Occasion | None = None
) -> ReservationObject:
    """Book the table held by a slot lock for the signed-in diner. Bookings that need a credit card guarantee
    place a hold on the diner's saved card and stay pending until the diner approves it in their bank app.

    Args:
        slot_lock_id: The lock from lock_slot, before it expires.
        special_request: A note for the restaurant (not guaranteed), up to 250 characters.
        occasion: birthday, anniversary, date_night, business_meal or celebration.
    """
    diner = access.signed_in(db)
    lock = access.own_slot_lock(db, diner, slot_lock_id)
    rest = restaurant(db, lock["rid"])
    experience = experience_of(db, rest, lock["experience_id"])
    return reservation_object(db, bookings.book(db, diner, lock, rest, experience, special_request, occasion))


@tool(read_only=True)
def list_reservations(
    db: Database,
    scope: Literal["upcoming", "past", "cancelled", "all"] = "upcoming",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ReservationObject]:
    """The signed-in diner's reservations: upcoming (pending or booked) soonest first, otherwise newest first.

    Args:
        scope: upcoming, past (seated, done or no-show), cancelled, or all.
        page_size: Reservations per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    diner = access.signed_in(db)
    statuses = SCOPES.get(scope, ())
    where = f"diner_id = ?{' AND status IN (' + ', '.join('?' * len(statuses)) + ')' if statuses else ''}"
    order = "date_time" if scope == "upcoming" else "date_time DESC"
    page = paginate(db.select(reservations, where, (diner["id"], *statuses), order_by=order), page_size, cursor, 50)
    return Page[ReservationObject](
        results=[reservation_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_reservation(db: Database, confirmation_number: str) -> ReservationObject:
    """One of the signed-in diner's reservations with its status, card hold and cancellation policy.

    Args:
        confirmation_number: The reservation's confirmation number.
    """
    return reservation_object(db, access.own_reservation(db, access.signed_in(db), confirmation_number))


@tool()
def modify_reservation(
    db: Database,
    confirmation_number: str,
    date_time: LocalTime | None = None,
    party_size: PartySize | None = None,
    special_request: SpecialRequest | None = None,
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
    diner = access.signed_in(db)
    row = access.own_reservation(db, diner, confirmation_number)
    bookings.refuse_unless_changeable(row)
    if date_time is None and party_size is None and special_request is None and occasion is None:
        raise InvalidRequest("Nothing to change: give a new time, party size, special request or occasion.")
    changes: dict = {"special_request": special_request.strip()} if special_request is not None else {}
    if occasion is not None:
        changes["occasion"] = occasion
    moment = parse_date_time(date_time) if date_time is not None else starts_at(row)
    size = row["party_size"] if party_size is None else party_size
    if fmt(moment) != row["date_time"] or size != row["party_size"]:
        rest = restaurant(db, row["rid"])
        experience = experience_of(db, rest, row["experience_id"])
        changes.update(bookings.reschedule(db, diner, row, rest, experience, moment, size))
    return reservation_object(db, db.update(reservations, row["id"], **changes))


@tool()
def cancel_reservation(db: Database, confirmation_number: str) -> CancellationResult:
    """Cancel an upcoming reservation. Guaranteed bookings cancelled inside the restaurant's (or experience's)
    cancellation window are charged the late-cancellation fee per guest; otherwise the card hold is released.

    Args:
        confirmation_number: The reservation to cancel.
    """
    row = access.own_reservation(db, access.signed_in(db), confirmation_number)
    rest = restaurant(db, row["rid"])
    fee, hold = bookings.cancel(db, row, rest, experience_of(db, rest, row["experience_id"]))
    return CancellationResult(confirmation_number=row["id"], status="cancelled", fee_charged=fee, card_hold_status=hold)


# ---------------------------------------------------------------- waitlist


@tool()
def join_waitlist(db: Database, rid: str, party_size: PartySize) -> WaitlistObject:
    """Put the signed-in diner on a restaurant's waitlist for today, when it takes one and no table is free in
    the next two hours; the restaurant texts when the table is ready.

    Args:
        rid: The restaurant's id.
        party_size: Number of guests.
    """
    diner = access.signed_in(db)
    return waitlist_object(db, bookings.join_waitlist(db, diner, restaurant(db, rid), party_size))


@tool()
def leave_waitlist(db: Database, waitlist_id: str) -> WaitlistObject:
    """Take the signed-in diner off a waitlist.

    Args:
        waitlist_id: The waitlist entry, from get_diner_profile or join_waitlist.
    """
    entry = access.own_waitlist_entry(db, access.signed_in(db), waitlist_id)
    if entry["status"] != "waiting":
        raise Conflict(f"This waitlist entry is already {entry['status']}.")
    return waitlist_object(db, db.update(waitlist_entries, entry["id"], status="cancelled"))


# ---------------------------------------------------------------- the diner


@tool(read_only=True)
def get_diner_profile(db: Database) -> DinerProfile:
    """The signed-in diner's account: contact details, dining points, saved card, saved restaurants, number of
    upcoming reservations, today's waitlist entries and unused rewards."""
    return diner_profile(db, access.signed_in(db))


@tool()
def save_restaurant(db: Database, rid: str, saved: bool = True) -> RestaurantSummary:
    """Add a restaurant to, or remove it from, the signed-in diner's saved restaurants (saving twice changes
    nothing).

    Args:
        rid: The restaurant's id.
        saved: True to save it, False to remove it.
    """
    diner = access.signed_in(db)
    rest = restaurant(db, rid)
    key = f"{diner['id']}-{rest['rid']}"
    exists = bool(db.find(favorites, id=key))
    if saved and not exists:
        db.insert(favorites, id=key, diner_id=diner["id"], rid=rest["rid"])
    if not saved and exists:
        db.delete(favorites, key)
    return restaurant_summary(rest, ratings(db, rest["rid"]), saved)


@tool()
def redeem_points(db: Database, points: Literal[2000, 5000, 10000]) -> RedemptionResult:
    """Redeem dining points for a reward taken off a future bill: 2,000 points for $20, 5,000 for $50, 10,000 for
    $100.

    Args:
        points: 2000, 5000 or 10000.
    """
    reward, balance = loyalty.redeem(db, access.signed_in(db), points)
    return RedemptionResult(reward=reward_object(reward), points_balance=balance)


@tool()
def submit_review(
    db: Database,
    confirmation_number: str,
    overall: Stars,
    food: Stars,
    service: Stars,
    ambience: Stars,
    value: Stars,
    text: ReviewText,
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
    row = access.own_reservation(db, access.signed_in(db), confirmation_number)
    scores = {"overall": overall, "food": food, "service": service, "ambience": ambience, "value": value}
    review = loyalty.review(db, row, scores, text)
    return review_object(review, ratings(db, row["rid"]))
