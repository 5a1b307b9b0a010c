"""ClinicalTrials.gov's and the workspace's rules the tools share: records by id, age limits and eligibility,
watch-list alerts, participant details and referrals to sites."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_date

from .matching import condition_match
from .schema import locations, messages, participants, prescreens, studies, study_events, watchlists

EVENT_TYPES = ("STATUS_CHANGE", "NEW_SITE", "ENROLLMENT_UPDATE", "RESULTS_POSTED")
AGE_LIMIT = re.compile(r"^(\d+)\s+(Year|Month|Week|Day)s?$")
AGE_UNIT_YEARS = {"Year": 1.0, "Month": 1 / 12, "Week": 7 / 365.25, "Day": 1 / 365.25}


def study_row(db: Database, nct_id: str) -> dict[str, Any]:
    """A registry study by its NCT number (NCT and 8 digits)."""
    if not re.match(r"^NCT\d{8}$", nct_id):
        raise InvalidRequest(f"'{nct_id}' is not a valid NCT number (NCT followed by 8 digits)")
    return db.find_one(studies, nct_id=nct_id, not_found=f"Study {nct_id} not found")


def open_referrals(db: Database, location_id: str) -> int:
    """Referrals holding a place at a site (pending or accepted)."""
    return sum(
        1 for m in db.find(messages, location_id=location_id, kind="REFERRAL") if m["status"] in ("PENDING", "ACCEPTED")
    )


def age_in(unit: str, born: date, today: date) -> int:
    """Completed years, months, weeks or days of age."""
    if unit == "Day":
        return (today - born).days
    if unit == "Week":
        return (today - born).days // 7
    months = (today.year - born.year) * 12 + today.month - born.month - (today.day < born.day)
    return months if unit == "Month" else months // 12


def parse_age_limit(text: str | None) -> tuple[int, str] | None:
    """A study age limit such as "18 Years" as (18, "Year"); None when there is no limit."""
    if not text or text == "N/A":
        return None
    match = AGE_LIMIT.match(text)
    if not match:
        raise InvalidRequest(f"Unreadable age limit {text!r}")
    return int(match.group(1)), match.group(2)


def birth_date_of(row: dict[str, Any]) -> date:
    """A participant's date of birth."""
    return date.fromisoformat(row["birth_date"])


def eligibility_problems(db: Database, person: dict[str, Any], study: dict[str, Any]) -> list[str]:
    """Reasons the participant fails the study's age, sex, condition and healthy-volunteer rules."""
    today = db.now().date()
    born = birth_date_of(person)
    reasons = []
    for limit, bound in ((study["minimum_age"], "minimum"), (study["maximum_age"], "maximum")):
        parsed = parse_age_limit(limit)
        if parsed is None:
            continue
        value, unit = parsed
        age = age_in(unit, born, today)
        if (bound == "minimum" and age < value) or (bound == "maximum" and age > value):
            side = "below the minimum" if bound == "minimum" else "above the maximum"
            reasons.append(f"Age {age} {unit.lower()}s is {side} age of {limit}")
    if study["sex"] != "ALL" and person["sex"] != study["sex"]:
        reasons.append(f"The study enrolls {study['sex'].lower()} participants only")
    if not person["conditions"]:
        if not study["healthy_volunteers"]:
            reasons.append("The study does not accept healthy volunteers")
    elif not study["healthy_volunteers"]:
        targets = study["conditions"] + study["keywords"]
        if not any(condition_match(c, targets) for c in person["conditions"]):
            reasons.append(
                f"None of the participant's conditions ({', '.join(person['conditions'])}) is studied "
                f"(study conditions: {', '.join(study['conditions'])})"
            )
    return reasons


def participant_row(db: Database, participant_id: str) -> dict[str, Any]:
    """A participant profile by id."""
    return db.get(participants, participant_id, "Participant")


def watchlist_row(db: Database, watchlist_id: str) -> dict[str, Any]:
    """A watch list by id."""
    return db.get(watchlists, watchlist_id, "Watch list")


def last_event_id(db: Database) -> int:
    """The newest registry change posted so far (0 when none)."""
    rows = db.find(study_events, order_by=[study_events.c.id.desc()])
    return rows[0]["id"] if rows else 0


def pending_alerts(db: Database, row: dict[str, Any]) -> list[dict[str, Any]]:
    """A watch list's changes not shown yet: posted after the last check and after each study joined the list."""
    found = []
    for event in db.find(study_events, study_events.c.id > row["last_seen_event_id"], order_by=[study_events.c.id]):
        since = row["studies"].get(event["nct_id"])
        if since is not None and event["id"] > since and event["event_type"] in row["alert_on"]:
            found.append(event)
    return found


def age_fits(row: dict[str, Any], years: int) -> bool:
    """Whether someone aged `years` (completed years) can fall within the study's age limits."""
    for text, bound in ((row["minimum_age"], "min"), (row["maximum_age"], "max")):
        parsed = parse_age_limit(text)
        if parsed is None:
            continue
        limit = parsed[0] * AGE_UNIT_YEARS[parsed[1]]
        if (bound == "min" and years + 1 <= limit) or (bound == "max" and years > limit):
            return False
    return True


def event_types(alert_on: Sequence[str]) -> list[str]:
    """The change types of a watch list as a set, stored in the registry's fixed order."""
    return [event_type for event_type in EVENT_TYPES if event_type in alert_on]


def check_birth_date(db: Database, text: str) -> str:
    """A date of birth on the calendar and not in the future (its type checks the YYYY-MM-DD shape)."""
    if parse_date(text, "birth_date") > db.now().date():
        raise InvalidRequest("birth_date is in the future")
    return text


def clean_conditions(conditions: list[str]) -> list[str]:
    """Condition names trimmed, without case-insensitive duplicates; a blank name is refused."""
    cleaned = []
    for condition in conditions:
        if not condition.strip():
            raise InvalidRequest("conditions must not contain empty names")
        if condition.strip().casefold() not in (c.casefold() for c in cleaned):
            cleaned.append(condition.strip())
    return cleaned


def check_referral(db: Database, person: dict[str, Any], study: dict[str, Any], site: dict[str, Any]) -> None:
    """A referral needs consent, an ELIGIBLE pre-screen, a recruiting study and site, no other open referral for
    the study and a place left under the site's enrollment limit."""
    name, nct_id = person["display_name"], study["nct_id"]
    if person["consent_status"] != "GRANTED":
        raise PermissionDenied(
            f"{name} has not given consent to share their data with study sites "
            f"(consent status {person['consent_status']}); only they can give it"
        )
    screens = db.find(prescreens, participant_id=person["id"], nct_id=nct_id)
    if not screens:
        raise Conflict(f"{name} has not been pre-screened for {nct_id}; run prescreen_participant first")
    if screens[0]["outcome"] != "ELIGIBLE":
        raise Conflict(f"{name} was pre-screened INELIGIBLE for {nct_id}: {'; '.join(screens[0]['reasons'])}")
    if study["overall_status"] != "RECRUITING":
        raise Conflict(f"Study {nct_id} is {study['overall_status']}; referrals open once it is RECRUITING")
    if site["status"] != "RECRUITING":
        raise Conflict(f"The site {site['facility']} is {site['status']}, not recruiting")
    for other in db.find(messages, participant_id=person["id"], nct_id=nct_id, kind="REFERRAL"):
        if other["status"] in ("PENDING", "ACCEPTED"):
            raise Conflict(f"{name} already has an open referral ({other['id']}, {other['status']}) for {nct_id}")
    if site["enrollment_limit"] is not None:
        held = open_referrals(db, site["id"])
        if site["enrolled"] + held >= site["enrollment_limit"]:
            raise Conflict(
                f"The site {site['facility']} has reached its enrollment limit ({site['enrolled']} "
                f"enrolled + {held} open referrals of {site['enrollment_limit']})"
            )


MAX_WATCHLISTS = 10
MAX_WATCHED = 50
SCREENABLE = ("RECRUITING", "NOT_YET_RECRUITING")
CLOSED_SITE = ("COMPLETED", "TERMINATED", "WITHDRAWN")


def check_watchlist_name(db: Database, name: str, watchlist_id: str | None = None) -> str:
    """A watch-list name no other list has (case-insensitive), trimmed."""
    name = name.strip()
    if any(w["name"].casefold() == name.casefold() and w["id"] != watchlist_id for w in db.find(watchlists)):
        raise Conflict(f"A watch list named '{name}' already exists")
    return name


def check_watch_count(watched: Sequence[str]) -> None:
    """A watch list holds 1 to 50 studies."""
    if not watched:
        raise InvalidRequest("A watch list needs at least one study")
    if len(watched) > MAX_WATCHED:
        raise InvalidRequest(f"A watch list holds at most {MAX_WATCHED} studies")


def check_screenable(study: dict[str, Any]) -> None:
    """Only recruiting or not-yet-recruiting studies can be pre-screened."""
    if study["overall_status"] not in SCREENABLE:
        raise Conflict(
            f"Study {study['nct_id']} is {study['overall_status']}; only recruiting or not-yet-recruiting studies "
            "can be pre-screened"
        )


def site_of(db: Database, nct_id: str, location_id: str) -> dict[str, Any]:
    """A site of the study that still takes messages."""
    site = db.get(locations, location_id, "Location")
    if site["nct_id"] != nct_id:
        raise NotFound(f"Location {location_id} is not a site of {nct_id}")
    if site["status"] in CLOSED_SITE:
        raise Conflict(
            f"The site {site['facility']} is {site['status']} and no longer takes messages; contact the "
            "study's central contact instead"
        )
    return site
