"""Strava's rules shared by the tools: OAuth scopes, who may see an activity, derived PR and KOM ranks, gear
that fits a sport, and how stored rows become API objects."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import (
    activities,
    athletes,
    club_memberships,
    clubs,
    device_files,
    gear,
    laps,
    segment_efforts,
    segment_stars,
    uploads,
)

BIKE_SPORTS = {
    "Ride",
    "MountainBikeRide",
    "GravelRide",
    "EBikeRide",
    "EMountainBikeRide",
    "VirtualRide",
    "Velomobile",
    "Handcycle",
}
SHOE_SPORTS = {"Run", "TrailRun", "VirtualRun", "Walk", "Hike"}
_OFFSET = re.compile(r"^\(GMT([+-])(\d{2}):(\d{2})\)")
LOCAL_PATTERN = r"^\s*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?\s*$"
LOCAL_EXAMPLE = "2025-06-12T06:30:00"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
LATEST_EPOCH = 4102444800  # 2100-01-01T00:00:00Z


# ---------------------------------------------------------------- time


def parse_local(value: str) -> str:
    """A local start time (its shape checked by the argument type) as Strava stores it: 'YYYY-MM-DDTHH:MM:SSZ'."""
    text = value.strip()
    text = text.rstrip("Z")
    if len(text) == 16:
        text += ":00"
    parse_timestamp(text, "start_date_local", LOCAL_EXAMPLE, naive_as_utc=True)
    return text + "Z"


def utc_offset(timezone_label: str) -> int:
    """Seconds east of UTC from a Strava timezone label such as '(GMT-06:00) America/Denver'."""
    match = _OFFSET.match(timezone_label)
    if match is None:
        return 0
    seconds = int(match.group(2)) * 3600 + int(match.group(3)) * 60
    return -seconds if match.group(1) == "-" else seconds


def to_utc(local: str, offset: int) -> str:
    """The UTC instant of a local 'YYYY-MM-DDTHH:MM:SSZ' time."""
    return iso_timestamp(_moment(local) - timedelta(seconds=offset))


def add_seconds(local: str, seconds: int) -> str:
    """A 'YYYY-MM-DDTHH:MM:SSZ' time moved by `seconds`."""
    return iso_timestamp(_moment(local) + timedelta(seconds=seconds))


def _moment(stored: str) -> datetime:
    """A stored 'YYYY-MM-DDTHH:MM:SSZ' time as a datetime."""
    return parse_timestamp(stored, "time", naive_as_utc=True)


def clock_time(seconds: int | None) -> str | None:
    """Seconds as Strava prints times: '5:42' or '1:02:03'."""
    if seconds is None:
        return None
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# ---------------------------------------------------------------- gear


def gear_kind(sport_type: str) -> str | None:
    """The kind of gear a sport takes: bike, shoes, or none."""
    if sport_type in BIKE_SPORTS:
        return "bike"
    return "shoes" if sport_type in SHOE_SPORTS else None


def default_gear(db: Database, athlete_id: str, sport_type: str) -> str | None:
    """The athlete's primary bike or shoes for a sport, if any."""
    kind = gear_kind(sport_type)
    if kind is None:
        return None
    found = db.find(gear, athlete_id=athlete_id, kind=kind, primary=True, retired=False)
    return found[0]["id"] if found else None


def usable_gear(db: Database, athlete_id: str, gear_id: str, sport_type: str) -> dict[str, Any]:
    """The athlete's own, active gear of the kind the sport takes."""
    found = db.find(gear, id=gear_id)
    if not found or found[0]["athlete_id"] != athlete_id:
        raise NotFound(f"Record Not Found: gear {gear_id}")
    item = found[0]
    if item["retired"]:
        raise InvalidRequest(f"'{item['name']}' is retired; un-retire it before adding it to an activity.")
    kind = gear_kind(sport_type)
    if kind != item["kind"]:
        needed = f"takes {'a bike' if kind == 'bike' else 'shoes'}" if kind else "takes no gear"
        raise InvalidRequest(f"'{item['name']}' can't be used for a {sport_type}: a {sport_type} {needed}.")
    return item


def move_gear_distance(db: Database, old_id: str | None, new_id: str | None, distance: float) -> None:
    """Move an activity's distance from one gear's total to another's."""
    if old_id == new_id or not distance:
        return
    if old_id is not None:
        old = db.get(gear, old_id, "Gear")
        db.update(gear, old_id, distance=round(max(old["distance"] - distance, 0.0), 1))
    if new_id is not None:
        new = db.get(gear, new_id, "Gear")
        db.update(gear, new_id, distance=round(new["distance"] + distance, 1))


# ---------------------------------------------------------------- segments: PRs and leaderboards


class Ranks:
    """PR and KOM/QOM ranks of efforts, reading each athlete's history on a segment and each segment's leaderboard
    once however many efforts are ranked (a page of activities shares most of its segments)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._history: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._boards: dict[tuple[str, str], list[str]] = {}
        self._sex: dict[str, str] = {}

    def preload(self, efforts: list[dict[str, Any]]) -> None:
        """Read the histories and leaderboards that ranking `efforts` needs, a few queries for all of them."""
        pairs = {(e["segment_id"], e["athlete_id"]) for e in efforts} - set(self._history)
        if pairs:
            found = self.db.find(
                segment_efforts,
                segment_efforts.c.segment_id.in_(sorted({s for s, _ in pairs})),
                segment_efforts.c.athlete_id.in_(sorted({a for _, a in pairs})),
            )
            for pair in pairs:
                self._history[pair] = []
            for e in found:
                if (e["segment_id"], e["athlete_id"]) in pairs:
                    self._history[(e["segment_id"], e["athlete_id"])].append(e)
        people = sorted({e["athlete_id"] for e in efforts} - set(self._sex))
        for row in self.db.find(athletes, athletes.c.id.in_(people)) if people else []:
            self._sex[row["id"]] = row["sex"]
        for sex in {self._sex[e["athlete_id"]] for e in efforts}:
            wanted = sorted({e["segment_id"] for e in efforts if (e["segment_id"], sex) not in self._boards})
            for segment, board in (leaderboards(self.db, wanted, sex) if wanted else {}).items():
                self._boards[(segment, sex)] = [entry["id"] for entry in board[:10]]

    def pr(self, effort: dict[str, Any]) -> int | None:
        """1-3 when the effort was among the athlete's three best on its segment at the time it was ridden or run."""
        key = (effort["segment_id"], effort["athlete_id"])
        if key not in self._history:
            self._history[key] = self.db.find(segment_efforts, segment_id=key[0], athlete_id=key[1])
        history = [e for e in self._history[key] if e["start_date"] <= effort["start_date"]]
        history.sort(key=lambda e: (e["elapsed_time"], e["start_date"], e["id"]))
        rank = next(i for i, e in enumerate(history, start=1) if e["id"] == effort["id"])
        return rank if rank <= 3 else None

    def kom(self, effort: dict[str, Any]) -> int | None:
        """The effort's place (top 10) on its segment's KOM or QOM leaderboard, when it is the athlete's best."""
        athlete = effort["athlete_id"]
        if athlete not in self._sex:
            self._sex[athlete] = self.db.get(athletes, athlete, "Athlete")["sex"]
        key = (effort["segment_id"], self._sex[athlete])
        if key not in self._boards:
            self._boards[key] = [entry["id"] for entry in leaderboard(self.db, key[0], key[1])[:10]]
        board = self._boards[key]
        return board.index(effort["id"]) + 1 if effort["id"] in board else None


def leaderboard(db: Database, segment_id: str, sex: str | None = None) -> list[dict[str, Any]]:
    """Each athlete's best effort on a segment, fastest first; Only Me activities never count."""
    return leaderboards(db, [segment_id], sex)[segment_id]


def leaderboards(db: Database, segment_ids: list[str], sex: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """`leaderboard` of several segments in one query."""
    stmt = (
        select(segment_efforts, athletes.c.sex)
        .join(activities, activities.c.id == segment_efforts.c.activity_id)
        .join(athletes, athletes.c.id == segment_efforts.c.athlete_id)
        .where(segment_efforts.c.segment_id.in_(list(dict.fromkeys(segment_ids))), activities.c.visibility != "only_me")
    )
    if sex is not None:
        stmt = stmt.where(athletes.c.sex == sex)
    best: dict[str, dict[str, dict[str, Any]]] = {segment: {} for segment in segment_ids}
    for row in db.conn.execute(stmt).mappings():
        board = best[row["segment_id"]]
        current = board.get(row["athlete_id"])
        key = (row["elapsed_time"], row["start_date"], row["id"])
        if current is None or key < (current["elapsed_time"], current["start_date"], current["id"]):
            board[row["athlete_id"]] = dict(row)
    return {
        segment: sorted(board.values(), key=lambda e: (e["elapsed_time"], e["start_date"], e["id"]))
        for segment, board in best.items()
    }


def is_starred(db: Database, athlete_id: str, segment_id: str) -> bool:
    """Whether the athlete starred the segment."""
    return bool(db.find(segment_stars, id=f"{athlete_id}-{segment_id}"))


# ---------------------------------------------------------------- activities


# ---------------------------------------------------------------- names, zones and clubs

_DAY_PARTS = ((5, "Morning"), (11, "Lunch"), (14, "Afternoon"), (18, "Evening"), (22, "Night"))
_SPORT_WORDS = {
    "VirtualRide": "Virtual Ride",
    "VirtualRun": "Virtual Run",
    "TrailRun": "Trail Run",
    "GravelRide": "Gravel Ride",
    "MountainBikeRide": "Mountain Bike Ride",
    "EBikeRide": "E-Bike Ride",
    "WeightTraining": "Weight Training",
}

HR_ZONE_SHARES = (0.65, 0.81, 0.89, 0.97)
POWER_ZONE_SHARES = (0.55, 0.75, 0.90, 1.05, 1.20, 1.50)


def activity_name(sport_type: str, local: str) -> str:
    """Strava's name for an activity without one: the part of the day and the sport, e.g. "Morning Run"."""
    hour = int(local[11:13])
    part = "Night"
    for start, label in _DAY_PARTS:
        if hour >= start:
            part = label
    return f"{part} {_SPORT_WORDS.get(sport_type, sport_type)}"


def member_count(db: Database, club_id: str) -> int:
    """How many members a club has."""
    return db.conn.execute(
        select(func.count())
        .select_from(club_memberships)
        .where(club_memberships.c.club_id == club_id, club_memberships.c.membership == "member")
    ).scalar()


def find_club(db: Database, club_id: str) -> dict:
    """A club by id or vanity name; NotFound otherwise."""
    found = db.find(clubs, id=str(club_id)) or db.find(clubs, vanity=str(club_id).strip().lower())
    if not found:
        raise NotFound(f"Record Not Found: club {club_id}")
    return found[0]


def membership_row(db: Database, club_id: str, athlete_id: str) -> dict | None:
    """An athlete's membership row in a club, if any."""
    found = db.find(club_memberships, id=f"{club_id}-{athlete_id}")
    return found[0] if found else None


# ---------------------------------------------------------------- uploads


def record_upload(
    db: Database, file_name: str, name: str | None, description: str, trainer: bool, commute: bool
) -> dict[str, Any]:
    """Create the activity a device file holds (laps and segment efforts included, default gear and privacy, a
    time-of-day name unless one is given) and its upload record; a file uploaded before is a duplicate."""
    data_type = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    if data_type not in {"fit", "tcx", "gpx"}:
        raise InvalidRequest("data_type must be one of fit, tcx or gpx (from the file's extension).")
    found = db.find(device_files, id=file_name)
    if not found:
        raise NotFound(f"No file named {file_name} on the device.")
    file, data = found[0], found[0]["data"]
    athlete = db.get(athletes, file["athlete_id"], "Athlete")
    duplicate = db.find(activities, athlete_id=athlete["id"], external_id=file_name)
    if duplicate:
        raise Conflict(f"{file_name} duplicate of activity {duplicate[0]['id']}")
    offset = utc_offset(athlete["timezone"])
    local = data["start_date_local"]
    gear_id = default_gear(db, athlete["id"], data["sport_type"])
    activity = db.insert(
        activities,
        id=db.new_id(activities, "1451", 7),
        athlete_id=athlete["id"],
        name=name or activity_name(data["sport_type"], local),
        description=description,
        sport_type=data["sport_type"],
        workout_type=None,
        start_date=to_utc(local, offset),
        start_date_local=local,
        timezone=athlete["timezone"],
        utc_offset=offset,
        distance=data["distance"],
        moving_time=data["moving_time"],
        elapsed_time=data["elapsed_time"],
        total_elevation_gain=data["total_elevation_gain"],
        average_speed=round(data["distance"] / data["moving_time"], 3),
        max_speed=data["max_speed"],
        average_heartrate=data.get("average_heartrate"),
        max_heartrate=data.get("max_heartrate"),
        average_watts=data.get("average_watts"),
        calories=data.get("calories"),
        trainer=trainer,
        commute=commute,
        manual=False,
        visibility=athlete["default_visibility"],
        hide_from_home=False,
        gear_id=gear_id,
        device_name=file["device_name"],
        external_id=file_name,
    )
    move_gear_distance(db, None, gear_id, data["distance"])
    for index, lap in enumerate(data["laps"], start=1):
        db.insert(
            laps, id=db.new_id(laps, "5120", 7), activity_id=activity["id"], lap_index=index, name=f"Lap {index}", **lap
        )
    for effort in data["efforts"]:
        effort_local = add_seconds(local, effort["start_offset"])
        db.insert(
            segment_efforts,
            id=db.new_id(segment_efforts, "3291", 8),
            activity_id=activity["id"],
            segment_id=effort["segment_id"],
            athlete_id=athlete["id"],
            elapsed_time=effort["elapsed_time"],
            moving_time=effort["moving_time"],
            start_date=to_utc(effort_local, offset),
            start_date_local=effort_local,
            distance=effort["distance"],
            average_heartrate=effort.get("average_heartrate"),
            average_watts=effort.get("average_watts"),
        )
    upload_id = db.new_id(uploads, "1532", 7)
    return db.insert(
        uploads,
        id=upload_id,
        athlete_id=athlete["id"],
        external_id=file_name,
        data_type=data_type,
        status="Your activity is ready.",
        error=None,
        activity_id=activity["id"],
        created_at=db.now_iso(),
    )


# ---------------------------------------------------------------- manual activities


def manual_activity(
    db: Database,
    me: dict[str, Any],
    name: str,
    sport_type: str,
    start_date_local: str,
    elapsed_time: int,
    description: str,
    distance: float,
    trainer: bool,
    commute: bool,
) -> dict[str, Any]:
    """Record a manual activity (not in the future) with the athlete's default privacy and gear, whose distance
    grows by the activity's."""
    local = parse_local(start_date_local)
    offset = utc_offset(me["timezone"])
    start = to_utc(local, offset)
    if start > db.now_iso():
        raise InvalidRequest("start_date_local can't be in the future.")
    gear_id = default_gear(db, me["id"], sport_type)
    speed = round(distance / elapsed_time, 3)
    row = db.insert(
        activities,
        id=db.new_id(activities, "1451", 7),
        athlete_id=me["id"],
        name=name.strip(),
        description=description,
        sport_type=sport_type,
        workout_type=None,
        start_date=start,
        start_date_local=local,
        timezone=me["timezone"],
        utc_offset=offset,
        distance=float(distance),
        moving_time=elapsed_time,
        elapsed_time=elapsed_time,
        total_elevation_gain=0.0,
        average_speed=speed,
        max_speed=speed,
        average_heartrate=None,
        max_heartrate=None,
        average_watts=None,
        calories=None,
        trainer=trainer,
        commute=commute,
        manual=True,
        visibility=me["default_visibility"],
        hide_from_home=False,
        gear_id=gear_id,
        device_name=None,
        external_id=None,
    )
    move_gear_distance(db, None, gear_id, row["distance"])
    return row


# ---------------------------------------------------------------- gear edits


def gear_changes(
    db: Database,
    me: dict[str, Any],
    item: dict[str, Any],
    name: str | None,
    primary: bool | None,
    retired: bool | None,
    notification_distance: float | None,
) -> dict[str, Any]:
    """The column changes an edit of a bike or shoes asks for: only shoes have a reminder, retired gear can't be
    the default, and a new default stops the old one being it."""
    if name is None and primary is None and retired is None and notification_distance is None:
        raise InvalidRequest("Nothing to update: give at least one field.")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if notification_distance is not None:
        if item["kind"] != "shoes":
            raise InvalidRequest("Only shoes have a replacement reminder.")
        changes["notification_distance"] = float(notification_distance)
    is_retired = item["retired"] if retired is None else retired
    if retired is not None:
        changes["retired"] = retired
        if retired:
            changes["primary"] = False
    if primary:
        if is_retired:
            raise InvalidRequest(f"'{item['name']}' is retired and can't be your default {item['kind']}.")
        for other in db.find(gear, athlete_id=me["id"], kind=item["kind"], primary=True):
            db.update(gear, other["id"], primary=False)
        changes["primary"] = True
    elif primary is False:
        changes["primary"] = False
    return changes


def regear(db: Database, me: dict[str, Any], row: dict[str, Any], gear_id: str | None, sport: str) -> str | None:
    """The gear an edited activity ends up with ("none" removes it; a sport the current gear doesn't fit takes that
    sport's default), its distance moved from the old gear's total to the new one's."""
    new_gear = row["gear_id"]
    if gear_id is not None:
        new_gear = None if gear_id == "none" else usable_gear(db, me["id"], gear_id, sport)["id"]
    elif row["gear_id"] is not None and gear_kind(sport) != db.get(gear, row["gear_id"], "Gear")["kind"]:
        new_gear = default_gear(db, me["id"], sport)
    move_gear_distance(db, row["gear_id"], new_gear, row["distance"])
    return new_gear


# ---------------------------------------------------------------- activity lists


def activities_of(
    db: Database, athlete_ids: list[str], before: int | None = None, after: int | None = None
) -> list[dict[str, Any]]:
    """Activities of some athletes, newest first, started before / after the given epoch seconds."""
    ids = list(dict.fromkeys(athlete_ids))
    clauses, params = [f"athlete_id IN ({', '.join('?' * len(ids))})"], list(ids)
    for clause, seconds in (("start_date < ?", before), ("start_date > ?", after)):
        if seconds is not None:
            clauses.append(clause)
            params.append(iso_timestamp(EPOCH + timedelta(seconds=seconds)))
    return db.select(activities, " AND ".join(clauses), params, order_by="start_date DESC") if ids else []
