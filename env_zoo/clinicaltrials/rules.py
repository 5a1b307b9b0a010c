"""ClinicalTrials.gov's search, matching and eligibility rules that the tools share."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from .objects import (
    Contact,
    LocationObject,
    MessageObject,
    ParticipantObject,
    PrescreenObject,
    StudySummary,
    WatchlistObject,
)
from .schema import locations, messages, participants, prescreens, studies, study_events, watchlists

EVENT_TYPES = ("STATUS_CHANGE", "NEW_SITE", "ENROLLMENT_UPDATE", "RESULTS_POSTED")
# Names that mean the same condition (a small stand-in for the registry's MeSH synonym expansion).
SYNONYMS = [
    {"type 2 diabetes", "type 2 diabetes mellitus", "diabetes mellitus type 2", "t2d", "t2dm"},
    {"heart attack", "myocardial infarction"},
    {"high blood pressure", "hypertension"},
    {"nsclc", "non small cell lung cancer"},
    {"alzheimer disease", "alzheimer s disease", "alzheimers disease"},
    {"depression", "major depressive disorder", "mdd"},
    {"copd", "chronic obstructive pulmonary disease"},
    {"ckd", "chronic kidney disease"},
    {"long covid", "post covid 19 condition", "post acute sequelae of sars cov 2"},
    {"heart failure", "chf", "congestive heart failure"},
    {"rheumatoid arthritis", "ra"},
]
_GEO = re.compile(r"^distance\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*(mi|km)\s*\)$")
_AGE = re.compile(r"^(\d+)\s+(Year|Month|Week|Day)s?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
AGE_UNIT_YEARS = {"Year": 1.0, "Month": 1 / 12, "Week": 7 / 365.25, "Day": 1 / 365.25}


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def _variants(phrase: str) -> list[tuple[str, ...]]:
    """The phrase's words, plus the words of every synonym of it."""
    words = tuple(_tokens(phrase))
    for group in SYNONYMS:
        if " ".join(words) in group:
            return [words] + [tuple(g.split()) for g in sorted(group)]
    return [words]


def _matches(phrase: str, texts: list[str]) -> bool:
    """Every word of the phrase (or of one of its synonyms) occurs in one of the texts together."""
    if not phrase.strip():
        return True
    token_sets = [set(_tokens(t)) for t in texts]
    joined = set().union(*token_sets) if token_sets else set()
    return any(set(v) <= joined for v in _variants(phrase))


def _condition_match(condition: str, study_conditions: list[str]) -> str | None:
    """The study condition a participant's condition falls under, if any."""
    for target in study_conditions:
        target_words = set(_tokens(target))
        if any(set(v) <= target_words for v in _variants(condition) if v):
            return target
        if any(set(v) <= set(_tokens(condition)) for v in _variants(target) if v):
            return target
    return None


def _study(db: Database, nct_id: str) -> dict[str, Any]:
    if not re.match(r"^NCT\d{8}$", nct_id):
        raise InvalidRequest(f"'{nct_id}' is not a valid NCT number (NCT followed by 8 digits)")
    return db.find_one(studies, nct_id=nct_id, not_found=f"Study {nct_id} not found")


def _open_referrals(db: Database, location_id: str) -> int:
    return sum(
        1 for m in db.find(messages, location_id=location_id, kind="REFERRAL") if m["status"] in ("PENDING", "ACCEPTED")
    )


def _location_object(db: Database, row: dict[str, Any]) -> LocationObject:
    held = _open_referrals(db, row["id"])
    contact = None
    if row["contact_name"]:
        contact = Contact(
            name=row["contact_name"], role="CONTACT", phone=row["contact_phone"], email=row["contact_email"]
        )
    left = None if row["enrollment_limit"] is None else max(0, row["enrollment_limit"] - row["enrolled"] - held)
    return LocationObject(
        locationId=row["id"],
        facility=row["facility"],
        status=row["status"],
        city=row["city"],
        state=row["state"],
        zip=row["zip"],
        country=row["country"],
        lat=row["lat"],
        lon=row["lon"],
        contact=contact,
        enrollmentLimit=row["enrollment_limit"],
        enrolled=row["enrolled"],
        openReferrals=held,
        placesLeft=left,
    )


def _summary(row: dict[str, Any], site_count: int) -> StudySummary:
    return StudySummary(
        nctId=row["nct_id"],
        briefTitle=row["brief_title"],
        acronym=row["acronym"],
        overallStatus=row["overall_status"],
        conditions=row["conditions"],
        phases=row["phases"],
        studyType=row["study_type"],
        leadSponsor=row["lead_sponsor"],
        interventions=[i["name"] for i in row["interventions"]],
        enrollmentCount=row["enrollment_count"],
        startDate=row["start_date"],
        sex=row["sex"],
        minimumAge=row["minimum_age"],
        maximumAge=row["maximum_age"],
        locationCount=site_count,
        lastUpdatePostDate=row["last_update_post_date"],
        hasResults=row["has_results"],
    )


def _age_in(unit: str, born: date, today: date) -> int:
    """Completed years, months, weeks or days of age."""
    if unit == "Day":
        return (today - born).days
    if unit == "Week":
        return (today - born).days // 7
    months = (today.year - born.year) * 12 + today.month - born.month - (today.day < born.day)
    return months if unit == "Month" else months // 12


def _parse_age(text: str | None) -> tuple[int, str] | None:
    if not text or text == "N/A":
        return None
    match = _AGE.match(text)
    if not match:
        raise InvalidRequest(f"Unreadable age limit {text!r}")
    return int(match.group(1)), match.group(2)


def _birth(row: dict[str, Any]) -> date:
    return date.fromisoformat(row["birth_date"])


def _eligibility(db: Database, person: dict[str, Any], study: dict[str, Any]) -> list[str]:
    """Reasons the participant fails the study's age, sex, condition and healthy-volunteer rules."""
    today = db.now().date()
    born = _birth(person)
    reasons = []
    for limit, bound in ((study["minimum_age"], "minimum"), (study["maximum_age"], "maximum")):
        parsed = _parse_age(limit)
        if parsed is None:
            continue
        value, unit = parsed
        age = _age_in(unit, born, today)
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
        if not any(_condition_match(c, targets) for c in person["conditions"]):
            reasons.append(
                f"None of the participant's conditions ({', '.join(person['conditions'])}) is studied "
                f"(study conditions: {', '.join(study['conditions'])})"
            )
    return reasons


def _prescreen_object(row: dict[str, Any]) -> PrescreenObject:
    return PrescreenObject(
        id=row["id"],
        participantId=row["participant_id"],
        nctId=row["nct_id"],
        outcome=row["outcome"],
        reasons=row["reasons"],
        ageYears=row["age_years"],
        screenedAt=row["screened_at"],
    )


def _participant(db: Database, participant_id: str) -> dict[str, Any]:
    return db.get(participants, participant_id, "Participant")


def _participant_object(db: Database, row: dict[str, Any]) -> ParticipantObject:
    screens = db.find(prescreens, participant_id=row["id"], order_by=[prescreens.c.id])
    return ParticipantObject(
        id=row["id"],
        displayName=row["display_name"],
        birthDate=row["birth_date"],
        age=_age_in("Year", _birth(row), db.now().date()),
        sex=row["sex"],
        conditions=row["conditions"],
        city=row["city"],
        state=row["state"],
        zip=row["zip"],
        consentStatus=row["consent_status"],
        consentDate=row["consent_date"],
        notes=row["notes"],
        prescreens=[_prescreen_object(s) for s in screens],
    )


def _message_object(db: Database, row: dict[str, Any]) -> MessageObject:
    site = db.get(locations, row["location_id"], "Location")
    return MessageObject(
        id=row["id"],
        nctId=row["nct_id"],
        locationId=row["location_id"],
        facility=site["facility"],
        participantId=row["participant_id"],
        kind=row["kind"],
        subject=row["subject"],
        body=row["body"],
        status=row["status"],
        siteReply=row["site_reply"],
        sentAt=row["sent_at"],
    )


def _watchlist(db: Database, watchlist_id: str) -> dict[str, Any]:
    return db.get(watchlists, watchlist_id, "Watch list")


def _last_event_id(db: Database) -> int:
    rows = db.find(study_events, order_by=[study_events.c.id.desc()])
    return rows[0]["id"] if rows else 0


def _pending_alerts(db: Database, row: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for event in db.find(study_events, study_events.c.id > row["last_seen_event_id"], order_by=[study_events.c.id]):
        since = row["studies"].get(event["nct_id"])
        if since is not None and event["id"] > since and event["event_type"] in row["alert_on"]:
            found.append(event)
    return found


def _watchlist_object(db: Database, row: dict[str, Any]) -> WatchlistObject:
    return WatchlistObject(
        id=row["id"],
        name=row["name"],
        alertOn=row["alert_on"],
        frequency=row["frequency"],
        nctIds=sorted(row["studies"]),
        unreadAlerts=len(_pending_alerts(db, row)),
        createdAt=row["created_at"],
    )


def _distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(a))


def _geo(text: str) -> tuple[float, float, float]:
    match = _GEO.match(text.strip())
    if not match:
        raise InvalidRequest(
            "geo must look like distance(30.2672,-97.7431,50mi) (latitude, longitude, radius in mi or km)"
        )
    lat, lon, radius, unit = float(match.group(1)), float(match.group(2)), float(match.group(3)), match.group(4)
    return lat, lon, radius * (1.609344 if unit == "mi" else 1.0)


def _age_fits(row: dict[str, Any], years: int) -> bool:
    """Whether someone aged `years` (completed years) can fall within the study's age limits."""
    for text, bound in ((row["minimum_age"], "min"), (row["maximum_age"], "max")):
        parsed = _parse_age(text)
        if parsed is None:
            continue
        limit = parsed[0] * AGE_UNIT_YEARS[parsed[1]]
        if (bound == "min" and years + 1 <= limit) or (bound == "max" and years > limit):
            return False
    return True


def _event_types(alert_on: Sequence[str]) -> list[str]:
    """The change types of a watch list as a set, stored in the registry's fixed order."""
    return [event_type for event_type in EVENT_TYPES if event_type in alert_on]


def _check_birth(db: Database, text: str) -> str:
    if not _DATE.match(text):
        raise InvalidRequest("birth_date must be a date as YYYY-MM-DD")
    try:
        born = date.fromisoformat(text)
    except ValueError:
        raise InvalidRequest(f"{text} is not a valid date") from None
    if born > db.now().date():
        raise InvalidRequest("birth_date is in the future")
    return text


def _clean_conditions(conditions: list[str]) -> list[str]:
    cleaned = []
    for condition in conditions:
        if not condition.strip():
            raise InvalidRequest("conditions must not contain empty names")
        if condition.strip().casefold() not in (c.casefold() for c in cleaned):
            cleaned.append(condition.strip())
    return cleaned


def _check_referral(db: Database, person: dict[str, Any], study: dict[str, Any], site: dict[str, Any]) -> None:
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
        held = _open_referrals(db, site["id"])
        if site["enrolled"] + held >= site["enrollment_limit"]:
            raise Conflict(
                f"The site {site['facility']} has reached its enrollment limit ({site['enrolled']} "
                f"enrolled + {held} open referrals of {site['enrollment_limit']})"
            )
