"""Google Places tools: Text Search and Nearby Search (New), Place Details, the Routes API route matrix, and the
signed-in user's Google Maps saved lists, labels, visits and reviews."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.fields import ErrorText, NonBlankText

from . import access, rules
from .geo import distance_m, localized_distance, localized_duration, route
from .hours import local_date, local_now, open_now
from .objects import rating as place_rating
from .objects import (
    AccountObject,
    LabelObject,
    LocalizedValues,
    PlaceObject,
    PlaceSummary,
    ReviewObject,
    RouteMatrixElement,
    SavedListObject,
    SavedListPage,
    SavedOverview,
    SavedPlaceObject,
    VisitObject,
    has_review,
    label_object,
    list_object,
    place_object,
    place_summary,
    review_object,
    saved_place_object,
    visit_object,
)
from .schema import labels, list_followers, places, reviews, saved_lists, saved_places, visits
from .search import TABLE_A, prominence, relevance, words

PriceLevel = Literal[
    "PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE", "PRICE_LEVEL_VERY_EXPENSIVE"
]
TravelMode = Literal["DRIVE", "BICYCLE", "WALK", "TWO_WHEELER", "TRANSIT"]
Visibility = Literal["PRIVATE", "SHARED", "PUBLIC"]
TableA = Literal[tuple(sorted(TABLE_A))]  # type: ignore[valid-type]
PlaceType = Annotated[TableA, ErrorText("Unsupported type: use a Table A place type such as restaurant or museum.")]
PlaceTypes = Annotated[
    list[TableA], Unordered, ErrorText("Unsupported types: use Table A place types such as restaurant or museum.")
]
TextQuery = Annotated[NonBlankText, ErrorText("is required: say what to look for.")]
SearchPageSize = Annotated[int, Field(ge=1, le=20), ErrorText("must be between 1 and 20.")]
PageSize = Annotated[int, Field(ge=1, le=50), ErrorText("must be between 1 and 50.")]
MinRating = Annotated[float, Field(ge=0, le=5), ErrorText("must be between 0 and 5.")]
ResultCount = Annotated[int, Field(ge=1, le=20), ErrorText("must be between 1 and 20.")]
Waypoints = Annotated[
    list[str], Field(min_length=1), ErrorText("must not be empty: give at least one place ID or latitude,longitude.")
]
ListName = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"\S"), ErrorText("must be 1 to 40 characters, not blank.")
]
Description = Annotated[str, Field(max_length=500), ErrorText("can be at most 500 characters.")]
Emoji = Annotated[
    str, Field(min_length=1, max_length=8, pattern=r"^[^\x00-\x7f]+$"), ErrorText("must be a single emoji.")
]
Note = Annotated[str, Field(max_length=4000), ErrorText("can be at most 4000 characters.")]
Label = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"\S"), ErrorText("must be 1 to 40 characters, not blank.")
]
Stars = Annotated[int, Field(ge=1, le=5), ErrorText("must be a whole number of stars from 1 to 5.")]
ReviewText = Annotated[str, Field(max_length=4096), ErrorText("can be at most 4096 characters.")]
TEXT_SEARCH_LIMIT = 60  # Text Search returns at most 60 places over all pages
MAX_RADIUS = 50_000.0
MAX_ELEMENTS, MAX_TRANSIT_ELEMENTS, MAX_PLACE_WAYPOINTS = 625, 100, 50
SPECIAL_LABELS = ("Home", "Work")


class Circle(BaseModel):
    """A circle on the map."""

    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    radius: float = Field(gt=0, le=MAX_RADIUS, description="metres, more than 0 and up to 50,000")


# ---------------------------------------------------------------- helpers


def _distance(place: dict[str, Any], circle: Circle) -> float:
    return distance_m(circle.latitude, circle.longitude, place["latitude"], place["longitude"])


def _min_rating(value: float | None) -> float:
    return 0.0 if value is None else math.ceil(value * 2) / 2  # rounded up to the nearest 0.5, as the API does


def _open(db: Database, row: dict[str, Any]) -> bool:
    """Whether a place is open at this moment (places without hours are not known to be open)."""
    return bool(open_now(db, row))


def _reviews_of(db: Database, place_id: str) -> list[dict[str, Any]]:
    return db.find(reviews, place_id=place_id, order_by=[reviews.c.publish_time.desc()])


def _waypoint(db: Database, value: str) -> tuple[float, float]:
    """A waypoint given as a place ID or as 'latitude,longitude'."""
    parts = value.split(",")
    if len(parts) == 2:
        try:
            lat, lng = float(parts[0]), float(parts[1])
        except ValueError:
            pass
        else:
            if -90 <= lat <= 90 and -180 <= lng <= 180:
                return lat, lng
            raise InvalidRequest(f"Invalid coordinates '{value}'.")
    target = rules.place(db, value.strip())
    return target["latitude"], target["longitude"]


def _text_rank(
    row: dict[str, Any], query: list[str], included_type: str | None, bias: Circle | None, preference: str
) -> tuple | None:
    """A place's sort key for a text search (places of included_type first, then the most query words found),
    or None when it matches too few of the query's words."""
    found, score = relevance(query, row)
    if found < math.ceil(len(query) / 2) or (query and not found):
        return None
    typed = included_type is None or included_type in row["types"]
    if bias is not None and preference == "DISTANCE":
        return (not typed, -found, _distance(row, bias), row["id"])
    near = bias is not None and _distance(row, bias) <= bias.radius
    return (not typed, -found, not near, -score, -prominence(row), row["id"])


def _item(db: Database, list_row: dict[str, Any], place_id: str) -> dict[str, Any]:
    found = db.find(saved_places, list_id=list_row["id"], place_id=place_id.removeprefix("places/"))
    if not found:
        name = rules.place(db, place_id)["display_name"]
        raise NotFound(f"{name} isn't saved in '{list_row['name']}'.")
    return found[0]


# ---------------------------------------------------------------- places


@tool(read_only=True)
def search_text(
    db: Database,
    text_query: TextQuery,
    included_type: PlaceType | None = None,
    strict_type_filtering: bool = False,
    price_levels: Annotated[list[PriceLevel], Unordered] | None = None,
    open_now: bool = False,
    min_rating: MinRating | None = None,
    location_bias: Circle | None = None,
    rank_preference: Literal["RELEVANCE", "DISTANCE"] = "RELEVANCE",
    page_size: SearchPageSize = 20,
    page_token: str | None = None,
) -> Page[PlaceSummary]:
    """Text Search (New): find places from a query such as "pastéis de nata in Belém" or "wine bar Príncipe
    Real". Results are ranked by relevance (or by distance from location_bias), at most 60 over all pages.

    Args:
        text_query: What to look for: a name, a kind of place, a neighbourhood or a mix.
        included_type: One Table A place type (e.g. restaurant, cafe, bakery, museum, bar); matching places first.
        strict_type_filtering: true to return only places of included_type.
        price_levels: Only places at these price levels.
        open_now: true to return only places open right now.
        min_rating: Only places rated at least this (0 to 5, rounded up to the nearest 0.5).
        location_bias: Prefer places inside this circle.
        rank_preference: RELEVANCE, or DISTANCE from the centre of location_bias.
        page_size: Places per page, 1 to 20.
        page_token: The next_cursor of the previous page.
    """
    if location_bias is None and rank_preference == "DISTANCE":
        raise InvalidRequest("rank_preference DISTANCE needs a location_bias.")
    floor = _min_rating(min_rating)
    query = words(text_query)
    ranked = []
    for row in db.find(places):
        if price_levels and row["price_level"] not in price_levels:
            continue
        if (place_rating(row) or 0.0) < floor or (open_now and not _open(db, row)):
            continue
        if strict_type_filtering and included_type not in (None, *row["types"]):
            continue
        key = _text_rank(row, query, included_type, location_bias, rank_preference)
        if key is not None:
            ranked.append((key, row))
    ranked.sort(key=lambda pair: pair[0])
    results = [place_summary(db, row) for _, row in ranked[:TEXT_SEARCH_LIMIT]]
    return paginate(results, page_size, page_token, max_page_size=20)


@tool(read_only=True)
def search_nearby(
    db: Database,
    location_restriction: Circle,
    included_types: PlaceTypes | None = None,
    excluded_types: PlaceTypes | None = None,
    max_result_count: ResultCount = 20,
    rank_preference: Literal["POPULARITY", "DISTANCE"] = "POPULARITY",
) -> list[PlaceSummary]:
    """Nearby Search (New): places of given types inside a circle, most popular (or nearest) first; one page of
    at most 20.

    Args:
        location_restriction: The circle to search in (radius up to 50,000 m).
        included_types: Table A types; a place matches if it has any of them.
        excluded_types: Table A types to leave out.
        max_result_count: How many places to return, 1 to 20.
        rank_preference: POPULARITY or DISTANCE from the circle's centre.
    """
    found = [
        row
        for row in db.find(places)
        if _distance(row, location_restriction) <= location_restriction.radius
        and (not included_types or set(included_types) & set(row["types"]))
        and not set(excluded_types or []) & set(row["types"])
    ]
    if rank_preference == "DISTANCE":
        found.sort(key=lambda r: (_distance(r, location_restriction), r["id"]))
    else:
        found.sort(key=lambda r: (-prominence(r), r["id"]))
    return [place_summary(db, row) for row in found[:max_result_count]]


@tool(read_only=True)
def get_place(db: Database, place_id: str) -> PlaceObject:
    """Place Details (New): address, phone, website, rating, price level, business status, opening hours (the
    usual week and the next seven days with special hours, open now, next open/close time), accessibility,
    service options and the five newest reviews.

    Args:
        place_id: The place ID (ChIJ...), as search results give it.
    """
    row = rules.place(db, place_id)
    return place_object(db, row, _reviews_of(db, row["id"]))


@tool(read_only=True)
def compute_route_matrix(
    db: Database,
    origins: Waypoints,
    destinations: Waypoints,
    travel_mode: TravelMode = "DRIVE",
) -> list[RouteMatrixElement]:
    """Routes API computeRouteMatrix: distance and travel time from every origin to every destination. Walking
    and cycling can't cross the Tagus to the south bank (Almada); driving uses the bridge, transit the ferry.

    Args:
        origins: Place IDs or 'latitude,longitude' strings.
        destinations: Place IDs or 'latitude,longitude' strings.
        travel_mode: DRIVE, BICYCLE, WALK, TWO_WHEELER or TRANSIT.
    """
    elements = len(origins) * len(destinations)
    limit = MAX_TRANSIT_ELEMENTS if travel_mode == "TRANSIT" else MAX_ELEMENTS
    if elements > limit:
        raise InvalidRequest(f"The matrix has {elements} elements; {travel_mode} allows at most {limit}.")
    if sum("," not in w for w in origins + destinations) > MAX_PLACE_WAYPOINTS:
        raise InvalidRequest("At most 50 waypoints may be given as place IDs.")
    starts = [_waypoint(db, w) for w in origins]
    ends = [_waypoint(db, w) for w in destinations]
    matrix = []
    for i, start in enumerate(starts):
        for j, end in enumerate(ends):
            leg = route(start, end, travel_mode)
            matrix.append(
                RouteMatrixElement(
                    origin_index=i,
                    destination_index=j,
                    condition="ROUTE_EXISTS" if leg else "ROUTE_NOT_FOUND",
                    distance_meters=leg[0] if leg else None,
                    duration=f"{leg[1]}s" if leg else None,
                    localized_values=LocalizedValues(
                        distance=localized_distance(leg[0]), duration=localized_duration(leg[1])
                    )
                    if leg
                    else None,
                )
            )
    return matrix


# ---------------------------------------------------------------- saved lists


@tool(read_only=True)
def list_saved_lists(db: Database) -> SavedOverview:
    """The Saved tab of the signed-in user: default lists (Favorites, Want to go, Travel plans, Starred places),
    their own lists, lists they follow, and their labeled places."""
    user = access.me(db)
    order = {kind: n for n, kind in enumerate(rules.DEFAULT_LISTS)}
    own = sorted(db.find(saved_lists, owner_id=user["id"]), key=lambda r: (order.get(r["kind"], 9), r["id"]))
    followed = [db.get(saved_lists, f["list_id"], "List") for f in db.find(list_followers, user_id=user["id"])]
    return SavedOverview(
        lists=[list_object(db, row, user) for row in own + followed],
        labeled=[label_object(db, row) for row in db.find(labels, user_id=user["id"], order_by=[labels.c.name])],
    )


@tool(read_only=True)
def get_saved_list(
    db: Database, list_id: str, page_size: PageSize = 20, page_token: str | None = None
) -> SavedListPage:
    """One saved list the user owns or follows, with its places and notes in the order they were added.

    Args:
        list_id: The list's ID (list_...).
        page_size: Places per page, 1 to 50.
        page_token: The next_page_token of the previous page.
    """
    user = access.me(db)
    row, _ = access.visible_list(db, list_id, user)
    items = db.find(saved_places, list_id=row["id"])
    page = paginate(items, page_size, page_token, max_page_size=50)
    return SavedListPage(
        saved_list=list_object(db, row, user),
        places=[saved_place_object(db, i) for i in page.results],
        next_page_token=page.next_cursor,
        has_more=page.has_more,
    )


@tool()
def create_list(
    db: Database, name: ListName, description: Description = "", emoji: Emoji | None = None
) -> SavedListObject:
    """Create a new private list in the signed-in user's Saved places.

    Args:
        name: The list's name, 1 to 40 characters, unique among the user's lists.
        description: What the list is for, up to 500 characters.
        emoji: An emoji shown as the list's icon.
    """
    user = access.me(db)
    now = db.now_iso()
    row = db.insert(
        saved_lists,
        id=db.new_id(saved_lists, "list_"),
        owner_id=user["id"],
        kind="CUSTOM",
        name=rules.check_list_name(db, user, name),
        description=description.strip(),
        emoji=emoji.strip() if emoji else None,
        visibility="PRIVATE",
        collaborative=False,
        share_url=None,
        created_at=now,
        updated_at=now,
    )
    return list_object(db, row, user)


@tool()
def update_list(
    db: Database,
    list_id: str,
    name: ListName | None = None,
    description: Description | None = None,
    emoji: Emoji | None = None,
) -> SavedListObject:
    """Rename a list you own or change its description or emoji. Default lists keep their names and icons; only
    their description can change.

    Args:
        list_id: The list's ID (list_...).
        name: The new name, 1 to 40 characters.
        description: The new description (an empty string clears it).
        emoji: The new emoji icon.
    """
    user = access.me(db)
    row = access.owned_list(db, list_id, user, "edit")
    changes: dict[str, Any] = {}
    if (name is not None or emoji is not None) and row["kind"] != "CUSTOM":
        raise InvalidRequest(f"'{row['name']}' is a default list: its name and icon can't be changed.")
    if name is not None:
        changes["name"] = rules.check_list_name(db, user, name, keep=row["id"])
    if description is not None:
        changes["description"] = description.strip()
    if emoji is not None:
        changes["emoji"] = emoji.strip()
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, description or emoji.")
    return list_object(db, db.update(saved_lists, row["id"], updated_at=db.now_iso(), **changes), user)


@tool()
def delete_list(db: Database, list_id: str) -> SavedListObject:
    """Delete a list you own with its places and notes; people following it lose it. Default lists can't be
    deleted.

    Args:
        list_id: The list's ID (list_...).
    """
    user = access.me(db)
    row = access.owned_list(db, list_id, user, "delete")
    if row["kind"] != "CUSTOM":
        raise InvalidRequest(f"'{row['name']}' is a default list and can't be deleted.")
    gone = list_object(db, row, user)
    for item in db.find(saved_places, list_id=row["id"]):
        db.delete(saved_places, item["id"])
    for follow in db.find(list_followers, list_id=row["id"]):
        db.delete(list_followers, follow["id"])
    db.delete(saved_lists, row["id"])
    return gone


@tool()
def share_list(db: Database, list_id: str, visibility: Visibility, collaborative: bool = False) -> SavedListObject:
    """Change who can see a list you own: PRIVATE (only you; its link stops working and followers lose it),
    SHARED (anyone with the link) or PUBLIC (also on your profile). A shared or public list can let people with
    the link add places (collaborative). Starred places can't be shared.

    Args:
        list_id: The list's ID (list_...).
        visibility: PRIVATE, SHARED or PUBLIC.
        collaborative: true to let people with the link add places (not for private lists).
    """
    user = access.me(db)
    row = access.owned_list(db, list_id, user, "share")
    if row["kind"] == "STARRED" and visibility != "PRIVATE":
        raise InvalidRequest("Starred places can't be shared. Save the places to another list to share them.")
    if visibility == "PRIVATE" and collaborative:
        raise InvalidRequest("A private list can't let others edit it.")
    if (row["visibility"], row["collaborative"]) == (visibility, collaborative):
        raise Conflict(f"'{row['name']}' already has these sharing settings.")
    changes: dict[str, Any] = {"visibility": visibility, "collaborative": collaborative}
    if visibility == "PRIVATE":
        changes["share_url"] = None
        for follow in db.find(list_followers, list_id=row["id"]):
            db.delete(list_followers, follow["id"])
    elif row["share_url"] is None:
        changes["share_url"] = rules.share_url(db)
    return list_object(db, db.update(saved_lists, row["id"], updated_at=db.now_iso(), **changes), user)


@tool()
def follow_list(db: Database, share_url: str) -> SavedListObject:
    """Follow a list someone shared with you by its link, so it appears in your Saved tab (you can add places
    if its owner lets others edit).

    Args:
        share_url: The list's link, https://maps.app.goo.gl/...
    """
    user = access.me(db)
    found = db.find(saved_lists, share_url=share_url.strip())
    if not found or found[0]["visibility"] == "PRIVATE":
        raise NotFound("This link doesn't work: the list was made private or deleted, or the link is wrong.")
    row = found[0]
    if row["owner_id"] == user["id"]:
        raise Conflict(f"'{row['name']}' is your own list.")
    if db.find(list_followers, list_id=row["id"], user_id=user["id"]):
        raise Conflict(f"You already follow '{row['name']}'.")
    db.insert(
        list_followers,
        id=db.new_id(list_followers, "follow_"),
        list_id=row["id"],
        user_id=user["id"],
        followed_at=db.now_iso(),
    )
    return list_object(db, row, user)


@tool()
def save_place(db: Database, list_id: str, place_id: str, note: Note = "") -> SavedPlaceObject:
    """Save a place to a list you own, or to a followed list that lets others edit, with an optional note.

    Args:
        list_id: The list's ID (list_...).
        place_id: The place ID (ChIJ...).
        note: A note shown with the place in the list, up to 4,000 characters.
    """
    user = access.me(db)
    row, _ = access.editable_list(db, list_id, user)
    target = rules.place(db, place_id)
    if db.find(saved_places, list_id=row["id"], place_id=target["id"]):
        raise Conflict(f"{target['display_name']} is already saved in '{row['name']}'.")
    item = db.insert(
        saved_places,
        id=db.new_id(saved_places, "item_"),
        list_id=row["id"],
        place_id=target["id"],
        note=note.strip(),
        added_by=user["id"],
        added_at=db.now_iso(),
    )
    db.update(saved_lists, row["id"], updated_at=db.now_iso())
    return saved_place_object(db, item)


@tool()
def update_saved_place_note(db: Database, list_id: str, place_id: str, note: Note) -> SavedPlaceObject:
    """Write, replace or clear (empty string) the note of a place in a list you can edit.

    Args:
        list_id: The list's ID (list_...).
        place_id: The saved place's ID (ChIJ...).
        note: The new note, up to 4,000 characters.
    """
    user = access.me(db)
    row, _ = access.editable_list(db, list_id, user)
    item = _item(db, row, place_id)
    updated = db.update(saved_places, item["id"], note=note.strip())
    return saved_place_object(db, updated)


@tool()
def remove_saved_place(db: Database, list_id: str, place_id: str) -> SavedPlaceObject:
    """Remove a place from a list. In a list someone else owns, you can remove only the places you added.

    Args:
        list_id: The list's ID (list_...).
        place_id: The saved place's ID (ChIJ...).
    """
    user = access.me(db)
    row, found = access.editable_list(db, list_id, user)
    item = _item(db, row, place_id)
    if found != "OWNER" and item["added_by"] != user["id"]:
        raise PermissionDenied(
            f"Only the list's owner or the person who added {rules.place(db, place_id)['display_name']} can remove it."
        )
    gone = saved_place_object(db, item)
    db.delete(saved_places, item["id"])
    db.update(saved_lists, row["id"], updated_at=db.now_iso())
    return gone


# ---------------------------------------------------------------- labels and visits


@tool()
def set_label(db: Database, place_id: str, label: Label) -> LabelObject:
    """Give a place a private label, shown only to you. A place has one label (this replaces it). Home and Work
    are one place each: labeling a new place Home moves the label; other labels must be unique.

    Args:
        place_id: The place ID (ChIJ...).
        label: The label, up to 40 characters (Home, Work or your own name for the place).
    """
    user = access.me(db)
    target = rules.place(db, place_id)
    name = next((s for s in SPECIAL_LABELS if s.casefold() == label.strip().casefold()), label.strip())
    for other in db.find(labels, user_id=user["id"]):
        if other["place_id"] != target["id"] and other["name"].casefold() == name.casefold():
            if name not in SPECIAL_LABELS:
                taken = rules.place(db, other["place_id"])["display_name"]
                raise Conflict(f"You already use the label '{other['name']}' for {taken}.")
            db.delete(labels, other["id"])
    current = db.find(labels, user_id=user["id"], place_id=target["id"])
    if current:
        return label_object(db, db.update(labels, current[0]["id"], name=name))
    return label_object(
        db, db.insert(labels, id=db.new_id(labels, "label_"), user_id=user["id"], place_id=target["id"], name=name)
    )


@tool()
def remove_label(db: Database, place_id: str) -> LabelObject:
    """Remove your label from a place.

    Args:
        place_id: The labeled place's ID (ChIJ...).
    """
    user = access.me(db)
    target = rules.place(db, place_id)
    current = db.find(labels, user_id=user["id"], place_id=target["id"])
    if not current:
        raise NotFound(f"{target['display_name']} has no label.")
    gone = label_object(db, current[0])
    db.delete(labels, current[0]["id"])
    return gone


@tool(read_only=True)
def list_visited_places(db: Database, page_size: PageSize = 20, page_token: str | None = None) -> Page[VisitObject]:
    """Places the signed-in user has been to (Timeline visits and check-ins), newest first, with whether they
    have reviewed each.

    Args:
        page_size: Visits per page, 1 to 50.
        page_token: The next_cursor of the previous page.
    """
    user = access.me(db)
    rows = db.find(visits, user_id=user["id"], order_by=[visits.c.visited_at.desc()])
    page = paginate(rows, page_size, page_token, max_page_size=50)
    return Page[VisitObject](
        results=[visit_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


# ---------------------------------------------------------------- reviews


@tool(read_only=True)
def list_my_reviews(db: Database, page_size: PageSize = 20, page_token: str | None = None) -> Page[ReviewObject]:
    """The signed-in user's own reviews, newest first.

    Args:
        page_size: Reviews per page, 1 to 50.
        page_token: The next_cursor of the previous page.
    """
    user = access.me(db)
    rows = db.find(reviews, author_id=user["id"], order_by=[reviews.c.publish_time.desc()])
    page = paginate(rows, page_size, page_token, max_page_size=50)
    return Page[ReviewObject](
        results=[review_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool()
def create_review(db: Database, place_id: str, rating: Stars, text: ReviewText = "") -> ReviewObject:
    """Post a review of a place you have been to (a Timeline visit or a check-in). One review per place: edit
    the existing one instead. Permanently closed places and plain addresses take no reviews.

    Args:
        place_id: The place ID (ChIJ...).
        rating: Stars, 1 to 5.
        text: What you thought, up to 4,096 characters (optional).
    """
    user = access.me(db)
    target = rules.place(db, place_id)
    body = text.strip()
    if has_review(db, user["id"], target["id"]):
        raise Conflict(f"You already reviewed {target['display_name']}. Edit that review instead.")
    rules.check_reviewable(db, target, user)
    row = db.insert(
        reviews,
        id=db.new_id(reviews, rules.REVIEW_PREFIX, width=5),
        place_id=target["id"],
        author_id=user["id"],
        author_display_name=user["display_name"],
        rating=rating,
        text=body or None,
        language_code="en",
        publish_time=db.now_iso(),
        update_time=None,
    )
    rules.move_rating(db, target["id"], rating, 1)
    return review_object(db, row)


@tool()
def update_review(
    db: Database, review_id: str, rating: Stars | None = None, text: ReviewText | None = None
) -> ReviewObject:
    """Edit one of your reviews: its stars, its text, or both (an empty text removes it).

    Args:
        review_id: The review's ID, as list_my_reviews gives it.
        rating: New stars, 1 to 5.
        text: New text, up to 4,096 characters.
    """
    user = access.me(db)
    row = access.own_review(db, review_id, user)
    changes: dict[str, Any] = {}
    if rating is not None:
        changes["rating"] = rating
    if text is not None:
        changes["text"] = text.strip() or None
    if not changes:
        raise InvalidRequest("Nothing to update: give a rating or text.")
    if "rating" in changes:
        rules.move_rating(db, row["place_id"], changes["rating"] - row["rating"], 0)
    return review_object(db, db.update(reviews, row["id"], update_time=db.now_iso(), **changes))


@tool()
def delete_review(db: Database, review_id: str) -> ReviewObject:
    """Delete one of your reviews; its stars leave the place's rating.

    Args:
        review_id: The review's ID, as list_my_reviews gives it.
    """
    user = access.me(db)
    row = access.own_review(db, review_id, user)
    gone = review_object(db, row)
    rules.move_rating(db, row["place_id"], -row["rating"], -1)
    db.delete(reviews, row["id"])
    return gone


# ---------------------------------------------------------------- the user themselves


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> AccountObject:
    """(User only) Sign in to Google Maps with a Google account; the password never reaches the assistant.

    Args:
        email: The Google account's email address.
    """
    user = access.sign_in(db, email)
    return AccountObject(user_id=user["id"], display_name=user["display_name"], email=user["email"])


@tool(user_only=True)
def check_in(db: Database, place_id: str) -> VisitObject:
    """(User only, on the spot) Check in at the place where the user physically is; the visit then counts for
    reviews. Closed places can't be checked in to, and one check-in per place a day.

    Args:
        place_id: The place the user is at (ChIJ...).
    """
    user = access.me(db)
    target = rules.place(db, place_id)
    if target["business_status"] != "OPERATIONAL":
        status = "permanently" if target["business_status"] == "CLOSED_PERMANENTLY" else "temporarily"
        raise Conflict(f"{target['display_name']} is {status} closed.")
    if target["opening_hours"] is not None and not _open(db, target):
        raise Conflict(f"{target['display_name']} is closed right now.")
    today = local_now(db, target).date()
    if any(
        v["source"] == "CHECK_IN" and local_date(v["visited_at"], target) == today
        for v in db.find(visits, user_id=user["id"], place_id=target["id"])
    ):
        raise Conflict(f"You already checked in at {target['display_name']} today.")
    row = db.insert(
        visits,
        id=db.new_id(visits, "visit_"),
        user_id=user["id"],
        place_id=target["id"],
        source="CHECK_IN",
        visited_at=db.now_iso(),
    )
    return visit_object(db, row)
