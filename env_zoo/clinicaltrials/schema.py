"""ClinicalTrials.gov study records (studies, their sites and registry change history) and the coordinator's
workspace (saved studies, watch lists, participants, pre-screens, site messages) as tables."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

studies = Table(
    "studies",
    metadata,
    Column("nct_id", String, primary_key=True),
    Column("brief_title", String, nullable=False),
    Column("official_title", Text, nullable=False),
    Column("acronym", String, nullable=True),
    Column("overall_status", String, nullable=False),  # RECRUITING | NOT_YET_RECRUITING | ACTIVE_NOT_RECRUITING | ...
    Column("why_stopped", String, nullable=True),
    Column("start_date", String, nullable=False),
    Column("primary_completion_date", String, nullable=True),
    Column("completion_date", String, nullable=True),
    Column("first_post_date", String, nullable=False),
    Column("last_update_post_date", String, nullable=False),
    Column("lead_sponsor", String, nullable=False),
    Column("sponsor_class", String, nullable=False),  # INDUSTRY | NIH | OTHER | OTHER_GOV | NETWORK
    Column("collaborators", JSON, nullable=False, default=list),
    Column("conditions", JSON, nullable=False),
    Column("keywords", JSON, nullable=False, default=list),
    Column("study_type", String, nullable=False),  # INTERVENTIONAL | OBSERVATIONAL
    Column("phases", JSON, nullable=False, default=list),  # EARLY_PHASE1 | PHASE1 | PHASE2 | PHASE3 | PHASE4 | NA
    Column("allocation", String, nullable=True),  # RANDOMIZED | NON_RANDOMIZED | NA
    Column("intervention_model", String, nullable=True),  # PARALLEL | SINGLE_GROUP | CROSSOVER | ...
    Column("primary_purpose", String, nullable=True),  # TREATMENT | PREVENTION | DIAGNOSTIC | ...
    Column("masking", String, nullable=True),  # NONE | SINGLE | DOUBLE | TRIPLE | QUADRUPLE
    Column("observational_model", String, nullable=True),  # COHORT | CASE_CONTROL | ...
    Column("enrollment_count", Integer, nullable=False),
    Column("enrollment_type", String, nullable=False),  # ESTIMATED | ACTUAL
    Column("brief_summary", Text, nullable=False),
    Column("arm_groups", JSON, nullable=False, default=list),  # [{label, type, description, interventionNames}]
    Column("interventions", JSON, nullable=False, default=list),  # [{type, name, description}]
    Column("primary_outcomes", JSON, nullable=False, default=list),  # [{measure, timeFrame}]
    Column("eligibility_criteria", Text, nullable=False),
    Column("healthy_volunteers", Boolean, nullable=False),
    Column("sex", String, nullable=False),  # ALL | FEMALE | MALE
    Column("minimum_age", String, nullable=True),  # e.g. "18 Years"
    Column("maximum_age", String, nullable=True),
    Column("std_ages", JSON, nullable=False),  # CHILD | ADULT | OLDER_ADULT
    Column("central_contact", JSON, nullable=True),  # {name, role, phone, email}
    Column("has_results", Boolean, nullable=False, default=False),
)

locations = Table(
    "locations",
    metadata,
    Column("id", String, primary_key=True),
    Column("nct_id", String, ForeignKey("studies.nct_id"), nullable=False),
    Column("facility", String, nullable=False),
    Column("status", String, nullable=True),  # site recruitment status, same values as overall_status
    Column("city", String, nullable=False),
    Column("state", String, nullable=True),
    Column("zip", String, nullable=True),
    Column("country", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lon", Float, nullable=False),
    Column("contact_name", String, nullable=True),
    Column("contact_email", String, nullable=True),
    Column("contact_phone", String, nullable=True),
    Column("enrollment_limit", Integer, nullable=True),  # participants this site may enroll
    Column("enrolled", Integer, nullable=False, default=0),
)

study_events = Table(
    "study_events",
    metadata,
    Column("id", Integer, primary_key=True),  # increasing with the posting date
    Column("nct_id", String, ForeignKey("studies.nct_id"), nullable=False),
    Column("posted_date", String, nullable=False),
    Column("event_type", String, nullable=False),  # STATUS_CHANGE | NEW_SITE | ENROLLMENT_UPDATE | RESULTS_POSTED
    Column("description", String, nullable=False),
)

saved_studies = Table(
    "saved_studies",
    metadata,
    Column("nct_id", String, ForeignKey("studies.nct_id"), primary_key=True),
    Column("label", String, nullable=True),
    Column("note", Text, nullable=True),
    Column("saved_at", String, nullable=False, info={"volatile": True}),
)

watchlists = Table(
    "watchlists",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("alert_on", JSON, nullable=False),  # event types that raise an alert
    Column("frequency", String, nullable=False),  # DAILY | WEEKLY | NONE (e-mail digest)
    Column("studies", JSON, nullable=False),  # {nct_id: id of the last registry event before it was watched}
    Column("last_seen_event_id", Integer, nullable=False),  # alerts up to this event were already shown
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

participants = Table(
    "participants",
    metadata,
    Column("id", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("birth_date", String, nullable=False),
    Column("sex", String, nullable=False),  # FEMALE | MALE
    Column("conditions", JSON, nullable=False, default=list),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("zip", String, nullable=False),
    Column("consent_status", String, nullable=False),  # NOT_GIVEN | GRANTED | REVOKED
    Column("consent_date", String, nullable=True),
    Column("notes", Text, nullable=False, default=""),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

prescreens = Table(
    "prescreens",
    metadata,
    Column("id", String, primary_key=True),
    Column("participant_id", String, ForeignKey("participants.id"), nullable=False),
    Column("nct_id", String, ForeignKey("studies.nct_id"), nullable=False),
    Column("outcome", String, nullable=False),  # ELIGIBLE | INELIGIBLE
    Column("reasons", JSON, nullable=False),
    Column("age_years", Integer, nullable=False),
    Column("screened_at", String, nullable=False, info={"volatile": True}),
)

messages = Table(
    "messages",
    metadata,
    Column("id", String, primary_key=True),
    Column("nct_id", String, ForeignKey("studies.nct_id"), nullable=False),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("participant_id", String, ForeignKey("participants.id"), nullable=True),
    Column("kind", String, nullable=False),  # INQUIRY | REFERRAL
    Column("subject", String, nullable=False),
    Column("body", Text, nullable=False),
    Column("status", String, nullable=False),  # SENT | PENDING | ACCEPTED | DECLINED | WITHDRAWN
    Column("site_reply", Text, nullable=True),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
)
