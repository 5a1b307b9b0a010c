"""Who is on call: schedule layers rotate from their virtual start, restrictions limit when a layer has coverage,
higher layers win over lower ones and overrides win over every layer. Everything is computed from the clock."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp

from .clock import effective_end, stored
from .objects import OncallObject, ref
from .schema import escalation_policies, escalation_rules, schedule_layers, schedule_overrides, schedules

#: How far around a range shifts are rendered, so a shift that began before it shows its real start and end.
ONCALL_MARGIN = timedelta(days=31)


@dataclass(frozen=True)
class Shift:
    """One stretch of time with one user on call."""

    user_id: str
    start: datetime
    end: datetime


def _restriction_windows(
    restriction: dict[str, Any], zone: ZoneInfo, since: datetime, until: datetime
) -> Iterator[tuple[datetime, datetime]]:
    """The restriction's windows (in the schedule's time zone) that may touch [since, until)."""
    hours, minutes, seconds = (int(p) for p in restriction["start_time_of_day"].split(":"))
    length = timedelta(seconds=restriction["duration_seconds"])
    day = since.astimezone(zone).date() - timedelta(days=8)
    last = until.astimezone(zone).date() + timedelta(days=1)
    weekly = restriction["type"] == "weekly_restriction"
    while day <= last:
        if not weekly or day.isoweekday() == restriction["start_day_of_week"]:
            start = datetime.combine(day, time(hours, minutes, seconds), tzinfo=zone)
            yield start, start + length
        day += timedelta(days=1)


def _covers(restriction: dict[str, Any], zone: ZoneInfo, moment: datetime) -> bool:
    """Whether one of a restriction's windows covers `moment`: the latest window started by then (from the day after
    down to 8 days before, as `_restriction_windows` draws them) is the only one that can, since all have one length."""
    hours, minutes, seconds = (int(p) for p in restriction["start_time_of_day"].split(":"))
    weekly = restriction["type"] == "weekly_restriction"
    today = moment.astimezone(zone).date()
    for back in range(-1, 9):
        day = today - timedelta(days=back)
        if weekly and day.isoweekday() != restriction["start_day_of_week"]:
            continue
        start = datetime.combine(day, time(hours, minutes, seconds), tzinfo=zone)
        if start <= moment:
            return moment < start + timedelta(seconds=restriction["duration_seconds"])
    return False


def _restricted(layer: dict[str, Any], zone: ZoneInfo, moment: datetime) -> bool:
    """Whether a layer's restrictions leave `moment` uncovered."""
    return bool(layer["restrictions"]) and not any(_covers(r, zone, moment) for r in layer["restrictions"])


def layer_user_at(layer: dict[str, Any], zone: ZoneInfo, moment: datetime) -> str | None:
    """The user a layer puts on call at `moment`, or None outside its dates and restrictions."""
    if moment < stored(layer["start"]) or (layer["end"] and moment >= stored(layer["end"])) or not layer["users"]:
        return None
    if _restricted(layer, zone, moment):
        return None
    turns = int(
        (moment - stored(layer["rotation_virtual_start"])).total_seconds() // layer["rotation_turn_length_seconds"]
    )
    return layer["users"][turns % len(layer["users"])]


class ScheduleView:
    """A schedule with its layers and overrides loaded, answering who is on call when."""

    def __init__(self, db: Database, schedule_id: str) -> None:
        self.schedule = db.get(schedules, schedule_id, "Schedule")
        self.zone = ZoneInfo(self.schedule["time_zone"])
        self.layers = db.select(schedule_layers, '"schedule_id" = ?', [schedule_id], order_by='"position" DESC')
        self.overrides = db.select(schedule_overrides, '"schedule_id" = ?', [schedule_id], order_by='"start"')

    def user_at(self, moment: datetime) -> str | None:
        """Who is on call at `moment`: an override, else the highest layer with coverage."""
        for override in self.overrides:
            if stored(override["start"]) <= moment < effective_end(override):
                return override["user_id"]
        for layer in self.layers:
            user = layer_user_at(layer, self.zone, moment)
            if user is not None:
                return user
        return None

    def _boundaries(self, since: datetime, until: datetime) -> list[datetime]:
        points = {since, until}
        for layer in self.layers:
            points.update(stored(t) for t in (layer["start"], layer["end"]) if t)
            origin = stored(layer["rotation_virtual_start"])
            length = timedelta(seconds=layer["rotation_turn_length_seconds"])
            turn = origin + length * ((since - origin) // length)
            while turn < until:
                points.add(turn)
                turn += length
            for restriction in layer["restrictions"]:
                for start, end in _restriction_windows(restriction, self.zone, since, until):
                    points.update((start, end))
        for override in self.overrides:
            points.update((stored(override["start"]), effective_end(override)))
        return sorted(p for p in points if since <= p <= until)

    def shifts(self, since: datetime, until: datetime) -> list[Shift]:
        """The final schedule between `since` and `until`: consecutive stretches with one user each."""
        result: list[Shift] = []
        points = self._boundaries(since, until)
        for start, end in pairwise(points):
            user = self.user_at(start)
            if user is None:
                continue
            if result and result[-1].user_id == user and result[-1].end == start:
                result[-1] = Shift(user, result[-1].start, end)
            else:
                result.append(Shift(user, start, end))
        return result

    def shifts_overlapping(self, since: datetime, until: datetime, low: datetime, high: datetime) -> list[Shift]:
        """The shifts of the final schedule between `low` and `high` that overlap [since, until] (one starting at
        `until` counts), evaluating only the stretches they are made of: those in the range, and those before and
        after it while the same user stays on call."""
        points = self._boundaries(low, high)
        segments = list(pairwise(points))
        inside = [i for i, (start, end) in enumerate(segments) if start <= until and end > since]
        if not inside:
            return []
        users = {i: self.user_at(segments[i][0]) for i in inside}
        first, last = inside[0], inside[-1]
        while users[first] is not None and first > 0 and self.user_at(segments[first - 1][0]) == users[first]:
            first -= 1
            users[first] = users[first + 1]
        while (
            users[last] is not None and last + 1 < len(segments) and self.user_at(segments[last + 1][0]) == users[last]
        ):
            last += 1
            users[last] = users[last - 1]
        result: list[Shift] = []
        for i in range(first, last + 1):
            start, end = segments[i]
            user = users[i]
            if user is None:
                continue
            if result and result[-1].user_id == user and result[-1].end == start:
                result[-1] = Shift(user, result[-1].start, end)
            else:
                result.append(Shift(user, start, end))
        return result


def rule_at_level(db: Database, policy_id: str, level: int) -> dict[str, Any] | None:
    """The escalation rule at a level (1-based), or None past the last one."""
    rules = db.find(escalation_rules, escalation_policy_id=policy_id, order_by=[escalation_rules.c.position])
    return rules[level - 1] if 1 <= level <= len(rules) else None


def on_call_for_rule(db: Database, rule: dict[str, Any], moment: datetime) -> list[str]:
    """The users a rule notifies at `moment`: its user targets and whoever its schedules have on call, sorted."""
    users: set[str] = set()
    for target in rule["targets"]:
        if target["type"] == "user_reference":
            users.add(target["id"])
        else:
            user = ScheduleView(db, target["id"]).user_at(moment)
            if user is not None:
                users.add(user)
    return sorted(users)


def oncall_entries(
    db: Database, policy_ids: list[str] | None, schedule_ids: list[str] | None, since: datetime, until: datetime
) -> list[OncallObject]:
    """Who is on call for each level of each policy (by name) between since and until: users a rule targets
    directly (always, start and end null; left out when only some schedules are asked for) and every shift of a
    targeted schedule that overlaps the range."""
    shifts: dict[str, list[Shift]] = {}
    entries: list[OncallObject] = []
    for policy in db.find(escalation_policies, order_by=[escalation_policies.c.name]):
        if policy_ids and policy["id"] not in policy_ids:
            continue
        policy_ref = ref(db, "escalation_policy_reference", policy["id"])
        rules = db.find(escalation_rules, escalation_policy_id=policy["id"], order_by=[escalation_rules.c.position])
        for level, rule in enumerate(rules, start=1):
            for target in rule["targets"]:
                if target["type"] == "user_reference":
                    if not schedule_ids:
                        user = ref(db, "user_reference", target["id"])
                        entries.append(
                            OncallObject(
                                escalation_policy=policy_ref,
                                escalation_level=level,
                                schedule=None,
                                user=user,
                                start=None,
                                end=None,
                            )
                        )
                    continue
                if schedule_ids and target["id"] not in schedule_ids:
                    continue
                if target["id"] not in shifts:
                    view = ScheduleView(db, target["id"])
                    shifts[target["id"]] = view.shifts_overlapping(
                        since, until, since - ONCALL_MARGIN, until + ONCALL_MARGIN + timedelta(seconds=1)
                    )
                schedule_ref = ref(db, "schedule_reference", target["id"])
                for shift in shifts[target["id"]]:
                    entries.append(
                        OncallObject(
                            escalation_policy=policy_ref,
                            escalation_level=level,
                            schedule=schedule_ref,
                            user=ref(db, "user_reference", shift.user_id),
                            start=iso_timestamp(shift.start),
                            end=iso_timestamp(shift.end),
                        )
                    )
    return entries


def earliest_levels(entries: list[OncallObject]) -> list[OncallObject]:
    """Only each user's lowest escalation level per policy."""
    lowest: dict[tuple[str, str], int] = {}
    for e in entries:
        key = (e.escalation_policy.id, e.user.id)
        lowest[key] = min(lowest.get(key, e.escalation_level), e.escalation_level)
    return [e for e in entries if e.escalation_level == lowest[(e.escalation_policy.id, e.user.id)]]


def policy_reach(db: Database, rules: list[dict[str, Any]]) -> set[str]:
    """The users a policy's rules reach, directly or through the layers of their schedules."""
    reached = set()
    for rule in rules:
        for target in rule["targets"]:
            if target["type"] == "user_reference":
                reached.add(target["id"])
            else:
                reached.update(
                    u for layer in db.find(schedule_layers, schedule_id=target["id"]) for u in layer["users"]
                )
    return reached
