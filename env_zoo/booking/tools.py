"""Booking.com Demand API tools: cities, accommodation search, details, reviews, availability and the calendar;
orders (create, list, modify dates or guest details, cancel); Genius status; wish lists; guest reviews; and the
traveller's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, page_size

from . import access, reservations
from .access import current_level, own_order, own_wish_list, signed_in
from .objects import (
    AccommodationObject,
    AccommodationSummary,
    AccommodationType,
    AvailabilityObject,
    CalendarDay,
    CityObject,
    GeniusStatus,
    OrderObject,
    OrderStatus,
    ReviewObject,
    RoomCalendar,
    SearchResult,
    SessionObject,
    TravellerType,
    WishListObject,
    accommodation_object,
    order_object,
    review_object,
    search_result,
    summary_object,
    wish_list_object,
)
from .offers import offers
from .rules import (
    DATE_EXAMPLE,
    GENIUS_BENEFITS,
    GENIUS_THRESHOLDS,
    MAX_ROOMS,
    accommodation,
    bookable,
    calendar_range,
    cancellation_fee,
    check_card,
    check_party,
    checkout_day,
    completed_stays,
    local_now,
    review_score,
    reviewable,
    stay_nights,
)
from .schema import accommodations, availability, cities, orders, products, reviews, rooms, wish_list_items, wish_lists

MAX_TEXT = 1000


def _date(name: str) -> Any:
    return Annotated[IsoDate, ErrorText(f"{name} must be a date like {DATE_EXAMPLE}")]


def _text(name: str) -> Any:
    return Annotated[str, Field(max_length=MAX_TEXT), ErrorText(f"{name} can be at most {MAX_TEXT:,} characters.")]


Checkin = _date("checkin")
Checkout = _date("checkout")
Adults = Annotated[int, Field(ge=1, le=30), ErrorText("number_of_adults must be from 1 to 30.")]
Rooms = Annotated[int, Field(ge=1, le=MAX_ROOMS), ErrorText(f"number_of_rooms must be between 1 and {MAX_ROOMS}.")]
ChildrenAges = Annotated[
    list[Annotated[int, Field(ge=0, le=17)]], ErrorText("children_ages must be ages from 0 to 17.")
]
ReviewScore = Annotated[int, Field(ge=1, le=10), ErrorText("score must be from 1 to 10.")]
MinReviewScore = Annotated[float, Field(ge=1, le=10), ErrorText("min_review_score must be from 1 to 10.")]
GuestName = Annotated[
    str,
    Field(max_length=100, pattern=r"^\s*\S+(\s+\S+)+\s*$"),
    ErrorText("guest_name must be the guest's first and last name."),
]
ArrivalTime = Annotated[
    str,
    Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$"),
    ErrorText("estimated_arrival_time must be a local time like 21:30."),
]
SEARCH_ORDER = {
    "popularity": lambda r: (-r.review_count, r.id),
    "price": lambda r: (r.cheapest_product.price.total, r.id),
    "review_score": lambda r: (-(r.review_score or 0), r.id),
    "distance": lambda r: (r.distance_to_centre, r.id),
}
REVIEW_ORDER = {
    "newest": lambda r: (r["date"], r["id"]),
    "highest_score": lambda r: (r["score"], r["date"]),
    "lowest_score": lambda r: (-r["score"], r["date"]),
}
WishListName = Annotated[
    str,
    Field(min_length=1, max_length=50, pattern=r"\S"),
    ErrorText("A wish list name must be 1 to 50 characters."),
]


# ---------------------------------------------------------------- what only the traveller does


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(Traveller only) Sign in to a Booking.com account with the email address and the verification code sent
    to it; the code never reaches the assistant.

    Args:
        email: The account's email address.
    """
    booker = access.sign_in(db, email)
    return SessionObject(**{k: booker[k] for k in SessionObject.model_fields})


# ---------------------------------------------------------------- locations and accommodations


@tool(read_only=True)
def list_cities(db: Database, query: str = "") -> list[CityObject]:
    """Find Booking.com city ids by name (the city ids that search_accommodations takes).

    Args:
        query: Part of the city's name, e.g. "lisb"; empty lists every city.
    """
    words = query.strip().casefold()
    found = [c for c in db.find(cities, order_by=[cities.c.name]) if words in c["name"].casefold()]
    return [CityObject(**c, number_of_accommodations=len(db.find(accommodations, city_id=c["id"]))) for c in found]


@tool(read_only=True)
def list_accommodations(
    db: Database,
    city_id: int,
    query: str = "",
    accommodation_types: list[AccommodationType] | None = None,
    page_size: page_size(50) = 25,
    cursor: str | None = None,
) -> Page[AccommodationSummary]:
    """List a city's accommodations by name, without dates or prices (use search_accommodations for a stay).

    Args:
        city_id: The city's Booking.com id, from list_cities.
        query: Words of the property's name or address, e.g. "trastevere"; empty lists them all.
        accommodation_types: Only these types: hotel, apartment, aparthotel, hostel, guest_house, bed_and_breakfast.
        page_size: Properties per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    db.get(cities, city_id, "City")
    words = query.casefold().split()
    found = [
        summary_object(db, acc)
        for acc in db.find(accommodations, city_id=city_id, order_by=[accommodations.c.name])
        if (not accommodation_types or acc["accommodation_type"] in accommodation_types)
        and all(w in f"{acc['name']} {acc['address']}".casefold() for w in words)
    ]
    return paginate(found, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def search_accommodations(
    db: Database,
    city_id: int,
    checkin: Checkin,
    checkout: Checkout,
    number_of_adults: Adults,
    number_of_rooms: Rooms = 1,
    children_ages: ChildrenAges | None = None,
    accommodation_types: list[AccommodationType] | None = None,
    min_review_score: MinReviewScore | None = None,
    free_cancellation: bool = False,
    breakfast_included: bool = False,
    max_price: float | None = None,
    sort_by: Literal["popularity", "price", "review_score", "distance"] = "popularity",
    page_size: page_size(25) = 10,
    cursor: str | None = None,
) -> Page[SearchResult]:
    """Search a city's accommodations with at least one product available for the whole stay and the party, each
    with its cheapest matching product. Prices include the signed-in traveller's Genius discount.

    Args:
        city_id: The city's Booking.com id, from list_cities.
        checkin: Check-in date, YYYY-MM-DD.
        checkout: Check-out date, YYYY-MM-DD (at most 30 nights after check-in).
        number_of_adults: Adults in the party.
        number_of_rooms: Rooms wanted (the party is spread over them).
        children_ages: The age of each child, 0 to 17.
        accommodation_types: Only these types: hotel, apartment, aparthotel, hostel, guest_house, bed_and_breakfast.
        min_review_score: Only properties whose guest score is at least this (1 to 10).
        free_cancellation: Only products that can be cancelled for free.
        breakfast_included: Only products with breakfast (or half board).
        max_price: Only products whose total for the stay is at most this, in the property's currency.
        sort_by: popularity (most reviewed), price (cheapest first), review_score (best first) or distance (to the
            centre).
        page_size: Results per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    db.get(cities, city_id, "City")
    children = list(children_ages or [])
    check_party(number_of_adults, number_of_rooms)
    level = current_level(db)
    found = []
    for acc in db.find(accommodations, city_id=city_id):
        if accommodation_types and acc["accommodation_type"] not in accommodation_types:
            continue
        score, count, _ = review_score(db, acc["id"])
        if min_review_score is not None and (score or 0) < min_review_score:
            continue
        nights = stay_nights(db, acc, checkin, checkout)
        matching = [
            o
            for o in offers(db, acc, nights, number_of_adults, number_of_rooms, children, level)[0]
            if (not free_cancellation or o.cancellation.type == "free_cancellation")
            and (not breakfast_included or o.meal_plan != "room_only")
            and (max_price is None or o.price.total <= max_price)
        ]
        if matching:
            found.append(search_result(acc, score, count, matching[0]))
    return paginate(sorted(found, key=SEARCH_ORDER[sort_by]), page_size, cursor, max_page_size=25)


@tool(read_only=True)
def get_accommodation_details(db: Database, accommodation_id: int) -> AccommodationObject:
    """An accommodation's details: address, check-in and check-out times, pets and children policies, facilities,
    its Genius programme, guest score, and its rooms with their occupancy and rate plans.

    Args:
        accommodation_id: The accommodation's id, from search_accommodations.
    """
    return accommodation_object(db, accommodation(db, accommodation_id))


@tool(read_only=True)
def get_accommodation_reviews(
    db: Database,
    accommodation_id: int,
    traveller_type: TravellerType | None = None,
    sort_by: Literal["newest", "highest_score", "lowest_score"] = "newest",
    page_size: page_size(25) = 10,
    cursor: str | None = None,
) -> Page[ReviewObject]:
    """Guest reviews of an accommodation (only guests who completed a stay can review).

    Args:
        accommodation_id: The accommodation's id.
        traveller_type: Only reviews by couple, family, solo, group or business travellers.
        sort_by: newest, highest_score or lowest_score first.
        page_size: Reviews per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    accommodation(db, accommodation_id)
    rows = db.find(reviews, accommodation_id=accommodation_id, **given(traveller_type=traveller_type))
    rows.sort(key=REVIEW_ORDER[sort_by], reverse=True)
    return paginate([review_object(r) for r in rows], page_size, cursor, max_page_size=25)


@tool(read_only=True)
def get_availability(
    db: Database,
    accommodation_id: int,
    checkin: Checkin,
    checkout: Checkout,
    number_of_adults: Adults,
    number_of_rooms: Rooms = 1,
    children_ages: ChildrenAges | None = None,
) -> AvailabilityObject:
    """Every product (room type and rate plan) of an accommodation available for the whole stay and party, with
    its price (Genius discount included when signed in), meal plan, cancellation policy, payment timing and rooms
    left, cheapest first; and why the other rooms are not available.

    Args:
        accommodation_id: The accommodation's id.
        checkin: Check-in date, YYYY-MM-DD.
        checkout: Check-out date, YYYY-MM-DD.
        number_of_adults: Adults in the party.
        number_of_rooms: Rooms wanted.
        children_ages: The age of each child, 0 to 17.
    """
    acc = accommodation(db, accommodation_id)
    children = list(children_ages or [])
    check_party(number_of_adults, number_of_rooms)
    nights = stay_nights(db, acc, checkin, checkout)
    level = current_level(db)
    products_found, unavailable = offers(db, acc, nights, number_of_adults, number_of_rooms, children, level)
    return AvailabilityObject(
        accommodation_id=acc["id"],
        checkin=nights[0],
        checkout=checkout_day(nights),
        nights=len(nights),
        number_of_adults=number_of_adults,
        number_of_rooms=number_of_rooms,
        children_ages=children,
        genius_level=level,
        products=products_found,
        unavailable=unavailable,
    )


@tool(read_only=True)
def get_availability_calendar(
    db: Database, accommodation_id: int, start_date: _date("start_date"), end_date: _date("end_date") | None = None
) -> list[RoomCalendar]:
    """The availability calendar of each room type: rooms left, nightly price and minimum stay per night.

    Args:
        accommodation_id: The accommodation's id.
        start_date: First night, YYYY-MM-DD.
        end_date: Last night, YYYY-MM-DD, at most 30 nights after start_date (the default).
    """
    acc = accommodation(db, accommodation_id)
    start, end = calendar_range(start_date, end_date)
    return [
        RoomCalendar(
            room_id=room["id"],
            room_name=room["name"],
            currency=acc["currency"],
            days=[
                CalendarDay(**{k: r[k] for k in CalendarDay.model_fields})
                for r in db.select(
                    availability, "room_id = ? AND date >= ? AND date <= ?", [room["id"], start, end], order_by="date"
                )
            ],
        )
        for room in db.find(rooms, accommodation_id=acc["id"])
    ]


# ---------------------------------------------------------------- orders


@tool()
def create_order(
    db: Database,
    accommodation_id: int,
    product_id: str,
    checkin: Checkin,
    checkout: Checkout,
    number_of_adults: Adults,
    number_of_rooms: Rooms = 1,
    children_ages: ChildrenAges | None = None,
    guest_name: GuestName | None = None,
    special_requests: _text("special_requests") = "",
    estimated_arrival_time: ArrivalTime | None = None,
) -> OrderObject:
    """Book a product for the signed-in traveller; the rooms are taken from the availability calendar. The price
    includes their Genius discount. Non-refundable rates are charged to the saved card at once (pay_online_now);
    the others are paid at the property. Booking the same property twice for overlapping dates is refused.

    Args:
        accommodation_id: The accommodation's id.
        product_id: The product to book, from get_availability.
        checkin: Check-in date, YYYY-MM-DD.
        checkout: Check-out date, YYYY-MM-DD.
        number_of_adults: Adults staying.
        number_of_rooms: Rooms of this product to book.
        children_ages: The age of each child staying, 0 to 17.
        guest_name: The main guest's full name, if not the traveller's own.
        special_requests: Requests passed to the property (not guaranteed), up to 1,000 characters.
        estimated_arrival_time: Expected arrival, local HH:MM, within the property's check-in hours.
    """
    booker = signed_in(db)
    acc = accommodation(db, accommodation_id)
    product = reservations.offered_product(db, acc, product_id)
    children = list(children_ages or [])
    check_party(number_of_adults, number_of_rooms)
    if children and not acc["children_allowed"]:
        raise Conflict(f"{acc['name']} is adults only; children can't stay there.")
    reservations.check_fits(reservations.product_room(db, product), number_of_adults, number_of_rooms, len(children))
    nights = stay_nights(db, acc, checkin, checkout)
    reservations.check_sellable(db, acc, product, nights, number_of_rooms)
    reservations.check_no_overlap(db, booker, acc, nights)
    if product["cancellation_type"] == "non_refundable":
        check_card(booker, local_now(db, acc).date())
    party = {"number_of_rooms": number_of_rooms, "number_of_adults": number_of_adults, "children_ages": children}
    details = {
        "guest_name": reservations.guest_name(guest_name or f"{booker['first_name']} {booker['last_name']}"),
        "special_requests": special_requests.strip(),
        "estimated_arrival_time": reservations.arrival(acc, estimated_arrival_time) if estimated_arrival_time else None,
    }
    return order_object(db, reservations.book(db, booker, acc, product, nights, party, details))


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: page_size(50) = 10, cursor: str | None = None
) -> Page[OrderObject]:
    """The signed-in traveller's orders, latest check-in first.

    Args:
        status: Only orders in this status: booked (upcoming), stayed, no_show, cancelled_by_guest or
            cancelled_by_accommodation.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    booker = signed_in(db)
    rows = db.find(orders, booker_id=booker["id"], order_by=[orders.c.checkin.desc()], **given(status=status))
    page = paginate(rows, page_size, cursor, max_page_size=50)
    return Page[OrderObject](
        results=[order_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """One of the signed-in traveller's orders: stay, guests, price, cancellation policy and the fee cancelling it
    now would cost.

    Args:
        order_id: The confirmation number.
    """
    return order_object(db, own_order(db, signed_in(db), order_id))


@tool()
def modify_order_dates(db: Database, order_id: str, checkin: Checkin, checkout: Checkout) -> OrderObject:
    """Move a booking to new dates in the same room and rate: the old nights go back to the calendar and the new
    ones are repriced. Only pay-at-the-property bookings can change dates, and only before their free-cancellation
    deadline.

    Args:
        order_id: The confirmation number.
        checkin: New check-in date, YYYY-MM-DD.
        checkout: New check-out date, YYYY-MM-DD.
    """
    booker = signed_in(db)
    order = own_order(db, booker, order_id)
    acc = accommodation(db, order["accommodation_id"])
    bookable(db, order, acc, "changed")
    product = db.get(products, order["product_id"], "Product")
    if product["cancellation_type"] == "non_refundable":
        raise Conflict("Non-refundable bookings can't change dates; cancelling costs the full price.")
    if cancellation_fee(db, order, product) > 0:
        raise Conflict(
            f"Free cancellation ended at {order['free_cancellation_until']}; the dates can no longer be "
            "changed online. Contact the property."
        )
    nights = stay_nights(db, acc, checkin, checkout)
    if nights[0] == order["checkin"] and checkout_day(nights) == order["checkout"]:
        raise InvalidRequest("Those are already the booking's dates.")
    return order_object(db, reservations.move(db, booker, order, acc, product, nights))


@tool()
def update_guest_details(
    db: Database,
    order_id: str,
    guest_name: GuestName | None = None,
    number_of_adults: Adults | None = None,
    special_requests: _text("special_requests") | None = None,
    estimated_arrival_time: ArrivalTime | None = None,
) -> OrderObject:
    """Change the guest details of an upcoming booking: the main guest's name, the number of adults (within the
    rooms' occupancy), the special requests for the property (replacing the old ones) or the arrival time.

    Args:
        order_id: The confirmation number.
        guest_name: The main guest's full name.
        number_of_adults: Adults staying, at least one per room.
        special_requests: The new requests text (replaces the old; an empty string clears it).
        estimated_arrival_time: Expected arrival, local HH:MM, within the property's check-in hours.
    """
    order = own_order(db, signed_in(db), order_id)
    acc = accommodation(db, order["accommodation_id"])
    bookable(db, order, acc, "changed")
    changes: dict[str, Any] = {}
    if guest_name is not None:
        changes["guest_name"] = reservations.guest_name(guest_name)
    if number_of_adults is not None:
        check_party(number_of_adults, order["number_of_rooms"])
        room = reservations.product_room(db, db.get(products, order["product_id"], "Product"))
        reservations.check_adults(room, number_of_adults, order)
        changes["number_of_adults"] = number_of_adults
    if special_requests is not None:
        changes["special_requests"] = special_requests.strip()
    if estimated_arrival_time is not None:
        changes["estimated_arrival_time"] = reservations.arrival(acc, estimated_arrival_time)
    if not changes:
        raise InvalidRequest(
            "Nothing to update: give guest_name, number_of_adults, special_requests or estimated_arrival_time."
        )
    return order_object(db, db.update(orders, order["id"], modified=db.now_iso(), **changes))


@tool()
def cancel_order(
    db: Database, order_id: str, reason: _text("reason") | None = None, accept_cancellation_fee: bool = False
) -> OrderObject:
    """Cancel a booking; its rooms go back to the calendar. Free before the free-cancellation deadline; after it
    the rate's fee (the first night or the total) is charged, and non-refundable bookings always cost the total.
    A cancellation that costs a fee needs accept_cancellation_fee=true, once the traveller has agreed to it.

    Args:
        order_id: The confirmation number.
        reason: Why the traveller cancels, passed to the property.
        accept_cancellation_fee: true when the traveller accepts the cancellation fee.
    """
    order = own_order(db, signed_in(db), order_id)
    acc = accommodation(db, order["accommodation_id"])
    bookable(db, order, acc, "cancelled")
    product = db.get(products, order["product_id"], "Product")
    fee = cancellation_fee(db, order, product)
    if fee > 0 and not accept_cancellation_fee:
        raise Conflict(
            f"Cancelling now costs {reservations.fee_text(order, fee)}; set accept_cancellation_fee once the "
            "traveller agrees to pay it."
        )
    return order_object(db, reservations.cancel(db, order, product, fee, reason))


# ---------------------------------------------------------------- Genius


@tool(read_only=True)
def get_genius_status(db: Database) -> GeniusStatus:
    """The signed-in traveller's Genius level, their completed stays in the last two years, how many more unlock
    the next level (5 for level 2, 15 for level 3) and the level's benefits."""
    booker = signed_in(db)
    stays = completed_stays(db, booker)
    level = booker["genius_level"]
    following = level + 1 if level < 3 else None
    return GeniusStatus(
        level=level,
        completed_stays_last_2_years=stays,
        next_level=following,
        stays_to_next_level=max(GENIUS_THRESHOLDS[following] - stays, 0) if following else None,
        benefits=GENIUS_BENEFITS[level],
    )


# ---------------------------------------------------------------- wish lists


@tool(read_only=True)
def list_wish_lists(db: Database) -> list[WishListObject]:
    """The signed-in traveller's wish lists with the properties saved in each."""
    booker = signed_in(db)
    return [wish_list_object(db, row) for row in db.find(wish_lists, booker_id=booker["id"])]


@tool()
def create_wish_list(db: Database, name: WishListName) -> WishListObject:
    """Create an empty wish list.

    Args:
        name: The list's name, 1 to 50 characters, unique among the traveller's lists.
    """
    booker = signed_in(db)
    clean = " ".join(name.split())
    if any(w["name"].casefold() == clean.casefold() for w in db.find(wish_lists, booker_id=booker["id"])):
        raise Conflict(f"You already have a wish list called '{clean}'.")
    row = db.insert(
        wish_lists, id=db.new_id(wish_lists, "wl_"), booker_id=booker["id"], name=clean, created=db.now_iso()
    )
    return wish_list_object(db, row)


@tool()
def save_to_wish_list(db: Database, wish_list_id: str, accommodation_id: int) -> WishListObject:
    """Save a property to one of the traveller's wish lists.

    Args:
        wish_list_id: The wish list's id, from list_wish_lists.
        accommodation_id: The accommodation's id.
    """
    wish_list = own_wish_list(db, signed_in(db), wish_list_id)
    acc = accommodation(db, accommodation_id)
    key = f"{wish_list['id']}:{acc['id']}"
    if db.find(wish_list_items, id=key):
        raise Conflict(f"{acc['name']} is already saved in '{wish_list['name']}'.")
    db.insert(wish_list_items, id=key, wish_list_id=wish_list["id"], accommodation_id=acc["id"], added=db.now_iso())
    return wish_list_object(db, wish_list)


@tool()
def remove_from_wish_list(db: Database, wish_list_id: str, accommodation_id: int) -> WishListObject:
    """Remove a saved property from one of the traveller's wish lists.

    Args:
        wish_list_id: The wish list's id.
        accommodation_id: The accommodation's id.
    """
    wish_list = own_wish_list(db, signed_in(db), wish_list_id)
    key = f"{wish_list['id']}:{accommodation_id}"
    if not db.find(wish_list_items, id=key):
        raise NotFound(f"Accommodation {accommodation_id} is not saved in '{wish_list['name']}'.")
    db.delete(wish_list_items, key)
    return wish_list_object(db, wish_list)


# ---------------------------------------------------------------- reviews


@tool()
def write_review(
    db: Database,
    order_id: str,
    score: ReviewScore,
    traveller_type: TravellerType,
    title: _text("title") = "",
    positive: _text("positive") = "",
    negative: _text("negative") = "",
) -> ReviewObject:
    """Review a property after a completed stay: once per booking, within 90 days of check-out. Cancelled and
    no-show bookings can't be reviewed.

    Args:
        order_id: The confirmation number of the completed stay.
        score: Overall score from 1 to 10.
        traveller_type: couple, family, solo, group or business.
        title: A headline for the review.
        positive: What the guest liked.
        negative: What the guest didn't like.
    """
    booker = signed_in(db)
    order = own_order(db, booker, order_id)
    acc = accommodation(db, order["accommodation_id"])
    reviewable(db, order, acc)
    texts = {"title": title.strip(), "positive": positive.strip(), "negative": negative.strip()}
    if not texts["positive"] and not texts["negative"]:
        raise InvalidRequest("Tell other travellers something: write what you liked or what you didn't.")
    row = db.insert(
        reviews,
        id=db.new_id(reviews, "rv_", 5),
        accommodation_id=acc["id"],
        order_id=order["id"],
        reviewer_name=booker["first_name"],
        reviewer_country=booker["country"],
        traveller_type=traveller_type,
        score=score,
        stayed_in=order["checkout"][:7],
        date=local_now(db, acc).date().isoformat(),
        **texts,
    )
    return review_object(row)
