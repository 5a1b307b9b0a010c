"""ClinicalTrials.gov API v2 tools (study search, study records, sites, field statistics) and the coordinator's
workspace tools: saved studies, watch lists and their alerts, participants, pre-screens and messages to sites."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, paginate, tool

from .objects import (
    Alert,
    AlertsResult,
    ArmGroup,
    Contact,
    DesignModule,
    EligibilityModule,
    EventType,
    FieldValues,
    IdentificationModule,
    Intervention,
    LocationObject,
    MessageObject,
    Outcome,
    ParticipantObject,
    Phase,
    PrescreenObject,
    SavedStudy,
    SponsorModule,
    Status,
    StatusModule,
    StudiesPage,
    Study,
    ValueCount,
    WatchlistObject,
)
from .rules import (
    EVENT_TYPES,
    _age_fits,
    _age_in,
    _birth,
    _check_birth,
    _check_referral,
    _clean_conditions,
    _distance_km,
    _eligibility,
    _event_types,
    _geo,
    _last_event_id,
    _location_object,
    _matches,
    _message_object,
    _participant,
    _participant_object,
    _pending_alerts,
    _prescreen_object,
    _study,
    _summary,
    _watchlist,
    _watchlist_object,
)
from .schema import locations, messages, participants, prescreens, saved_studies, studies, watchlists

SCREENABLE = ("RECRUITING", "NOT_YET_RECRUITING")
CLOSED_SITE = ("COMPLETED", "TERMINATED", "WITHDRAWN")
MAX_WATCHLISTS = 10
MAX_WATCHED = 50
MAX_MESSAGE = 2000
SORT_FIELDS = {
    "LastUpdatePostDate": "last_update_post_date",
    "StartDate": "start_date",
    "EnrollmentCount": "enrollment_count",
    "NCTId": "nct_id",
    "PrimaryCompletionDate": "primary_completion_date",
}
FIELDS = {
    "OverallStatus": lambda s: [s["overall_status"]],
    "Phase": lambda s: s["phases"] or ["NA"],
    "StudyType": lambda s: [s["study_type"]],
    "Condition": lambda s: s["conditions"],
    "LeadSponsorClass": lambda s: [s["sponsor_class"]],
    "Sex": lambda s: [s["sex"]],
    "InterventionType": lambda s: sorted({i["type"] for i in s["interventions"]}),
}


# ---------------------------------------------------------------- helpers: text matching


# ---------------------------------------------------------------- helpers: records


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
    age: int | None = None,
    healthy_volunteers: bool | None = None,
    geo: str | None = None,
    sort: str = "LastUpdatePostDate:desc",
    page_size: int = 10,
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
    field, _, direction = sort.partition(":")
    if field not in SORT_FIELDS:
        raise InvalidRequest(f"Unknown sort field '{field}'. Sortable: {', '.join(SORT_FIELDS)}")
    if direction not in ("", "asc", "desc"):
        raise InvalidRequest("sort direction must be asc or desc")
    if age is not None and not 0 <= age <= 120:
        raise InvalidRequest("age must be between 0 and 120")
    near = _geo(geo) if geo else None
    sites: dict[str, list[dict[str, Any]]] = {}
    for site in db.find(locations):
        sites.setdefault(site["nct_id"], []).append(site)
    found = []
    for row in db.find(studies):
        own = sites.get(row["nct_id"], [])
        if overall_status and row["overall_status"] not in overall_status:
            continue
        if phase and not set(row["phases"] or ["NA"]) & set(phase):
            continue
        if study_type and row["study_type"] != study_type:
            continue
        if sex and row["sex"] not in ("ALL", sex):
            continue
        if healthy_volunteers is not None and row["healthy_volunteers"] != healthy_volunteers:
            continue
        if age is not None and not _age_fits(row, age):
            continue
        if not _matches(
            query_cond, row["conditions"] + row["keywords"] + [row["brief_title"], row["official_title"], row["nct_id"]]
        ):
            continue
        if not _matches(
            query_intr,
            [f"{i['type']} {i['name']} {i['description']}" for i in row["interventions"]]
            + [f"{a['label']} {a['description']}" for a in row["arm_groups"]],
        ):
            continue
        if not _matches(query_spons, [row["lead_sponsor"], *row["collaborators"]]):
            continue
        if not _matches(
            query_term,
            [
                row["nct_id"],
                row["acronym"] or "",
                row["brief_title"],
                row["official_title"],
                row["brief_summary"],
                row["lead_sponsor"],
                *row["conditions"],
                *row["keywords"],
                *(i["name"] for i in row["interventions"]),
            ],
        ):
            continue
        if query_locn.strip() and not any(
            _matches(query_locn, [f"{s['facility']} {s['city']} {s['state'] or ''} {s['zip'] or ''} {s['country']}"])
            for s in own
        ):
            continue
        if near and not any(_distance_km(near[0], near[1], s["lat"], s["lon"]) <= near[2] for s in own):
            continue
        found.append(row)
    column = SORT_FIELDS[field]
    descending = direction == "desc" if direction else field != "NCTId"
    found.sort(key=lambda r: r["nct_id"])
    dated = sorted((r for r in found if r[column] is not None), key=lambda r: r[column], reverse=descending)
    found = dated + [r for r in found if r[column] is None]
    page = paginate(found, page_size, page_token, max_page_size=1000)
    return StudiesPage(
        studies=[_summary(r, len(sites.get(r["nct_id"], []))) for r in page.results],
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
    row = _study(db, nct_id)
    sites = db.find(locations, nct_id=nct_id, order_by=[locations.c.id])
    contact = Contact(**row["central_contact"]) if row["central_contact"] else None
    return Study(
        identificationModule=IdentificationModule(
            nctId=row["nct_id"],
            briefTitle=row["brief_title"],
            officialTitle=row["official_title"],
            acronym=row["acronym"],
        ),
        statusModule=StatusModule(
            overallStatus=row["overall_status"],
            whyStopped=row["why_stopped"],
            startDate=row["start_date"],
            primaryCompletionDate=row["primary_completion_date"],
            completionDate=row["completion_date"],
            studyFirstPostDate=row["first_post_date"],
            lastUpdatePostDate=row["last_update_post_date"],
        ),
        sponsorCollaboratorsModule=SponsorModule(
            leadSponsor=row["lead_sponsor"], leadSponsorClass=row["sponsor_class"], collaborators=row["collaborators"]
        ),
        briefSummary=row["brief_summary"],
        conditions=row["conditions"],
        keywords=row["keywords"],
        designModule=DesignModule(
            studyType=row["study_type"],
            phases=row["phases"],
            allocation=row["allocation"],
            interventionModel=row["intervention_model"],
            primaryPurpose=row["primary_purpose"],
            masking=row["masking"],
            observationalModel=row["observational_model"],
            enrollmentCount=row["enrollment_count"],
            enrollmentType=row["enrollment_type"],
        ),
        armGroups=[ArmGroup(**a) for a in row["arm_groups"]],
        interventions=[Intervention(**i) for i in row["interventions"]],
        primaryOutcomes=[Outcome(**o) for o in row["primary_outcomes"]],
        eligibilityModule=EligibilityModule(
            eligibilityCriteria=row["eligibility_criteria"],
            healthyVolunteers=row["healthy_volunteers"],
            sex=row["sex"],
            minimumAge=row["minimum_age"],
            maximumAge=row["maximum_age"],
            stdAges=row["std_ages"],
        ),
        centralContact=contact,
        locations=[_location_object(db, s) for s in sites],
        hasResults=row["has_results"],
    )


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
    _study(db, nct_id)
    rows = db.find(locations, nct_id=nct_id, order_by=[locations.c.id])
    rows = [
        r
        for r in rows
        if (not status or r["status"] in status)
        and _matches(query_locn, [f"{r['facility']} {r['city']} {r['state'] or ''} {r['zip'] or ''} {r['country']}"])
    ]
    return [_location_object(db, r) for r in rows]


@tool(read_only=True)
def get_field_values(
    db: Database,
    field: Literal["OverallStatus", "Phase", "StudyType", "Condition", "LeadSponsorClass", "Sex", "InterventionType"],
    limit: int = 25,
) -> FieldValues:
    """Count the registry's studies per value of a field (GET /stats/field/values), most common first; useful to
    learn how conditions are spelled in the registry.

    Args:
        field: The field to count.
        limit: How many of the most common values to return, 1 to 200.
    """
    if not 1 <= limit <= 200:
        raise InvalidRequest("limit must be between 1 and 200")
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
def save_study(db: Database, nct_id: str, label: str | None = None, note: str | None = None) -> SavedStudy:
    """Save a study to the workspace, optionally with a short label and a note.

    Args:
        nct_id: The study's NCT number.
        label: A short label (at most 40 characters), e.g. "for Rosa".
        note: A free-text note.
    """
    row = _study(db, nct_id)
    if db.find(saved_studies, nct_id=nct_id):
        raise Conflict(f"Study {nct_id} is already saved")
    if label is not None and len(label) > 40:
        raise InvalidRequest("label must be at most 40 characters")
    saved = db.insert(saved_studies, nct_id=nct_id, label=label, note=note, saved_at=db.now_iso())
    return SavedStudy(
        nctId=nct_id,
        briefTitle=row["brief_title"],
        overallStatus=row["overall_status"],
        label=saved["label"],
        note=saved["note"],
        savedAt=saved["saved_at"],
    )


@tool(read_only=True)
def list_saved_studies(db: Database) -> list[SavedStudy]:
    """List the workspace's saved studies, most recently saved first, with each study's current status."""
    found = []
    for saved in db.find(saved_studies, order_by=[saved_studies.c.saved_at.desc()]):
        row = db.get(studies, saved["nct_id"], "Study")
        found.append(
            SavedStudy(
                nctId=row["nct_id"],
                briefTitle=row["brief_title"],
                overallStatus=row["overall_status"],
                label=saved["label"],
                note=saved["note"],
                savedAt=saved["saved_at"],
            )
        )
    return found


@tool()
def remove_saved_study(db: Database, nct_id: str) -> SavedStudy:
    """Remove a study from the saved studies.

    Args:
        nct_id: The saved study's NCT number.
    """
    rows = db.find(saved_studies, nct_id=nct_id)
    if not rows:
        raise NotFound(f"Study {nct_id} is not in your saved studies")
    row = db.get(studies, nct_id, "Study")
    db.delete(saved_studies, nct_id)
    return SavedStudy(
        nctId=nct_id,
        briefTitle=row["brief_title"],
        overallStatus=row["overall_status"],
        label=rows[0]["label"],
        note=rows[0]["note"],
        savedAt=rows[0]["saved_at"],
    )


# ---------------------------------------------------------------- watch lists


@tool()
def create_watchlist(
    db: Database,
    name: str,
    nct_ids: Annotated[list[str], Unordered],
    alert_on: Annotated[list[EventType], Unordered] | None = None,
    frequency: Literal["DAILY", "WEEKLY", "NONE"] = "WEEKLY",
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
    if not name.strip():
        raise InvalidRequest("name must not be empty")
    existing = db.find(watchlists)
    if any(w["name"].casefold() == name.strip().casefold() for w in existing):
        raise Conflict(f"A watch list named '{name.strip()}' already exists")
    if len(existing) >= MAX_WATCHLISTS:
        raise Conflict(f"You already have {MAX_WATCHLISTS} watch lists, the maximum; delete or reuse one")
    ids = list(dict.fromkeys(nct_ids))
    if not ids:
        raise InvalidRequest("A watch list needs at least one study")
    if len(ids) > MAX_WATCHED:
        raise InvalidRequest(f"A watch list holds at most {MAX_WATCHED} studies")
    for nct_id in ids:
        _study(db, nct_id)
    if alert_on is not None and not alert_on:
        raise InvalidRequest("alert_on must name at least one change type")
    last = _last_event_id(db)
    row = db.insert(
        watchlists,
        id=db.new_id(watchlists, "wl_"),
        name=name.strip(),
        alert_on=_event_types(alert_on or EVENT_TYPES),
        frequency=frequency,
        studies={n: last for n in ids},
        last_seen_event_id=last,
        created_at=db.now_iso(),
    )
    return _watchlist_object(db, row)


@tool()
def update_watchlist(
    db: Database,
    watchlist_id: str,
    name: str | None = None,
    add_nct_ids: list[str] | None = None,
    remove_nct_ids: list[str] | None = None,
    alert_on: Annotated[list[EventType], Unordered] | None = None,
    frequency: Literal["DAILY", "WEEKLY", "NONE"] | None = None,
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
    row = _watchlist(db, watchlist_id)
    changes: dict[str, Any] = {}
    if name is not None:
        if not name.strip():
            raise InvalidRequest("name must not be empty")
        taken = [w for w in db.find(watchlists) if w["id"] != watchlist_id]
        if any(w["name"].casefold() == name.strip().casefold() for w in taken):
            raise Conflict(f"A watch list named '{name.strip()}' already exists")
        changes["name"] = name.strip()
    watched = dict(row["studies"])
    for nct_id in remove_nct_ids or []:
        if nct_id not in watched:
            raise NotFound(f"Study {nct_id} is not on the watch list '{row['name']}'")
        del watched[nct_id]
    last = _last_event_id(db)
    for nct_id in add_nct_ids or []:
        _study(db, nct_id)
        if nct_id in watched:
            raise Conflict(f"Study {nct_id} is already on the watch list '{row['name']}'")
        watched[nct_id] = last
    if add_nct_ids or remove_nct_ids:
        if not watched:
            raise InvalidRequest("A watch list needs at least one study")
        if len(watched) > MAX_WATCHED:
            raise InvalidRequest(f"A watch list holds at most {MAX_WATCHED} studies")
        changes["studies"] = watched
    if alert_on is not None:
        if not alert_on:
            raise InvalidRequest("alert_on must name at least one change type")
        changes["alert_on"] = _event_types(alert_on)
    if frequency is not None:
        changes["frequency"] = frequency
    if not changes:
        raise InvalidRequest("Nothing to update")
    return _watchlist_object(db, db.update(watchlists, watchlist_id, **changes))


@tool(read_only=True)
def list_watchlists(db: Database) -> list[WatchlistObject]:
    """List the watch lists with their studies and how many alerts each has not shown yet."""
    return [_watchlist_object(db, r) for r in db.find(watchlists, order_by=[watchlists.c.id])]


@tool()
def check_watchlist_alerts(db: Database, watchlist_id: str) -> AlertsResult:
    """Show a watch list's new alerts (registry changes to its studies since the last check), oldest first, and
    mark them as seen.

    Args:
        watchlist_id: The watch list's id.
    """
    row = _watchlist(db, watchlist_id)
    pending = _pending_alerts(db, row)
    last = _last_event_id(db)
    if last != row["last_seen_event_id"]:
        db.update(watchlists, watchlist_id, last_seen_event_id=last)
    titles = {}
    for event in pending:
        titles.setdefault(event["nct_id"], db.get(studies, event["nct_id"], "Study")["brief_title"])
    return AlertsResult(
        watchlistId=watchlist_id,
        alerts=[
            Alert(
                eventId=e["id"],
                nctId=e["nct_id"],
                briefTitle=titles[e["nct_id"]],
                postedDate=e["posted_date"],
                eventType=e["event_type"],
                description=e["description"],
            )
            for e in pending
        ],
    )


# ---------------------------------------------------------------- participants and pre-screening


@tool(read_only=True)
def list_participants(db: Database) -> list[ParticipantObject]:
    """List the participant profiles of the workspace with their age, conditions, consent status and
    pre-screens."""
    return [_participant_object(db, r) for r in db.find(participants, order_by=[participants.c.display_name])]


@tool()
def create_participant(
    db: Database,
    display_name: str,
    birth_date: str,
    sex: Literal["FEMALE", "MALE"],
    city: str,
    state: str,
    zip: str,
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
    if not display_name.strip():
        raise InvalidRequest("display_name must not be empty")
    born = _check_birth(db, birth_date)
    if any(
        p["display_name"].casefold() == display_name.strip().casefold() and p["birth_date"] == birth_date
        for p in db.find(participants)
    ):
        raise Conflict(f"A participant '{display_name.strip()}' born {birth_date} already exists")
    if not re.match(r"^\d{5}$", zip):
        raise InvalidRequest("zip must be a 5-digit ZIP code")
    row = db.insert(
        participants,
        id=db.new_id(participants, "par_"),
        display_name=display_name.strip(),
        birth_date=born,
        sex=sex,
        conditions=_clean_conditions(conditions or []),
        city=city.strip(),
        state=state.strip(),
        zip=zip,
        consent_status="NOT_GIVEN",
        consent_date=None,
        notes=notes,
        created_at=db.now_iso(),
    )
    return _participant_object(db, row)


@tool()
def update_participant(
    db: Database,
    participant_id: str,
    conditions: list[str] | None = None,
    city: str | None = None,
    state: str | None = None,
    zip: str | None = None,
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
    _participant(db, participant_id)
    changes: dict[str, Any] = {}
    if conditions is not None:
        changes["conditions"] = _clean_conditions(conditions)
    if zip is not None:
        if not re.match(r"^\d{5}$", zip):
            raise InvalidRequest("zip must be a 5-digit ZIP code")
        changes["zip"] = zip
    for key, value in (("city", city), ("state", state)):
        if value is not None:
            if not value.strip():
                raise InvalidRequest(f"{key} must not be empty")
            changes[key] = value.strip()
    if notes is not None:
        changes["notes"] = notes
    if not changes:
        raise InvalidRequest("Nothing to update")
    return _participant_object(db, db.update(participants, participant_id, **changes))


@tool()
def prescreen_participant(db: Database, participant_id: str, nct_id: str) -> PrescreenObject:
    """Pre-screen a participant against a study's eligibility rules (age limits on today's date, sex,
    conditions, healthy volunteers) and record the outcome; screening the same pair again replaces the record.
    Only RECRUITING or NOT_YET_RECRUITING studies can be pre-screened. The site still checks the full criteria.

    Args:
        participant_id: The participant's id.
        nct_id: The study's NCT number.
    """
    person = _participant(db, participant_id)
    study = _study(db, nct_id)
    if study["overall_status"] not in SCREENABLE:
        raise Conflict(
            f"Study {nct_id} is {study['overall_status']}; only recruiting or not-yet-recruiting studies "
            "can be pre-screened"
        )
    reasons = _eligibility(db, person, study)
    values = dict(
        outcome="INELIGIBLE" if reasons else "ELIGIBLE",
        reasons=reasons,
        age_years=_age_in("Year", _birth(person), db.now().date()),
        screened_at=db.now_iso(),
    )
    existing = db.find(prescreens, participant_id=participant_id, nct_id=nct_id)
    if existing:
        return _prescreen_object(db.update(prescreens, existing[0]["id"], **values))
    return _prescreen_object(
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
    return _participant_object(db, row)


# ---------------------------------------------------------------- messages to sites


@tool()
def contact_site(
    db: Database,
    nct_id: str,
    location_id: str,
    subject: str,
    message: str,
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
    study = _study(db, nct_id)
    site = db.get(locations, location_id, "Location")
    if site["nct_id"] != nct_id:
        raise NotFound(f"Location {location_id} is not a site of {nct_id}")
    if not subject.strip() or not message.strip():
        raise InvalidRequest("subject and message must not be empty")
    if len(message) > MAX_MESSAGE:
        raise InvalidRequest(f"message must be at most {MAX_MESSAGE} characters")
    if site["status"] in CLOSED_SITE:
        raise Conflict(
            f"The site {site['facility']} is {site['status']} and no longer takes messages; contact the "
            "study's central contact instead"
        )
    kind, status = "INQUIRY", "SENT"
    if participant_id is not None:
        _check_referral(db, _participant(db, participant_id), study, site)
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
    return _message_object(db, row)


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
    rows = db.find(messages, order_by=[messages.c.sent_at.desc()])
    rows = [
        r
        for r in rows
        if (participant_id is None or r["participant_id"] == participant_id)
        and (nct_id is None or r["nct_id"] == nct_id)
        and (status is None or r["status"] == status)
    ]
    return [_message_object(db, r) for r in rows]


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
    return _message_object(db, db.update(messages, message_id, status="WITHDRAWN"))
