"""Yelp's API objects as output models (businesses with hours, reviews, reservation openings, holds and
reservations, waitlist visits, collections and check-ins) and how stored rows become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import is_open_at, line, local_now
from .schema import businesses, categories, collection_items, users

PRICES = {1: "$", 2: "$$", 3: "$$$", 4: "$$$$"}
Transaction = Literal["restaurant_reservation", "waitlist_reservation", "delivery", "pickup"]


class SessionObject(BaseModel):
    """The person signed in to Yelp."""

    user_id: str
    name: str
    email: str


class Category(BaseModel):
    """A Yelp category."""

    alias: str
    title: str


class Location(BaseModel):
    """Where a business is."""

    address1: str
    city: str
    zip_code: str
    state: str
    country: str
    display_address: list[str]


class BusinessSummary(BaseModel):
    """A business as search results show it."""

    id: str
    alias: str
    name: str
    is_closed: bool = Field(description="true when the business has closed permanently")
    rating: float = Field(description="0 to 5 stars in half stars")
    review_count: int
    price: str | None = Field(description="$ to $$$$")
    categories: list[Category]
    transactions: list[Transaction]
    neighborhood: str
    location: Location
    display_phone: str
    distance: float | None = Field(description="meters from the search's location")


class Region(BaseModel):
    """The centre of a search."""

    name: str
    latitude: float
    longitude: float


class SearchResult(BaseModel):
    """A page of businesses and how many matched in all."""

    businesses: list[BusinessSummary]
    total: int
    region: Region


class OpenInterval(BaseModel):
    """One opening interval of the week (day 0 is Monday; times are HHMM, local)."""

    day: int
    start: str
    end: str
    is_overnight: bool


class Hours(BaseModel):
    """A business's regular hours."""

    open: list[OpenInterval]
    hours_type: Literal["REGULAR"]
    is_open_now: bool


class SpecialHours(BaseModel):
    """Hours that replace the regular ones on a date (holidays, private events)."""

    date: str
    is_closed: bool
    start: str | None
    end: str | None
    is_overnight: bool


class ReservationSettings(BaseModel):
    """How the business takes Yelp Reservations."""

    max_party_size: int
    booking_window_days: int
    change_cutoff_minutes: int = Field(description="online changes and cancellations end this long before")


class WaitlistSettings(BaseModel):
    """The business's Yelp Waitlist right now."""

    accepting_parties: bool
    max_party_size: int
    parties_waiting: int
    estimated_wait_minutes: int


class BusinessDetails(BusinessSummary):
    """A business's page: phone, hours, special hours, Reservations and Waitlist."""

    phone: str
    is_claimed: bool
    hours: list[Hours]
    special_hours: list[SpecialHours]
    reservations: ReservationSettings | None
    waitlist: WaitlistSettings | None


class ReviewUser(BaseModel):
    """The author of a review as Yelp shows them."""

    id: str
    name: str


class Review(BaseModel):
    """A review on a business's page."""

    id: str
    rating: int
    text: str
    time_created: str
    time_updated: str | None
    user: ReviewUser


class ReviewsPage(BaseModel):
    """A business's reviews."""

    reviews: list[Review]
    total: int


class MyReview(BaseModel):
    """One of the signed-in person's reviews, with the business's rating after it."""

    id: str
    business_id: str
    business_name: str
    rating: int
    text: str
    time_created: str
    time_updated: str | None
    business_rating: float
    business_review_count: int


class Openings(BaseModel):
    """Reservation times with room for the party, around the requested time."""

    business_id: str
    date: str
    covers: int
    availability: list[str] = Field(description="local times, HH:MM")


class Hold(BaseModel):
    """A table held for a few minutes while the booking is completed."""

    hold_id: str
    business_id: str
    date: str
    time: str
    covers: int
    expires_at: str = Field(description="UTC")


class BusinessRef(BaseModel):
    """The business of a reservation, visit or check-in."""

    id: str
    name: str


class Reservation(BaseModel):
    """A Yelp reservation."""

    reservation_id: str
    business: BusinessRef
    date: str
    time: str
    covers: int
    status: Literal["confirmed", "cancelled", "seated", "no_show"]
    notes: str
    online_changes_until: str = Field(description="local time after which changes need a phone call")


class WaitlistVisit(BaseModel):
    """A place in a business's Yelp Waitlist line."""

    visit_id: str
    business: BusinessRef
    party_size: int
    status: Literal["waiting", "seated", "left"]
    position: int | None = Field(description="1 is next in line; null once no longer waiting")
    quoted_wait_minutes: int
    joined_at: str
    notes: str


class CollectionItem(BaseModel):
    """A business saved in a collection."""

    business: BusinessRef
    note: str
    added_on: str


class Collection(BaseModel):
    """A collection of saved businesses (My Bookmarks is the default one)."""

    id: str
    name: str
    description: str
    visibility: Literal["public", "private"]
    is_default: bool
    item_count: int
    items: list[CollectionItem]


class CheckIn(BaseModel):
    """A check-in at a business."""

    id: str
    business: BusinessRef
    date: str
    time: str
    comment: str


# ---------------------------------------------------------------- rows -> objects


def titles(db: Database) -> dict[str, str]:
    """Category titles by alias."""
    return {c["alias"]: c["title"] for c in db.find(categories)}


def display_phone(phone: str) -> str:
    """+14155550123 as (415) 555-0123."""
    digits = phone[-10:]
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def summary(row: dict[str, Any], names: dict[str, str], distance: float | None) -> BusinessSummary:
    """A business row as search shows it."""
    return BusinessSummary(**summary_fields(row, names, distance))


def summary_fields(row: dict[str, Any], names: dict[str, str], distance: float | None) -> dict[str, Any]:
    """The fields a search result and a business page share."""
    return {
        **{k: row[k] for k in ("id", "alias", "name", "is_closed", "rating", "review_count", "transactions")},
        "price": PRICES.get(row["price"] or 0),
        "categories": [Category(alias=a, title=names[a]) for a in row["categories"]],
        "neighborhood": row["neighborhood"],
        "location": Location(
            address1=row["address1"],
            city="San Francisco",
            zip_code=row["zip_code"],
            state="CA",
            country="US",
            display_address=[row["address1"], f"San Francisco, CA {row['zip_code']}"],
        ),
        "display_phone": display_phone(row["phone"]),
        "distance": None if distance is None else round(distance, 1),
    }


def details(db: Database, row: dict[str, Any]) -> BusinessDetails:
    """A business's full page."""
    waiting = line(db, row["id"])
    return BusinessDetails(
        **summary_fields(row, titles(db), None),
        phone=row["phone"],
        is_claimed=row["owner_id"] is not None,
        hours=[
            Hours(
                open=[OpenInterval(**h) for h in row["hours"]],
                hours_type="REGULAR",
                is_open_now=is_open_at(row, local_now(db)),
            )
        ]
        if row["hours"]
        else [],
        special_hours=[SpecialHours(**{"start": None, "end": None, **s}) for s in row["special_hours"]],
        reservations=ReservationSettings(
            max_party_size=row["max_covers"],
            booking_window_days=row["booking_window_days"],
            change_cutoff_minutes=row["change_cutoff_minutes"],
        )
        if "restaurant_reservation" in row["transactions"]
        else None,
        waitlist=WaitlistSettings(
            accepting_parties=row["waitlist_open"] and is_open_at(row, local_now(db)),
            max_party_size=row["max_covers"],
            parties_waiting=len(waiting),
            estimated_wait_minutes=(len(waiting) + 1) * row["wait_minutes_per_party"],
        )
        if "waitlist_reservation" in row["transactions"]
        else None,
    )


def review(db: Database, row: dict[str, Any]) -> Review:
    """A review with its author."""
    author = db.get(users, row["user_id"], "User")
    return Review(
        **{k: row[k] for k in ("id", "rating", "text", "time_created", "time_updated")},
        user=ReviewUser(id=author["id"], name=author["name"]),
    )


def my_review(db: Database, row: dict[str, Any]) -> MyReview:
    """One of the person's reviews with the business's current rating."""
    biz = db.get(businesses, row["business_id"], "Business")
    return MyReview(
        **{k: row[k] for k in ("id", "business_id", "rating", "text", "time_created", "time_updated")},
        business_name=biz["name"],
        business_rating=biz["rating"],
        business_review_count=biz["review_count"],
    )


def ref(db: Database, business_id: str) -> BusinessRef:
    """A business's id and name."""
    return BusinessRef(id=business_id, name=db.get(businesses, business_id, "Business")["name"])


def reservation(db: Database, row: dict[str, Any], cutoff: str) -> Reservation:
    """A reservation row with its business and change cut-off."""
    return Reservation(
        reservation_id=row["id"],
        business=ref(db, row["business_id"]),
        **{k: row[k] for k in ("date", "time", "covers", "status", "notes")},
        online_changes_until=cutoff,
    )


def visit(db: Database, row: dict[str, Any]) -> WaitlistVisit:
    """A waitlist visit with its place in line."""
    position = None
    if row["status"] == "waiting":
        position = [v["id"] for v in line(db, row["business_id"])].index(row["id"]) + 1
    return WaitlistVisit(
        visit_id=row["id"],
        business=ref(db, row["business_id"]),
        position=position,
        **{k: row[k] for k in ("party_size", "status", "quoted_wait_minutes", "joined_at", "notes")},
    )


def collection(db: Database, row: dict[str, Any]) -> Collection:
    """A collection with its saved businesses, newest first."""
    items = db.find(collection_items, collection_id=row["id"])
    items.sort(key=lambda i: (i["added_on"], i["id"]), reverse=True)
    return Collection(
        **{k: row[k] for k in ("id", "name", "description", "visibility", "is_default")},
        item_count=len(items),
        items=[
            CollectionItem(business=ref(db, i["business_id"]), note=i["note"], added_on=i["added_on"]) for i in items
        ],
    )


def check_in(db: Database, row: dict[str, Any]) -> CheckIn:
    """A check-in with its business."""
    return CheckIn(
        id=row["id"], business=ref(db, row["business_id"]), **{k: row[k] for k in ("date", "time", "comment")}
    )
