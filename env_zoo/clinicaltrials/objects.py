"""ClinicalTrials.gov API v2 study objects (modules of the protocol section) and the workspace's records, as
Pydantic models: the tools' outputs."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

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
