"""ClinicalTrials.gov API v2 study objects (modules of the protocol section) and the workspace's records, as
Pydantic models: the tools' outputs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import age_in, birth_date_of, open_referrals, pending_alerts
from .schema import locations, prescreens

Status = Literal[
    "RECRUITING",
    "NOT_YET_RECRUITING",
    "ENROLLING_BY_INVITATION",
    "ACTIVE_NOT_RECRUITING",
    "COMPLETED",
    "SUSPENDED",
    "TERMINATED",
    "WITHDRAWN",
]
Phase = Literal["EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA"]
EventType = Literal["STATUS_CHANGE", "NEW_SITE", "ENROLLMENT_UPDATE", "RESULTS_POSTED"]


class StudySummary(BaseModel):
    """One study in a search result."""

    nctId: str
    briefTitle: str
    acronym: str | None
    overallStatus: str
    conditions: list[str]
    phases: list[str]
    studyType: str
    leadSponsor: str
    interventions: list[str] = Field(description="intervention names")
    enrollmentCount: int
    startDate: str
    sex: str
    minimumAge: str | None
    maximumAge: str | None
    locationCount: int
    lastUpdatePostDate: str
    hasResults: bool


class StudiesPage(BaseModel):
    """A page of search results."""

    studies: list[StudySummary]
    totalCount: int
    nextPageToken: str | None = None


class IdentificationModule(BaseModel):
    """The study's identifiers and titles."""

    nctId: str
    briefTitle: str
    officialTitle: str
    acronym: str | None


class StatusModule(BaseModel):
    """Overall status and key dates."""

    overallStatus: str
    whyStopped: str | None
    startDate: str
    primaryCompletionDate: str | None
    completionDate: str | None
    studyFirstPostDate: str
    lastUpdatePostDate: str


class SponsorModule(BaseModel):
    """Lead sponsor (with its class) and collaborators."""

    leadSponsor: str
    leadSponsorClass: str
    collaborators: list[str]


class DesignModule(BaseModel):
    """Study type, phases, design and enrollment."""

    studyType: str
    phases: list[str]
    allocation: str | None
    interventionModel: str | None
    primaryPurpose: str | None
    masking: str | None
    observationalModel: str | None
    enrollmentCount: int
    enrollmentType: str


class ArmGroup(BaseModel):
    """An arm of an interventional study."""

    label: str
    type: str
    description: str
    interventionNames: list[str]


class Intervention(BaseModel):
    """A drug, device, procedure or behaviour under study."""

    type: str
    name: str
    description: str


class Outcome(BaseModel):
    """A primary outcome measure."""

    measure: str
    timeFrame: str


class EligibilityModule(BaseModel):
    """Who may take part: criteria text, sex, age limits, volunteers."""

    eligibilityCriteria: str
    healthyVolunteers: bool
    sex: str
    minimumAge: str | None
    maximumAge: str | None
    stdAges: list[str]


class Contact(BaseModel):
    """A contact person."""

    name: str
    role: str | None = None
    phone: str | None = None
    email: str | None = None


class LocationObject(BaseModel):
    """A study site, with its recruitment status and enrollment room."""

    locationId: str
    facility: str
    status: str | None
    city: str
    state: str | None
    zip: str | None
    country: str
    lat: float
    lon: float
    contact: Contact | None
    enrollmentLimit: int | None = Field(description="participants the site may enroll (None: no site limit)")
    enrolled: int
    openReferrals: int = Field(description="pending or accepted referrals holding a place at this site")
    placesLeft: int | None = Field(description="enrollmentLimit - enrolled - openReferrals")


class Study(BaseModel):
    """A full study record: the modules of its protocol section and its sites."""

    identificationModule: IdentificationModule
    statusModule: StatusModule
    sponsorCollaboratorsModule: SponsorModule
    briefSummary: str
    conditions: list[str]
    keywords: list[str]
    designModule: DesignModule
    armGroups: list[ArmGroup]
    interventions: list[Intervention]
    primaryOutcomes: list[Outcome]
    eligibilityModule: EligibilityModule
    centralContact: Contact | None
    locations: list[LocationObject]
    hasResults: bool


class ValueCount(BaseModel):
    """One value of a field and how many studies have it."""

    value: str
    studiesCount: int


class FieldValues(BaseModel):
    """How many studies take each value of a field (GET /stats/field/values)."""

    field: str
    uniqueValuesCount: int
    topValues: list[ValueCount]


class SavedStudy(BaseModel):
    """A study saved in the workspace, with its current registry status."""

    nctId: str
    briefTitle: str
    overallStatus: str
    label: str | None
    note: str | None
    savedAt: str


class Alert(BaseModel):
    """A registry change on a watched study."""

    eventId: int
    nctId: str
    briefTitle: str
    postedDate: str
    eventType: str
    description: str


class WatchlistObject(BaseModel):
    """A watch list and how many alerts it has not shown yet."""

    id: str
    name: str
    alertOn: list[str]
    frequency: str
    nctIds: list[str]
    unreadAlerts: int
    createdAt: str


class AlertsResult(BaseModel):
    """New alerts of a watch list (now marked as seen)."""

    watchlistId: str
    alerts: list[Alert]


class PrescreenObject(BaseModel):
    """The outcome of pre-screening a participant against a study's eligibility rules."""

    id: str
    participantId: str
    nctId: str
    outcome: str = Field(description="ELIGIBLE or INELIGIBLE")
    reasons: list[str] = Field(description="why the participant is ineligible (empty when eligible)")
    ageYears: int
    screenedAt: str


class ParticipantObject(BaseModel):
    """A participant profile of the workspace, with their pre-screens."""

    id: str
    displayName: str
    birthDate: str
    age: int
    sex: str
    conditions: list[str]
    city: str
    state: str
    zip: str
    consentStatus: str = Field(description="NOT_GIVEN, GRANTED or REVOKED: consent to share data with sites")
    consentDate: str | None
    notes: str
    prescreens: list[PrescreenObject]


class MessageObject(BaseModel):
    """A message sent to a study site: an inquiry, or a referral of a participant."""

    id: str
    nctId: str
    locationId: str
    facility: str
    participantId: str | None
    kind: str = Field(description="INQUIRY or REFERRAL")
    subject: str
    body: str
    status: str = Field(description="SENT (inquiry); PENDING, ACCEPTED, DECLINED or WITHDRAWN (referral)")
    siteReply: str | None
    sentAt: str


# ---------------------------------------------------------------- rows to objects


def location_object(db: Database, row: dict[str, Any]) -> LocationObject:
    held = open_referrals(db, row["id"])
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


def study_summary(row: dict[str, Any], site_count: int) -> StudySummary:
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


def prescreen_object(row: dict[str, Any]) -> PrescreenObject:
    return PrescreenObject(
        id=row["id"],
        participantId=row["participant_id"],
        nctId=row["nct_id"],
        outcome=row["outcome"],
        reasons=row["reasons"],
        ageYears=row["age_years"],
        screenedAt=row["screened_at"],
    )


def participant_object(db: Database, row: dict[str, Any]) -> ParticipantObject:
    screens = db.find(prescreens, participant_id=row["id"], order_by=[prescreens.c.id])
    return ParticipantObject(
        id=row["id"],
        displayName=row["display_name"],
        birthDate=row["birth_date"],
        age=age_in("Year", birth_date_of(row), db.now().date()),
        sex=row["sex"],
        conditions=row["conditions"],
        city=row["city"],
        state=row["state"],
        zip=row["zip"],
        consentStatus=row["consent_status"],
        consentDate=row["consent_date"],
        notes=row["notes"],
        prescreens=[prescreen_object(s) for s in screens],
    )


def message_object(db: Database, row: dict[str, Any]) -> MessageObject:
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


def watchlist_object(db: Database, row: dict[str, Any]) -> WatchlistObject:
    return WatchlistObject(
        id=row["id"],
        name=row["name"],
        alertOn=row["alert_on"],
        frequency=row["frequency"],
        nctIds=sorted(row["studies"]),
        unreadAlerts=len(pending_alerts(db, row)),
        createdAt=row["created_at"],
    )


def study_object(db: Database, row: dict[str, Any]) -> Study:
    """A full study record with its sites."""
    sites = db.find(locations, nct_id=row["nct_id"], order_by=[locations.c.id])
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
        centralContact=Contact(**row["central_contact"]) if row["central_contact"] else None,
        locations=[location_object(db, s) for s in sites],
        hasResults=row["has_results"],
    )


def saved_study_object(study: dict[str, Any], saved: dict[str, Any]) -> SavedStudy:
    """A saved study with the study's current title and status."""
    return SavedStudy(
        nctId=study["nct_id"],
        briefTitle=study["brief_title"],
        overallStatus=study["overall_status"],
        label=saved["label"],
        note=saved["note"],
        savedAt=saved["saved_at"],
    )


def alert_object(event: dict[str, Any], title: str) -> Alert:
    """A registry change as a watch-list alert."""
    return Alert(
        eventId=event["id"],
        nctId=event["nct_id"],
        briefTitle=title,
        postedDate=event["posted_date"],
        eventType=event["event_type"],
        description=event["description"],
    )
