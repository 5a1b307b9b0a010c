"""Letterboxd tools for a signed-in member: find films and members, read film details with your relationship,
diaries, reviews, watchlists, lists, follows and your activity feed; log films (diary entries and reviews), edit or
delete entries, mark films watched, liked, rated or watchlisted, pick four favourites, make and edit lists, follow or
block members and comment on reviews."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text

from . import access, rules
from .objects import (
    ActivityItem,
    FilmObject,
    FilmSummary,
    FollowObject,
    ListObject,
    ListSummary,
    LogEntryDetail,
    LogEntryObject,
    MemberObject,
    MemberSummary,
    SessionObject,
    WatchlistItem,
    activity_item,
    converted,
    entry_detail,
    entry_object,
    film_object,
    film_summary,
    list_object,
    list_summary,
    member_object,
    member_summary,
)
from .schema import film_relationships, films, follows, lists, log_entries, members

Rating = Annotated[
    float,
    Field(ge=0.5, le=5.0, multiple_of=0.5),
    ErrorText("Rating must be between 0.5 and 5.0 stars, in half-star steps."),
]
FilmId = Annotated[str, Field(min_length=2, max_length=12, pattern=r"^\S+$"), ErrorText("Invalid film id.")]
Username = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"^\S+$"), ErrorText("Invalid username (no spaces).")
]
Tag = Annotated[str, Field(min_length=1, max_length=40)]
Review = Annotated[str, Field(max_length=100000), ErrorText("Reviews are limited to 100,000 characters.")]
Genre = Literal[
    "Action", "Animation", "Comedy", "Crime", "Documentary", "Drama", "Fantasy", "Horror", "Mystery", "Romance",
    "Science Fiction", "Thriller", "War", "Western", "Music", "Family", "Adventure", "History",
]  # fmt: skip
PageSize = page_size(100)


class ListEntryInput(BaseModel):
    """A film to put in a list."""

    film_id: FilmId
    rank: Annotated[int, Field(ge=1, le=5000)] | None = None  # ranked lists only; default: the end of the list
    notes: Annotated[str, Field(max_length=100000)] | None = None
    contains_spoilers: bool = False


# ---------------------------------------------------------------- what only the member does


@tool(user_only=True)
def sign_in(db: Database, username: NonBlankText) -> SessionObject:
    """(User only) The member signs in to Letterboxd with their username or email; the password never reaches the
    assistant.

    Args:
        username: The member's username or email address.
    """
    row = access.sign_in(db, username)
    return SessionObject(member_id=row["id"], username=row["username"], display_name=row["display_name"])


# ---------------------------------------------------------------- films


@tool(read_only=True)
def search_films(
    db: Database,
    query: text(100),
    year: Annotated[int, Field(ge=1870, le=2100)] | None = None,
    genre: Genre | None = None,
    director: text(100) | None = None,
    per_page: PageSize = 20,
    cursor: str | None = None,
) -> Page[FilmSummary]:
    """Search films by title (part of it, any case), optionally by release year, genre or director; several films
    can share a title, so check the year and director.

    Args:
        query: Part of the film's title, e.g. "dune".
        year: Release year.
        genre: One of the film's genres.
        director: Part of a director's name.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    where, params = ["name LIKE ?"], [f"%{query.strip()}%"]
    if year is not None:
        where.append("release_year = ?")
        params.append(year)
    rows = db.select(films, " AND ".join(where), params, order_by="name, release_year")
    if genre is not None:
        rows = [row for row in rows if genre in row["genres"]]
    if director is not None:
        rows = [row for row in rows if any(director.strip().lower() in d.lower() for d in row["directors"])]
    return paginate([film_summary(row) for row in rows], per_page, cursor)


@tool(read_only=True)
def get_film(db: Database, film_id: FilmId) -> FilmObject:
    """A film's details (release date, runtime, directors, genres, average rating) and your relationship with it:
    watched, liked, your rating, whether it's in your watchlist, your diary entries and reviews of it.

    Args:
        film_id: The film's id, from search_films.
    """
    viewer = access.me(db)
    return film_object(db, access.film(db, film_id), viewer["id"], rules.today(db))


@tool()
def update_film_relationship(
    db: Database,
    film_id: FilmId,
    watched: bool | None = None,
    liked: bool | None = None,
    rating: Rating | None = None,
    remove_rating: bool = False,
    in_watchlist: bool | None = None,
) -> FilmObject:
    """Change your relationship with a film without logging it: mark it watched or not, like it, rate it or clear
    your rating, add it to or remove it from your watchlist. Rating or liking a film marks it watched; unreleased
    films can be watchlisted but not rated, liked or marked watched; a film with diary entries or reviews stays
    watched.

    Args:
        film_id: The film's id.
        watched: Mark as watched (true) or not watched (false).
        liked: Like (true) or unlike (false).
        rating: Your rating in stars, 0.5 to 5.0 in half stars.
        remove_rating: Clear your rating.
        in_watchlist: Add to (true) or remove from (false) your watchlist.
    """
    viewer = access.me(db)
    film = access.film(db, film_id)
    changes: dict[str, object] = {
        key: value
        for key, value in {"watched": watched, "liked": liked, "in_watchlist": in_watchlist}.items()
        if value is not None
    }
    if rating is not None:
        changes["rating"] = rules.half_stars(rating)
    elif remove_rating:
        changes["rating"] = None
    rules.set_relationship(db, viewer, film, changes)
    return film_object(db, film, viewer["id"], rules.today(db))


# ---------------------------------------------------------------- members


@tool(read_only=True)
def search_members(
    db: Database, query: text(60), per_page: PageSize = 20, cursor: str | None = None
) -> Page[MemberSummary]:
    """Find members by part of their username or display name.

    Args:
        query: Part of the username or display name.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    like = f"%{query.strip()}%"
    rows = db.select(members, "username LIKE ? OR display_name LIKE ?", (like, like), order_by="username")
    visible = [
        row for row in rows if row["id"] == viewer["id"] or not access.blocked_between(db, row["id"], viewer["id"])
    ]
    return paginate([member_summary(row) for row in visible], per_page, cursor)


@tool(read_only=True)
def get_member(db: Database, username: Username | None = None) -> MemberObject:
    """A member's profile: four favourite films, who may comment on their reviews, and counts of films watched,
    diary entries, lists, following and followers; yours when no username is given.

    Args:
        username: The member's username; default yourself.
    """
    viewer = access.me(db)
    row = access.member(db, username, viewer)
    return member_object(db, row, viewer)


@tool()
def set_favorite_films(
    db: Database,
    film_ids: Annotated[list[FilmId], Field(max_length=4), ErrorText("You can pick at most four favorite films.")],
) -> MemberObject:
    """Replace your four favourite films shown on your profile (in the order given; an empty list clears them).

    Args:
        film_ids: Up to four film ids, first shown first.
    """
    viewer = access.me(db)
    rules.set_favorites(db, viewer, [access.film(db, fid) for fid in film_ids])
    return member_object(db, db.get(members, viewer["id"], "Member"), viewer)


@tool()
def update_member_relationship(
    db: Database, username: Username, following: bool | None = None, blocking: bool | None = None
) -> MemberObject:
    """Follow or unfollow, block or unblock a member. Blocking ends follows both ways; nobody follows across a
    block.

    Args:
        username: The member's username.
        following: Follow (true) or unfollow (false).
        blocking: Block (true) or unblock (false).
    """
    viewer = access.me(db)
    other = db.find_one(members, not_found=f"Member {username} not found.", username=username.strip().lower())
    if blocking is not None:
        rules.set_blocking(db, viewer, other, blocking)
    if following is not None:
        rules.set_following(db, viewer, other, following)
    return member_object(db, other, viewer)


@tool(read_only=True)
def get_follows(
    db: Database,
    username: Username | None = None,
    direction: Literal["following", "followers"] = "following",
    per_page: PageSize = 50,
    cursor: str | None = None,
) -> Page[FollowObject]:
    """The members someone follows, or their followers; yours by default, most recent first.

    Args:
        username: The member's username; default yourself.
        direction: "following" (whom they follow) or "followers".
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    row = access.member(db, username, viewer)
    if direction == "following":
        found = db.find(follows, follower_id=row["id"])
        pairs = [(f["followed_id"], f["since"]) for f in found]
    else:
        found = db.find(follows, followed_id=row["id"])
        pairs = [(f["follower_id"], f["since"]) for f in found]
    pairs.sort(key=lambda pair: pair[1], reverse=True)
    out = [FollowObject(member=member_summary(db.get(members, mid, "Member")), since=since) for mid, since in pairs]
    return paginate(out, per_page, cursor)


# ---------------------------------------------------------------- diary and reviews


@tool(read_only=True)
def get_diary(
    db: Database,
    username: Username | None = None,
    film_id: FilmId | None = None,
    year: Annotated[int, Field(ge=1900, le=2100)] | None = None,
    month: Annotated[int, Field(ge=1, le=12)] | None = None,
    min_rating: Rating | None = None,
    rewatch: bool | None = None,
    tag: Tag | None = None,
    per_page: PageSize = 20,
    cursor: str | None = None,
) -> Page[LogEntryObject]:
    """A member's diary (log entries with a watched date), most recently watched first; yours by default. Filter by
    film, watched year and month, minimum rating, rewatches or a tag.

    Args:
        username: The member's username; default yourself.
        film_id: Only entries for this film.
        year: Watched in this year.
        month: Watched in this month (with year).
        min_rating: Only entries rated at least this.
        rewatch: Only rewatches (true) or first watches (false).
        tag: Only entries with this tag.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    row = access.member(db, username, viewer)
    where, params = ["member_id = ?", "diary_date IS NOT NULL"], [row["id"]]
    if film_id is not None:
        where.append("film_id = ?")
        params.append(film_id)
    if year is not None:
        prefix = f"{year:04d}-{month:02d}" if month is not None else f"{year:04d}"
        where.append("diary_date LIKE ?")
        params.append(prefix + "%")
    if min_rating is not None:
        where.append("rating >= ?")
        params.append(rules.half_stars(min_rating))
    if rewatch is not None:
        where.append("rewatch = ?")
        params.append(rewatch)
    found = db.select(log_entries, " AND ".join(where), params, order_by="diary_date DESC, when_created DESC")
    if tag is not None:
        found = [entry for entry in found if tag.strip().lower() in entry["tags"]]
    return converted(paginate(found, per_page, cursor), lambda entry: entry_object(db, entry))


@tool(read_only=True)
def get_log_entry(db: Database, entry_id: NonBlankText) -> LogEntryDetail:
    """One diary entry or review with its comments.

    Args:
        entry_id: The log entry's id.
    """
    viewer = access.me(db)
    return entry_detail(db, access.entry(db, entry_id, viewer))


@tool(read_only=True)
def get_film_reviews(
    db: Database,
    film_id: FilmId,
    scope: Literal["everyone", "following", "you"] = "everyone",
    sort: Literal["newest", "highest_rated", "lowest_rated"] = "newest",
    per_page: PageSize = 20,
    cursor: str | None = None,
) -> Page[LogEntryObject]:
    """Reviews of a film (log entries with review text): by everyone, by members you follow, or your own. Reviews
    marked as containing spoilers say so.

    Args:
        film_id: The film's id.
        scope: Whose reviews.
        sort: newest first, or by the reviewer's rating.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    film = access.film(db, film_id)
    found = db.select(log_entries, "film_id = ? AND review IS NOT NULL", (film["id"],), order_by="when_created DESC")
    if scope == "you":
        found = [e for e in found if e["member_id"] == viewer["id"]]
    elif scope == "following":
        followed = {f["followed_id"] for f in db.find(follows, follower_id=viewer["id"])}
        found = [e for e in found if e["member_id"] in followed]
    found = [
        e
        for e in found
        if e["member_id"] == viewer["id"] or not access.blocked_between(db, e["member_id"], viewer["id"])
    ]
    if sort != "newest":
        found.sort(key=lambda e: e["rating"] or 0, reverse=sort == "highest_rated")
    return converted(paginate(found, per_page, cursor), lambda entry: entry_object(db, entry))


@tool()
def log_film(
    db: Database,
    film_id: FilmId,
    diary_date: IsoDate | None = None,
    rating: Rating | None = None,
    like: bool = False,
    rewatch: bool | None = None,
    review: Review | None = None,
    contains_spoilers: bool = False,
    tags: Annotated[list[Tag], Field(max_length=20)] = [],  # noqa: B006
) -> LogEntryObject:
    """Log a film: a diary entry (with the date you watched it), a review, or both. Logging marks the film watched
    and takes it off your watchlist; the rating and like carry over to the film. `rewatch` left out is set when you
    had already watched the film. Unreleased films can't be logged or rated; the watched date can't be in the future.

    Args:
        film_id: The film's id.
        diary_date: The date you watched it (YYYY-MM-DD); leave out for a review outside your diary.
        rating: Your rating, 0.5 to 5.0 stars in half stars.
        like: Like the film (the heart).
        rewatch: Whether this was a rewatch; default: set when you'd watched it before.
        review: Review text.
        contains_spoilers: The review contains spoilers.
        tags: Tags for the entry.
    """
    viewer = access.me(db)
    film = access.film(db, film_id)
    values = {
        "diary_date": diary_date,
        "rating": rules.half_stars(rating),
        "like": like,
        "rewatch": rewatch,
        "review": review.strip() if review and review.strip() else None,
        "contains_spoilers": contains_spoilers,
        "tags": sorted({t.strip().lower() for t in tags}),
    }
    return entry_object(db, rules.log_film(db, viewer, film, values))


@tool()
def update_log_entry(
    db: Database,
    entry_id: NonBlankText,
    diary_date: IsoDate | None = None,
    rating: Rating | None = None,
    remove_rating: bool = False,
    like: bool | None = None,
    rewatch: bool | None = None,
    review: Review | None = None,
    contains_spoilers: bool | None = None,
    tags: Annotated[list[Tag], Field(max_length=20)] | None = None,
) -> LogEntryObject:
    """Edit one of your diary entries or reviews; only the fields given change (review "" removes the review
    text). The same rules as logging apply to the result.

    Args:
        entry_id: The log entry's id.
        diary_date: New watched date.
        rating: New rating, 0.5 to 5.0 stars in half stars.
        remove_rating: Clear the entry's rating.
        like: Like or unlike.
        rewatch: Mark as a rewatch or not.
        review: New review text ("" removes it).
        contains_spoilers: Whether the review contains spoilers.
        tags: Replace the entry's tags.
    """
    viewer = access.me(db)
    row = access.own_entry(db, entry_id, viewer)
    film = access.film(db, row["film_id"])
    changes: dict[str, object] = {
        key: value
        for key, value in {
            "diary_date": diary_date,
            "like": like,
            "rewatch": rewatch,
            "contains_spoilers": contains_spoilers,
        }.items()
        if value is not None
    }
    if rating is not None:
        changes["rating"] = rules.half_stars(rating)
    elif remove_rating:
        changes["rating"] = None
    if review is not None:
        changes["review"] = review.strip()
    if tags is not None:
        changes["tags"] = sorted({t.strip().lower() for t in tags})
    return entry_object(db, rules.update_entry(db, row, film, changes))


@tool()
def delete_log_entry(db: Database, entry_id: NonBlankText) -> LogEntryObject:
    """Delete one of your diary entries or reviews (and its comments). The film stays marked as watched.

    Args:
        entry_id: The log entry's id.
    """
    viewer = access.me(db)
    row = access.own_entry(db, entry_id, viewer)
    out = entry_object(db, row)
    rules.delete_entry(db, row)
    return out


@tool()
def post_comment(db: Database, entry_id: NonBlankText, comment: text(5000)) -> LogEntryDetail:
    """Comment on a review. The reviewer decides who may comment: anyone, only members they follow, or only
    themselves.

    Args:
        entry_id: The review's log entry id.
        comment: The comment text.
    """
    viewer = access.me(db)
    row = access.entry(db, entry_id, viewer)
    owner = db.get(members, row["member_id"], "Member")
    rules.add_comment(db, viewer, row, owner, comment)
    return entry_detail(db, row)


# ---------------------------------------------------------------- watchlist and activity


@tool(read_only=True)
def get_watchlist(
    db: Database,
    username: Username | None = None,
    genre: Genre | None = None,
    released: bool | None = None,
    per_page: PageSize = 50,
    cursor: str | None = None,
) -> Page[WatchlistItem]:
    """A member's watchlist, most recently added first; yours by default.

    Args:
        username: The member's username; default yourself.
        genre: Only films of this genre.
        released: Only released (true) or upcoming (false) films.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    row = access.member(db, username, viewer)
    today = rules.today(db)
    found = db.find(film_relationships, member_id=row["id"], in_watchlist=True)
    found.sort(key=lambda rel: (rel["watchlisted_at"] or "", rel["film_id"]), reverse=True)
    items = []
    for rel in found:
        film = db.get(films, rel["film_id"], "Film")
        is_out = film["release_date"] <= today
        if (genre is None or genre in film["genres"]) and (released is None or released == is_out):
            items.append(WatchlistItem(film=film_summary(film), added=rel["watchlisted_at"], released=is_out))
    return paginate(items, per_page, cursor)


@tool(read_only=True)
def get_activity(
    db: Database,
    include: Literal["following", "you"] = "following",
    per_page: PageSize = 20,
    cursor: str | None = None,
) -> Page[ActivityItem]:
    """Recent activity, newest first: diary entries, reviews and published lists by the members you follow, or your
    own.

    Args:
        include: "following" (members you follow) or "you".
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    if include == "you":
        ids = [viewer["id"]]
    else:
        ids = [f["followed_id"] for f in db.find(follows, follower_id=viewer["id"])]
    marks = ", ".join("?" for _ in ids) or "NULL"
    found = [
        (entry["when_created"], "entry", entry)
        for entry in db.select(log_entries, f"member_id IN ({marks})", ids, order_by="when_created DESC", limit=200)
    ]
    found += [
        (row["when_published"] or row["when_created"], "list", row)
        for row in db.select(lists, f"owner_id IN ({marks}) AND published = 1", ids, limit=100)
    ]
    found.sort(key=lambda item: item[0], reverse=True)
    return converted(paginate(found, per_page, cursor), lambda item: activity_item(db, *item))


# ---------------------------------------------------------------- lists


@tool(read_only=True)
def get_lists(
    db: Database,
    username: Username | None = None,
    film_id: FilmId | None = None,
    per_page: PageSize = 50,
    cursor: str | None = None,
) -> Page[ListSummary]:
    """A member's lists, newest first (yours include unpublished ones); optionally only lists containing a film.

    Args:
        username: The member's username; default yourself.
        film_id: Only lists that contain this film.
        per_page: Results per page.
        cursor: The `next_cursor` of the previous page.
    """
    viewer = access.me(db)
    row = access.member(db, username, viewer)
    found = db.select(lists, "owner_id = ?", (row["id"],), order_by="when_created DESC")
    if row["id"] != viewer["id"]:
        found = [item for item in found if item["published"]]
    if film_id is not None:
        found = [item for item in found if any(e["film_id"] == film_id for e in rules.entries_of(db, item["id"]))]
    return converted(paginate(found, per_page, cursor), lambda item: list_summary(db, item))


@tool(read_only=True)
def get_list(db: Database, list_id: NonBlankText) -> ListObject:
    """A list with its description and films in order (with ranks when the list is ranked) and entry notes.

    Args:
        list_id: The list's id.
    """
    viewer = access.me(db)
    row = access.visible_list(db, list_id, viewer)
    return list_object(db, row, rules.entries_of(db, row["id"]))


@tool()
def create_list(
    db: Database,
    name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")],
    entries: Annotated[list[ListEntryInput], Field(max_length=500)] = [],  # noqa: B006
    ranked: bool = False,
    published: bool = True,
    description: Annotated[str, Field(max_length=100000)] | None = None,
    tags: Annotated[list[Tag], Field(max_length=20)] = [],  # noqa: B006
) -> ListObject:
    """Create a list of films, in the order given (ranks only on a ranked list). Unpublished lists are seen only
    by you. A film can be in a list once.

    Args:
        name: The list's name.
        entries: Films to put in it, in order, with optional notes.
        ranked: Number the films as a ranking.
        published: Publish for other members to see.
        description: The list's description.
        tags: Tags for the list.
    """
    viewer = access.me(db)
    now = db.now_iso()
    row = db.insert(
        lists,
        id=db.new_id(lists, "l", 4),
        owner_id=viewer["id"],
        name=name.strip(),
        description=description,
        ranked=ranked,
        published=published,
        tags=sorted({t.strip().lower() for t in tags}),
        when_created=now,
        when_published=now if published else None,
    )
    rules.add_entries(db, row, [entry.model_dump() for entry in entries])
    return list_object(db, row, rules.entries_of(db, row["id"]))


@tool()
def update_list(
    db: Database,
    list_id: NonBlankText,
    name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")] | None = None,
    description: Annotated[str, Field(max_length=100000)] | None = None,
    ranked: bool | None = None,
    published: bool | None = None,
    add_entries: Annotated[list[ListEntryInput], Field(max_length=500)] = [],  # noqa: B006
    remove_film_ids: Annotated[list[FilmId], Field(max_length=500)] = [],  # noqa: B006
) -> ListObject:
    """Edit one of your lists: rename it, change its description, make it ranked or not, publish or unpublish it,
    remove films, and add films (at the end, or at a rank on a ranked list, pushing the films at and after that rank
    down one). Removals happen before additions.

    Args:
        list_id: The list's id.
        name: New name.
        description: New description.
        ranked: Ranked or not.
        published: Published or not.
        add_entries: Films to add.
        remove_film_ids: Films to take out.
    """
    viewer = access.me(db)
    row = access.own_list(db, list_id, viewer)
    changes: dict[str, object] = {
        key: value
        for key, value in {"name": name and name.strip(), "description": description, "ranked": ranked}.items()
        if value is not None
    }
    if published is not None:
        changes["published"] = published
        changes.update(rules.publish_changes(db, row, published))
    if changes:
        row = db.update(lists, row["id"], **changes)
    rules.remove_entries(db, row, list(remove_film_ids))
    rules.add_entries(db, row, [entry.model_dump() for entry in add_entries])
    return list_object(db, row, rules.entries_of(db, row["id"]))


@tool()
def delete_list(db: Database, list_id: NonBlankText) -> ListSummary:
    """Delete one of your lists (this can't be undone).

    Args:
        list_id: The list's id.
    """
    viewer = access.me(db)
    row = access.own_list(db, list_id, viewer)
    out = list_summary(db, row)
    rules.delete_list(db, row)
    return out
