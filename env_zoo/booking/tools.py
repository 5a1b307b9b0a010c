"""Booking.com Demand API tools: cities, accommodation search, details, reviews, availability and the calendar;
orders (create, list, modify dates or guest details, cancel); Genius status; wish lists; guest reviews; and the
traveller's own sign-in."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, paginate, tool

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
    ProductOffer,
    ReviewObject,
    RoomCalendar,
    SearchResult,
    SessionObject,
    TravellerType,
    WishListObject,
    accommodation_object,
    offer_object,
    order_object,
    review_object,
    wish_list_object,
)
from .rules import (
    GENIUS_THRESHOLDS,
    accommodation,
    bookable,
    calendar,
    cancellation_fee,
    check_card,
    check_party,
    completed_stays,
    consume,
    current_level,
    fits,
    free_cancellation_until,
    local_now,
    own_order,
    parse_date,
    parse_time,
    payment_timing,
    quote,
    review_score,
    signed_in,
    stay_nights,
    unavailable_reason,
    within_checkin_hours,
)
from .schema import (
    accommodations,
    availability,
    bookers,
    cities,
    orders,
    products,
    reviews,
    rooms,
    sessions,
    wish_list_items,
    wish_lists,
)

REVIEW_DAYS = 90
MAX_CALENDAR_DAYS = 31
MAX_TEXT = 1000
GENIUS_BENEFITS = {
    1: ["10% discounts on stays at Genius properties"],
    2: ["10-15% discounts on stays at Genius properties", "Free breakfasts at selected properties"],
    3: [
        "10-20% discounts on stays at Genius properties",
        "Free breakfasts at selected properties",
        "Priority support on all bookings",
    ],
}


# ---------------------------------------------------------------- what only the traveller does


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(Traveller only) Sign in to a Booking.com account with the email address and the verification code sent
    to it; the code never reaches the assistant.

    Args:
        email: The account's email address.
    """
    found = [b for b in db.find(bookers) if b["email"].casefold() == email.strip().casefold()]
    if not found:
        raise NotFound("No Booking.com account uses that email address.")
    db.start_session(sessions, booker_id=found[0]["id"])
    return SessionObject(**{k: found[0][k] for k in SessionObject.model_fields})


# ---------------------------------------------------------------- locations and accommodations


@tool(read_only=True)
def list_cities(db: Database, query: str = "") -> list[CityObject]:
    """Find Booking.com city ids by name (the city ids that search_accommodations takes).

    Args:
        query: Part of the city's name, e.g. "lisb"; empty lists every city.
    """
    found = []
    for city in db.find(cities, order_by=[cities.c.name]):
        if query.strip().casefold() in city["name"].casefold():
            count = len(db.find(accommodations, city_id=city["id"]))
            found.append(CityObject(**city, number_of_accommodations=count))
    return found


@tool(read_only=True)
def list_accommodations(
    db: Database,
    city_id: int,
    query: str = "",
    accommodation_types: list[AccommodationType] | None = None,
    page_size: int = 25,
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
    found = []
    for acc in db.find(accommodations, city_id=city_id, order_by=[accommodations.c.name]):
        text = f"{acc['name']} {acc['address']}".casefold()
        wanted = not accommodation_types or acc["accommodation_type"] in accommodation_types
        if wanted and all(w in text for w in words):
            score, count, _ = review_score(db, acc["id"])
            found.append(
                AccommodationSummary(
                    **{
                        k: acc[k]
                        for k in ("id", "name", "accommodation_type", "address", "stars", "distance_to_centre")
                    },
                    review_score=score,
                    review_count=count,
                    genius_partner=acc["genius_discounts"] is not None,
                )
            )
    return paginate(found, page_size, cursor, max_page_size=50)


def _party(children_ages: list[int] | None) -> list[int]:
    return list(children_ages or [])


def _offers(
    db: Database,
    acc: dict[str, Any],
    nights: list[str],
    number_of_adults: int,
    number_of_rooms: int,
    children: list[int],
    level: int,
) -> tuple[list[ProductOffer], list[str]]:
    """The products of an accommodation bookable for the whole stay by the party, cheapest first, and why the
    other rooms are not."""
    if children and not acc["children_allowed"]:
        return [], [f"{acc['name']} is adults only."]
    offers, unavailable = [], []
    for room in db.find(rooms, accommodation_id=acc["id"]):
        if not fits(room, number_of_adults, number_of_rooms, len(children)):
            unavailable.append(
                f"{room['name']}: sleeps {room['max_adults']} adults, {room['max_persons']} guests in total per room"
            )
            continue
        reason = unavailable_reason(db, room, nights, number_of_rooms)
        if reason is not None:
            unavailable.append(reason)
            continue
        left = min(r["units_available"] for r in calendar(db, room["id"], nights).values())
        for product in db.find(products, room_id=room["id"]):
            priced = quote(db, acc, product, nights, number_of_rooms, level)
            deadline = free_cancellation_until(db, acc, product, nights[0])
            offers.append(offer_object(acc, room, product, priced, deadline, left))
    offers.sort(key=lambda o: (o.price.total, o.product_id))
    return offers, unavailable


def _checkout(nights: list[str]) -> str:
    return (date.fromisoformat(nights[-1]) + timedelta(days=1)).isoformat()


@tool(read_only=True)
def search_accommodations(
    db: Database,
    city_id: int,
    checkin: str,
    checkout: str,
    number_of_adults: int,
    number_of_rooms: int = 1,
    children_ages: list[int] | None = None,
    accommodation_types: list[AccommodationType] | None = None,
    min_review_score: float | None = None,
    free_cancellation: bool = False,
    breakfast_included: bool = False,
    max_price: float | None = None,
    sort_by: Literal["popularity", "price", "review_score", "distance"] = "popularity",
    page_size: int = 10,
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
    children = _party(children_ages)
    check_party(number_of_adults, number_of_rooms, children)
    level = current_level(db)
    found = []
    for acc in db.find(accommodations, city_id=city_id):
        if accommodation_types and acc["accommodation_type"] not in accommodation_types:
            continue
        score, count, _ = review_score(db, acc["id"])
        if min_review_score is not None and (score or 0) < min_review_score:
            continue
        nights = stay_nights(db, acc, checkin, checkout)
        offers, _ = _offers(db, acc, nights, number_of_adults, number_of_rooms, children, level)
        offers = [
            o
            for o in offers
            if (not free_cancellation or o.cancellation.type == "free_cancellation")
            and (not breakfast_included or o.meal_plan != "room_only")
            and (max_price is None or o.price.total <= max_price)
        ]
        if offers:
            found.append(
                SearchResult(
                    **{k: acc[k] for k in ("id", "name", "accommodation_type", "stars", "distance_to_centre")},
                    review_score=score,
                    review_count=count,
                    genius_partner=acc["genius_discounts"] is not None,
                    cheapest_product=offers[0],
                )
            )
    order = {
        "popularity": lambda r: (-r.review_count, r.id),
        "price": lambda r: (r.cheapest_product.price.total, r.id),
        "review_score": lambda r: (-(r.review_score or 0), r.id),
        "distance": lambda r: (r.distance_to_centre, r.id),
    }[sort_by]
    return paginate(sorted(found, key=order), page_size, cursor, max_page_size=25)


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
    page_size: int = 10,
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
    equals = {"traveller_type": traveller_type} if traveller_type else {}
    rows = db.find(reviews, accommodation_id=accommodation_id, **equals)
    key = {
        "newest": lambda r: (r["date"], r["id"]),
        "highest_score": lambda r: (r["score"], r["date"]),
        "lowest_score": lambda r: (-r["score"], r["date"]),
    }[sort_by]
    rows.sort(key=key, reverse=True)
    return paginate([review_object(r) for r in rows], page_size, cursor, max_page_size=25)


@tool(read_only=True)
def get_availability(
    db: Database,
    accommodation_id: int,
    checkin: str,
    checkout: str,
    number_of_adults: int,
    number_of_rooms: int = 1,
    children_ages: list[int] | None = None,
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
    children = _party(children_ages)
    check_party(number_of_adults, number_of_rooms, children)
    nights = stay_nights(db, acc, checkin, checkout)
    level = current_level(db)
    offers, unavailable = _offers(db, acc, nights, number_of_adults, number_of_rooms, children, level)
    return AvailabilityObject(
        accommodation_id=acc["id"],
        checkin=nights[0],
        checkout=_checkout(nights),
        nights=len(nights),
        number_of_adults=number_of_adults,
        number_of_rooms=number_of_rooms,
        children_ages=children,
        genius_level=level,
        products=offers,
        unavailable=unavailable,
    )


@tool(read_only=True)
def get_availability_calendar(
    db: Database, accommodation_id: int, start_date: str, end_date: str | None = None
) -> list[RoomCalendar]:
    """The availability calendar of each room type: rooms left, nightly price and minimum stay per night.

    Args:
        accommodation_id: The accommodation's id.
        start_date: First night, YYYY-MM-DD.
        end_date: Last night, YYYY-MM-DD, at most 30 nights after start_date (the default).
    """
    acc = accommodation(db, accommodation_id)
    start = parse_date(start_date, "start_date")
    end = parse_date(end_date, "end_date") if end_date else start + timedelta(days=MAX_CALENDAR_DAYS - 1)
    if not 0 <= (end - start).days < MAX_CALENDAR_DAYS:
        raise InvalidRequest(
            f"end_date must be on or after start_date and at most {MAX_CALENDAR_DAYS - 1} nights after it."
        )
    result = []
    for room in db.find(rooms, accommodation_id=acc["id"]):
        rows = db.find(
            availability,
            availability.c.date >= start.isoformat(),
            availability.c.date <= end.isoformat(),
            room_id=room["id"],
            order_by=[availability.c.date],
        )
        result.append(
            RoomCalendar(
                room_id=room["id"],
                room_name=room["name"],
                currency=acc["currency"],
                days=[CalendarDay(**{k: r[k] for k in CalendarDay.model_fields}) for r in rows],
            )
        )
    return result


# ---------------------------------------------------------------- orders


def _request_text(value: str, name: str) -> str:
    text = value.strip()
    if len(text) > MAX_TEXT:
        raise InvalidRequest(f"{name} can be at most {MAX_TEXT} characters.")
    return text


def _guest_name(value: str) -> str:
    name = " ".join(value.split())
    if not 2 <= len(name) <= 100 or " " not in name:
        raise InvalidRequest("guest_name must be the guest's first and last name.")
    return name


def _arrival(acc: dict[str, Any], value: str) -> str:
    arrival = parse_time(value, "estimated_arrival_time")
    if not within_checkin_hours(acc, arrival):
        raise Conflict(
            f"{acc['name']} checks guests in from {acc['checkin_from']} to {acc['checkin_until']}; "
            "ask the property about a later arrival in special_requests."
        )
    return arrival


def _pin(order_id: str) -> str:
    return f"{(int(order_id) * 7919 + 4021) % 10000:04d}"


def _priced_order(
    db: Database, acc: dict[str, Any], product: dict[str, Any], nights: list[str], number_of_rooms: int, level: int
) -> dict[str, Any]:
    """The order columns that follow from the product, the nights and the Genius level."""
    priced = quote(db, acc, product, nights, number_of_rooms, level)
    return {
        "checkin": nights[0],
        "checkout": _checkout(nights),
        "meal_plan": priced.meal_plan,
        "nightly_prices": priced.nightly,
        "price_base": priced.base,
        "genius_discount": priced.discount,
        "price_total": priced.total,
        "genius_benefits": priced.benefits,
        "free_cancellation_until": free_cancellation_until(db, acc, product, nights[0]),
    }


def _sellable(
    db: Database, acc: dict[str, Any], product: dict[str, Any], nights: list[str], number_of_rooms: int
) -> None:
    """Refuse a product whose room can't be sold for these nights."""
    room = db.get(rooms, product["room_id"], "Room")
    reason = unavailable_reason(db, room, nights, number_of_rooms)
    if reason is not None:
        raise Conflict(f"Not available at {acc['name']}: {reason}.")


@tool()
def create_order(
    db: Database,
    accommodation_id: int,
    product_id: str,
    checkin: str,
    checkout: str,
    number_of_adults: int,
    number_of_rooms: int = 1,
    children_ages: list[int] | None = None,
    guest_name: str | None = None,
    special_requests: str = "",
    estimated_arrival_time: str | None = None,
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
    found = db.find(products, id=product_id)
    if not found or found[0]["accommodation_id"] != acc["id"]:
        raise NotFound(f"Product {product_id} is not offered by {acc['name']}.")
    product = found[0]
    children = _party(children_ages)
    check_party(number_of_adults, number_of_rooms, children)
    if children and not acc["children_allowed"]:
        raise Conflict(f"{acc['name']} is adults only; children can't stay there.")
    room = db.get(rooms, product["room_id"], "Room")
    if not fits(room, number_of_adults, number_of_rooms, len(children)):
        raise Conflict(
            f"The {room['name']} sleeps {room['max_adults']} adults and {room['max_persons']} guests in "
            f"total; book more rooms for {number_of_adults + len(children)} guests."
        )
    nights = stay_nights(db, acc, checkin, checkout)
    _sellable(db, acc, product, nights, number_of_rooms)
    for other in db.find(orders, booker_id=booker["id"], accommodation_id=acc["id"], status="booked"):
        if other["checkin"] < _checkout(nights) and nights[0] < other["checkout"]:
            raise Conflict(
                f"You already have a booking at {acc['name']} for overlapping dates (confirmation "
                f"{other['id']}); change that booking instead of booking twice."
            )
    if product["cancellation_type"] == "non_refundable":
        check_card(booker, local_now(db, acc).date())
    details = {
        "guest_name": _guest_name(guest_name or f"{booker['first_name']} {booker['last_name']}"),
        "special_requests": _request_text(special_requests, "special_requests"),
        "estimated_arrival_time": _arrival(acc, estimated_arrival_time) if estimated_arrival_time else None,
    }
    consume(db, room["id"], nights, number_of_rooms)
    order_id = db.new_id(orders, "49", 8)
    row = db.insert(
        orders,
        id=order_id,
        pin_code=_pin(order_id),
        booker_id=booker["id"],
        accommodation_id=acc["id"],
        product_id=product["id"],
        number_of_rooms=number_of_rooms,
        number_of_adults=number_of_adults,
        children_ages=children,
        **details,
        status="booked",
        payment_timing=payment_timing(product),
        currency=acc["currency"],
        cancellation_fee=None,
        cancellation_reason=None,
        created=db.now_iso(),
        modified=None,
        cancelled_at=None,
        **_priced_order(db, acc, product, nights, number_of_rooms, booker["genius_level"]),
    )
    return order_object(db, row)


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: int = 10, cursor: str | None = None
) -> Page[OrderObject]:
    """The signed-in traveller's orders, latest check-in first.

    Args:
        status: Only orders in this status: booked (upcoming), stayed, no_show, cancelled_by_guest or
            cancelled_by_accommodation.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    booker = signed_in(db)
    equals = {"status": status} if status else {}
    rows = db.find(orders, booker_id=booker["id"], order_by=[orders.c.checkin.desc()], **equals)
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
def modify_order_dates(db: Database, order_id: str, checkin: str, checkout: str) -> OrderObject:
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
    if nights[0] == order["checkin"] and _checkout(nights) == order["checkout"]:
        raise InvalidRequest("Those are already the booking's dates.")
    old = [n["date"] for n in order["nightly_prices"]]
    consume(db, product["room_id"], old, -order["number_of_rooms"])
    _sellable(db, acc, product, nights, order["number_of_rooms"])
    consume(db, product["room_id"], nights, order["number_of_rooms"])
    changes = _priced_order(db, acc, product, nights, order["number_of_rooms"], booker["genius_level"])
    return order_object(db, db.update(orders, order["id"], modified=db.now_iso(), **changes))


@tool()
def update_guest_details(
    db: Database,
    order_id: str,
    guest_name: str | None = None,
    number_of_adults: int | None = None,
    special_requests: str | None = None,
    estimated_arrival_time: str | None = None,
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
        changes["guest_name"] = _guest_name(guest_name)
    if number_of_adults is not None:
        check_party(number_of_adults, order["number_of_rooms"], order["children_ages"])
        room = db.get(rooms, db.get(products, order["product_id"], "Product")["room_id"], "Room")
        if not fits(room, number_of_adults, order["number_of_rooms"], len(order["children_ages"])):
            raise Conflict(
                f"The {room['name']} sleeps {room['max_adults']} adults per room; "
                f"{order['number_of_rooms']} room(s) can't take {number_of_adults}."
            )
        changes["number_of_adults"] = number_of_adults
    if special_requests is not None:
        changes["special_requests"] = _request_text(special_requests, "special_requests")
    if estimated_arrival_time is not None:
        changes["estimated_arrival_time"] = _arrival(acc, estimated_arrival_time)
    if not changes:
        raise InvalidRequest(
            "Nothing to update: give guest_name, number_of_adults, special_requests or estimated_arrival_time."
        )
    return order_object(db, db.update(orders, order["id"], modified=db.now_iso(), **changes))


@tool()
def cancel_order(
    db: Database, order_id: str, reason: str | None = None, accept_cancellation_fee: bool = False
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
            f"Cancelling now costs {order['currency']} {fee:,.2f}; set accept_cancellation_fee once the "
            "traveller agrees to pay it."
        )
    consume(db, product["room_id"], [n["date"] for n in order["nightly_prices"]], -order["number_of_rooms"])
    row = db.update(
        orders,
        order["id"],
        status="cancelled_by_guest",
        cancellation_fee=fee,
        cancellation_reason=_request_text(reason, "reason") if reason else None,
        cancelled_at=db.now_iso(),
    )
    return order_object(db, row)


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


def _own_list(db: Database, booker: dict[str, Any], wish_list_id: str) -> dict[str, Any]:
    found = db.find(wish_lists, id=wish_list_id)
    if not found or found[0]["booker_id"] != booker["id"]:
        raise NotFound(f"Wish list {wish_list_id} not found.")
    return found[0]


@tool(read_only=True)
def list_wish_lists(db: Database) -> list[WishListObject]:
    """The signed-in traveller's wish lists with the properties saved in each."""
    booker = signed_in(db)
    return [wish_list_object(db, row) for row in db.find(wish_lists, booker_id=booker["id"])]


@tool()
def create_wish_list(db: Database, name: str) -> WishListObject:
    """Create an empty wish list.

    Args:
        name: The list's name, 1 to 50 characters, unique among the traveller's lists.
    """
    booker = signed_in(db)
    clean = " ".join(name.split())
    if not 1 <= len(clean) <= 50:
        raise InvalidRequest("A wish list name must be 1 to 50 characters.")
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
    wish_list = _own_list(db, signed_in(db), wish_list_id)
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
    wish_list = _own_list(db, signed_in(db), wish_list_id)
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
    score: int,
    traveller_type: TravellerType,
    title: str = "",
    positive: str = "",
    negative: str = "",
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
    if order["status"] == "booked":
        raise Conflict(f"You can review {acc['name']} after your stay (check-out {order['checkout']}).")
    if order["status"] != "stayed":
        raise Conflict(
            f"Only completed stays can be reviewed; booking {order['id']} is {order['status'].replace('_', ' ')}."
        )
    if db.find(reviews, order_id=order["id"]):
        raise Conflict(f"You already reviewed your stay at {acc['name']} (booking {order['id']}).")
    closes = date.fromisoformat(order["checkout"]) + timedelta(days=REVIEW_DAYS)
    today = local_now(db, acc).date()
    if today > closes:
        raise Conflict(
            f"Reviews can be written up to {REVIEW_DAYS} days after check-out; this one closed on {closes.isoformat()}."
        )
    if not 1 <= score <= 10:
        raise InvalidRequest("score must be from 1 to 10.")
    texts = {k: _request_text(v, k) for k, v in (("title", title), ("positive", positive), ("negative", negative))}
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
        date=today.isoformat(),
        **texts,
    )
    return review_object(row)
