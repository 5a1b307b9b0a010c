"""Expedia Group Rapid API tools for Wayfarer Trails, a travel agency partner: regions and property content, guest
reviews, calendar availability, shopping for rooms and rates, price check, payment options, booking (instant or
held), resuming or cancelling holds, retrieving and searching itineraries, and room-level cancel and change."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, PageSize

from . import booking, shopping
from .objects import (
    BookedRoom,
    CalendarDay,
    HoldResult,
    Itinerary,
    ItineraryCreated,
    PaymentOptions,
    PriceCheck,
    PropertyAvailability,
    PropertyCalendar,
    PropertyContent,
    PropertySummary,
    Region,
    Review,
    RoomCanceled,
)
from .rules import Occupancy, rooms_left, stay_dates
from .schema import itineraries, properties, regions, reviews, rooms

PropertyId = Annotated[str, Field(pattern=r"^\d{4,9}$"), ErrorText("invalid_input: property_id is a numeric string")]
PropertyIds = Annotated[list[PropertyId], Unordered, Field(min_length=1, max_length=250)]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"), ErrorText("invalid_input: email is not valid")]
Phone = Annotated[
    str, Field(pattern=r"^\+[1-9]\d{6,14}$"), ErrorText("invalid_input: phone must be E.164, e.g. +14155550100")
]
Name = Annotated[
    str,
    Field(min_length=1, max_length=60, pattern=r"^[A-Za-z\u00C0-\u017F' .-]+$"),
    ErrorText("invalid_input: names are 1-60 letters, spaces, hyphens, periods or apostrophes"),
]
SpecialRequest = Annotated[str, Field(min_length=1, max_length=255)]
Occupancies = Annotated[list[Occupancy], Field(min_length=1, max_length=8)]


class GuestRoom(BaseModel):
    """The guest named on one booked room, in the order of the occupancies priced."""

    given_name: Name
    family_name: Name
    smoking: bool = False
    special_request: SpecialRequest | None = Field(None, description="passed to the property; not guaranteed")


@tool(read_only=True)
def search_regions(db: Database, name: Annotated[str, Field(min_length=2, max_length=80)]) -> list[Region]:
    """Find regions (cities, neighborhoods, airports, points of interest) by name, with the properties in each.

    Args:
        name: Part of the region's name, e.g. "Lisbon" or "Alfama".
    """
    found = db.select(regions, "name LIKE ?", (f"%{name}%",), order_by="name")
    return [
        Region(id=r["region_id"], **{k: r[k] for k in ("name", "type", "country_code", "parent_id", "property_ids")})
        for r in found
    ]


@tool(read_only=True)
def get_region(db: Database, region_id: str) -> Region:
    """One region with its type, parent region and the properties in it.

    Args:
        region_id: The region, as search_regions returns it.
    """
    r = db.get(regions, region_id, "Region")
    return Region(id=r["region_id"], **{k: r[k] for k in ("name", "type", "country_code", "parent_id", "property_ids")})


@tool(read_only=True)
def search_properties(
    db: Database,
    region_id: str | None = None,
    category: Literal["Hotel", "Resort", "Apartment", "Bed & breakfast"] | None = None,
    star_rating_min: Annotated[float, Field(ge=1, le=5)] | None = None,
    amenity: Annotated[str, Field(min_length=2, max_length=60)] | None = None,
    pets_allowed: bool | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[PropertySummary]:
    """List properties in Rapid's content, filtered by region, category, minimum star rating, an amenity or pets.

    Args:
        region_id: Only properties in this region (from search_regions); a city includes its neighborhoods.
        category: Only this property category.
        star_rating_min: Only properties rated at least this many stars.
        amenity: Only properties listing this amenity, e.g. "Pool" or "Free WiFi" (case-insensitive).
        pets_allowed: Only properties that do (true) or do not (false) accept pets.
        page_size: Properties per page.
        cursor: next_cursor of the previous page.
    """
    found = shopping.search(db, region_id, category, star_rating_min, amenity, pets_allowed)
    return paginate(found, page_size, cursor)


@tool(read_only=True)
def get_property_content(db: Database, property_ids: PropertyIds) -> list[PropertyContent]:
    """Property content: address, ratings, check-in and checkout policy, amenities, fees, rooms and their beds.

    Args:
        property_ids: The properties to describe (up to 250).
    """
    return [shopping.content(db, db.get(properties, p, "Property")) for p in property_ids]


@tool(read_only=True)
def get_guest_reviews(db: Database, property_id: PropertyId) -> list[Review]:
    """Verified guest reviews of a property, newest first.

    Args:
        property_id: The property.
    """
    db.get(properties, property_id, "Property")
    rows = db.select(reviews, "property_id = ?", (property_id,), order_by="date_submitted DESC")
    return [Review(id=r["review_id"], **{k: r[k] for k in Review.model_fields if k != "id"}) for r in rows]


@tool(read_only=True)
def get_calendar_availability(
    db: Database, property_ids: PropertyIds, start_date: IsoDate, end_date: IsoDate
) -> list[PropertyCalendar]:
    """Day by day, whether each property has any room left for a night (up to 28 nights from start_date).

    Args:
        property_ids: The properties.
        start_date: First night, YYYY-MM-DD.
        end_date: The day after the last night, YYYY-MM-DD.
    """
    nights = stay_dates(db, start_date, end_date)
    calendars = []
    for property_id in property_ids:
        db.get(properties, property_id, "Property")
        kinds = db.find(rooms, property_id=property_id)
        days = []
        for night in nights:
            left = sum(rooms_left(db, r["room_id"], [night]) for r in kinds)
            days.append(CalendarDay(date=night, available=left > 0, rooms_available=left))
        calendars.append(PropertyCalendar(property_id=property_id, days=days))
    return calendars


@tool(read_only=True)
def get_availability(
    db: Database,
    property_ids: PropertyIds,
    checkin: IsoDate,
    checkout: IsoDate,
    occupancy: Occupancies,
    refundable_only: bool = False,
) -> list[PropertyAvailability]:
    """Shop rooms and rates for a stay: one occupancy per room wanted; prices are the cached shopping prices.

    Args:
        property_ids: Properties to shop (up to 250).
        checkin: Check-in date, YYYY-MM-DD.
        checkout: Checkout date, YYYY-MM-DD (at most 28 nights).
        occupancy: One entry per room: adults, then child ages, e.g. ["2", "2-9,4"].
        refundable_only: Only rates that can be cancelled without losing the whole stay.
    """
    return shopping.availability(db, property_ids, checkin, checkout, occupancy, refundable_only)


@tool()
def price_check(
    db: Database,
    property_id: PropertyId,
    room_id: str,
    rate_id: str,
    checkin: IsoDate,
    checkout: IsoDate,
    occupancy: Occupancies,
) -> PriceCheck:
    """Check a shopped rate's live price before booking; returns a token to book with unless sold out.

    Args:
        property_id: The property.
        room_id: The room type, as shopped.
        rate_id: The rate, as shopped.
        checkin: Check-in date, YYYY-MM-DD.
        checkout: Checkout date, YYYY-MM-DD.
        occupancy: The same occupancies that were shopped, one per room.
    """
    return shopping.price_check(db, property_id, room_id, rate_id, checkin, checkout, occupancy)


@tool(read_only=True)
def get_payment_options(db: Database, property_id: PropertyId) -> PaymentOptions:
    """How a property's stays can be paid: by the agency (affiliate collect) and the cards the desk accepts.

    Args:
        property_id: The property.
    """
    prop = db.get(properties, property_id, "Property")
    return PaymentOptions(
        property_id=property_id, affiliate_collect=True, property_collect_card_types=prop["payment_types"]
    )


@tool()
def create_itinerary(
    db: Database,
    token: str,
    email: Email,
    phone: Phone,
    rooms: Annotated[list[GuestRoom], Field(min_length=1, max_length=8)],
    hold: bool = False,
    payment_type: Literal["affiliate_collect", "property_collect"] = "affiliate_collect",
    affiliate_reference_id: Annotated[str, Field(min_length=1, max_length=28)] | None = None,
) -> ItineraryCreated:
    """Book the rate a price check returned, at its price; with hold=true the rooms are held for 24 hours.

    Args:
        token: The token from price_check.
        email: The traveller's email; needed to retrieve the itinerary later.
        phone: The traveller's phone, E.164.
        rooms: One guest per room, in the order of the occupancies priced.
        hold: Hold the rooms (rates that allow it) until resumed or cancelled, instead of booking now.
        payment_type: affiliate_collect (the agency pays Expedia) or property_collect (guest pays at the desk).
        affiliate_reference_id: The agency's own unique reference for this booking (up to 28 characters).
    """
    guests = [g.model_dump() for g in rooms]
    return booking.create(db, token, email, phone, guests, hold, payment_type, affiliate_reference_id)


@tool()
def resume_held_itinerary(db: Database, itinerary_id: str) -> HoldResult:
    """Complete a held booking within its hold window: its rooms become booked.

    Args:
        itinerary_id: The held itinerary.
    """
    return booking.resume(db, itinerary_id)


@tool()
def cancel_held_itinerary(db: Database, itinerary_id: str) -> HoldResult:
    """Cancel a held booking: nothing is charged and the rooms are released.

    Args:
        itinerary_id: The held itinerary.
    """
    return booking.release(db, itinerary_id)


@tool(read_only=True)
def retrieve_itinerary(db: Database, itinerary_id: str, email: Email) -> Itinerary:
    """An itinerary with its rooms, penalty windows and what cancelling each room would refund now.

    Args:
        itinerary_id: The itinerary.
        email: The email it was booked with.
    """
    return booking.retrieve(db, itinerary_id, email)


@tool(read_only=True)
def search_itineraries(
    db: Database, email: Email, affiliate_reference_id: Annotated[str, Field(min_length=1, max_length=28)] | None = None
) -> list[Itinerary]:
    """Itineraries booked with an email, optionally only the one with the agency's own reference.

    Args:
        email: The traveller's email.
        affiliate_reference_id: The agency's reference given at booking.
    """
    rows = db.select(
        itineraries,
        "lower(email) = lower(?)" + (" AND affiliate_reference_id = ?" if affiliate_reference_id else ""),
        (email, affiliate_reference_id) if affiliate_reference_id else (email,),
        order_by="creation_date_time",
    )
    return [booking.itinerary(db, r) for r in rows]


@tool()
def cancel_room(db: Database, itinerary_id: str, room_id: str) -> RoomCanceled:
    """Cancel one booked room of an itinerary; the penalty of the current cancel_penalties window is charged.

    Args:
        itinerary_id: The itinerary.
        room_id: The booked room's id within the itinerary (e.g. "7300000012345-1").
    """
    return booking.cancel_room(db, itinerary_id, room_id)


@tool()
def change_room(
    db: Database,
    itinerary_id: str,
    room_id: str,
    given_name: Name | None = None,
    family_name: Name | None = None,
    smoking: bool | None = None,
    special_request: SpecialRequest | None = None,
) -> BookedRoom:
    """Change a booked room's guest name, smoking preference or special request (before check-in).

    Args:
        itinerary_id: The itinerary.
        room_id: The booked room's id within the itinerary.
        given_name: New guest given name.
        family_name: New guest family name.
        smoking: New smoking preference.
        special_request: New special request for the property (replaces the old one).
    """
    changes = given(given_name=given_name, family_name=family_name, smoking=smoking, special_request=special_request)
    return booking.change_room(db, itinerary_id, room_id, changes)
