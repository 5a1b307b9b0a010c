"""Booking.com's Demand API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import Quote, cancellation_fee, payment_timing, review_score
from .schema import accommodations, cities, products, reviews, rooms, wish_list_items

AccommodationType = Literal["hotel", "apartment", "aparthotel", "hostel", "guest_house", "bed_and_breakfast"]
MealPlan = Literal["room_only", "breakfast_included", "half_board"]
OrderStatus = Literal["booked", "stayed", "no_show", "cancelled_by_guest", "cancelled_by_accommodation"]
TravellerType = Literal["couple", "family", "solo", "group", "business"]


class SessionObject(BaseModel):
    """The traveller signed in to Booking.com."""

    first_name: str
    last_name: str
    email: str
    genius_level: int


class CityObject(BaseModel):
    """A city of Booking.com's locations."""

    id: int = Field(description="the Booking.com location id used by search_accommodations")
    name: str
    country: str
    number_of_accommodations: int


class PriceObject(BaseModel):
    """A price for the whole stay and all rooms, in the property's currency."""

    currency: str
    base: float = Field(description="before the Genius discount")
    genius_discount: float
    total: float = Field(description="what the traveller pays")


class CancellationPolicy(BaseModel):
    """When a product can be cancelled for free and what it costs afterwards."""

    type: Literal["free_cancellation", "non_refundable"]
    free_cancellation_until: str | None = Field(description="property local time with its UTC offset")
    fee_after_deadline: Literal["first_night", "total"] = Field(
        description="charged when cancelled after the deadline (non-refundable: always the total)"
    )


class Occupancy(BaseModel):
    """How many guests a room sleeps."""

    adults: int
    total: int


class ProductOffer(BaseModel):
    """A product (room type with a rate plan) available for the whole stay, priced for the party."""

    product_id: str
    room_id: int
    room_name: str
    rate_name: str
    meal_plan: MealPlan
    cancellation: CancellationPolicy
    payment_timing: Literal["pay_at_the_property", "pay_online_now"]
    maximum_occupancy: Occupancy
    rooms_left: int
    price: PriceObject
    genius_benefits: list[str]


class AccommodationSummary(BaseModel):
    """An accommodation as the city's property list shows it."""

    id: int
    name: str
    accommodation_type: AccommodationType
    address: str
    stars: int | None
    review_score: float | None
    review_count: int
    distance_to_centre: float = Field(description="km")
    genius_partner: bool


class SearchResult(BaseModel):
    """An accommodation with its cheapest product matching the search."""

    id: int
    name: str
    accommodation_type: AccommodationType
    stars: int | None
    review_score: float | None
    review_count: int
    distance_to_centre: float = Field(description="km")
    genius_partner: bool
    cheapest_product: ProductOffer


class RatePlan(BaseModel):
    """A rate plan a room is sold with."""

    product_id: str
    name: str
    meal_plan: MealPlan
    cancellation_type: Literal["free_cancellation", "non_refundable"]
    free_cancellation_days: int | None = Field(
        description="free until 23:59 property time this many days before check-in"
    )
    late_cancellation_fee: Literal["first_night", "total"] | None
    genius_eligible: bool


class RoomObject(BaseModel):
    """A room type of an accommodation."""

    id: int
    name: str
    maximum_occupancy: Occupancy
    bed_configuration: str
    room_size: int = Field(description="m2")
    facilities: list[str]
    rate_plans: list[RatePlan]


class GeniusProgramme(BaseModel):
    """What a Genius partner property offers each Genius level."""

    discounts: dict[str, int] = Field(description="percent off Genius-eligible rates, by level")
    free_breakfast: bool = Field(description="levels 2 and 3 get breakfast on room-only Genius rates")


class AccommodationObject(BaseModel):
    """An accommodation's details: policies, facilities, rooms and rate plans, Genius programme, guest score."""

    id: int
    name: str
    accommodation_type: AccommodationType
    city: str
    country: str
    address: str
    postal_code: str
    stars: int | None
    distance_to_centre: float
    description: str
    facilities: list[str]
    checkin_from: str
    checkin_until: str = Field(description='"00:00" is midnight')
    checkout_until: str
    pets_allowed: bool
    children_allowed: bool
    currency: str
    genius: GeniusProgramme | None
    review_score: float | None
    review_score_word: str | None
    review_count: int
    rooms: list[RoomObject]


class AvailabilityObject(BaseModel):
    """The products available for a stay, and why other rooms are not."""

    accommodation_id: int
    checkin: str
    checkout: str
    nights: int
    number_of_adults: int
    number_of_rooms: int
    children_ages: list[int]
    genius_level: int = Field(description="level whose prices are shown; 0 when signed out")
    products: list[ProductOffer]
    unavailable: list[str]


class CalendarDay(BaseModel):
    """One night of a room's calendar."""

    date: str
    units_available: int
    price: float = Field(description="the room's nightly price before rate plan and Genius")
    min_stay: int = Field(description="minimum nights for arrival on this date")


class RoomCalendar(BaseModel):
    """A room type's availability calendar."""

    room_id: int
    room_name: str
    currency: str
    days: list[CalendarDay]


class NightPrice(BaseModel):
    """The price of one night for all rooms of an order."""

    date: str
    price: float


class OrderObject(BaseModel):
    """A Booking.com order (one accommodation reservation); its id is the confirmation number."""

    order_id: str
    pin_code: str
    status: OrderStatus
    accommodation_id: int
    accommodation_name: str
    city: str
    product_id: str
    room_name: str
    rate_name: str
    checkin: str
    checkout: str
    nights: int
    number_of_rooms: int
    number_of_adults: int
    children_ages: list[int]
    guest_name: str
    special_requests: str
    estimated_arrival_time: str | None
    meal_plan: MealPlan
    payment_timing: Literal["pay_at_the_property", "pay_online_now"]
    price: PriceObject
    nightly_prices: list[NightPrice]
    genius_benefits: list[str]
    cancellation: CancellationPolicy
    fee_if_cancelled_now: float | None = Field(description="for booked orders")
    cancellation_fee: float | None = Field(description="charged when the order was cancelled")
    cancellation_reason: str | None
    reviewed: bool
    created: str


class GeniusStatus(BaseModel):
    """The traveller's Genius loyalty level and progress."""

    level: int
    completed_stays_last_2_years: int
    next_level: int | None
    stays_to_next_level: int | None
    benefits: list[str]


class SavedAccommodation(BaseModel):
    """A property saved in a wish list."""

    id: int
    name: str
    city: str


class WishListObject(BaseModel):
    """A wish list of saved properties."""

    id: str
    name: str
    accommodations: list[SavedAccommodation]


class ReviewObject(BaseModel):
    """A guest review."""

    id: str
    accommodation_id: int
    reviewer_name: str
    reviewer_country: str
    traveller_type: TravellerType
    score: int = Field(description="1 to 10")
    title: str
    positive: str
    negative: str
    stayed_in: str = Field(description="YYYY-MM")
    date: str


def _city(db: Database, acc: dict[str, Any]) -> dict[str, Any]:
    return db.get(cities, acc["city_id"], "City")


def policy_object(product: dict[str, Any], deadline: str | None) -> CancellationPolicy:
    """A product's cancellation policy for one stay."""
    return CancellationPolicy(
        type=product["cancellation_type"],
        free_cancellation_until=deadline,
        fee_after_deadline=product["late_cancellation_fee"] or "total",
    )


def offer_object(
    acc: dict[str, Any],
    room: dict[str, Any],
    product: dict[str, Any],
    priced: Quote,
    deadline: str | None,
    rooms_left: int,
) -> ProductOffer:
    """A product priced for a stay."""
    return ProductOffer(
        product_id=product["id"],
        room_id=room["id"],
        room_name=room["name"],
        rate_name=product["name"],
        meal_plan=priced.meal_plan,
        cancellation=policy_object(product, deadline),
        payment_timing=payment_timing(product),
        maximum_occupancy=Occupancy(adults=room["max_adults"], total=room["max_persons"]),
        rooms_left=rooms_left,
        price=PriceObject(
            currency=acc["currency"], base=priced.base, genius_discount=priced.discount, total=priced.total
        ),
        genius_benefits=priced.benefits,
    )


def accommodation_object(db: Database, acc: dict[str, Any]) -> AccommodationObject:
    """An accommodation with its rooms, rate plans and guest score."""
    city = _city(db, acc)
    score, count, word = review_score(db, acc["id"])
    room_objects = [
        RoomObject(
            id=room["id"],
            name=room["name"],
            maximum_occupancy=Occupancy(adults=room["max_adults"], total=room["max_persons"]),
            bed_configuration=room["bed_configuration"],
            room_size=room["room_size"],
            facilities=room["facilities"],
            rate_plans=[
                RatePlan(product_id=p["id"], **{k: p[k] for k in RatePlan.model_fields if k != "product_id"})
                for p in db.find(products, room_id=room["id"])
            ],
        )
        for room in db.find(rooms, accommodation_id=acc["id"])
    ]
    genius = (
        GeniusProgramme(discounts=acc["genius_discounts"], free_breakfast=acc["genius_free_breakfast"])
        if acc["genius_discounts"]
        else None
    )
    return AccommodationObject(
        **{k: acc[k] for k in AccommodationObject.model_fields if k in acc},
        city=city["name"],
        country=city["country"],
        genius=genius,
        review_score=score,
        review_score_word=word,
        review_count=count,
        rooms=room_objects,
    )


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    """An order as /orders/details returns it."""
    acc = db.get(accommodations, row["accommodation_id"], "Accommodation")
    product = db.get(products, row["product_id"], "Product")
    room = db.get(rooms, product["room_id"], "Room")
    return OrderObject(
        order_id=row["id"],
        accommodation_name=acc["name"],
        city=_city(db, acc)["name"],
        room_name=room["name"],
        rate_name=product["name"],
        nights=len(row["nightly_prices"]),
        price=PriceObject(
            currency=row["currency"],
            base=row["price_base"],
            genius_discount=row["genius_discount"],
            total=row["price_total"],
        ),
        cancellation=policy_object(product, row["free_cancellation_until"]),
        fee_if_cancelled_now=cancellation_fee(db, row, product) if row["status"] == "booked" else None,
        reviewed=bool(db.find(reviews, order_id=row["id"])),
        **{
            k: row[k]
            for k in (
                "pin_code",
                "status",
                "accommodation_id",
                "product_id",
                "checkin",
                "checkout",
                "number_of_rooms",
                "number_of_adults",
                "children_ages",
                "guest_name",
                "special_requests",
                "estimated_arrival_time",
                "meal_plan",
                "payment_timing",
                "nightly_prices",
                "genius_benefits",
                "cancellation_fee",
                "cancellation_reason",
                "created",
            )
        },
    )


def summary_object(db: Database, acc: dict[str, Any]) -> AccommodationSummary:
    """An accommodation as a city's property list shows it."""
    score, count, _ = review_score(db, acc["id"])
    return AccommodationSummary(
        **{k: acc[k] for k in ("id", "name", "accommodation_type", "address", "stars", "distance_to_centre")},
        review_score=score,
        review_count=count,
        genius_partner=acc["genius_discounts"] is not None,
    )


def search_result(acc: dict[str, Any], score: float | None, count: int, cheapest: ProductOffer) -> SearchResult:
    """An accommodation found for a stay, with its cheapest matching product."""
    return SearchResult(
        **{k: acc[k] for k in ("id", "name", "accommodation_type", "stars", "distance_to_centre")},
        review_score=score,
        review_count=count,
        genius_partner=acc["genius_discounts"] is not None,
        cheapest_product=cheapest,
    )


def wish_list_object(db: Database, row: dict[str, Any]) -> WishListObject:
    """A wish list with its saved properties."""
    saved = []
    for item in db.find(wish_list_items, wish_list_id=row["id"]):
        acc = db.get(accommodations, item["accommodation_id"], "Accommodation")
        saved.append(SavedAccommodation(id=acc["id"], name=acc["name"], city=_city(db, acc)["name"]))
    return WishListObject(id=row["id"], name=row["name"], accommodations=saved)


def review_object(row: dict[str, Any]) -> ReviewObject:
    """A stored review."""
    return ReviewObject(**{k: row[k] for k in ReviewObject.model_fields})
