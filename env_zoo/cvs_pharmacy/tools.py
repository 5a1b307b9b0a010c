"""CVS Pharmacy tools: sign-in, profile and family access, the Prescription Center (refills, renewals, transfers,
ReadyFill), orders for pickup or delivery, insurance, store hours, ExtraCare coupons and vaccine scheduling."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, page_size

from . import access
from .access import (
    extracare_card,
    own_appointment,
    own_order,
    patient_for,
    patient_ids,
    prescription_for,
    signed_in,
)
from .objects import (
    AppointmentObject,
    CouponObject,
    EligibilityObject,
    FamilyMemberObject,
    InsurancePlanObject,
    OrderObject,
    PickupObject,
    PrescriptionObject,
    ProfileObject,
    RenewalObject,
    SessionObject,
    SlotObject,
    StoreObject,
    appointment_object,
    coupon_object,
    family_object,
    order_object,
    prescription_object,
    profile_object,
    renewal_object,
    store_object,
)
from .rules import (
    ADULT_AGE,
    DATE_EXAMPLE,
    age_on,
    billing,
    drug_of,
    earn_pharmacy_credit,
    fulfillment_terms,
    local_now,
    local_time,
    parse_day,
    refill_state,
    refuse_open_order,
    refuse_refill,
    refuse_transfer,
    refuse_vaccines,
    renewal_needed,
    scheduled_with,
    store_row,
    today,
    vaccine_eligibility,
)
from .schema import (
    coupons,
    family_members,
    insurance_plans,
    orders,
    patients,
    prescriptions,
    renewal_requests,
    stores,
    vaccine_appointments,
    vaccine_slots,
)
from .schema import vaccines as vaccine_table

VaccineCode = Literal["flu", "covid19", "shingrix", "rsv", "tdap", "pneumococcal", "hpv", "hepb"]
OrderStatus = Literal[
    "received",
    "in_progress",
    "ready_for_pickup",
    "picked_up",
    "out_for_delivery",
    "delivered",
    "cancelled",
    "returned_to_stock",
]
RefillStatus = Literal[
    "not_yet_filled",
    "refillable",
    "too_soon",
    "in_progress",
    "no_refills",
    "expired",
    "new_prescription_required",
    "discontinued",
]
Service = Literal["drive_thru", "minuteclinic", "same_day_delivery", "vaccines", "24_hour_pharmacy", "photo"]
Relationship = Literal["child", "spouse", "partner", "parent", "grandparent", "other"]
DateArg = Annotated[IsoDate, ErrorText(f"must be a date like {DATE_EXAMPLE}")]
ZipCode = Annotated[str, Field(pattern=r"^\d{5}$"), ErrorText("zip_code must be a 5-digit ZIP code.")]
VisitVaccines = Annotated[
    list[VaccineCode],
    Field(min_length=1, max_length=3),
    Unordered,
    ErrorText("Choose one to three different vaccines."),
]
CANCELLABLE = ("received", "in_progress", "ready_for_pickup")
MAX_PAGE = 25
MAX_PAGE_LARGE = 15  # prescriptions and stores are long objects
SLOT_WINDOW_DAYS = 30


# ---------------------------------------------------------------- account


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(User only) The patient signs in to CVS.com or the CVS Pharmacy app with their password and the one-time
    code; the assistant never sees the credentials.

    Args:
        email: The account's email address.
    """
    account = access.sign_in(db, email)
    me = db.get(patients, account["patient_id"], "Patient")
    return SessionObject(
        account_id=account["account_id"], first_name=me["first_name"], last_name=me["last_name"], email=account["email"]
    )


@tool(read_only=True)
def get_profile(db: Database) -> ProfileObject:
    """Get the signed-in account holder's profile: patient ID, preferred store, delivery address, CarePass,
    ExtraCare card with Pharmacy & Health Rewards credits, and the family members the account manages (with
    their access status)."""
    return profile_object(db, signed_in(db))


@tool()
def add_family_member(
    db: Database, first_name: str, last_name: str, date_of_birth: DateArg, relationship: Relationship
) -> FamilyMemberObject:
    """Add a family member to manage their prescriptions, matched to their CVS pharmacy patient record by name and
    date of birth. A child under 18 is added with active access at once; an adult must authorize access
    themselves, so their access stays pending_authorization until they do.

    Args:
        first_name: The member's first name as on their prescriptions.
        last_name: The member's last name.
        date_of_birth: Their date of birth, YYYY-MM-DD.
        relationship: How they are related to the account holder (a minor must be the holder's child).
    """
    account = signed_in(db)
    born = parse_day(date_of_birth, "date_of_birth").isoformat()
    patient = access.new_family_member(db, account, first_name, last_name, born)
    minor = age_on(patient, today(db)) < ADULT_AGE
    if minor and relationship != "child":
        raise InvalidRequest("Only a parent or guardian can add a child under 18: use relationship 'child'.")
    link = db.insert(
        family_members,
        link_id=db.new_id(family_members, "FAM-", 5),
        account_id=account["account_id"],
        patient_id=patient["patient_id"],
        relationship=relationship,
        access="active" if minor else "pending_authorization",
        created_at=db.now_iso(),
    )
    return family_object(db, link)


# ---------------------------------------------------------------- Prescription Center


@tool(read_only=True)
def list_prescriptions(
    db: Database,
    patient_id: str | None = None,
    refill_status: RefillStatus | None = None,
    page_size: page_size(MAX_PAGE_LARGE) = 10,
    cursor: str | None = None,
) -> Page[PrescriptionObject]:
    """List prescriptions in the Prescription Center with their refill status (not_yet_filled, refillable,
    too_soon with the date a refill is allowed, in_progress, no_refills or expired (a renewal is needed),
    new_prescription_required for schedule II, discontinued), refills left, prescriber, store and cash price.

    Args:
        patient_id: Only this patient's prescriptions (the account holder or a family member); all managed
            patients when omitted.
        refill_status: Only prescriptions in this refill status.
        page_size: Prescriptions per page, 1 to 15.
        cursor: The next_cursor of the previous page.
    """
    account = signed_in(db)
    ids = patient_ids(db, account, patient_id)
    rows = db.find(
        prescriptions,
        prescriptions.c.patient_id.in_(ids),
        order_by=[prescriptions.c.patient_id, prescriptions.c.written_date.desc()],
    )
    items = [prescription_object(db, r) for r in rows]
    if refill_status is not None:
        items = [p for p in items if p.refill_status == refill_status]
    return paginate(items, page_size, cursor, max_page_size=MAX_PAGE_LARGE)


@tool()
def request_refill(
    db: Database,
    rx_number: str,
    fulfillment: Literal["pickup", "delivery"] = "pickup",
    delivery_speed: Literal["standard", "same_day"] = "standard",
    delivery_instructions: str | None = None,
    payment: Literal["insurance", "cash"] = "insurance",
    insurance_plan_id: str | None = None,
) -> OrderObject:
    """Refill a prescription for pickup at its store or for delivery to the profile's address. Refused when it is
    too soon (before 75% of the last fill's days supply has passed, 90% for controlled substances), when no refills
    are left or it has expired (request a renewal instead), for schedule II drugs (they need a new prescription)
    and while another order for it is in progress. Controlled substances are pickup only. Same-day delivery comes
    from stores that offer it, ordered by 2:00 PM, $8.99 unless the account has CarePass; standard delivery is free.

    Args:
        rx_number: The Rx number on the label.
        fulfillment: pickup at the prescription's store, or delivery.
        delivery_speed: For delivery: standard (1-2 business days) or same_day.
        delivery_instructions: For delivery: a note for the driver.
        payment: Bill insurance (the copay) or pay the cash price.
        insurance_plan_id: With insurance: the plan to bill; the patient's active primary plan when omitted.
    """
    account = signed_in(db)
    rx = prescription_for(db, account, rx_number)
    drug = drug_of(db, rx)
    state = refill_state(db, rx, drug, today(db))
    refuse_refill(rx, drug, state)
    store = db.get(stores, rx["store_id"])
    if fulfillment == "pickup" and delivery_instructions is not None:
        raise InvalidRequest("delivery_instructions only apply to delivery orders.")
    terms = fulfillment_terms(
        account, store, drug, delivery_speed if fulfillment == "delivery" else None, local_now(db)
    )
    plan_id, copay = billing(db, rx, drug, payment, insurance_plan_id)
    stamp = db.now_iso()
    is_refill = state.status != "not_yet_filled"  # the first fill is the original, not a refill
    if is_refill:
        db.update(prescriptions, rx["rx_number"], refills_remaining=rx["refills_remaining"] - 1)
    row = db.insert(
        orders,
        order_id=db.new_id(orders, "ORD-", 6),
        rx_number=rx["rx_number"],
        patient_id=rx["patient_id"],
        store_id=store["store_id"],
        fulfillment=fulfillment,
        delivery_speed=terms.delivery_speed,
        delivery_address=terms.address,
        delivery_instructions=delivery_instructions,
        status="received",
        fill_date=today(db).isoformat(),
        quantity=rx["quantity"],
        days_supply=rx["days_supply"],
        is_refill=is_refill,
        payment=payment,
        insurance_plan_id=plan_id,
        copay=copay,
        delivery_fee=terms.fee,
        ready_by=terms.ready_by,
        created_at=stamp,
        updated_at=stamp,
    )
    return order_object(db, row)


@tool()
def request_renewal(db: Database, rx_number: str, note: str | None = None) -> RenewalObject:
    """Ask the prescriber to renew a prescription that has no refills left or has expired, or to send a new
    prescription for a schedule II drug. Only one request per prescription can wait for the prescriber.

    Args:
        rx_number: The Rx number on the label.
        note: A message for the prescriber's office.
    """
    account = signed_in(db)
    rx = prescription_for(db, account, rx_number)
    drug = drug_of(db, rx)
    state = refill_state(db, rx, drug, today(db))
    if state.status == "discontinued":
        raise Conflict(f"Rx #{rx['rx_number']} was discontinued by the prescriber; it can't be renewed.")
    if state.renewal_pending:
        raise Conflict(f"A renewal request for Rx #{rx['rx_number']} is already waiting for the prescriber.")
    if not renewal_needed(rx, drug, state):
        raise InvalidRequest(
            f"Rx #{rx['rx_number']} still has {rx['refills_remaining']} refill(s); request a refill instead."
        )
    row = db.insert(
        renewal_requests,
        request_id=db.new_id(renewal_requests, "RNW-", 6),
        rx_number=rx["rx_number"],
        prescriber_npi=rx["prescriber_npi"],
        status="sent_to_prescriber",
        note=note,
        created_at=db.now_iso(),
    )
    return renewal_object(db, row)


@tool()
def transfer_prescription(db: Database, rx_number: str, store_id: str) -> PrescriptionObject:
    """Move a prescription to another CVS pharmacy, with its remaining refills. Schedule II prescriptions can't
    be transferred, schedule III-V ones only once; a prescription without refills or expired can't be transferred;
    cancel an order in progress first.

    Args:
        rx_number: The Rx number on the label.
        store_id: The store number of the CVS pharmacy to move it to.
    """
    account = signed_in(db)
    rx = prescription_for(db, account, rx_number)
    drug = drug_of(db, rx)
    store = store_row(db, store_id)
    refuse_transfer(rx, drug, store, today(db))
    refuse_open_order(db, rx, "transfer it", today(db))
    row = db.update(prescriptions, rx["rx_number"], store_id=store["store_id"], transfer_count=rx["transfer_count"] + 1)
    return prescription_object(db, row)


@tool()
def set_readyfill(db: Database, rx_number: str, enabled: bool) -> PrescriptionObject:
    """Enroll a prescription in ReadyFill (CVS refills it automatically when it is due) or take it out.
    Controlled substances can't be enrolled, nor prescriptions without refills, expired or discontinued.

    Args:
        rx_number: The Rx number on the label.
        enabled: true to enroll, false to unenroll.
    """
    account = signed_in(db)
    rx = prescription_for(db, account, rx_number)
    if rx["readyfill"] == enabled:
        raise Conflict(f"Rx #{rx['rx_number']} is already {'enrolled in' if enabled else 'not in'} ReadyFill.")
    if enabled:
        drug = drug_of(db, rx)
        if drug["dea_schedule"]:
            raise InvalidRequest("Controlled substances aren't eligible for ReadyFill.")
        state = refill_state(db, rx, drug, today(db))
        if state.status in ("no_refills", "expired", "discontinued"):
            raise InvalidRequest(f"Rx #{rx['rx_number']} can't join ReadyFill: {state.status.replace('_', ' ')}.")
    return prescription_object(db, db.update(prescriptions, rx["rx_number"], readyfill=enabled))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    patient_id: str | None = None,
    rx_number: str | None = None,
    status: OrderStatus | None = None,
    page_size: page_size(MAX_PAGE) = 10,
    cursor: str | None = None,
) -> Page[OrderObject]:
    """List prescription orders (fills for pickup or delivery), newest first, with status, copay and ready time.

    Args:
        patient_id: Only this patient's orders; all managed patients when omitted.
        rx_number: Only orders of this prescription.
        status: Only orders in this status.
        page_size: Orders per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    account = signed_in(db)
    rows = db.find(
        orders,
        orders.c.patient_id.in_(patient_ids(db, account, patient_id)),
        order_by=[orders.c.fill_date.desc(), orders.c.order_id.desc()],
        **given(rx_number=rx_number.strip().lstrip("#") if rx_number is not None else None, status=status),
    )
    return paginate([order_object(db, r) for r in rows], page_size, cursor, max_page_size=MAX_PAGE)


@tool()
def cancel_order(db: Database, order_id: str) -> OrderObject:
    """Cancel a prescription order that hasn't left the pharmacy (received, in progress or ready for pickup); a
    refill it used goes back on the prescription.

    Args:
        order_id: The order's ID (ORD-...).
    """
    account = signed_in(db)
    order = own_order(db, account, order_id)
    if order["status"] not in CANCELLABLE:
        raise Conflict(f"Order {order['order_id']} is {order['status'].replace('_', ' ')} and can't be cancelled.")
    if order["is_refill"]:
        rx = db.get(prescriptions, order["rx_number"])
        db.update(prescriptions, rx["rx_number"], refills_remaining=rx["refills_remaining"] + 1)
    return order_object(db, db.update(orders, order["order_id"], status="cancelled", updated_at=db.now_iso()))


@tool(user_only=True)
def sign_pickup_log(db: Database, rx_number: str, photo_id_shown: bool = False) -> PickupObject:
    """(User only, at the pharmacy counter) Sign the pickup log to collect a prescription that is ready for
    pickup; controlled substances also need government photo ID (age and identity check). Patients enrolled in
    Pharmacy & Health Rewards earn a credit; every 10 credits earn $5 ExtraBucks Rewards.

    Args:
        rx_number: The Rx number on the bag.
        photo_id_shown: Whether the person picking up showed photo ID at the counter.
    """
    account = signed_in(db)
    rx = prescription_for(db, account, rx_number)
    ready = db.find(orders, rx_number=rx["rx_number"], status="ready_for_pickup")
    if not ready:
        raise Conflict(f"Nothing is ready for pickup for Rx #{rx['rx_number']}.")
    if drug_of(db, rx)["dea_schedule"] and not photo_id_shown:
        raise PermissionDenied("Photo ID is required to pick up a controlled substance.")
    order = db.update(orders, ready[0]["order_id"], status="picked_up", updated_at=db.now_iso())
    card = extracare_card(db, account)
    credits, reward = earn_pharmacy_credit(db, card, db.get(patients, rx["patient_id"]))
    return PickupObject(
        order=order_object(db, order),
        pharmacy_credits=credits,
        reward=coupon_object(reward, today(db).isoformat()) if reward else None,
    )


# ---------------------------------------------------------------- stores and insurance


@tool(read_only=True)
def find_stores(
    db: Database,
    city: str | None = None,
    zip_code: ZipCode | None = None,
    service: Service | None = None,
    page_size: page_size(MAX_PAGE_LARGE) = 10,
    cursor: str | None = None,
) -> Page[StoreObject]:
    """Find CVS stores by city or ZIP code, with store hours, pharmacy hours (lunch breaks included), whether the
    pharmacy is open now, services and the vaccines given there.

    Args:
        city: Stores in this city.
        zip_code: Stores in this 5-digit ZIP code.
        service: Only stores offering this service.
        page_size: Stores per page, 1 to 15.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(stores, order_by=[stores.c.city, stores.c.store_id])
    if city is not None:
        rows = [r for r in rows if r["city"].casefold() == city.strip().casefold()]
    if zip_code is not None:
        rows = [r for r in rows if r["zip_code"] == zip_code.strip()]
    if service is not None:
        rows = [r for r in rows if service in r["services"]]
    return paginate([store_object(db, r) for r in rows], page_size, cursor, max_page_size=MAX_PAGE_LARGE)


@tool(read_only=True)
def list_insurance_plans(db: Database, patient_id: str) -> list[InsurancePlanObject]:
    """List the prescription insurance on file for a patient, with each plan's status and copay per formulary tier.

    Args:
        patient_id: The account holder's or a family member's patient ID.
    """
    patient = patient_for(db, signed_in(db), patient_id)
    rows = db.find(
        insurance_plans,
        patient_id=patient["patient_id"],
        order_by=[insurance_plans.c.status, insurance_plans.c.priority],
    )
    return [InsurancePlanObject(**r) for r in rows]


# ---------------------------------------------------------------- ExtraCare


@tool(read_only=True)
def list_extracare_coupons(
    db: Database,
    status: Literal["available", "on_card", "redeemed", "expired"] | None = None,
    category: str | None = None,
    page_size: page_size(MAX_PAGE) = 20,
    cursor: str | None = None,
) -> Page[CouponObject]:
    """List the ExtraCare card's coupons and ExtraBucks Rewards, soonest to expire first. Coupons must be sent to
    the card before they apply at checkout.

    Args:
        status: Only coupons in this status.
        category: Only coupons of this category (e.g. pharmacy, beauty, vitamins, household, rewards).
        page_size: Coupons per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    card = extracare_card(db, signed_in(db))
    day = today(db).isoformat()
    items = [
        coupon_object(r, day) for r in db.find(coupons, card_number=card["card_number"], order_by=[coupons.c.expires])
    ]
    if status is not None:
        items = [c for c in items if c.status == status]
    if category is not None:
        items = [c for c in items if c.category.casefold() == category.strip().casefold()]
    return paginate(items, page_size, cursor, max_page_size=MAX_PAGE)


@tool()
def send_coupon_to_card(db: Database, coupon_id: str) -> CouponObject:
    """Send a coupon or ExtraBucks Rewards to the ExtraCare card so it applies at the next checkout.

    Args:
        coupon_id: The coupon's ID (CPN-...).
    """
    card = extracare_card(db, signed_in(db))
    coupon = db.get(coupons, coupon_id.strip(), "Coupon")
    if coupon["card_number"] != card["card_number"]:
        raise NotFound(f"Coupon '{coupon_id}' not found")
    day = today(db).isoformat()
    current = coupon_object(coupon, day).status
    if current == "expired":
        raise Conflict(f"This coupon expired on {coupon['expires']}.")
    if current != "available":
        raise Conflict(f"This coupon is already {current.replace('_', ' ')}.")
    return coupon_object(db.update(coupons, coupon["coupon_id"], status="on_card", sent_at=db.now_iso()), day)


# ---------------------------------------------------------------- vaccines


@tool(read_only=True)
def check_vaccine_eligibility(
    db: Database, patient_id: str, vaccine: VaccineCode, on_date: DateArg | None = None
) -> EligibilityObject:
    """Check whether a patient can get a vaccine at a CVS pharmacy: age limits, this season's flu or COVID-19
    shot, series doses and their intervals, boosters, and appointments already booked.

    Args:
        patient_id: The account holder's or a family member's patient ID.
        vaccine: The vaccine.
        on_date: The day of the shot, YYYY-MM-DD; today when omitted.
    """
    patient = patient_for(db, signed_in(db), patient_id)
    day = parse_day(on_date, "on_date") if on_date is not None else today(db)
    row = db.get(vaccine_table, vaccine, "Vaccine")
    result = vaccine_eligibility(db, patient, row, day)
    booked = scheduled_with(db, patient["patient_id"], vaccine)
    return EligibilityObject(
        patient_id=patient["patient_id"],
        vaccine=vaccine,
        vaccine_name=row["name"],
        on_date=day.isoformat(),
        eligible=result.eligible and booked is None,
        reason=f"Already scheduled for {booked['start']}." if booked and result.eligible else result.reason,
        dose_number=result.dose_number,
        next_eligible_date=result.next_eligible_date,
        scheduled_appointment_id=booked["appointment_id"] if booked else None,
    )


@tool(read_only=True)
def search_vaccine_slots(db: Database, store_id: str, date: DateArg, vaccine: VaccineCode) -> list[SlotObject]:
    """List a store's vaccine appointment times with room left on one day (local times), for a vaccine the store
    gives. Appointments can be booked up to 30 days ahead.

    Args:
        store_id: The store number.
        date: The day, YYYY-MM-DD.
        vaccine: The vaccine to get.
    """
    store = store_row(db, store_id)
    day = parse_day(date, "date")
    if vaccine not in store["vaccines"]:
        raise InvalidRequest(f"Store #{store['store_id']} doesn't give {vaccine} vaccines.")
    now = local_now(db)
    if not now.date() <= day <= now.date() + timedelta(days=SLOT_WINDOW_DAYS):
        raise InvalidRequest(f"Choose a day from today through {now.date() + timedelta(days=SLOT_WINDOW_DAYS)}.")
    rows = db.find(
        vaccine_slots,
        vaccine_slots.c.start.startswith(day.isoformat()),
        store_id=store["store_id"],
        order_by=[vaccine_slots.c.start],
    )
    return [
        SlotObject(
            slot_id=r["slot_id"], store_id=r["store_id"], start=r["start"], available=r["capacity"] - r["booked"]
        )
        for r in rows
        if r["booked"] < r["capacity"] and local_time(r["start"]) > now
    ]


@tool(read_only=True)
def list_vaccine_appointments(
    db: Database,
    patient_id: str | None = None,
    status: Literal["scheduled", "completed", "cancelled"] | None = None,
) -> list[AppointmentObject]:
    """List vaccine appointments of the account holder and managed family members, latest first.

    Args:
        patient_id: Only this patient's appointments.
        status: Only appointments in this status.
    """
    account = signed_in(db)
    rows = db.find(
        vaccine_appointments,
        vaccine_appointments.c.patient_id.in_(patient_ids(db, account, patient_id)),
        order_by=[vaccine_appointments.c.start.desc()],
        **given(status=status),
    )
    return [appointment_object(db, r) for r in rows]


@tool()
def schedule_vaccine_appointment(
    db: Database, patient_id: str, slot_id: str, vaccines: VisitVaccines
) -> AppointmentObject:
    """Book a vaccine appointment (one to three vaccines in one visit) for the account holder or a managed family
    member in an open slot. Every vaccine must be given at that store and the patient must be eligible for it on
    that day; a vaccine already booked in another appointment can't be booked twice.

    Args:
        patient_id: Who gets the vaccines.
        slot_id: The time slot (SLT-...) from search_vaccine_slots.
        vaccines: The vaccines to get in this visit.
    """
    account = signed_in(db)
    patient = patient_for(db, account, patient_id)
    if len(set(vaccines)) != len(vaccines):
        raise InvalidRequest("Choose one to three different vaccines.")
    slot = db.get(vaccine_slots, slot_id.strip(), "Slot")
    start = local_time(slot["start"])
    if start <= local_now(db):
        raise InvalidRequest("That time has already passed; choose a later slot.")
    if slot["booked"] >= slot["capacity"]:
        raise Conflict("That time is no longer available; choose another slot.")
    store = db.get(stores, slot["store_id"])
    refuse_vaccines(db, patient, store, vaccines, start.date())
    db.update(vaccine_slots, slot["slot_id"], booked=slot["booked"] + 1)
    row = db.insert(
        vaccine_appointments,
        appointment_id=db.new_id(vaccine_appointments, "APT-", 6),
        account_id=account["account_id"],
        patient_id=patient["patient_id"],
        slot_id=slot["slot_id"],
        store_id=store["store_id"],
        start=slot["start"],
        vaccines=sorted(vaccines),
        status="scheduled",
        created_at=db.now_iso(),
    )
    return appointment_object(db, row)


@tool()
def cancel_vaccine_appointment(db: Database, appointment_id: str) -> AppointmentObject:
    """Cancel an upcoming vaccine appointment; its time becomes free for others.

    Args:
        appointment_id: The appointment's ID (APT-...).
    """
    account = signed_in(db)
    row = own_appointment(db, account, appointment_id)
    if row["status"] != "scheduled":
        raise Conflict(f"Appointment {row['appointment_id']} is {row['status']} and can't be cancelled.")
    if local_time(row["start"]) <= local_now(db):
        raise Conflict("This appointment has already started; it can't be cancelled online.")
    slot = db.get(vaccine_slots, row["slot_id"])
    db.update(vaccine_slots, slot["slot_id"], booked=slot["booked"] - 1)
    return appointment_object(db, db.update(vaccine_appointments, row["appointment_id"], status="cancelled"))
