"""Airbnb tools for a guest: search stays, read listings, calendars, quotes and reviews, book, change and cancel
reservations, message hosts, keep wishlists and review completed stays, plus what only the guest does (signing
in, confirming a payment)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size
from envfactory_gym.values import parse_date

from . import access, search, stays
from .objects import (
    AlterationObject,
    CalendarObject,
    CancellationObject,
    ListingObject,
    ListingSummary,
    PaymentMethodObject,
    QuoteObject,
    ReservationObject,
    ReviewObject,
    RoomType,
    SessionObject,
    ThreadObject,
    WishlistObject,
    listing_object,
    payment_method_object,
    quote_object,
    reservation_object,
    review_object,
    thread_object,
    usd,
    wishlist_object,
)
from .rules import is_available, open_nights, quote, stay_dates
from .schema import messages, payment_methods, reservations, reviews, wishlist_items, wishlists

City = Literal["Lisbon", "Austin", "Kyoto", "Mexico City", "Cape Town"]
Adults = Annotated[int, Field(ge=1, le=16), ErrorText("must be 1 to 16 adults.")]
Children = Annotated[int, Field(ge=0, le=15), ErrorText("must be 0 to 15 children (ages 2-12).")]
Infants = Annotated[int, Field(ge=0, le=5), ErrorText("must be 0 to 5 infants (under 2).")]
Pets = Annotated[int, Field(ge=0, le=5), ErrorText("must be 0 to 5 pets; service animals don't count.")]
Price = Annotated[int, Field(ge=10, le=5000), ErrorText("must be a nightly price from $10 to $5000.")]
CalendarDays = Annotated[int, Field(ge=1, le=90), ErrorText("must be 1 to 90 days.")]
MessageText = Annotated[
    str, Field(min_length=1, max_length=2000, pattern=r"\S"), ErrorText("must be 1 to 2000 characters.")
]
WishlistName = Annotated[
    str, Field(min_length=1, max_length=50, pattern=r"\S"), ErrorText("must be 1 to 50 characters.")
]
Stars = Annotated[int, Field(ge=1, le=5), ErrorText("must be 1 to 5 stars.")]
ReviewText = Annotated[str, Field(min_length=20, max_length=1000), ErrorText("must be 20 to 1000 characters.")]
Trips = Literal["upcoming", "past", "cancelled", "all"]
TRIP_STATUSES = {
    "upcoming": ("pending", "accepted", "confirmed"),
    "past": ("completed",),
    "cancelled": ("cancelled", "declined"),
    "all": ("pending", "accepted", "confirmed", "completed", "cancelled", "declined"),
}
REVIEW_DAYS = 14
PageSize = page_size(50)


# ---------------------------------------------------------------- what only the guest does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The guest logs in to Airbnb; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    guest = access.sign_in(db, email)
    return SessionObject(
        guest_id=guest["id"], first_name=guest["first_name"], identity_verified=guest["identity_verified"]
    )


@tool(user_only=True)
def confirm_payment(db: Database, code: NonBlankText) -> ReservationObject:
    """(User only) The guest confirms the payment of an accepted reservation (in the app, with their bank's
    check); the total is charged and the reservation is confirmed.

    Args:
        code: The reservation's confirmation code.
    """
    row = access.own_reservation(db, access.signed_in(db), code)
    return reservation_object(db, stays.confirm_payment(db, row))


# ---------------------------------------------------------------- listings


@tool(read_only=True)
def search_listings(
    db: Database,
    city: City,
    check_in: IsoDate | None = None,
    check_out: IsoDate | None = None,
    adults: Adults = 1,
    children: Children = 0,
    pets: Pets = 0,
    price_min: Price | None = None,
    price_max: Price | None = None,
    room_type: RoomType | None = None,
    min_bedrooms: Annotated[int, Field(ge=0, le=10)] = 0,
    amenities: Annotated[list[str], Unordered] | None = None,
    instant_book_only: bool = False,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ListingSummary]:
    """Search stays in a city, best rated first. With dates, only listings open for every night whose minimum and
    maximum stay fit, with the total before taxes.

    Args:
        city: Where to stay.
        check_in: Arrival date (give check_out too).
        check_out: Departure date.
        adults: Guests 13 or older.
        children: Guests aged 2-12 (they count toward capacity; infants don't).
        pets: Pets coming along; only pet-friendly places are shown.
        price_min: Lowest nightly price in USD.
        price_max: Highest nightly price in USD.
        room_type: Entire home, private room, shared room or hotel room.
        min_bedrooms: At least this many bedrooms.
        amenities: Amenities every result must have, e.g. "Wifi", "Pool", "Free parking", "Washer".
        instant_book_only: Only places you can book without waiting for the host.
        page_size: Results per page.
        cursor: next_cursor of the previous page.
    """
    if (check_in is None) != (check_out is None):
        raise InvalidRequest("Add both check-in and check-out dates.")
    stay = None if check_in is None or check_out is None else stay_dates(check_in, check_out)
    party = {"adults": adults, "children": children, "pets": pets}
    filters = {
        "price_min": price_min,
        "price_max": price_max,
        "room_type": room_type,
        "min_bedrooms": min_bedrooms,
        "amenities": amenities,
        "instant_book_only": instant_book_only,
    }
    results = search.search(db, city, stay, party, filters)
    return paginate(results, page_size, cursor)


@tool(read_only=True)
def get_listing(db: Database, listing_id: NonBlankText) -> ListingObject:
    """A listing's details: space, amenities, house rules, nights allowed, pricing, cancellation policy, host.

    Args:
        listing_id: The listing's id (the number in its airbnb.com/rooms/ link).
    """
    return listing_object(db, access.listing(db, listing_id))


@tool(read_only=True)
def get_calendar(
    db: Database, listing_id: NonBlankText, start_date: IsoDate, days: CalendarDays = 30
) -> CalendarObject:
    """Which nights of a listing are open, from a date on.

    Args:
        listing_id: The listing.
        start_date: First night to look at.
        days: How many nights to look at.
    """
    row = access.listing(db, listing_id)
    start = parse_date(start_date, "start_date", example="2026-12-18")
    return CalendarObject(
        listing_id=row["id"],
        start_date=start.isoformat(),
        end_date=(start + timedelta(days=days)).isoformat(),
        available_nights=open_nights(db, row["id"], start, days),
        min_nights=row["min_nights"],
        max_nights=row["max_nights"],
    )


@tool(read_only=True)
def get_price_quote(
    db: Database,
    listing_id: NonBlankText,
    check_in: IsoDate,
    check_out: IsoDate,
    adults: Adults = 1,
    children: Children = 0,
) -> QuoteObject:
    """The price of a stay before booking: nights, extra-guest fees, weekly or monthly discount, cleaning fee,
    service fee, taxes and total, and whether the dates are open (nights the signed-in guest holds there count as
    open, so a change to their own stay can be priced).

    Args:
        listing_id: The listing.
        check_in: Arrival date.
        check_out: Departure date.
        adults: Guests 13 or older.
        children: Guests aged 2-12.
    """
    row = access.listing(db, listing_id)
    start, end = stay_dates(check_in, check_out)
    open_ = is_available(db, row["id"], start, end, ignore_guest=access.signed_in_id(db))
    return quote_object(row["id"], check_in, check_out, quote(row, start, end, adults, children), open_)


@tool(read_only=True)
def list_listing_reviews(
    db: Database, listing_id: NonBlankText, page_size: PageSize = 10, cursor: str | None = None
) -> Page[ReviewObject]:
    """A listing's guest reviews, newest first.

    Args:
        listing_id: The listing.
        page_size: Reviews per page.
        cursor: next_cursor of the previous page.
    """
    row = access.listing(db, listing_id)
    found = db.select(reviews, "listing_id = ?", (row["id"],), order_by="created_at DESC, id")
    return paginate([review_object(review) for review in found], page_size, cursor)


# ---------------------------------------------------------------- the guest's account and trips


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """The signed-in guest's saved payment methods."""
    guest = access.signed_in(db)
    return [payment_method_object(row) for row in db.find(payment_methods, guest_id=guest["id"])]


@tool()
def book_listing(
    db: Database,
    listing_id: NonBlankText,
    check_in: IsoDate,
    check_out: IsoDate,
    adults: Adults = 1,
    children: Children = 0,
    infants: Infants = 0,
    pets: Pets = 0,
    payment_method_id: str | None = None,
    message_to_host: Annotated[str, Field(max_length=2000)] = "",
) -> ReservationObject:
    """Book a stay. Instant Book places are accepted at once; other places get a request that the host accepts
    (accepted), declines (declined) or hasn't answered yet (pending), and a request needs a message to the host.
    An accepted reservation is confirmed once the guest confirms the payment.

    Args:
        listing_id: The listing.
        check_in: Arrival date.
        check_out: Departure date.
        adults: Guests 13 or older.
        children: Guests aged 2-12.
        infants: Guests under 2 (don't count toward capacity).
        pets: Pets coming along.
        payment_method_id: A saved payment method; the default one if left out.
        message_to_host: An introduction of the guest and the trip (required for a request to book).
    """
    guest = access.signed_in(db)
    row = access.listing(db, listing_id)
    method = access.payment_method(db, guest, payment_method_id)
    party = {"adults": adults, "children": children, "infants": infants, "pets": pets}
    booked = stays.book(db, guest, row, stay_dates(check_in, check_out), party, method, message_to_host)
    return reservation_object(db, booked)


@tool(read_only=True)
def list_reservations(
    db: Database, trips: Trips = "upcoming", page_size: PageSize = 10, cursor: str | None = None
) -> Page[ReservationObject]:
    """The signed-in guest's trips, soonest check-in first (past trips newest first).

    Args:
        trips: upcoming (pending, accepted, confirmed), past (completed), cancelled (cancelled, declined) or all.
        page_size: Reservations per page.
        cursor: next_cursor of the previous page.
    """
    guest = access.signed_in(db)
    statuses = TRIP_STATUSES[trips]
    marks = ", ".join("?" for _ in statuses)
    order = "check_in DESC, code" if trips == "past" else "check_in, code"
    found = db.select(reservations, f"guest_id = ? AND status IN ({marks})", (guest["id"], *statuses), order_by=order)
    return paginate([reservation_object(db, row) for row in found], page_size, cursor)


@tool(read_only=True)
def get_reservation(db: Database, code: NonBlankText) -> ReservationObject:
    """One reservation with its price breakdown and what cancelling now would refund.

    Args:
        code: The confirmation code (HM...).
    """
    return reservation_object(db, access.own_reservation(db, access.signed_in(db), code))


@tool()
def change_reservation(
    db: Database,
    code: NonBlankText,
    check_in: IsoDate | None = None,
    check_out: IsoDate | None = None,
    adults: Adults | None = None,
    children: Children | None = None,
    infants: Infants | None = None,
    pets: Pets | None = None,
) -> AlterationObject:
    """Change an upcoming reservation's dates or guests. The stay is re-quoted: on a paid reservation a higher
    total is charged to the same payment method; a lower one is refunded in full while cancelling would still be
    fully refunded, half of the saving while the policy gives a partial refund, and nothing after.

    Args:
        code: The confirmation code.
        check_in: New arrival date.
        check_out: New departure date.
        adults: New number of adults.
        children: New number of children.
        infants: New number of infants.
        pets: New number of pets.
    """
    row = access.own_reservation(db, access.signed_in(db), code)
    place = access.listing(db, row["listing_id"])
    stay = stay_dates(check_in or row["check_in"], check_out or row["check_out"])
    changes = given(adults=adults, children=children, infants=infants, pets=pets)
    party = {key: changes.get(key, row[key]) for key in ("adults", "children", "infants", "pets")}
    updated, difference, charged, refunded = stays.alter(db, row, place, stay, party)
    return AlterationObject(
        reservation=reservation_object(db, updated),
        price_difference=usd(difference),
        charged_now=usd(charged),
        refunded_now=usd(refunded),
    )


@tool()
def cancel_reservation(db: Database, code: NonBlankText) -> CancellationObject:
    """Cancel an upcoming reservation or withdraw a request. The listing's cancellation policy decides the refund
    from the time left before check-in (get_reservation shows it first).

    Args:
        code: The confirmation code.
    """
    row = access.own_reservation(db, access.signed_in(db), code)
    place = access.listing(db, row["listing_id"])
    updated, refund, rule = stays.cancel(db, row, place["cancellation_policy"])
    return CancellationObject(code=updated["code"], status=updated["status"], refund=usd(refund), refund_rule=rule)


# ---------------------------------------------------------------- messages


@tool()
def message_host(db: Database, listing_id: NonBlankText, text: MessageText) -> ThreadObject:
    """Send the host of a listing a message; the conversation is returned.

    Args:
        listing_id: The listing whose host to write to.
        text: The message.
    """
    guest = access.signed_in(db)
    row = access.listing(db, listing_id)
    db.insert(
        messages,
        id=db.new_id(messages, "msg_", width=5),
        listing_id=row["id"],
        guest_id=guest["id"],
        sender="guest",
        text=text,
        sent_at=db.now_iso(),
    )
    return thread_object(db, guest, row)


@tool(read_only=True)
def get_messages(db: Database, listing_id: NonBlankText) -> ThreadObject:
    """The signed-in guest's conversation with a listing's host, oldest message first.

    Args:
        listing_id: The listing.
    """
    guest = access.signed_in(db)
    return thread_object(db, guest, access.listing(db, listing_id))


# ---------------------------------------------------------------- wishlists


@tool(read_only=True)
def list_wishlists(db: Database) -> list[WishlistObject]:
    """The signed-in guest's wishlists with the listings saved to each."""
    guest = access.signed_in(db)
    return [wishlist_object(db, row) for row in db.find(wishlists, guest_id=guest["id"])]


@tool()
def create_wishlist(db: Database, name: WishlistName) -> WishlistObject:
    """Create an empty wishlist.

    Args:
        name: The wishlist's name, e.g. "Lisbon in spring".
    """
    guest = access.signed_in(db)
    if db.find(wishlists, guest_id=guest["id"], name=name.strip()):
        raise Conflict(f'You already have a wishlist named "{name.strip()}".')
    row = db.insert(wishlists, id=db.new_id(wishlists, "wl_", width=5), guest_id=guest["id"], name=name.strip())
    return wishlist_object(db, row)


@tool()
def save_to_wishlist(db: Database, wishlist_id: NonBlankText, listing_id: NonBlankText) -> WishlistObject:
    """Save a listing to one of the guest's wishlists.

    Args:
        wishlist_id: The wishlist.
        listing_id: The listing to save.
    """
    wishlist = access.own_wishlist(db, access.signed_in(db), wishlist_id)
    row = access.listing(db, listing_id)
    if db.find(wishlist_items, wishlist_id=wishlist["id"], listing_id=row["id"]):
        raise Conflict(f'This place is already saved to "{wishlist["name"]}".')
    db.insert(
        wishlist_items, id=db.new_id(wishlist_items, "wli_", width=5), wishlist_id=wishlist["id"], listing_id=row["id"]
    )
    return wishlist_object(db, wishlist)


@tool()
def remove_from_wishlist(db: Database, wishlist_id: NonBlankText, listing_id: NonBlankText) -> WishlistObject:
    """Remove a saved listing from a wishlist.

    Args:
        wishlist_id: The wishlist.
        listing_id: The listing to remove.
    """
    wishlist = access.own_wishlist(db, access.signed_in(db), wishlist_id)
    item = db.find_one(
        wishlist_items,
        not_found=f'This place isn\'t saved to "{wishlist["name"]}".',
        wishlist_id=wishlist["id"],
        listing_id=listing_id,
    )
    db.delete(wishlist_items, item["id"])
    return wishlist_object(db, wishlist)


# ---------------------------------------------------------------- reviews


@tool()
def write_review(db: Database, code: NonBlankText, rating: Stars, text: ReviewText) -> ReviewObject:
    """Review a completed stay: once per reservation, within 14 days of checkout. The review is public on the
    listing.

    Args:
        code: The completed reservation's confirmation code.
        rating: Overall stars.
        text: The public review.
    """
    guest = access.signed_in(db)
    row = access.own_reservation(db, guest, code)
    return review_object(stays.post_review(db, guest, row, rating, text, REVIEW_DAYS))
