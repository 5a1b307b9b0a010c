"""ClinicalTrials.gov API v2 tools (study search, study records, sites, field statistics) and the coordinator's
workspace tools: saved studies, watch lists and their alerts, participants, pre-screens and messages to sites."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, bounded, page_size, text

from .matching import matches
from .objects import (
    AlertsResult,
    EventType,
    FieldValues,
    LocationObject,
    MessageObject,
    ParticipantObject,
    Phase,
    PrescreenObject,
    SavedStudy,
    Status,
    StudiesPage,
    Study,
    ValueCount,
    WatchlistObject,
    alert_object,
    location_object,
    message_object,
    participant_object,
    prescreen_object,
    saved_study_object,
    study_object,
    study_summary,
    watchlist_object,
)
from .rules import (
    EVENT_TYPES,
    MAX_WATCHED,
    MAX_WATCHLISTS,
    age_in,
    birth_date_of,
    check_birth_date,
    check_referral,
    check_screenable,
    check_watch_count,
    check_watchlist_name,
    clean_conditions,
    eligibility_problems,
    event_types,
    last_event_id,
    participant_row,
    pending_alerts,
    site_of,
    study_row,
    watchlist_row,
)
from .schema import locations, messages, participants, prescreens, saved_studies, studies, watchlists
from .search import SORT_FIELDS, Filters, find_studies, site_text

MAX_MESSAGE = 2000
FIELDS = {
    "OverallStatus": lambda s: [s["overall_status"]],
    "Phase": lambda s: s["phases"] or ["NA"],
    "StudyType": lambda s: [s["study_type"]],
    "Condition": lambda s: s["conditions"],
    "LeadSponsorClass": lambda s: [s["sponsor_class"]],
    "Sex": lambda s: [s["sex"]],
    "InterventionType": lambda s: sorted({i["type"] for i in s["interventions"]}),
}
Sort = Annotated[
    str,
    Field(pattern=rf"^({'|'.join(SORT_FIELDS)})(:(asc|desc))?$"),
    ErrorText(f"sort must be a field and a direction, e.g. LastUpdatePostDate:desc (fields: {', '.join(SORT_FIELDS)})"),
]
Geo = Annotated[
    str,
    Field(pattern=r"^\s*distance\(\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*,\s*\d+(\.\d+)?\s*(mi|km)\s*\)\s*$"),
    ErrorText("geo must look like distance(30.2672,-97.7431,50mi) (latitude, longitude, radius in mi or km)"),
]
Age = Annotated[bounded(0, 120), ErrorText("age must be between 0 and 120")]
Label = Annotated[text(40, min_length=0), ErrorText("label must be at most 40 characters")]
Name = Annotated[NonBlankText, ErrorText("name must not be empty")]
WatchedIds = Annotated[
    list[str],
    Unordered,
    Field(min_length=1, max_length=MAX_WATCHED),
    ErrorText(f"A watch list needs at least one study and holds at most {MAX_WATCHED}"),
]
AlertOn = Annotated[
    list[EventType], Unordered, Field(min_length=1), ErrorText("alert_on must name at least one change type")
]
Frequency = Literal["DAILY", "WEEKLY", "NONE"]
Zip = Annotated[str, Field(pattern=r"^\d{5}$"), ErrorText("zip must be a 5-digit ZIP code")]
BirthDate = Annotated[IsoDate, ErrorText("birth_date must be a date as YYYY-MM-DD")]
Place = Annotated[NonBlankText, ErrorText("must not be empty")]
Subject = Annotated[NonBlankText, ErrorText("subject and message must not be empty")]
Message = Annotated[
    str,
    Field(min_length=1, max_length=MAX_MESSAGE, pattern=r"\S"),
    ErrorText(f"message must not be empty and at most {MAX_MESSAGE} characters"),
]


# ---------------------------------------------------------------- registry (API v2) tools


@tool(read_only=True)
def search_studies(
    db: Database,
    query_cond: str = "",
    query_term: str = "",
    query_intr: str = "",
    query_locn: str = "",
    query_spons: str = "",
    overall_status: list[Status] | None = None,
    phase: list[Phase] | None = None,
    study_type: Literal["INTERVENTIONAL", "OBSERVATIONAL"] | None = None,
    sex: Literal["FEMALE", "MALE"] | None = None,
    age: Age | None = None,
    healthy_volunteers: bool | None = None,
    geo: Geo | None = None,
    sort: Sort = "LastUpdatePostDate:desc",
    page_size: page_size(1000) = 10,
    page_token: str | None = None,
) -> StudiesPage:
    """Search the registry's studies (GET /studies). Query words must all match in their search area; filters
    narrow the result. Returns summaries with the total count; use get_study for a full record.

    Args:
        query_cond: Condition or disease (query.cond), e.g. "type 2 diabetes"; common synonyms also match.
        query_term: Other terms, searched in titles, summary, conditions, interventions, sponsor and NCT number.
        query_intr: Intervention or treatment (query.intr), e.g. "semaglutide".
        query_locn: Location terms (query.locn): facility, city, state, ZIP code or country of a site.
        query_spons: Sponsor or collaborator name (query.spons).
        overall_status: Only studies with one of these overall statuses (filter.overallStatus).
        phase: Only studies in one of these phases.
        study_type: INTERVENTIONAL or OBSERVATIONAL.
        sex: Only studies open to this sex (studies for all sexes included).
        age: Only studies whose age limits include this age in years.
        healthy_volunteers: Only studies that do (true) or don't (false) accept healthy volunteers.
        geo: Only studies with a site within a distance (filter.geo), e.g. distance(30.2672,-97.7431,50mi).
        sort: Field and direction, e.g. LastUpdatePostDate:desc, StartDate:asc, EnrollmentCount:desc, NCTId:asc.
        page_size: Studies per page, 1 to 1000.
        page_token: The nextPageToken of the previous page.
    """
    filters = Filters(
        query_cond=query_cond,
        query_term=query_term,
        query_intr=query_intr,
        query_locn=query_locn,
        query_spons=query_spons,
        overall_status=overall_status,
        phase=phase,
        study_type=study_type,
        sex=sex,
        age=age,
        healthy_volunteers=healthy_volunteers,
        geo=geo,
    )
    found, site_counts = find_studies(db, filters, sort)
    page = paginate(found, page_size, page_token, max_page_size=1000)
    return StudiesPage(
        studies=[study_summary(r, site_counts.get(r["nct_id"], 0)) for r in page.results],
        totalCount=len(found),
        nextPageToken=page.next_cursor,
    )


@tool(read_only=True)
def get_study(db: Database, nct_id: str) -> Study:
    """Retrieve a full study record (GET /studies/{nctId}): status and dates, sponsor, design, arms and
    interventions, outcomes, eligibility criteria and every site with its recruitment status.

    Args:
        nct_id: The study's NCT number, e.g. NCT05512345.
    """
    return study_object(db, study_row(db, nct_id))


@tool(read_only=True)
def list_study_locations(
    db: Database, nct_id: str, status: list[Status] | None = None, query_locn: str = ""
) -> list[LocationObject]:
    """List a study's sites with their recruitment status, contact and how many places are left under each
    site's enrollment limit.

    Args:
        nct_id: The study's NCT number.
        status: Only sites with one of these recruitment statuses, e.g. ["RECRUITING"].
        query_locn: Only sites whose facility, city, state, ZIP code or country match these words.
    """
    study_row(db, nct_id)
    rows = db.find(locations, nct_id=nct_id, order_by=[locations.c.id])
    return [
        location_object(db, r)
        for r in rows
        if (not status or r["status"] in status) and matches(query_locn, [site_text(r)])
    ]


@tool(read_only=True)
def get_field_values(
    db: Database,
    field: Literal["OverallStatus", "Phase", "StudyType", "Condition", "LeadSponsorClass", "Sex", "InterventionType"],
    limit: Annotated[bounded(1, 200), ErrorText("limit must be between 1 and 200")] = 25,
) -> FieldValues:
    """Count the registry's studies per value of a field (GET /stats/field/values), most common first; useful to
    learn how conditions are spelled in the registry.

    Args:
        field: The field to count.
        limit: How many of the most common values to return, 1 to 200.
    """
    counts: dict[str, int] = {}
    for row in db.find(studies):
        for value in set(FIELDS[field](row)):
            counts[value] = counts.get(value, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return FieldValues(
        field=field,
        uniqueValuesCount=len(counts),
        topValues=[ValueCount(value=v, studiesCount=n) for v, n in ordered[:limit]],
    )


# ---------------------------------------------------------------- saved studies


@tool()
def save_study(db: Database, nct_id: str, label: Label | None = None, note: str | None = None) -> SavedStudy:
    """Save a study to the workspace, optionally with a short label and a note.

    Args:
        nct_id: The study's NCT number.
        label: A short label (at most 40 characters), e.g. "for Rosa".
        note: A free-text note.
    """
    row = study_row(db, nct_id)
    if db.find(saved_studies, nct_id=nct_id):
        raise Conflict(f"Study {nct_id} is already saved")
    return saved_study_object(
        row, db.insert(saved_studies, nct_id=nct_id, label=label, note=note, saved_at=db.now_iso())
    )


@tool(read_only=True)
def list_saved_studies(db: Database) -> list[SavedStudy]:
    """List the workspace's saved studies, most recently saved first, with each study's current status."""
    return [
        saved_study_object(db.get(studies, saved["nct_id"], "Study"), saved)
        for saved in db.find(saved_studies, order_by=[saved_studies.c.saved_at.desc()])
    ]


@tool()
def remove_saved_study(db: Database, nct_id: str) -> SavedStudy:
    """Remove a study from the saved studies.

    Args:
        nct_id: The saved study's NCT number.
    """
    saved = db.find_one(saved_studies, nct_id=nct_id, not_found=f"Study {nct_id} is not in your saved studies")
    db.delete(saved_studies, nct_id)
    return saved_study_object(db.get(studies, nct_id, "Study"), saved)


# ---------------------------------------------------------------- watch lists


@tool()
def create_watchlist(
    db: Database,
    name: Name,
    nct_ids: WatchedIds,
    alert_on: AlertOn | None = None,
    frequency: Frequency = "WEEKLY",
) -> WatchlistObject:
    """Create a watch list: its studies raise alerts when the registry posts a change to them from now on
    (status changes, new sites, enrollment updates, posted results). At most 10 lists of 50 studies.

    Args:
        name: The list's name (unique).
        nct_ids: NCT numbers of the studies to watch.
        alert_on: Which changes raise alerts; default all of STATUS_CHANGE, NEW_SITE, ENROLLMENT_UPDATE,
            RESULTS_POSTED.
        frequency: How often an e-mail digest of alerts is sent: DAILY, WEEKLY or NONE.
    """
    name = check_watchlist_name(db, name)
    if len(db.find(watchlists)) >= MAX_WATCHLISTS:
        raise Conflict(f"You already have {MAX_WATCHLISTS} watch lists, the maximum; delete or reuse one")
    ids = list(dict.fromkeys(nct_ids))
    for nct_id in ids:
        study_row(db, nct_id)
    last = last_event_id(db)
    row = db.insert(
        watchlists,
        id=db.new_id(watchlists, "wl_"),
        name=name,
        alert_on=event_types(alert_on or EVENT_TYPES),
        frequency=frequency,
        studies={n: last for n in ids},
        last_seen_event_id=last,
        created_at=db.now_iso(),
    )
    return watchlist_object(db, row)


@tool()
def update_watchlist(
    db: Database,
    watchlist_id: str,
    name: Name | None = None,
    add_nct_ids: list[str] | None = None,
    remove_nct_ids: list[str] | None = None,
    alert_on: AlertOn | None = None,
    frequency: Frequency | None = None,
) -> WatchlistObject:
    """Rename a watch list, add or remove studies, or change which changes alert and how often.

    Args:
        watchlist_id: The watch list's id (from list_watchlists).
        name: New name.
        add_nct_ids: Studies to start watching (alerts only for changes posted from now on).
        remove_nct_ids: Studies to stop watching.
        alert_on: The new set of change types that raise alerts.
        frequency: New digest frequency: DAILY, WEEKLY or NONE.
    """
    row = watchlist_row(db, watchlist_id)
    changes: dict[str, Any] = given(
        name=check_watchlist_name(db, name, watchlist_id) if name is not None else None,
        alert_on=event_types(alert_on) if alert_on is not None else None,
        frequency=frequency,
    )
    watched = dict(row["studies"])
    for nct_id in remove_nct_ids or []:
        if nct_id not in watched:
            raise NotFound(f"Study {nct_id} is not on the watch list '{row['name']}'")
        del watched[nct_id]
    last = last_event_id(db)
    for nct_id in add_nct_ids or []:
        study_row(db, nct_id)
        if nct_id in watched:
            raise Conflict(f"Study {nct_id} is already on the watch list '{row['name']}'")
        watched[nct_id] = last
    if add_nct_ids or remove_nct_ids:
        check_watch_count(list(watched))
        changes["studies"] = watched
    if not changes:
        raise InvalidRequest("Nothing to update")
    return watchlist_object(db, db.update(watchlists, watchlist_id, **changes))


@tool(read_only=True)
def list_watchlists(db: Database) -> list[WatchlistObject]:
    """List the watch lists with their studies and how many alerts each has not shown yet."""
    return [watchlist_object(db, r) for r in db.find(watchlists, order_by=[watchlists.c.id])]


@tool()
def check_watchlist_alerts(db: Database, watchlist_id: str) -> AlertsResult:
    """Show a watch list's new alerts (registry changes to its studies since the last check), oldest first, and
    mark them as seen.

    Args:
        watchlist_id: The watch list's id.
    """
    row = watchlist_row(db, watchlist_id)
    pending = pending_alerts(db, row)
    last = last_event_id(db)
    if last != row["last_seen_event_id"]:
        db.update(watchlists, watchlist_id, last_seen_event_id=last)
    titles: dict[str, str] = {}
    for event in pending:
        titles.setdefault(event["nct_id"], db.get(studies, event["nct_id"], "Study")["brief_title"])
    return AlertsResult(watchlistId=watchlist_id, alerts=[alert_object(e, titles[e["nct_id"]]) for e in pending])


# ---------------------------------------------------------------- participants and pre-screening


@tool(read_only=True)
def list_participants(db: Database) -> list[ParticipantObject]:
    """List the participant profiles of the workspace with their age, conditions, consent status and
    pre-screens."""
    return [participant_object(db, r) for r in db.find(participants, order_by=[participants.c.display_name])]


@tool()
def create_participant(
    db: Database,
    display_name: Annotated[NonBlankText, ErrorText("display_name must not be empty")],
    birth_date: BirthDate,
    sex: Literal["FEMALE", "MALE"],
    city: Place,
    state: Place,
    zip: Zip,
    conditions: Annotated[list[str], Unordered] | None = None,
    notes: str = "",
) -> ParticipantObject:
    """Add a participant profile to pre-screen for studies. Consent to share their data with sites starts as
    NOT_GIVEN; only the participant can give it.

    Args:
        display_name: The participant's name as the coordinator knows them.
        birth_date: Date of birth, YYYY-MM-DD.
        sex: FEMALE or MALE (as used by study eligibility).
        city: City of residence.
        state: State (two-letter code in the US).
        zip: ZIP code.
        conditions: Diagnosed conditions, e.g. ["Type 2 Diabetes"]; empty for a healthy volunteer.
        notes: Free-text notes.
    """
    born = check_birth_date(db, birth_date)
    if any(
        p["display_name"].casefold() == display_name.strip().casefold() for p in db.find(participants, birth_date=born)
    ):
        raise Conflict(f"A participant '{display_name.strip()}' born {birth_date} already exists")
    row = db.insert(
        participants,
        id=db.new_id(participants, "par_"),
        display_name=display_name.strip(),
        birth_date=born,
        sex=sex,
        conditions=clean_conditions(conditions or []),
        city=city.strip(),
        state=state.strip(),
        zip=zip,
        consent_status="NOT_GIVEN",
        consent_date=None,
        notes=notes,
        created_at=db.now_iso(),
    )
    return participant_object(db, row)


@tool()
def update_participant(
    db: Database,
    participant_id: str,
    conditions: list[str] | None = None,
    city: Place | None = None,
    state: Place | None = None,
    zip: Zip | None = None,
    notes: str | None = None,
) -> ParticipantObject:
    """Update a participant's conditions (the whole list), address or notes. Existing pre-screens are kept; run
    prescreen_participant again to re-check a study.

    Args:
        participant_id: The participant's id (from list_participants).
        conditions: The full new list of conditions.
        city: New city.
        state: New state.
        zip: New 5-digit ZIP code.
        notes: New notes (replace the old ones).
    """
    participant_row(db, participant_id)
    changes = given(
        conditions=clean_conditions(conditions) if conditions is not None else None,
        zip=zip,
        city=city.strip() if city is not None else None,
        state=state.strip() if state is not None else None,
        notes=notes,
    )
    if not changes:
        raise InvalidRequest("Nothing to update")
    return participant_object(db, db.update(participants, participant_id, **changes))


@tool()
def prescreen_participant(db: Database, participant_id: str, nct_id: str) -> PrescreenObject:
    """Pre-screen a participant against a study's eligibility rules (age limits on today's date, sex,
    conditions, healthy volunteers) and record the outcome; screening the same pair again replaces the record.
    Only RECRUITING or NOT_YET_RECRUITING studies can be pre-screened. The site still checks the full criteria.

    Args:
        participant_id: The participant's id.
        nct_id: The study's NCT number.
    """
    person = participant_row(db, participant_id)
    study = study_row(db, nct_id)
    check_screenable(study)
    reasons = eligibility_problems(db, person, study)
    values = dict(
        outcome="INELIGIBLE" if reasons else "ELIGIBLE",
        reasons=reasons,
        age_years=age_in("Year", birth_date_of(person), db.now().date()),
        screened_at=db.now_iso(),
    )
    existing = db.find(prescreens, participant_id=participant_id, nct_id=nct_id)
    if existing:
        return prescreen_object(db.update(prescreens, existing[0]["id"], **values))
    return prescreen_object(
        db.insert(prescreens, id=db.new_id(prescreens, "psc_"), participant_id=participant_id, nct_id=nct_id, **values)
    )


@tool(user_only=True)
def grant_data_sharing_consent(db: Database, participant_name: str) -> ParticipantObject:
    """(Participant only, signed in person or in the patient portal) Consent to share one's profile and
    pre-screening results with study sites. Nobody can give this consent on the participant's behalf.

    Args:
        participant_name: The participant's name as on their profile.
    """
    found = [p for p in db.find(participants) if p["display_name"].casefold() == participant_name.strip().casefold()]
    if not found:
        raise NotFound(f"No participant named '{participant_name}'")
    person = found[0]
    if person["consent_status"] == "GRANTED":
        raise Conflict(f"{person['display_name']} has already given consent")
    row = db.update(participants, person["id"], consent_status="GRANTED", consent_date=db.now().date().isoformat())
    return participant_object(db, row)


# ---------------------------------------------------------------- messages to sites


@tool()
def contact_site(
    db: Database,
    nct_id: str,
    location_id: str,
    subject: Subject,
    message: Message,
    participant_id: str | None = None,
) -> MessageObject:
    """Send a message to a study site's contact. With a participant it is a referral that shares their profile
    and pre-screen: it needs the participant's consent, an ELIGIBLE pre-screen for this study, a RECRUITING
    study and site, and a place left under the site's enrollment limit (open referrals hold places).

    Args:
        nct_id: The study's NCT number.
        location_id: The site's locationId (from get_study or list_study_locations).
        subject: The subject line.
        message: The message text (at most 2000 characters).
        participant_id: The participant to refer; omit for a general inquiry.
    """
    study = study_row(db, nct_id)
    site = site_of(db, nct_id, location_id)
    kind, status = "INQUIRY", "SENT"
    if participant_id is not None:
        check_referral(db, participant_row(db, participant_id), study, site)
        kind, status = "REFERRAL", "PENDING"
    row = db.insert(
        messages,
        id=db.new_id(messages, "msg_"),
        nct_id=nct_id,
        location_id=location_id,
        participant_id=participant_id,
        kind=kind,
        subject=subject.strip(),
        body=message.strip(),
        status=status,
        site_reply=None,
        sent_at=db.now_iso(),
    )
    return message_object(db, row)


@tool(read_only=True)
def list_site_messages(
    db: Database,
    participant_id: str | None = None,
    nct_id: str | None = None,
    status: Literal["SENT", "PENDING", "ACCEPTED", "DECLINED", "WITHDRAWN"] | None = None,
) -> list[MessageObject]:
    """List the messages sent to study sites, newest first, with the sites' replies.

    Args:
        participant_id: Only referrals of this participant.
        nct_id: Only messages about this study.
        status: Only messages in this status.
    """
    rows = db.find(
        messages,
        **given(participant_id=participant_id, nct_id=nct_id, status=status),
        order_by=[messages.c.sent_at.desc()],
    )
    return [message_object(db, r) for r in rows]


@tool()
def withdraw_referral(db: Database, message_id: str) -> MessageObject:
    """Withdraw a pending referral (the participant changed their mind or found another study); the place it held
    at the site is freed.

    Args:
        message_id: The referral's message id.
    """
    row = db.get(messages, message_id, "Message")
    if row["kind"] != "REFERRAL":
        raise InvalidRequest(f"{message_id} is an inquiry; only referrals can be withdrawn")
    if row["status"] != "PENDING":
        raise Conflict(f"Referral {message_id} is {row['status']}; only pending referrals can be withdrawn")
    return message_object(db, db.update(messages, message_id, status="WITHDRAWN"))
