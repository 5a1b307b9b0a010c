"""Letterboxd's objects as output models (films with the member's relationship, members, log entries with diary
details and reviews, comments, lists and their entries, follows and activity) and how stored rows become them.
Ratings are stars from 0.5 to 5.0."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, Page

from .schema import comments, film_relationships, films, follows, list_entries, lists, log_entries, members

Row = TypeVar("Row")
Out = TypeVar("Out")


def converted(page: Page[Row], convert: Callable[[Row], Out]) -> Page[Out]:
    """A page of stored rows as a page of output objects (only the page's rows are converted)."""
    return Page[Any](
        results=[convert(row) for row in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


def stars(half: int | None) -> float | None:
    """Stored half stars as a star rating."""
    return None if half is None else half / 2


class FilmSummary(BaseModel):
    """A film as it appears in results and entries."""

    film_id: str
    name: str
    release_year: int
    directors: list[str]


class MemberSummary(BaseModel):
    """A member as shown beside their entries."""

    member_id: str
    username: str
    display_name: str


class RelationshipObject(BaseModel):
    """The signed-in member's relationship with a film."""

    watched: bool
    liked: bool
    rating: float | None
    in_watchlist: bool
    watchlisted_at: str | None
    diary_entries: list[str]  # log entry ids, most recent first
    reviews: list[str]


class FilmObject(BaseModel):
    """A film's details."""

    film_id: str
    name: str
    release_year: int
    release_date: str
    released: bool
    runtime: int | None
    directors: list[str]
    genres: list[str]
    countries: list[str]
    tagline: str | None
    average_rating: float | None
    relationship: RelationshipObject | None


class CommentObject(BaseModel):
    """A comment on a review."""

    comment_id: str
    member: MemberSummary
    text: str
    when_created: str


class LogEntryObject(BaseModel):
    """A log entry: a diary entry (watched date), a review, or both."""

    entry_id: str
    owner: MemberSummary
    film: FilmSummary
    diary_date: str | None
    rewatch: bool
    rating: float | None
    like: bool
    review: str | None
    contains_spoilers: bool
    tags: list[str]
    when_created: str
    when_updated: str
    comment_count: int


class LogEntryDetail(LogEntryObject):
    """A log entry with its comments."""

    comments: list[CommentObject]


class MemberObject(BaseModel):
    """A member's profile with their four favourites and counts."""

    member_id: str
    username: str
    display_name: str
    location: str | None
    bio: str | None
    member_status: str
    favorite_films: list[FilmSummary]
    comments_policy: str
    films_watched: int
    diary_entries: int
    lists: int
    following: int
    followers: int
    you_follow: bool | None
    follows_you: bool | None


class SessionObject(BaseModel):
    """The signed-in member."""

    member_id: str
    username: str
    display_name: str


class WatchlistItem(BaseModel):
    """A film on a watchlist."""

    film: FilmSummary
    added: str | None
    released: bool


class ListEntryObject(BaseModel):
    """A film in a list, with its rank when the list is ranked."""

    position: int
    rank: int | None
    film: FilmSummary
    notes: str | None
    contains_spoilers: bool


class ListSummary(BaseModel):
    """A list in results."""

    list_id: str
    name: str
    owner: MemberSummary
    film_count: int
    ranked: bool
    published: bool
    tags: list[str]
    when_created: str


class ListObject(ListSummary):
    """A list with its description and entries."""

    description: str | None
    when_published: str | None
    entries: list[ListEntryObject]


class ActivityItem(BaseModel):
    """One item in a member's activity feed."""

    type: str  # DiaryEntryActivity | ReviewActivity | ListActivity
    when: str
    member: MemberSummary
    entry: LogEntryObject | None
    list: ListSummary | None


class FollowObject(BaseModel):
    """A follow between two members."""

    member: MemberSummary
    since: str


def film_summary(row: dict[str, Any]) -> FilmSummary:
    """A film row as a summary."""
    return FilmSummary(
        film_id=row["id"], name=row["name"], release_year=row["release_year"], directors=row["directors"]
    )


def member_summary(row: dict[str, Any]) -> MemberSummary:
    """A member row as a summary."""
    return MemberSummary(member_id=row["id"], username=row["username"], display_name=row["display_name"])


def film_object(db: Database, row: dict[str, Any], viewer_id: str | None, today: str) -> FilmObject:
    """A film with the viewer's relationship."""
    relation = None
    if viewer_id is not None:
        found = db.find(film_relationships, id=f"{viewer_id}:{row['id']}")
        rel = found[0] if found else None
        entries = db.find(log_entries, member_id=viewer_id, film_id=row["id"])
        diary = sorted((e for e in entries if e["diary_date"]), key=lambda e: (e["diary_date"], e["id"]), reverse=True)
        relation = RelationshipObject(
            watched=bool(rel and rel["watched"]),
            liked=bool(rel and rel["liked"]),
            rating=stars(rel["rating"]) if rel else None,
            in_watchlist=bool(rel and rel["in_watchlist"]),
            watchlisted_at=rel["watchlisted_at"] if rel else None,
            diary_entries=[e["id"] for e in diary],
            reviews=[e["id"] for e in sorted(entries, key=lambda e: e["when_created"], reverse=True) if e["review"]],
        )
    return FilmObject(
        film_id=row["id"],
        name=row["name"],
        release_year=row["release_year"],
        release_date=row["release_date"],
        released=row["release_date"] <= today,
        runtime=row["runtime"],
        directors=row["directors"],
        genres=row["genres"],
        countries=row["countries"],
        tagline=row["tagline"],
        average_rating=None if row["average_rating"] is None else row["average_rating"] / 100,
        relationship=relation,
    )


def entry_values(db: Database, row: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """The fields of a log entry object, with `found` its comments."""
    return dict(
        entry_id=row["id"],
        owner=member_summary(db.get(members, row["member_id"], "Member")),
        film=film_summary(db.get(films, row["film_id"], "Film")),
        diary_date=row["diary_date"],
        rewatch=row["rewatch"],
        rating=stars(row["rating"]),
        like=row["like"],
        review=row["review"],
        contains_spoilers=row["contains_spoilers"],
        tags=row["tags"],
        when_created=row["when_created"],
        when_updated=row["when_updated"],
        comment_count=len(found),
    )


def entry_object(db: Database, row: dict[str, Any]) -> LogEntryObject:
    """A log entry row as an object (only reviews take comments)."""
    found = db.find(comments, entry_id=row["id"]) if row["review"] else []
    return LogEntryObject(**entry_values(db, row, found))


def entry_detail(db: Database, row: dict[str, Any]) -> LogEntryDetail:
    """A log entry row as an object with its comments."""
    found = db.find(comments, entry_id=row["id"])
    return LogEntryDetail(
        **entry_values(db, row, found),
        comments=[
            CommentObject(
                comment_id=c["id"],
                member=member_summary(db.get(members, c["member_id"], "Member")),
                text=c["text"],
                when_created=c["when_created"],
            )
            for c in found
        ],
    )


def list_summary(db: Database, row: dict[str, Any]) -> ListSummary:
    """A list row as a summary."""
    return ListSummary(
        list_id=row["id"],
        name=row["name"],
        owner=member_summary(db.get(members, row["owner_id"], "Member")),
        film_count=len(db.find(list_entries, list_id=row["id"])),
        ranked=row["ranked"],
        published=row["published"],
        tags=row["tags"],
        when_created=row["when_created"],
    )


def list_object(db: Database, row: dict[str, Any], entries: list[dict[str, Any]]) -> ListObject:
    """A list with its entries in order."""
    return ListObject(
        **list_summary(db, row).model_dump(),
        description=row["description"],
        when_published=row["when_published"],
        entries=[
            ListEntryObject(
                position=e["position"],
                rank=e["position"] if row["ranked"] else None,
                film=film_summary(db.get(films, e["film_id"], "Film")),
                notes=e["notes"],
                contains_spoilers=e["contains_spoilers"],
            )
            for e in entries
        ],
    )


def member_object(db: Database, row: dict[str, Any], viewer: dict[str, Any]) -> MemberObject:
    """A member's profile as the viewer sees it (their unpublished lists are not counted for others)."""
    own = row["id"] == viewer["id"]
    owned = db.find(lists, owner_id=row["id"]) if own else db.find(lists, owner_id=row["id"], published=True)
    return MemberObject(
        member_id=row["id"],
        username=row["username"],
        display_name=row["display_name"],
        location=row["location"],
        bio=row["bio"],
        member_status=row["member_status"],
        favorite_films=[film_summary(db.get(films, fid, "Film")) for fid in row["favorite_films"]],
        comments_policy=row["comments_policy"],
        films_watched=len(db.find(film_relationships, member_id=row["id"], watched=True)),
        diary_entries=len(db.select(log_entries, "member_id = ? AND diary_date IS NOT NULL", (row["id"],))),
        lists=len(owned),
        following=len(db.find(follows, follower_id=row["id"])),
        followers=len(db.find(follows, followed_id=row["id"])),
        you_follow=None if own else bool(db.find(follows, id=f"{viewer['id']}:{row['id']}")),
        follows_you=None if own else bool(db.find(follows, id=f"{row['id']}:{viewer['id']}")),
    )


def activity_item(db: Database, when: str, kind: str, row: dict[str, Any]) -> ActivityItem:
    """A log entry or a published list as an activity feed item."""
    if kind == "list":
        summary = list_summary(db, row)
        return ActivityItem(type="ListActivity", when=when, member=summary.owner, entry=None, list=summary)
    entry = entry_object(db, row)
    kind_name = "ReviewActivity" if row["review"] else "DiaryEntryActivity"
    return ActivityItem(type=kind_name, when=when, member=entry.owner, entry=entry, list=None)
