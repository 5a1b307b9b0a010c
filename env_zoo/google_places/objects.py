"""Google Places objects as output models (Places API (New) field names in snake_case), and how stored rows
become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import parse_timestamp

from .access import role
from .hours import current_opening_hours, open_now, regular_opening_hours
from .schema import list_followers, places, reviews, saved_places, users


class LatLng(BaseModel):
    """A point on the map."""

    latitude: float
    longitude: float


class TimePoint(BaseModel):
    """An opening or closing moment: day 0 is Sunday; `date` on current (dated) periods."""

    day: int
    hour: int
    minute: int
    date: str | None = None


class Period(BaseModel):
    """One opening period; a period without `close` is open around the clock."""

    open: TimePoint
    close: TimePoint | None


class OpeningHours(BaseModel):
    """regularOpeningHours: the usual week."""

    open_now: bool | None
    periods: list[Period]
    weekday_descriptions: list[str]


class CurrentOpeningHours(OpeningHours):
    """currentOpeningHours: the seven days from today, special hours (holidays, events) applied."""

    special_days: list[str] = Field(description="dates in the window whose hours differ from the usual week")
    next_open_time: str | None = Field(description="UTC; when a closed place opens next")
    next_close_time: str | None = Field(description="UTC; when an open place closes next")


class AccessibilityOptions(BaseModel):
    """Wheelchair access as reported for the place (null: unknown)."""

    wheelchair_accessible_parking: bool | None = None
    wheelchair_accessible_entrance: bool | None = None
    wheelchair_accessible_restroom: bool | None = None
    wheelchair_accessible_seating: bool | None = None


class ReviewObject(BaseModel):
    """A review of a place."""

    id: str
    name: str = Field(description="resource name places/{place_id}/reviews/{id}")
    place_id: str
    place_display_name: str
    rating: int = Field(description="1 to 5 stars")
    text: str | None
    author_display_name: str
    relative_publish_time_description: str
    publish_time: str
    update_time: str | None


class PlaceSummary(BaseModel):
    """A search result."""

    id: str
    name: str = Field(description="resource name places/{id}")
    display_name: str
    primary_type: str
    primary_type_display_name: str
    short_formatted_address: str
    location: LatLng
    rating: float | None
    user_rating_count: int
    price_level: str | None
    business_status: str
    open_now: bool | None


class PlaceObject(PlaceSummary):
    """Place Details."""

    types: list[str]
    formatted_address: str
    national_phone_number: str | None
    international_phone_number: str | None
    website_uri: str | None
    google_maps_uri: str
    utc_offset_minutes: int
    regular_opening_hours: OpeningHours | None
    current_opening_hours: CurrentOpeningHours | None
    accessibility_options: AccessibilityOptions
    delivery: bool | None
    dine_in: bool | None
    takeout: bool | None
    reservable: bool | None
    serves_vegetarian_food: bool | None
    outdoor_seating: bool | None
    good_for_children: bool | None
    allows_dogs: bool | None
    editorial_summary: str | None
    reviews: list[ReviewObject] = Field(description="up to five reviews, newest first")


class LocalizedValues(BaseModel):
    """Distance and duration as text."""

    distance: str
    duration: str


class RouteMatrixElement(BaseModel):
    """One origin-destination pair of a route matrix."""

    origin_index: int
    destination_index: int
    condition: str = Field(description="ROUTE_EXISTS or ROUTE_NOT_FOUND")
    distance_meters: int | None
    duration: str | None = Field(description="seconds with an s suffix, e.g. '812s'")
    localized_values: LocalizedValues | None


class AccountObject(BaseModel):
    """The signed-in Google account."""

    user_id: str
    display_name: str
    email: str


class SavedListObject(BaseModel):
    """A saved list: a default list (Favorites, Want to go, Travel plans, Starred places), a custom list, or one
    that someone shared and the user follows."""

    id: str
    name: str
    kind: str = Field(description="FAVORITES, WANT_TO_GO, TRAVEL_PLANS, STARRED or CUSTOM")
    emoji: str | None
    description: str
    owner_display_name: str
    role: str = Field(description="OWNER; EDITOR (following a list that lets others edit) or VIEWER")
    visibility: str = Field(description="PRIVATE, SHARED (anyone with the link) or PUBLIC (on the owner's profile)")
    collaborative: bool = Field(description="whether people with the link may add places")
    share_url: str | None
    place_count: int
    follower_count: int


class SavedPlaceObject(BaseModel):
    """A place in a saved list, with its note."""

    place_id: str
    display_name: str
    primary_type_display_name: str
    short_formatted_address: str
    rating: float | None
    business_status: str
    note: str
    added_by: str


class SavedListPage(BaseModel):
    """A saved list and one page of its places, in the order they were added."""

    saved_list: SavedListObject
    places: list[SavedPlaceObject]
    next_page_token: str | None
    has_more: bool


class LabelObject(BaseModel):
    """A private label on a place (Home, Work or the user's own name for it)."""

    place_id: str
    label: str
    display_name: str
    formatted_address: str


class SavedOverview(BaseModel):
    """The Saved tab: the user's lists, lists they follow, and labeled places."""

    lists: list[SavedListObject]
    labeled: list[LabelObject]


class VisitObject(BaseModel):
    """A visit recorded in Timeline or by checking in."""

    id: str
    place_id: str
    display_name: str
    short_formatted_address: str
    source: str = Field(description="TIMELINE or CHECK_IN")
    visited_at: str
    reviewed: bool = Field(description="whether the user has reviewed this place")


# ---------------------------------------------------------------- conversions


def rating(place: dict[str, Any]) -> float | None:
    """The average star rating to one decimal, null without ratings."""
    count = place["user_rating_count"]
    return round(place["rating_total"] / count, 1) if count else None


def place_summary(db: Database, place: dict[str, Any]) -> PlaceSummary:
    """A place as a search result."""
    return PlaceSummary(**_summary_fields(db, place))


def _summary_fields(db: Database, place: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: place[k] for k in PlaceSummary.model_fields if k in place},
        "name": f"places/{place['id']}",
        "location": LatLng(latitude=place["latitude"], longitude=place["longitude"]),
        "rating": rating(place),
        "open_now": open_now(db, place),
    }


def place_object(db: Database, place: dict[str, Any], place_reviews: list[dict[str, Any]]) -> PlaceObject:
    """Place Details with hours computed for now and the newest reviews."""
    fields = {k: place[k] for k in PlaceObject.model_fields if k in place}
    fields.update(_summary_fields(db, place))
    fields["accessibility_options"] = AccessibilityOptions(**place["accessibility_options"])
    return PlaceObject(
        **fields,
        regular_opening_hours=regular_opening_hours(db, place),
        current_opening_hours=current_opening_hours(db, place),
        reviews=[review_object(db, r, place) for r in place_reviews[:5]],
    )


def relative_time(db: Database, moment: str) -> str:
    """'a week ago', '3 months ago' as Google Maps writes it."""
    then = parse_timestamp(moment, "time")
    seconds = max(0, (db.now() - then).total_seconds())
    for size, unit in (
        (365 * 86400, "year"),
        (30 * 86400, "month"),
        (7 * 86400, "week"),
        (86400, "day"),
        (3600, "hour"),
    ):
        if seconds >= size:
            count = int(seconds // size)
            return f"a{'n' if unit == 'hour' else ''} {unit} ago" if count == 1 else f"{count} {unit}s ago"
    return "just now"


def review_object(db: Database, row: dict[str, Any], place: dict[str, Any] | None = None) -> ReviewObject:
    """A stored review as the API returns it."""
    place = place or db.get(places, row["place_id"], "Place")
    return ReviewObject(
        **{
            k: row[k]
            for k in ("id", "place_id", "rating", "text", "author_display_name", "publish_time", "update_time")
        },
        name=f"places/{row['place_id']}/reviews/{row['id']}",
        place_display_name=place["display_name"],
        relative_publish_time_description=relative_time(db, row["update_time"] or row["publish_time"]),
    )


def saved_place_object(db: Database, item: dict[str, Any]) -> SavedPlaceObject:
    """A list item with its place's name, address and rating."""
    place = db.get(places, item["place_id"], "Place")
    return SavedPlaceObject(
        **{
            k: place[k]
            for k in ("display_name", "primary_type_display_name", "short_formatted_address", "business_status")
        },
        place_id=place["id"],
        rating=rating(place),
        note=item["note"],
        added_by=db.get(users, item["added_by"], "User")["display_name"],
    )


def label_object(db: Database, row: dict[str, Any]) -> LabelObject:
    """A label with its place."""
    place = db.get(places, row["place_id"], "Place")
    return LabelObject(
        place_id=place["id"],
        label=row["name"],
        display_name=place["display_name"],
        formatted_address=place["formatted_address"],
    )


def has_review(db: Database, user_id: str, place_id: str) -> bool:
    """Whether a user has reviewed a place."""
    return bool(db.find(reviews, author_id=user_id, place_id=place_id))


def visit_object(db: Database, row: dict[str, Any]) -> VisitObject:
    """A visit with its place, and whether the visitor reviewed it."""
    place = db.get(places, row["place_id"], "Place")
    return VisitObject(
        id=row["id"],
        place_id=place["id"],
        display_name=place["display_name"],
        short_formatted_address=place["short_formatted_address"],
        source=row["source"],
        visited_at=row["visited_at"],
        reviewed=has_review(db, row["user_id"], place["id"]),
    )


def list_object(db: Database, row: dict[str, Any], user: dict[str, Any]) -> SavedListObject:
    """A list with its counts, as `user` (its owner, an editor or a viewer) sees it."""
    return SavedListObject(
        **{
            k: row[k]
            for k in ("id", "name", "kind", "emoji", "description", "visibility", "collaborative", "share_url")
        },
        owner_display_name=db.get(users, row["owner_id"], "User")["display_name"],
        role=role(db, row, user["id"]) or "VIEWER",
        place_count=len(db.find(saved_places, list_id=row["id"])),
        follower_count=len(db.find(list_followers, list_id=row["id"])),
    )
