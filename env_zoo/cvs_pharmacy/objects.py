"""CVS Pharmacy's objects as the app returns them, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import (
    DAYS,
    REWARD_CREDITS,
    cash_price,
    drug_label,
    drug_of,
    full_name,
    hours_text,
    local_now,
    pharmacy_open,
    refill_state,
    today,
)
from .schema import (
    drugs,
    extracare_cards,
    family_members,
    patients,
    prescribers,
    prescriptions,
    stores,
)


class SessionObject(BaseModel):
    """The signed-in CVS.com account."""

    account_id: str
    first_name: str
    last_name: str
    email: str


class StoreRef(BaseModel):
    """A store as other objects name it."""

    store_id: str = Field(description="the store number")
    name: str
    address: str


class FamilyMemberObject(BaseModel):
    """A family member the account manages prescriptions for (caregiver access)."""

    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    relationship: str
    access: str = Field(description="active, or pending_authorization until an adult member authorizes it")
    pharmacy_rewards: bool = Field(description="enrolled in ExtraCare Pharmacy & Health Rewards")


class ExtraCareSummary(BaseModel):
    """The account's ExtraCare card."""

    card_number: str
    pharmacy_credits: int = Field(description="Pharmacy & Health Rewards credits toward the next $5 ExtraBucks")
    credits_to_next_reward: int
    ytd_savings: int = Field(description="cents saved this year")


class ProfileObject(BaseModel):
    """The signed-in account holder's profile, ExtraCare card and family members."""

    account_id: str
    email: str
    phone: str
    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    allergies: list[str]
    pharmacy_rewards: bool
    carepass: bool = Field(description="CarePass members get free same-day prescription delivery")
    preferred_store: StoreRef | None
    delivery_address: str | None
    extracare: ExtraCareSummary | None
    family_members: list[FamilyMemberObject]


class PrescriberRef(BaseModel):
    """The prescriber of a prescription."""

    npi: str
    name: str
    phone: str


class PrescriptionObject(BaseModel):
    """A prescription as the Prescription Center shows it."""

    rx_number: str
    patient_id: str
    patient_name: str
    drug: str
    brand: str | None
    ndc: str
    dea_schedule: str | None = Field(description="controlled-substance schedule (II-V), null when not controlled")
    tier: int = Field(description="formulary tier, 1 generic .. 4 specialty")
    quantity: int
    days_supply: int
    directions: str
    refills_remaining: int
    refills_authorized: int
    written_date: str
    expiration_date: str
    prescriber: PrescriberRef
    store: StoreRef
    status: str = Field(description="active or discontinued")
    refill_status: str = Field(
        description="not_yet_filled (a new prescription), refillable, too_soon, in_progress, no_refills, expired, "
        "new_prescription_required (schedule II) or discontinued"
    )
    last_fill_date: str | None
    refill_eligible_date: str | None = Field(description="first day a refill is allowed (too-soon rule)")
    renewal_pending: bool = Field(description="a renewal request is waiting for the prescriber")
    readyfill: bool = Field(description="enrolled in ReadyFill automatic refills")
    transfer_count: int
    cash_price: int = Field(description="retail price of one fill without insurance, cents")


class OrderObject(BaseModel):
    """A prescription order (a fill for pickup or delivery)."""

    order_id: str
    rx_number: str
    patient_id: str
    drug: str
    store_id: str
    fulfillment: str = Field(description="pickup or delivery")
    delivery_speed: str | None = Field(description="same_day or standard (1-2 business days)")
    delivery_address: str | None
    delivery_instructions: str | None
    status: str
    fill_date: str
    quantity: int
    days_supply: int
    payment: str = Field(description="insurance or cash")
    insurance_plan_id: str | None
    copay: int = Field(description="cents the patient pays for the medication")
    delivery_fee: int = Field(description="cents")
    ready_by: str | None = Field(description="local time the order is promised for")
    created_at: str


class RenewalObject(BaseModel):
    """A renewal request sent to the prescriber."""

    request_id: str
    rx_number: str
    drug: str
    prescriber: PrescriberRef
    status: str = Field(description="sent_to_prescriber, approved or denied")
    note: str | None
    created_at: str


class StoreObject(BaseModel):
    """A CVS store with its store and pharmacy hours (local time)."""

    store_id: str
    name: str
    address: str
    city: str
    state: str
    zip_code: str
    phone: str
    store_hours: dict[str, str]
    pharmacy_hours: dict[str, str] = Field(description="the pharmacy counter's hours, lunch break included")
    pharmacy_open_now: bool
    has_pharmacy: bool
    services: list[str]
    vaccines: list[str]


class InsurancePlanObject(BaseModel):
    """Prescription coverage on file for a patient."""

    plan_id: str
    patient_id: str
    carrier: str
    plan_name: str
    member_id: str
    rx_bin: str
    rx_pcn: str
    rx_group: str
    priority: str = Field(description="primary or secondary")
    status: str = Field(description="active or terminated")
    termination_date: str | None
    copays: dict[str, int] = Field(description="copay in cents per formulary tier; a tier not listed is not covered")


class CouponObject(BaseModel):
    """An ExtraCare coupon or ExtraBucks Rewards."""

    coupon_id: str
    kind: str = Field(description="extrabucks, store_coupon or manufacturer")
    description: str
    amount_off: int | None = Field(description="cents")
    percent_off: int | None
    min_purchase: int = Field(description="cents")
    category: str
    expires: str
    status: str = Field(description="available (send it to the card to use it), on_card, redeemed or expired")


class EligibilityObject(BaseModel):
    """Whether a patient can get a vaccine at a CVS pharmacy on a day."""

    patient_id: str
    vaccine: str
    vaccine_name: str
    on_date: str
    eligible: bool
    reason: str
    dose_number: int | None
    next_eligible_date: str | None
    scheduled_appointment_id: str | None = Field(description="an appointment already booked for this vaccine")


class SlotObject(BaseModel):
    """A vaccine appointment time with room left."""

    slot_id: str
    store_id: str
    start: str = Field(description="local time")
    available: int


class AppointmentObject(BaseModel):
    """A vaccine appointment."""

    appointment_id: str
    patient_id: str
    patient_name: str
    store: StoreRef
    start: str
    vaccines: list[str]
    status: str = Field(description="scheduled, completed or cancelled")
    created_at: str


class PickupObject(BaseModel):
    """What the pharmacy counter records when a prescription is picked up."""

    order: OrderObject
    pharmacy_credits: int = Field(description="Pharmacy & Health Rewards credits on the card after this pickup")
    reward: CouponObject | None = Field(description="$5 ExtraBucks Rewards earned by this pickup")


# ---------------------------------------------------------------- conversions


def store_ref(store: dict[str, Any]) -> StoreRef:
    """A store as other objects name it."""
    return StoreRef(
        store_id=store["store_id"],
        name=store["name"],
        address=f"{store['address']}, {store['city']}, {store['state']} {store['zip_code']}",
    )


def store_object(db: Database, store: dict[str, Any]) -> StoreObject:
    """A store with readable hours and whether its pharmacy is open now."""
    return StoreObject(
        **{
            k: store[k]
            for k in (
                "store_id",
                "name",
                "address",
                "city",
                "state",
                "zip_code",
                "phone",
                "has_pharmacy",
                "services",
                "vaccines",
            )
        },
        store_hours={d: hours_text(store["store_hours"].get(d)) for d in DAYS},
        pharmacy_hours={d: hours_text(store["pharmacy_hours"].get(d)) for d in DAYS},
        pharmacy_open_now=store["has_pharmacy"] and pharmacy_open(store, local_now(db)),
    )


def family_object(db: Database, link: dict[str, Any]) -> FamilyMemberObject:
    """A family member link with the patient's name."""
    patient = db.get(patients, link["patient_id"], "Patient")
    return FamilyMemberObject(
        patient_id=patient["patient_id"],
        first_name=patient["first_name"],
        last_name=patient["last_name"],
        date_of_birth=patient["date_of_birth"],
        relationship=link["relationship"],
        access=link["access"],
        pharmacy_rewards=patient["pharmacy_rewards"],
    )


def profile_object(db: Database, account: dict[str, Any]) -> ProfileObject:
    """The account holder's profile."""
    me = db.get(patients, account["patient_id"], "Patient")
    card = db.find(extracare_cards, account_id=account["account_id"])
    store = db.get(stores, account["preferred_store_id"]) if account["preferred_store_id"] else None
    links = db.find(family_members, account_id=account["account_id"])
    return ProfileObject(
        account_id=account["account_id"],
        email=account["email"],
        phone=account["phone"],
        patient_id=me["patient_id"],
        first_name=me["first_name"],
        last_name=me["last_name"],
        date_of_birth=me["date_of_birth"],
        allergies=me["allergies"],
        pharmacy_rewards=me["pharmacy_rewards"],
        carepass=account["carepass"],
        preferred_store=store_ref(store) if store else None,
        delivery_address=account["delivery_address"],
        extracare=ExtraCareSummary(
            card_number=card[0]["card_number"],
            pharmacy_credits=card[0]["pharmacy_credits"],
            credits_to_next_reward=REWARD_CREDITS - card[0]["pharmacy_credits"],
            ytd_savings=card[0]["ytd_savings"],
        )
        if card
        else None,
        family_members=[family_object(db, link) for link in links],
    )


def prescriber_ref(db: Database, npi: str) -> PrescriberRef:
    """A prescriber by NPI."""
    row = db.get(prescribers, npi, "Prescriber")
    return PrescriberRef(npi=row["npi"], name=row["name"], phone=row["phone"])


def prescription_object(db: Database, rx: dict[str, Any]) -> PrescriptionObject:
    """A prescription with its drug, prescriber, store and refill status."""
    drug = drug_of(db, rx)
    state = refill_state(db, rx, drug, today(db))
    return PrescriptionObject(
        **{
            k: rx[k]
            for k in (
                "rx_number",
                "patient_id",
                "ndc",
                "quantity",
                "days_supply",
                "directions",
                "refills_remaining",
                "refills_authorized",
                "written_date",
                "expiration_date",
                "status",
                "readyfill",
                "transfer_count",
            )
        },
        patient_name=full_name(db.get(patients, rx["patient_id"], "Patient")),
        drug=drug_label(drug),
        brand=drug["brand"],
        dea_schedule=drug["dea_schedule"],
        tier=drug["tier"],
        prescriber=prescriber_ref(db, rx["prescriber_npi"]),
        store=store_ref(db.get(stores, rx["store_id"])),
        refill_status=state.status,
        last_fill_date=state.last_fill_date,
        refill_eligible_date=state.eligible_date,
        renewal_pending=state.renewal_pending,
        cash_price=cash_price(drug, rx["quantity"]),
    )


def order_object(db: Database, order: dict[str, Any]) -> OrderObject:
    """An order with its drug named."""
    rx = db.get(prescriptions, order["rx_number"], "Prescription")
    return OrderObject(
        **{k: order[k] for k in OrderObject.model_fields if k != "drug"},
        drug=drug_label(db.get(drugs, rx["ndc"], "Drug")),
    )


def renewal_object(db: Database, row: dict[str, Any]) -> RenewalObject:
    """A renewal request with its drug and prescriber."""
    rx = db.get(prescriptions, row["rx_number"], "Prescription")
    return RenewalObject(
        request_id=row["request_id"],
        rx_number=row["rx_number"],
        drug=drug_label(drug_of(db, rx)),
        prescriber=prescriber_ref(db, row["prescriber_npi"]),
        status=row["status"],
        note=row["note"],
        created_at=row["created_at"],
    )


def coupon_object(row: dict[str, Any], day: str) -> CouponObject:
    """A coupon; one past its last valid day that was never redeemed shows as expired."""
    status = "expired" if row["status"] != "redeemed" and row["expires"] < day else row["status"]
    return CouponObject(**{k: row[k] for k in CouponObject.model_fields if k != "status"}, status=status)


def appointment_object(db: Database, row: dict[str, Any]) -> AppointmentObject:
    """A vaccine appointment with the patient's name and the store."""
    return AppointmentObject(
        appointment_id=row["appointment_id"],
        patient_id=row["patient_id"],
        patient_name=full_name(db.get(patients, row["patient_id"], "Patient")),
        store=store_ref(db.get(stores, row["store_id"])),
        start=row["start"],
        vaccines=row["vaccines"],
        status=row["status"],
        created_at=row["created_at"],
    )
