"""Yelp's rules shared by the tools: local time, weekly and special hours and whether a business is open, the
search (location, term, categories, price, open now, sorting, the limit+offset cap), ratings to the half star,
Reservations openings and cut-offs, the Waitlist line, and Yelp's content rules for reviews."""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .schema import businesses, categories, places, reservations, reviews, waitlist_visits

UTC_OFFSET = timedelta(hours=-7)  # San Francisco in daylight saving time
SLOT_MINUTES = 30
MIN_NOTICE = timedelta(minutes=30)
LAST_SEATING_BEFORE_CLOSE = timedelta(minutes=60)
MAX_RESULTS = 1000
DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
LINK = re.compile(r"(https?://|www\.)\S+", re.IGNORECASE)


# ---------------------------------------------------------------- time


def local_now(db: Database) -> datetime:
    """San Francisco wall-clock time (naive)."""
    return (db.now() + UTC_OFFSET).replace(tzinfo=None)


def clock(value: str) -> str:
    """'HHMM' as Yelp's hours write it, from 'HH:MM'."""
    return value.replace(":", "")


def at(day: date, hhmm: str) -> datetime:
    """A local moment from a date and 'HHMM' or 'HH:MM'."""
    digits = clock(hhmm)
    return datetime(day.year, day.month, day.day, int(digits[:2]), int(digits[2:]))


# ---------------------------------------------------------------- lookups


def business(db: Database, business_id: str) -> dict[str, Any]:
    """A business by its id or alias (Yelp accepts either)."""
    found = db.find(businesses, id=business_id) or db.find(businesses, alias=business_id)
    if not found:
        raise NotFound(f"BUSINESS_NOT_FOUND: The requested business {business_id} could not be found.")
    return found[0]


def open_business(db: Database, business_id: str) -> dict[str, Any]:
    """A business that has not closed for good."""
    row = business(db, business_id)
    if row["is_closed"]:
        raise Conflict(f"{row['name']} ({row['address1']}) has closed permanently.")
    return row


# ---------------------------------------------------------------- hours


def intervals(row: dict[str, Any], day: date) -> list[tuple[datetime, datetime]]:
    """The business's opening intervals that start on `day`: special hours for that date win over the week."""
    special = [s for s in row["special_hours"] if s["date"] == day.isoformat()]
    if special:
        spans = [s for s in special if not s["is_closed"]]
    else:
        spans = [h for h in row["hours"] if h["day"] == day.weekday()]
    result = []
    for span in spans:
        start, end = at(day, span["start"]), at(day, span["end"])
        if span["is_overnight"] or end <= start:
            end += timedelta(days=1)
        result.append((start, end))
    return result


def is_open_at(row: dict[str, Any], moment: datetime) -> bool:
    """Whether the business is open at a local moment (overnight hours of the day before count)."""
    if row["is_closed"]:
        return False
    days = (moment.date() - timedelta(days=1), moment.date())
    return any(start <= moment < end for day in days for start, end in intervals(row, day))


def refuse_unless_open_now(db: Database, row: dict[str, Any], doing: str) -> None:
    """Some things happen only while the business is open (checking in, joining its line)."""
    if not is_open_at(row, local_now(db)):
        raise Conflict(f"{row['name']} is closed right now; you can only {doing} while it's open.")


# ---------------------------------------------------------------- search


def place(db: Database, location: str) -> dict[str, Any]:
    """The neighborhood or city a search is centred on."""
    wanted = location.split(",")[0].strip().casefold()
    for row in db.find(places):
        if row["name"].casefold() == wanted:
            return row
    raise NotFound("LOCATION_NOT_FOUND: Could not execute search, try specifying a more exact location.")


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in meters."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371000 * math.asin(math.sqrt(a))


def category_family(db: Database, aliases: list[str]) -> set[str]:
    """The aliases asked for and their sub-categories; an unknown alias is refused."""
    known = {c["alias"]: c["parent"] for c in db.find(categories)}
    for alias in aliases:
        if alias not in known:
            raise InvalidRequest(f"VALIDATION_ERROR: '{alias}' is not a valid category alias.")
    family = set(aliases)
    family.update(alias for alias, parent in known.items() if parent in family)
    return family


def check_window(limit: int, offset: int) -> None:
    """Yelp returns at most 1,000 businesses for a search."""
    if limit + offset > MAX_RESULTS:
        raise InvalidRequest("VALIDATION_ERROR: Too many results requested, limit+offset must be <= 1000.")


def matches_term(row: dict[str, Any], titles: dict[str, str], term: str) -> bool:
    """Every word of the term in the name or a category (any case)."""
    text = " ".join([row["name"], *row["categories"], *(titles[c] for c in row["categories"])]).casefold()
    return all(word in text for word in term.casefold().split())


def best_match(row: dict[str, Any], term: str) -> tuple[float, ...]:
    """Yelp's best match here: names holding the term first, then a blend of rating and review volume."""
    named = bool(term) and term.casefold() in row["name"].casefold()
    return (-int(named), -row["rating"] * math.log10(row["review_count"] + 10), row["name"])


SORTS = {
    "rating": lambda r, d: (-r["rating"], -r["review_count"], r["name"]),
    "review_count": lambda r, d: (-r["review_count"], r["name"]),
    "distance": lambda r, d: (d, r["name"]),
}


# ---------------------------------------------------------------- ratings and reviews


def refresh_rating(db: Database, business_id: str) -> dict[str, Any]:
    """Recompute a business's rating (to the half star) and review count from its reviews."""
    stars = [r["rating"] for r in db.find(reviews, business_id=business_id)]
    rating = round(sum(stars) / len(stars) * 2) / 2 if stars else 0.0
    return db.update(businesses, business_id, rating=rating, review_count=len(stars))


def refuse_review(db: Database, user: dict[str, Any], row: dict[str, Any]) -> None:
    """Yelp's rules for a new review: not of your own business, not of one that closed, one per business."""
    if row["owner_id"] == user["id"]:
        raise PermissionDenied("Business owners can't review their own business (Yelp's conflict-of-interest rule).")
    if row["is_closed"]:
        raise Conflict(f"{row['name']} has closed permanently and no longer accepts new reviews.")
    mine = db.find(reviews, business_id=row["id"], user_id=user["id"])
    if mine:
        raise Conflict(f"You've already reviewed {row['name']} (review {mine[0]['id']}); update that review instead.")


def refuse_links(text: str) -> str:
    """Yelp's content guidelines keep links and promotional URLs out of reviews."""
    if LINK.search(text):
        raise InvalidRequest("Reviews can't include links or URLs (Yelp content guidelines).")
    return text.strip()


# ---------------------------------------------------------------- reservations


def takes(row: dict[str, Any], transaction: str, what: str) -> None:
    """Reservations and the Waitlist exist only at businesses that offer them on Yelp."""
    if transaction not in row["transactions"]:
        raise Conflict(f"{row['name']} doesn't take {what} on Yelp.")


def refuse_party(row: dict[str, Any], covers: int) -> None:
    """Parties above the restaurant's online limit must call."""
    if covers > row["max_covers"]:
        raise InvalidRequest(
            f"{row['name']} takes parties of up to {row['max_covers']} on Yelp; please call {row['phone']} "
            "for a larger group."
        )


def slot_times(row: dict[str, Any], day: date) -> list[datetime]:
    """Every 30-minute seating on a day, from opening until an hour before closing."""
    times: list[datetime] = []
    for start, end in intervals(row, day):
        moment = start
        while moment <= end - LAST_SEATING_BEFORE_CLOSE:
            times.append(moment)
            moment += timedelta(minutes=SLOT_MINUTES)
    return sorted(times)


def booked_covers(db: Database, business_id: str, day: str, exclude: str | None = None) -> dict[str, int]:
    """Guests already booked at each time of a day (holds don't count here: they are checked at booking)."""
    taken: dict[str, int] = {}
    for res in db.find(reservations, business_id=business_id, date=day, status="confirmed"):
        if res["id"] != exclude:
            taken[res["time"]] = taken.get(res["time"], 0) + res["covers"]
    return taken


def refuse_day(db: Database, row: dict[str, Any], day: date) -> None:
    """A reservation date from today to the end of the restaurant's booking window."""
    today = local_now(db).date()
    if day < today:
        raise InvalidRequest("That date has already passed.")
    if day > today + timedelta(days=row["booking_window_days"]):
        raise InvalidRequest(f"{row['name']} takes reservations up to {row['booking_window_days']} days ahead.")


def openings(db: Database, row: dict[str, Any], day: date, covers: int, exclude: str | None = None) -> list[datetime]:
    """Seatings of a day with room for the party, at least 30 minutes from now."""
    taken = booked_covers(db, row["id"], day.isoformat(), exclude)
    earliest = local_now(db) + MIN_NOTICE
    return [
        t
        for t in slot_times(row, day)
        if t >= earliest and taken.get(t.strftime("%H:%M"), 0) + covers <= row["covers_per_slot"]
    ]


def refuse_unavailable(
    db: Database, row: dict[str, Any], moment: datetime, covers: int, exclude: str | None = None
) -> None:
    """A booking time must be one of the openings for the party."""
    refuse_day(db, row, moment.date())
    if moment not in openings(db, row, moment.date(), covers, exclude):
        raise Conflict(
            f"{row['name']} has no opening for {covers} at {moment.strftime('%Y-%m-%d %H:%M')}; "
            "check the openings first."
        )


def starts(res: dict[str, Any]) -> datetime:
    """When a reservation begins."""
    return at(date.fromisoformat(res["date"]), res["time"])


def refuse_after_cutoff(db: Database, res: dict[str, Any], row: dict[str, Any], doing: str) -> None:
    """Online changes and cancellations end at the restaurant's cut-off before the reservation."""
    if res["status"] != "confirmed":
        raise Conflict(f"Reservation {res['id']} is {res['status']}; only confirmed reservations can be {doing}.")
    if local_now(db) > starts(res) - timedelta(minutes=row["change_cutoff_minutes"]):
        raise Conflict(
            f"{row['name']} stops online changes {row['change_cutoff_minutes']} minutes before a reservation; "
            f"please call {row['phone']}."
        )


def refuse_double_booking(db: Database, user_id: str, moment: datetime, exclude: str | None = None) -> None:
    """Yelp Reservations won't hold two tables for one person within two hours of each other."""
    for res in db.find(reservations, user_id=user_id, status="confirmed"):
        if res["id"] != exclude and abs(starts(res) - moment) < timedelta(hours=2):
            raise Conflict(
                f"You already have a reservation at {res['date']} {res['time']} (reservation {res['id']}) "
                "within two hours of that time."
            )


# ---------------------------------------------------------------- waitlist


def line(db: Database, business_id: str) -> list[dict[str, Any]]:
    """The parties waiting at a business, first in line first."""
    return db.select(waitlist_visits, "business_id = ? AND status = 'waiting'", (business_id,), order_by="joined_at")


def refuse_waitlist(db: Database, user: dict[str, Any], row: dict[str, Any], party_size: int) -> None:
    """Joining a line: the business offers Yelp Waitlist, is open and taking parties, the party fits, and the
    person is in no other line."""
    takes(row, "waitlist_reservation", "Yelp Waitlist")
    refuse_unless_open_now(db, row, "join its waitlist")
    if not row["waitlist_open"]:
        raise Conflict(f"{row['name']} isn't taking parties on its waitlist right now.")
    refuse_party(row, party_size)
    active = db.find(waitlist_visits, user_id=user["id"], status="waiting")
    if active:
        other = business(db, active[0]["business_id"])
        raise Conflict(
            f"You're already on the waitlist at {other['name']} (visit {active[0]['id']}); leave that line first."
        )
