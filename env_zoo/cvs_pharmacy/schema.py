"""CVS Pharmacy's objects as tables: CVS.com accounts with their signed-in session and family (caregiver) access,
pharmacy patients, stores with store and pharmacy hours, prescribers, drugs, prescriptions, refill orders,
renewal requests, insurance plans, ExtraCare cards and coupons, vaccines, immunization records, vaccine
appointment slots and appointments. Money is integer cents; store times are local (Eastern) wall-clock times."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

stores = Table(
    "stores",
    metadata,
    Column("store_id", String, primary_key=True),  # the store number, e.g. "2047"
    Column("name", String, nullable=False),  # CVS Pharmacy (Davis Square)
    Column("address", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("zip_code", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("store_hours", JSON, nullable=False),  # {"mon": ["07:00", "22:00"] | null (closed), ...}
    Column("pharmacy_hours", JSON, nullable=False),  # {"mon": [["09:00", "13:30"], ["14:00", "21:00"]], ...}
    Column("has_pharmacy", Boolean, nullable=False),
    Column("services", JSON, nullable=False),  # drive_thru | minuteclinic | same_day_delivery | vaccines | ...
    Column("vaccines", JSON, nullable=False),  # vaccine codes given at this pharmacy
)

patients = Table(
    "patients",
    metadata,
    Column("patient_id", String, primary_key=True),  # PT-...
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("date_of_birth", String, nullable=False),  # YYYY-MM-DD
    Column("phone", String),
    Column("allergies", JSON, nullable=False),
    Column("pharmacy_rewards", Boolean, nullable=False),  # enrolled in ExtraCare Pharmacy & Health Rewards
)

accounts = Table(
    "accounts",
    metadata,
    Column("account_id", String, primary_key=True),  # CVS.com profile
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=False),
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),  # the account holder
    Column("preferred_store_id", String, ForeignKey("stores.store_id")),
    Column("delivery_address", String),
    Column("carepass", Boolean, nullable=False),  # CarePass members get free same-day delivery
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current"
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

family_members = Table(
    "family_members",
    metadata,
    Column("link_id", String, primary_key=True),  # FAM-...
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("relationship", String, nullable=False),  # child | spouse | partner | parent | grandparent | other
    Column("access", String, nullable=False),  # active | pending_authorization
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

prescribers = Table(
    "prescribers",
    metadata,
    Column("npi", String, primary_key=True),  # 10-digit National Provider Identifier
    Column("name", String, nullable=False),  # Anita Shah, MD
    Column("specialty", String, nullable=False),
    Column("practice", String, nullable=False),
    Column("phone", String, nullable=False),
)

drugs = Table(
    "drugs",
    metadata,
    Column("ndc", String, primary_key=True),  # National Drug Code 5-4-2
    Column("name", String, nullable=False),  # generic name
    Column("brand", String),  # brand it substitutes for, or the brand itself
    Column("strength", String, nullable=False),
    Column("form", String, nullable=False),  # tablet | capsule | inhaler | ...
    Column("dea_schedule", String),  # II | III | IV | V; null when not controlled
    Column("tier", Integer, nullable=False),  # formulary tier 1 (generic) .. 4 (specialty)
    Column("unit_price", Integer, nullable=False),  # cash (retail) price per unit, cents
)

prescriptions = Table(
    "prescriptions",
    metadata,
    Column("rx_number", String, primary_key=True),  # 7 digits, printed on the label
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("ndc", String, ForeignKey("drugs.ndc"), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("days_supply", Integer, nullable=False),
    Column("directions", String, nullable=False),
    Column("refills_authorized", Integer, nullable=False),
    Column("refills_remaining", Integer, nullable=False),
    Column("written_date", String, nullable=False),
    Column("expiration_date", String, nullable=False),
    Column("prescriber_npi", String, ForeignKey("prescribers.npi"), nullable=False),
    Column("store_id", String, ForeignKey("stores.store_id"), nullable=False),
    Column("status", String, nullable=False),  # active | discontinued
    Column("readyfill", Boolean, nullable=False),
    Column("transfer_count", Integer, nullable=False),
)

insurance_plans = Table(
    "insurance_plans",
    metadata,
    Column("plan_id", String, primary_key=True),  # INS-...
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("carrier", String, nullable=False),
    Column("plan_name", String, nullable=False),
    Column("member_id", String, nullable=False),
    Column("rx_bin", String, nullable=False),
    Column("rx_pcn", String, nullable=False),
    Column("rx_group", String, nullable=False),
    Column("priority", String, nullable=False),  # primary | secondary
    Column("status", String, nullable=False),  # active | terminated
    Column("termination_date", String),
    Column("copays", JSON, nullable=False),  # {"1": 1000, "2": 3500, ...} cents per tier; a missing tier is not covered
)

orders = Table(
    "orders",
    metadata,
    Column("order_id", String, primary_key=True),  # ORD-...
    Column("rx_number", String, ForeignKey("prescriptions.rx_number"), nullable=False),
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("store_id", String, ForeignKey("stores.store_id"), nullable=False),
    Column("fulfillment", String, nullable=False),  # pickup | delivery
    Column("delivery_speed", String),  # same_day | standard
    Column("delivery_address", String),
    Column("delivery_instructions", Text),
    # received | in_progress | ready_for_pickup | picked_up | out_for_delivery | delivered | cancelled
    # | returned_to_stock
    Column("status", String, nullable=False),
    Column("fill_date", String, nullable=False),  # YYYY-MM-DD the fill counts from (too-soon rule)
    Column("quantity", Integer, nullable=False),
    Column("days_supply", Integer, nullable=False),
    Column("is_refill", Boolean, nullable=False),  # used one of the refills (false for the original fill)
    Column("payment", String, nullable=False),  # insurance | cash
    Column("insurance_plan_id", String, ForeignKey("insurance_plans.plan_id")),
    Column("copay", Integer, nullable=False),  # cents the patient pays
    Column("delivery_fee", Integer, nullable=False),
    Column("ready_by", String, info={"volatile": True}),  # local time promised
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

renewal_requests = Table(
    "renewal_requests",
    metadata,
    Column("request_id", String, primary_key=True),  # RNW-...
    Column("rx_number", String, ForeignKey("prescriptions.rx_number"), nullable=False),
    Column("prescriber_npi", String, ForeignKey("prescribers.npi"), nullable=False),
    Column("status", String, nullable=False),  # sent_to_prescriber | approved | denied
    Column("note", Text),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

extracare_cards = Table(
    "extracare_cards",
    metadata,
    Column("card_number", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False, unique=True),
    Column("pharmacy_credits", Integer, nullable=False),  # Pharmacy & Health Rewards credits toward the next reward
    Column("ytd_savings", Integer, nullable=False),  # cents saved this year
)

coupons = Table(
    "coupons",
    metadata,
    Column("coupon_id", String, primary_key=True),  # CPN-...
    Column("card_number", String, ForeignKey("extracare_cards.card_number"), nullable=False),
    Column("kind", String, nullable=False),  # extrabucks | store_coupon | manufacturer
    Column("description", String, nullable=False),
    Column("amount_off", Integer),  # cents
    Column("percent_off", Integer),
    Column("min_purchase", Integer, nullable=False),  # cents
    Column("category", String, nullable=False),
    Column("expires", String, nullable=False),  # YYYY-MM-DD, last valid day
    Column("status", String, nullable=False),  # available | on_card | redeemed
    Column("sent_at", String, info={"volatile": True}),
)

vaccines = Table(
    "vaccines",
    metadata,
    Column("code", String, primary_key=True),  # flu | covid19 | shingrix | rsv | tdap | pneumococcal | hpv | hepb
    Column("name", String, nullable=False),
    Column("min_age", Integer, nullable=False),  # years on the day of the appointment
    Column("max_age", Integer),
    Column("doses", Integer, nullable=False),  # doses in the series
    Column("dose_interval_days", Integer),  # minimum days between doses of the series
    Column("repeat", String, nullable=False),  # season | lifetime | 10_years
    Column("season_start", String),  # first day of the current season (season vaccines)
)

immunizations = Table(
    "immunizations",
    metadata,
    Column("record_id", String, primary_key=True),  # IMM-...
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("vaccine", String, ForeignKey("vaccines.code"), nullable=False),
    Column("date", String, nullable=False),
    Column("dose_number", Integer, nullable=False),
    Column("administered_at", String, nullable=False),  # a CVS store number or the outside provider
)

vaccine_slots = Table(
    "vaccine_slots",
    metadata,
    Column("slot_id", String, primary_key=True),  # SLT-...
    Column("store_id", String, ForeignKey("stores.store_id"), nullable=False),
    Column("start", String, nullable=False),  # local YYYY-MM-DDTHH:MM
    Column("capacity", Integer, nullable=False),
    Column("booked", Integer, nullable=False),
)

vaccine_appointments = Table(
    "vaccine_appointments",
    metadata,
    Column("appointment_id", String, primary_key=True),  # APT-...
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),  # who booked
    Column("patient_id", String, ForeignKey("patients.patient_id"), nullable=False),
    Column("slot_id", String, ForeignKey("vaccine_slots.slot_id"), nullable=False),
    Column("store_id", String, ForeignKey("stores.store_id"), nullable=False),
    Column("start", String, nullable=False),
    Column("vaccines", JSON, nullable=False),
    Column("status", String, nullable=False),  # scheduled | completed | cancelled
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
