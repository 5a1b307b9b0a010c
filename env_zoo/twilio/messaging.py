"""Sending a message: which number sends it (a given From, or one from a Messaging Service's sender pool), the
checks Twilio makes before accepting it (active account, SMS-capable sender, reachable region, opt-outs, the
scheduling window) and what the carrier does with it (the A2P 10DLC gate on US long codes, landlines)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from envfactory_gym import Database

from .access import active_account, campaign_of, service
from .errors import invalid, not_found
from .rules import SCHEDULE_MAX, SCHEDULE_MIN, SMS_PRICE, country_of, is_nanp, new_sid, segments
from .schema import line_types, messages, opt_outs, phone_numbers
from .usage import charge

UNSUBSCRIBED = "Attempt to send to unsubscribed recipient"
NOT_A_SENDER = (
    "The 'From' phone number provided ({}) is not a valid message-capable Twilio phone number for this account"
)


def sender_number(db: Database, account_sid: str, phone_number: str) -> dict[str, Any]:
    """The account's own SMS-capable number `phone_number`; 21606 otherwise."""
    found = db.find(phone_numbers, account_sid=account_sid, phone_number=phone_number)
    if not found or not found[0]["sms"]:
        raise invalid(21606, NOT_A_SENDER.format(phone_number))
    return found[0]


def pool_sender(db: Database, svc: dict[str, Any], to: str) -> dict[str, Any]:
    """The pool number a service sends from: with sticky sender, the one that last texted this recipient; else
    the first (by number) in the recipient's country, else the first; 21703 when the pool has no SMS number."""
    pool = [
        n for n in db.find(phone_numbers, messaging_service_sid=svc["sid"], order_by=[phone_numbers.c.phone_number])
    ]
    pool = [n for n in pool if n["sms"]]
    if not pool:
        raise invalid(21703, "The Messaging Service does not have a phone number available to send a message")
    if svc["sticky_sender"]:
        numbers = {n["phone_number"]: n for n in pool}
        earlier = db.select(
            messages,
            "messaging_service_sid = ? AND to_number = ? AND direction = 'outbound-api' AND from_number IS NOT NULL",
            [svc["sid"], to],
            order_by="date_created DESC",
        )
        for row in earlier:
            if row["from_number"] in numbers:
                return numbers[row["from_number"]]
    local = [n for n in pool if n["iso_country"] == country_of(to)]
    return (local or pool)[0]


def opted_out(db: Database, scope: str, to: str) -> bool:
    """Whether `to` has texted an opt-out keyword to this sender (a service, or a number outside any service)."""
    return bool(db.find(opt_outs, id=f"{scope}|{to}"))


def outcome(db: Database, sender: dict[str, Any], to: str) -> tuple[str, int | None]:
    """What the carrier does with a message from `sender`: US long codes texting the NANP need a VERIFIED A2P
    campaign on their Messaging Service (else failed, 30034); landlines can't take SMS (undelivered, 30006)."""
    if sender["type"] == "local" and sender["iso_country"] == "US" and is_nanp(to):
        svc_sid = sender["messaging_service_sid"]
        campaign = campaign_of(db, svc_sid) if svc_sid else None
        if campaign is None or campaign["campaign_status"] != "VERIFIED":
            return "failed", 30034
    line = db.find(line_types, phone_number=to)
    if line and line[0]["line_type"] == "landline":
        return "undelivered", 30006
    return "sent", None


def send(
    db: Database,
    account_sid: str,
    to: str,
    body: str,
    from_: str | None,
    service_sid: str | None,
    send_at: datetime | None,
) -> dict[str, Any]:
    """Create an outbound message under Twilio's rules and return its row."""
    active_account(db, account_sid)
    if from_ is None and service_sid is None:
        raise invalid(21603, "A 'From' phone number or a MessagingServiceSid is required")
    svc = service(db, service_sid) if service_sid is not None else None
    if svc is not None and svc["account_sid"] != account_sid:
        raise not_found("Service", svc["sid"])
    sender = sender_number(db, account_sid, from_) if from_ is not None else None
    if sender is not None and svc is not None and sender["messaging_service_sid"] != svc["sid"]:
        raise invalid(21606, NOT_A_SENDER.format(from_) + " (it is not in the Messaging Service's sender pool)")
    country = country_of(to)
    if country not in SMS_PRICE:
        raise invalid(
            21408, f"Permission to send an SMS has not been enabled for the region indicated by the 'To' number: {to}"
        )
    scope = svc["sid"] if svc is not None else (sender["messaging_service_sid"] or sender["phone_number"])  # type: ignore[index]
    if opted_out(db, scope, to):
        raise invalid(21610, f"{UNSUBSCRIBED}: {to} replied STOP to this sender")
    now = db.now()
    count = segments(body)
    row: dict[str, Any] = {
        "sid": new_sid(db, messages, "SM"),
        "account_sid": account_sid,
        "direction": "outbound-api",
        "to_number": to,
        "messaging_service_sid": svc["sid"] if svc is not None else sender["messaging_service_sid"],  # type: ignore[index]
        "body": body,
        "num_segments": count,
        "price": None,
        "date_created": db.now_iso(),
        "date_sent": None,
        "date_updated": db.now_iso(),
    }
    if send_at is not None:
        if svc is None:
            raise invalid(35118, "MessagingServiceSid is required to schedule a message")
        if not SCHEDULE_MIN <= send_at - now <= SCHEDULE_MAX:
            raise invalid(
                35114, "Scheduling does not support this timestamp: send_at must be 15 minutes to 35 days from now"
            )
        return db.insert(
            messages,
            **row,
            from_number=None,
            status="scheduled",
            error_code=None,
            send_at=send_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
    if sender is None:
        sender = pool_sender(db, svc, to)  # type: ignore[arg-type]
    status, code = outcome(db, sender, to)
    if status != "failed":
        row["price"] = -count * SMS_PRICE[country]
        row["date_sent"] = db.now_iso()
        charge(db, account_sid, "sms-outbound", count * SMS_PRICE[country], count)
    return db.insert(messages, **row, from_number=sender["phone_number"], status=status, error_code=code, send_at=None)
