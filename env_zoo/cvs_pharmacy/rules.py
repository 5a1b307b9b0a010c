"""CVS Pharmacy's rules shared by the tools: local store time and pharmacy hours, who the signed-in account may act
for, where a prescription stands for refills, what an order costs, and vaccine eligibility."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_date, parse_timestamp

from .schema import (
    coupons,
    drugs,
    extracare_cards,
    immunizations,
    insurance_plans,
    orders,
    renewal_requests,
    stores,
    vaccine_appointments,
)
from .schema import vaccines as vaccines_table

TZ = ZoneInfo("America/New_York")  # every store of this directory keeps Eastern time
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
OPEN_ORDER = ("received", "in_progress", "ready_for_pickup", "out_for_delivery")
VOID_ORDER = ("cancelled", "returned_to_stock")
TOO_SOON_SHARE = 0.75  # a refill is allowed once 75% of the last fill's days supply has passed
TOO_SOON_SHARE_CONTROLLED = 0.9  # schedules III-V
PICKUP_LEAD = timedelta(hours=2)
SAME_DAY_CUTOFF = time(14, 0)
SAME_DAY_FEE = 899
REWARD_CREDITS = 10  # Pharmacy & Health Rewards: 10 credits earn $5 ExtraBucks Rewards
REWARD_VALUE = 500
ADULT_AGE = 18
DATE_EXAMPLE = "2025-10-18"


# ---------------------------------------------------------------- time and hours


def local_now(db: Database) -> datetime:
    """The stores' local wall-clock time (naive)."""
    return db.now().astimezone(TZ).replace(tzinfo=None)


def today(db: Database) -> date:
    """The stores' local date."""
    return local_now(db).date()


def parse_day(value: str, name: str) -> date:
    """A YYYY-MM-DD argument (or stored date) as a date."""
    return parse_date(value, name, DATE_EXAMPLE)


def local_time(value: str) -> datetime:
    """A stored local store time ('2025-10-18T09:00') as a naive local datetime."""
    return parse_timestamp(value, "start", naive_as_utc=True).replace(tzinfo=None)


def age_on(patient: dict[str, Any], day: date) -> int:
    """Whole years of age on a day."""
    born = parse_day(patient["date_of_birth"], "date_of_birth")
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def _clock(value: str) -> time:
    return time(23, 59, 59) if value == "24:00" else time.fromisoformat(value)


def pharmacy_intervals(store: dict[str, Any], day: date) -> list[tuple[datetime, datetime]]:
    """The pharmacy counter's open intervals on a day (a lunch break splits a day in two)."""
    return [
        (datetime.combine(day, _clock(start)), datetime.combine(day, _clock(end)))
        for start, end in store["pharmacy_hours"].get(DAYS[day.weekday()]) or []
    ]


def pharmacy_open(store: dict[str, Any], moment: datetime) -> bool:
    """Whether the pharmacy counter is open at a local moment."""
    return any(start <= moment < end for start, end in pharmacy_intervals(store, moment.date()))


def next_pharmacy_moment(store: dict[str, Any], moment: datetime) -> datetime:
    """The first local moment at or after `moment` when the pharmacy counter is open."""
    for offset in range(8):
        for start, end in pharmacy_intervals(store, moment.date() + timedelta(days=offset)):
            if end > moment:
                return max(start, moment)
    raise InvalidRequest(f"The pharmacy at store #{store['store_id']} has no opening hours.")


def pickup_ready_by(store: dict[str, Any], now: datetime) -> str:
    """When a pickup order is promised: two hours out, within pharmacy hours, on a quarter hour."""
    moment = next_pharmacy_moment(store, now + PICKUP_LEAD)
    minute = moment.replace(second=0, microsecond=0)
    if minute < moment:
        minute += timedelta(minutes=1)
    return (minute + timedelta(minutes=(-minute.minute) % 15)).strftime("%Y-%m-%dT%H:%M")


def hours_text(value: Any) -> str:
    """Stored hours of one day as the store page shows them."""
    if not value:
        return "Closed"
    intervals = [value] if isinstance(value[0], str) else value
    if intervals == [["00:00", "24:00"]]:
        return "Open 24 hours"
    return ", ".join(f"{start}-{end}" for start, end in intervals)


# ---------------------------------------------------------------- people


def full_name(patient: dict[str, Any]) -> str:
    """First and last name."""
    return f"{patient['first_name']} {patient['last_name']}"


# ---------------------------------------------------------------- refills


@dataclass(frozen=True)
class RefillState:
    """Where a prescription stands for a refill, as the Prescription Center shows it."""

    # not_yet_filled | refillable | too_soon | in_progress | no_refills | expired | new_prescription_required
    # | discontinued
    status: str
    last_fill_date: str | None
    eligible_date: str | None
    open_order: dict[str, Any] | None
    renewal_pending: bool


def refill_state(db: Database, rx: dict[str, Any], drug: dict[str, Any], day: date) -> RefillState:
    """The refill status of a prescription on a local day."""
    fills = [o for o in db.find(orders, rx_number=rx["rx_number"]) if o["status"] not in VOID_ORDER]
    last = max(fills, key=lambda o: (o["fill_date"], o["order_id"]), default=None)
    eligible = None
    if last is not None:
        share = TOO_SOON_SHARE_CONTROLLED if drug["dea_schedule"] else TOO_SOON_SHARE
        eligible = parse_day(last["fill_date"], "fill_date") + timedelta(days=math.ceil(share * last["days_supply"]))
    open_order = next((o for o in fills if o["status"] in OPEN_ORDER), None)
    pending = bool(db.find(renewal_requests, rx_number=rx["rx_number"], status="sent_to_prescriber"))
    if rx["status"] == "discontinued":
        status = "discontinued"
    elif open_order is not None:
        status = "in_progress"
    elif rx["expiration_date"] < day.isoformat():
        status = "expired"
    elif last is None:
        status = "not_yet_filled"
    elif drug["dea_schedule"] == "II":
        status = "new_prescription_required"
    elif rx["refills_remaining"] < 1:
        status = "no_refills"
    elif eligible is not None and day < eligible:
        status = "too_soon"
    else:
        status = "refillable"
    return RefillState(
        status, last["fill_date"] if last else None, eligible.isoformat() if eligible else None, open_order, pending
    )


def refuse_open_order(db: Database, rx: dict[str, Any], action: str, day: date) -> None:
    """Refuse an action on a prescription that has an order in progress."""
    state = refill_state(db, rx, drug_of(db, rx), day)
    if state.open_order is not None:
        raise Conflict(
            f"Rx #{rx['rx_number']} has order {state.open_order['order_id']} in progress "
            f"({state.open_order['status']}); cancel it before you {action}."
        )


def refuse_transfer(rx: dict[str, Any], drug: dict[str, Any], store: dict[str, Any], day: date) -> None:
    """Why a prescription can't move to a store: no pharmacy, the same store, schedule II, a schedule III-V
    prescription already transferred once, discontinued, no refills or expired."""
    if not store["has_pharmacy"]:
        raise InvalidRequest(f"Store #{store['store_id']} has no pharmacy.")
    if store["store_id"] == rx["store_id"]:
        raise InvalidRequest(f"Rx #{rx['rx_number']} is already at store #{store['store_id']}.")
    if drug["dea_schedule"] == "II":
        raise InvalidRequest(
            "Schedule II controlled substances can't be transferred; ask the prescriber to send a "
            "new prescription to the other store."
        )
    if drug["dea_schedule"] and rx["transfer_count"] >= 1:
        raise Conflict(
            f"Rx #{rx['rx_number']} is a schedule {drug['dea_schedule']} controlled substance and was "
            "already transferred once; it can't be transferred again."
        )
    if rx["status"] == "discontinued":
        raise Conflict(f"Rx #{rx['rx_number']} was discontinued and can't be transferred.")
    if rx["refills_remaining"] < 1 or rx["expiration_date"] < day.isoformat():
        raise InvalidRequest(f"Rx #{rx['rx_number']} has no refills left to transfer (or has expired).")


def renewal_needed(rx: dict[str, Any], drug: dict[str, Any], state: RefillState) -> bool:
    """Whether only the prescriber can extend a prescription: no refills left after a fill, expired, or a filled
    schedule II drug (also while its last fill is in progress)."""
    if state.status in ("no_refills", "expired", "new_prescription_required"):
        return True
    return state.status == "in_progress" and (drug["dea_schedule"] == "II" or rx["refills_remaining"] < 1)


def refuse_refill(rx: dict[str, Any], drug: dict[str, Any], state: RefillState) -> None:
    """Raise the Prescription Center's reason when a prescription can't be filled now."""
    name = f"Rx #{rx['rx_number']} ({drug['name']})"
    if state.status == "discontinued":
        raise Conflict(f"{name} was discontinued by the prescriber and can't be refilled.")
    if state.open_order is not None:
        raise Conflict(
            f"{name} is already being filled: order {state.open_order['order_id']} is {state.open_order['status']}."
        )
    if state.status == "new_prescription_required":
        raise InvalidRequest(
            f"{name} is a schedule II controlled substance and can't be refilled; the prescriber "
            "must send a new prescription (request a renewal)."
        )
    if state.status == "expired":
        raise InvalidRequest(f"{name} expired on {rx['expiration_date']}; request a renewal from the prescriber.")
    if state.status == "no_refills":
        raise InvalidRequest(f"{name} has no refills left; request a renewal from the prescriber.")
    if state.status == "too_soon":
        raise Conflict(
            f"Too soon to refill {name}: it was filled on {state.last_fill_date} and can be refilled "
            f"from {state.eligible_date}."
        )


@dataclass(frozen=True)
class FulfillmentTerms:
    """How an order reaches the patient: delivery speed and address, fee and the promised time."""

    delivery_speed: str | None
    address: str | None
    fee: int
    ready_by: str


def fulfillment_terms(
    account: dict[str, Any], store: dict[str, Any], drug: dict[str, Any], delivery_speed: str | None, now: datetime
) -> FulfillmentTerms:
    """Pickup (`delivery_speed` None) at the prescription's store, or delivery to the profile's address."""
    if delivery_speed is None:
        return FulfillmentTerms(None, None, 0, pickup_ready_by(store, now))
    if drug["dea_schedule"]:
        raise InvalidRequest("Controlled substances can't be delivered; pick them up at the pharmacy with photo ID.")
    if not account["delivery_address"]:
        raise InvalidRequest("Add a delivery address to your profile first.")
    if delivery_speed == "standard":
        return FulfillmentTerms(
            "standard", account["delivery_address"], 0, (now + timedelta(days=2)).strftime("%Y-%m-%dT20:00")
        )
    if "same_day_delivery" not in store["services"]:
        raise InvalidRequest(f"Store #{store['store_id']} doesn't offer same-day delivery; choose standard.")
    if now.time() >= SAME_DAY_CUTOFF or not pharmacy_open(store, now):
        raise InvalidRequest(
            "Same-day delivery must be ordered by 2:00 PM while the pharmacy is open; choose standard delivery."
        )
    return FulfillmentTerms(
        "same_day",
        account["delivery_address"],
        0 if account["carepass"] else SAME_DAY_FEE,
        now.strftime("%Y-%m-%dT20:00"),
    )


def billing(
    db: Database, rx: dict[str, Any], drug: dict[str, Any], payment: str, plan_id: str | None
) -> tuple[str | None, int]:
    """The plan billed (None for cash) and what the patient pays."""
    if payment == "cash":
        if plan_id is not None:
            raise InvalidRequest("Give insurance_plan_id only when billing insurance.")
        return None, cash_price(drug, rx["quantity"])
    plan, copay = insurance_copay(db, rx, drug, plan_id)
    return plan["plan_id"], copay


def drug_of(db: Database, rx: dict[str, Any]) -> dict[str, Any]:
    """The drug a prescription is for."""
    return db.get(drugs, rx["ndc"], "Drug")


def drug_label(drug: dict[str, Any]) -> str:
    """How the label names a drug: 'Atorvastatin 20 mg tablet'."""
    return f"{drug['name']} {drug['strength']} {drug['form']}"


def cash_price(drug: dict[str, Any], quantity: int) -> int:
    """The retail (no insurance) price of a fill, cents."""
    return drug["unit_price"] * quantity


def insurance_copay(
    db: Database, rx: dict[str, Any], drug: dict[str, Any], plan_id: str | None
) -> tuple[dict[str, Any], int]:
    """The plan billed for a fill (the given one, else the patient's active primary plan) and the copay it leaves."""
    if plan_id is None:
        active = db.find(insurance_plans, patient_id=rx["patient_id"], status="active")
        active.sort(key=lambda p: p["priority"] != "primary")
        if not active:
            raise InvalidRequest("No active insurance on file for this patient. Pay cash or add insurance in store.")
        plan = active[0]
    else:
        plan = db.get(insurance_plans, plan_id, "Insurance plan")
        if plan["patient_id"] != rx["patient_id"]:
            raise InvalidRequest(f"Insurance plan {plan_id} belongs to another patient.")
        if plan["status"] != "active":
            raise InvalidRequest(f"{plan['plan_name']} coverage ended on {plan['termination_date']}.")
    copay = plan["copays"].get(str(drug["tier"]))
    if copay is None:
        raise InvalidRequest(
            f"{plan['plan_name']} doesn't cover {drug['name']} (tier {drug['tier']}). Pay cash or use another plan."
        )
    return plan, min(copay, cash_price(drug, rx["quantity"]))


# ---------------------------------------------------------------- vaccines


@dataclass(frozen=True)
class Eligibility:
    """Whether a patient may get a vaccine on a day, and why not."""

    eligible: bool
    reason: str
    dose_number: int | None = None
    next_eligible_date: str | None = None


def _add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def vaccine_eligibility(db: Database, patient: dict[str, Any], vaccine: dict[str, Any], day: date) -> Eligibility:
    """Age limits, this season's shot, series progress and intervals, from the patient's immunization record."""
    age = age_on(patient, day)
    if age < vaccine["min_age"]:
        return Eligibility(False, f"CVS pharmacists give {vaccine['name']} to patients {vaccine['min_age']} and older.")
    if vaccine["max_age"] is not None and age > vaccine["max_age"]:
        return Eligibility(False, f"{vaccine['name']} is given through age {vaccine['max_age']}.")
    records = sorted(
        db.find(immunizations, patient_id=patient["patient_id"], vaccine=vaccine["code"]), key=lambda r: r["date"]
    )
    last = records[-1] if records else None
    if vaccine["repeat"] == "season":
        if last is not None and last["date"] >= vaccine["season_start"]:
            return Eligibility(False, f"Already received this season's {vaccine['name']} on {last['date']}.")
        return Eligibility(True, "Eligible.", 1)
    if vaccine["repeat"] == "10_years" and last is not None:
        due = _add_years(parse_day(last["date"], "date"), 10)
        if day < due:
            return Eligibility(
                False,
                f"Last {vaccine['name']} dose was on {last['date']}; next due {due}.",
                next_eligible_date=due.isoformat(),
            )
        return Eligibility(True, "Eligible for a booster.", len(records) + 1)
    dose = len(records) + 1
    if vaccine["repeat"] == "lifetime" and dose > vaccine["doses"]:
        return Eligibility(False, f"{vaccine['name']} series already complete ({len(records)} of {vaccine['doses']}).")
    if last is not None and vaccine["dose_interval_days"]:
        due = parse_day(last["date"], "date") + timedelta(days=vaccine["dose_interval_days"])
        if day < due:
            return Eligibility(
                False,
                f"Dose {dose} can be given from {due} (dose {dose - 1} was on {last['date']}).",
                dose,
                due.isoformat(),
            )
    return Eligibility(True, "Eligible." if dose == 1 else f"Eligible for dose {dose} of {vaccine['doses']}.", dose)


def refuse_vaccines(
    db: Database, patient: dict[str, Any], store: dict[str, Any], vaccines: list[str], day: date
) -> None:
    """Every vaccine of a visit must be given at the store, not booked already, and due for the patient that day."""
    for code in vaccines:
        if code not in store["vaccines"]:
            raise InvalidRequest(f"Store #{store['store_id']} doesn't give {code} vaccines.")
        booked = scheduled_with(db, patient["patient_id"], code)
        if booked is not None:
            raise Conflict(
                f"{full_name(patient)} already has {code} booked for {booked['start']} ({booked['appointment_id']})."
            )
        result = vaccine_eligibility(db, patient, db.get(vaccines_table, code, "Vaccine"), day)
        if not result.eligible:
            raise InvalidRequest(f"{full_name(patient)} isn't eligible for {code}: {result.reason}")


def scheduled_with(db: Database, patient_id: str, code: str) -> dict[str, Any] | None:
    """A scheduled appointment of the patient that already includes a vaccine."""
    return next(
        (a for a in db.find(vaccine_appointments, patient_id=patient_id, status="scheduled") if code in a["vaccines"]),
        None,
    )


def store_row(db: Database, store_id: str) -> dict[str, Any]:
    """A store by its number ('#2047' or '2047')."""
    return db.find_one(stores, store_id=str(store_id).strip().lstrip("#"), not_found=f"Store #{store_id} not found.")


# ---------------------------------------------------------------- ExtraCare


def earn_pharmacy_credit(db: Database, card: dict[str, Any], patient: dict[str, Any]) -> tuple[int, dict | None]:
    """A pickup by a Pharmacy & Health Rewards patient earns a credit; every 10 credits become a $5 ExtraBucks
    Rewards coupon. Returns the card's credits and the new coupon, if one was earned."""
    credits, reward = card["pharmacy_credits"], None
    if not patient["pharmacy_rewards"]:
        return credits, None
    credits += 1
    if credits >= REWARD_CREDITS:
        credits -= REWARD_CREDITS
        reward = db.insert(
            coupons,
            coupon_id=db.new_id(coupons, "CPN-", 6),
            card_number=card["card_number"],
            kind="extrabucks",
            description="$5 ExtraBucks Rewards - Pharmacy & Health Rewards",
            amount_off=REWARD_VALUE,
            percent_off=None,
            min_purchase=0,
            category="rewards",
            expires=(today(db) + timedelta(days=30)).isoformat(),
            status="available",
            sent_at=None,
        )
    db.update(extracare_cards, card["card_number"], pharmacy_credits=credits)
    return credits, reward
