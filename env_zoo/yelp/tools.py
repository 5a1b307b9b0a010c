"""Yelp tools: business search and details, reviews (read, write, update, remove), Yelp Reservations (openings,
holds, bookings, changes, cancellations), Yelp Waitlist (join, check, leave), collections and bookmarks,
check-ins, plus what only the person does (signing in)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Page, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, bounded, page_size, text
from envfactory_gym.values import parse_date

from . import access, bookings, community
from .objects import (
    BusinessDetails,
    CheckIn,
    Collection,
    Hold,
    MyReview,
    Openings,
    Reservation,
    ReviewsPage,
    SearchResult,
    SessionObject,
    WaitlistVisit,
    collection,
    details,
    my_review,
    reservation,
    review,
    visit,
)
from .objects import (
    check_in as check_in_object,
)
from .rules import at, business, open_business, openings, refuse_day
from .schema import checkins, collections, reservations, reviews, waitlist_visits
from .search import search

Time = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$"), ErrorText("must be a local time like 19:30")]
Covers = Annotated[int, Field(ge=1, le=20), ErrorText("must be 1 to 20 guests")]
Stars = Annotated[int, Field(ge=1, le=5), ErrorText("must be 1 to 5 stars")]
ReviewText = Annotated[
    str, Field(min_length=85, max_length=5000), ErrorText("Reviews need to be between 85 and 5,000 characters.")
]
Notes = Annotated[str, Field(max_length=200), ErrorText("must be at most 200 characters")]
PageSize = page_size(50)
SCOPES = {"upcoming": ("confirmed",), "past": ("seated", "no_show"), "cancelled": ("cancelled",)}


# ---------------------------------------------------------------- what only the person does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The person signs in to their Yelp account; the password never reaches the assistant.

    Args:
        email: The account's email.
    """
    user = access.sign_in(db, email)
    return SessionObject(user_id=user["id"], name=user["name"], email=user["email"])


# ---------------------------------------------------------------- businesses


@tool(read_only=True)
def search_businesses(
    db: Database,
    location: NonBlankText,
    term: str = "",
    categories: list[str] | None = None,
    price: list[Literal[1, 2, 3, 4]] | None = None,
    open_now: bool = False,
    radius: bounded(1, 40000) | None = None,
    sort_by: Literal["best_match", "rating", "review_count", "distance"] = "best_match",
    limit: bounded(1, 50) = 20,
    offset: bounded(0, 1000) = 0,
) -> SearchResult:
    """Search businesses near a location (Yelp Fusion's business search). Businesses that closed for good never
    show. At most 1,000 results can be paged through: limit + offset must be <= 1000.

    Args:
        location: A San Francisco neighborhood (e.g. "Mission", "North Beach") or "San Francisco".
        term: Words to match in names and categories, e.g. "ramen", "Tartine".
        categories: Category aliases, any of which matches, e.g. ["pizza", "italian"]; a parent such as
            "restaurants" matches its sub-categories.
        price: Price levels to include, 1 ($) to 4 ($$$$).
        open_now: Only businesses open right now.
        radius: Meters around the location's centre (up to 40000); without it a neighborhood search keeps to the
            neighborhood and a city search covers the city.
        sort_by: best_match, rating, review_count or distance.
        limit: Businesses to return, 1 to 50.
        offset: Businesses to skip.
    """
    return search(db, location, term, categories or [], list(price or []), open_now, radius, sort_by, (limit, offset))


@tool(read_only=True)
def get_business(db: Database, business_id: NonBlankText) -> BusinessDetails:
    """A business's details: address, phone, price, rating, categories, regular hours with whether it is open now,
    special hours (holidays and other dates), and its Yelp Reservations and Yelp Waitlist settings.

    Args:
        business_id: The business's id or alias, from search_businesses.
    """
    return details(db, business(db, business_id))


@tool(read_only=True)
def get_business_reviews(
    db: Database,
    business_id: NonBlankText,
    sort_by: Literal["newest", "oldest", "highest_rated", "lowest_rated"] = "newest",
    limit: bounded(1, 20) = 3,
    offset: bounded(0, 1000) = 0,
) -> ReviewsPage:
    """Reviews of a business with their authors.

    Args:
        business_id: The business's id or alias.
        sort_by: newest, oldest, highest_rated or lowest_rated.
        limit: Reviews to return, 1 to 20.
        offset: Reviews to skip.
    """
    row = business(db, business_id)
    order = {"newest": "time_created DESC", "oldest": "time_created", "highest_rated": "rating DESC, time_created DESC"}
    found = db.select(
        reviews, "business_id = ?", (row["id"],), order_by=order.get(sort_by, "rating, time_created DESC")
    )
    return ReviewsPage(reviews=[review(db, r) for r in found[offset : offset + limit]], total=len(found))


# ---------------------------------------------------------------- reviews of the signed-in person


@tool(read_only=True)
def list_my_reviews(db: Database, page_size: PageSize = 20, cursor: str | None = None) -> Page[MyReview]:
    """The signed-in person's reviews, newest first, with each business's current rating.

    Args:
        page_size: Reviews per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    mine = db.select(reviews, "user_id = ?", (access.signed_in(db)["id"],), order_by="time_created DESC")
    page = paginate(mine, page_size, cursor, 50)
    return Page[MyReview](
        results=[my_review(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool()
def write_review(db: Database, business_id: NonBlankText, rating: Stars, text: ReviewText) -> MyReview:
    """Post the signed-in person's review of a business. Yelp's rules: one review per person per business (update
    it instead), 85 to 5,000 characters, no links, never of a business you own, and not of one that has closed
    permanently.

    Args:
        business_id: The business's id or alias.
        rating: 1 to 5 stars.
        text: The review, 85 to 5,000 characters, about the person's own experience.
    """
    user = access.signed_in(db)
    return my_review(db, community.write(db, user, business(db, business_id), rating, text))


@tool()
def update_review(
    db: Database,
    review_id: NonBlankText,
    rating: Stars | None = None,
    text: ReviewText | None = None,
) -> MyReview:
    """Update the signed-in person's review: new stars, new text, or both (85 to 5,000 characters, no links).

    Args:
        review_id: The review, from list_my_reviews.
        rating: New stars, 1 to 5.
        text: New text, 85 to 5,000 characters.
    """
    mine = access.own_review(db, access.signed_in(db), review_id)
    return my_review(db, community.update(db, mine, rating, text))


@tool()
def remove_review(db: Database, review_id: NonBlankText) -> MyReview:
    """Remove the signed-in person's review; the business's rating and review count are recomputed.

    Args:
        review_id: The review, from list_my_reviews.
    """
    mine = access.own_review(db, access.signed_in(db), review_id)
    community.remove(db, mine)
    return my_review(db, mine)


# ---------------------------------------------------------------- Yelp Reservations


@tool(read_only=True)
def get_reservation_openings(
    db: Database, business_id: NonBlankText, date: IsoDate, time: Time, covers: Covers
) -> Openings:
    """Reservation times with room for a party within two hours either side of the requested time (30-minute
    seatings, at least 30 minutes from now, inside the restaurant's booking window).

    Args:
        business_id: The business's id or alias.
        date: The day, YYYY-MM-DD.
        time: The requested local time, HH:MM.
        covers: Number of guests.
    """
    row = open_business(db, business_id)
    bookings.bookable(row, covers)
    moment = at(parse_date(date, "date"), time)
    refuse_day(db, row, moment.date())
    near = [t for t in openings(db, row, moment.date(), covers) if abs((t - moment).total_seconds()) <= 7200]
    return Openings(business_id=row["id"], date=date, covers=covers, availability=[t.strftime("%H:%M") for t in near])


@tool()
def create_hold(db: Database, business_id: NonBlankText, date: IsoDate, time: Time, covers: Covers) -> Hold:
    """Hold one of the openings for the signed-in person for five minutes; book it with create_reservation.

    Args:
        business_id: The business's id or alias.
        date: The day, YYYY-MM-DD.
        time: One of the opening times, HH:MM.
        covers: Number of guests.
    """
    user = access.signed_in(db)
    row = open_business(db, business_id)
    held = bookings.hold(db, user, row, at(parse_date(date, "date"), time), covers)
    return Hold(hold_id=held["id"], **{k: held[k] for k in ("business_id", "date", "time", "covers", "expires_at")})


@tool()
def create_reservation(db: Database, hold_id: NonBlankText, notes: Notes = "") -> Reservation:
    """Book the table a hold keeps for the signed-in person. No two reservations of one person may be within two
    hours of each other.

    Args:
        hold_id: The hold from create_hold, before it expires.
        notes: A note for the restaurant (occasion, seating wish), up to 200 characters.
    """
    user = access.signed_in(db)
    booked = bookings.book(db, user, access.own_hold(db, user, hold_id), notes)
    return reservation(db, booked, bookings.cutoff(db, booked))


@tool(read_only=True)
def list_reservations(
    db: Database,
    scope: Literal["upcoming", "past", "cancelled", "all"] = "upcoming",
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[Reservation]:
    """The signed-in person's Yelp reservations: upcoming (confirmed) soonest first, the others newest first.

    Args:
        scope: upcoming, past (seated or no-show), cancelled, or all.
        page_size: Reservations per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    statuses = SCOPES.get(scope, ())
    marks = ", ".join("?" * len(statuses))
    where = "user_id = ?" + (f" AND status IN ({marks})" if statuses else "")
    order = "date, time" if scope == "upcoming" else "date DESC, time DESC"
    found = db.select(reservations, where, (access.signed_in(db)["id"], *statuses), order_by=order)
    page = paginate(found, page_size, cursor, 50)
    return Page[Reservation](
        results=[reservation(db, r, bookings.cutoff(db, r)) for r in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool()
def modify_reservation(
    db: Database,
    reservation_id: NonBlankText,
    date: IsoDate | None = None,
    time: Time | None = None,
    covers: Covers | None = None,
    notes: Notes | None = None,
) -> Reservation:
    """Change a confirmed reservation's date, time, party size or notes, online only until the restaurant's
    cut-off before it; a new date, time or size must have an opening.

    Args:
        reservation_id: The reservation to change.
        date: A new day, YYYY-MM-DD.
        time: A new local time, HH:MM.
        covers: A new number of guests.
        notes: A new note for the restaurant, up to 200 characters.
    """
    mine = access.own_reservation(db, access.signed_in(db), reservation_id)
    changed = bookings.modify(db, mine, (parse_date(date, "date") if date else None, time), covers, notes)
    return reservation(db, changed, bookings.cutoff(db, changed))


@tool()
def cancel_reservation(db: Database, reservation_id: NonBlankText) -> Reservation:
    """Cancel a confirmed reservation, online only until the restaurant's cut-off before it.

    Args:
        reservation_id: The reservation to cancel.
    """
    mine = access.own_reservation(db, access.signed_in(db), reservation_id)
    cancelled = bookings.cancel(db, mine)
    return reservation(db, cancelled, bookings.cutoff(db, cancelled))


# ---------------------------------------------------------------- Yelp Waitlist


@tool()
def join_waitlist(db: Database, business_id: NonBlankText, party_size: Covers, notes: Notes = "") -> WaitlistVisit:
    """Join a restaurant's Yelp Waitlist line now: it must offer the waitlist, be open and taking parties, and
    the person may be in only one line at a time. The quoted wait grows with the parties ahead.

    Args:
        business_id: The business's id or alias.
        party_size: Number of guests.
        notes: A note for the host (high chair, patio), up to 200 characters.
    """
    user = access.signed_in(db)
    return visit(db, bookings.join(db, user, open_business(db, business_id), party_size, notes))


@tool(read_only=True)
def get_waitlist_visit(db: Database, visit_id: str | None = None) -> WaitlistVisit:
    """The signed-in person's place in a waitlist line: position, quoted wait, status.

    Args:
        visit_id: The visit; without it, the line the person is in now.
    """
    user = access.signed_in(db)
    if visit_id is None:
        row = db.find_one(
            waitlist_visits, user_id=user["id"], status="waiting", not_found="You're not on any waitlist."
        )
    else:
        row = access.own_visit(db, user, visit_id)
    return visit(db, row)


@tool()
def leave_waitlist(db: Database, visit_id: NonBlankText) -> WaitlistVisit:
    """Leave a waitlist line (the parties behind move up).

    Args:
        visit_id: The visit, from join_waitlist or get_waitlist_visit.
    """
    row = access.own_visit(db, access.signed_in(db), visit_id)
    return visit(db, bookings.leave(db, row))


# ---------------------------------------------------------------- collections


@tool(read_only=True)
def list_collections(db: Database) -> list[Collection]:
    """The signed-in person's collections (My Bookmarks first) with the businesses saved in each."""
    found = db.find(collections, user_id=access.signed_in(db)["id"])
    found.sort(key=lambda c: (not c["is_default"], c["name"].casefold()))
    return [collection(db, c) for c in found]


@tool()
def create_collection(
    db: Database,
    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"\S")],
    description: text(500, 0) = "",
    visibility: Literal["public", "private"] = "private",
) -> Collection:
    """Create a collection for the signed-in person; names are unique per person.

    Args:
        name: The collection's name, up to 60 characters.
        description: What it is for, up to 500 characters.
        visibility: public (shown on the profile) or private.
    """
    return collection(db, community.new_collection(db, access.signed_in(db), name, description, visibility))


@tool()
def add_to_collection(
    db: Database, business_id: NonBlankText, collection_id: str | None = None, note: Notes = ""
) -> Collection:
    """Save a business to one of the person's collections; without a collection it is bookmarked (My Bookmarks).

    Args:
        business_id: The business's id or alias.
        collection_id: The collection, from list_collections; omit for My Bookmarks.
        note: A note about the place, up to 200 characters.
    """
    coll = access.own_collection(db, access.signed_in(db), collection_id)
    community.save(db, coll, business(db, business_id), note)
    return collection(db, coll)


@tool()
def remove_from_collection(db: Database, business_id: NonBlankText, collection_id: str | None = None) -> Collection:
    """Take a business out of one of the person's collections (My Bookmarks when none is named).

    Args:
        business_id: The business's id or alias.
        collection_id: The collection; omit for My Bookmarks.
    """
    coll = access.own_collection(db, access.signed_in(db), collection_id)
    community.unsave(db, coll, business(db, business_id))
    return collection(db, coll)


# ---------------------------------------------------------------- check-ins


@tool()
def check_in(db: Database, business_id: NonBlankText, comment: Notes = "") -> CheckIn:
    """Check the signed-in person in at a business they are at: only while it is open, once a day per business.

    Args:
        business_id: The business's id or alias.
        comment: A short comment shown with the check-in, up to 200 characters.
    """
    user = access.signed_in(db)
    return check_in_object(db, community.check_in(db, user, open_business(db, business_id), comment))


@tool(read_only=True)
def list_check_ins(
    db: Database, business_id: str | None = None, page_size: PageSize = 20, cursor: str | None = None
) -> Page[CheckIn]:
    """The signed-in person's check-ins, newest first.

    Args:
        business_id: Only check-ins at this business (id or alias).
        page_size: Check-ins per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    user = access.signed_in(db)
    where, params = "user_id = ?", [user["id"]]
    if business_id is not None:
        where, params = where + " AND business_id = ?", [*params, business(db, business_id)["id"]]
    page = paginate(db.select(checkins, where, params, order_by="date DESC, time DESC"), page_size, cursor, 50)
    return Page[CheckIn](
        results=[check_in_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )
