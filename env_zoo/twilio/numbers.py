"""Phone numbers: buying one from the available inventory (its first month is charged), moving one between the
main account and its subaccounts, and releasing one (it leaves its sender pool; a released number is gone)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import active_account, campaign_of, service
from .errors import conflict, invalid, missing_text, not_found, refused
from .objects import pretty
from .rules import NUMBER_CATEGORY, NUMBER_PRICE, SOLE_PROPRIETOR_SENDERS, new_sid
from .schema import available_numbers, phone_numbers
from .usage import charge


def buy(db: Database, account_sid: str, phone_number: str, friendly_name: str | None) -> dict[str, Any]:
    """Provision an available number on an active account and charge its first month."""
    active_account(db, account_sid)
    found = db.find(available_numbers, phone_number=phone_number)
    if not found:
        raise invalid(21422, f"PhoneNumber {phone_number} is not available; search available numbers first")
    offer = found[0]
    db.delete(available_numbers, phone_number)
    row = db.insert(
        phone_numbers,
        sid=new_sid(db, phone_numbers, "PN"),
        account_sid=account_sid,
        phone_number=phone_number,
        friendly_name=friendly_name or pretty(phone_number),
        iso_country=offer["iso_country"],
        type=offer["type"],
        sms=offer["sms"],
        mms=offer["mms"],
        voice=offer["voice"],
        sms_url=None,
        messaging_service_sid=None,
        date_created=db.now_iso(),
    )
    charge(db, account_sid, NUMBER_CATEGORY[offer["type"]], NUMBER_PRICE[offer["type"]])
    return row


def move(db: Database, row: dict[str, Any], account_sid: str) -> None:
    """Transfer a number to another account of the same project: the target must be active and the number out
    of any sender pool (a Messaging Service belongs to one account)."""
    active_account(db, account_sid)
    if row["messaging_service_sid"] is not None:
        raise refused(
            f"{row['phone_number']} is in the sender pool of Messaging Service {row['messaging_service_sid']}; "
            "remove it from the service before moving it to another account"
        )
    db.update(phone_numbers, row["sid"], account_sid=account_sid)


def add_to_pool(db: Database, service_sid: str, number_sid: str) -> dict[str, Any]:
    """Put an owned SMS number into a service's sender pool (one service per number; a sole proprietor campaign
    allows a single number)."""
    svc = service(db, service_sid)
    row = db.find_one(
        phone_numbers,
        sid=number_sid,
        account_sid=svc["account_sid"],
        not_found=missing_text("IncomingPhoneNumber", number_sid),
    )
    if row["messaging_service_sid"] == svc["sid"]:
        raise conflict(21710, f"Phone Number {row['phone_number']} is already in the Messaging Service")
    if row["messaging_service_sid"] is not None:
        raise conflict(
            21712,
            f"Phone Number {row['phone_number']} is associated with another Messaging Service "
            f"({row['messaging_service_sid']})",
        )
    if not row["sms"]:
        raise invalid(21606, f"{row['phone_number']} is not SMS-capable and can't join a sender pool")
    campaign = campaign_of(db, svc["sid"])
    if campaign is not None and campaign["us_app_to_person_usecase"] == "SOLE_PROPRIETOR":
        if len(db.find(phone_numbers, messaging_service_sid=svc["sid"])) >= SOLE_PROPRIETOR_SENDERS:
            raise refused("A sole proprietor A2P campaign can send from one phone number only")
    return db.update(phone_numbers, row["sid"], messaging_service_sid=svc["sid"])


def remove_from_pool(db: Database, service_sid: str, number_sid: str) -> dict[str, Any]:
    """Take a number out of a service's sender pool."""
    svc = service(db, service_sid)
    found = db.find(phone_numbers, sid=number_sid, messaging_service_sid=svc["sid"])
    if not found:
        raise not_found("PhoneNumber", f"{number_sid} in Messaging Service {svc['sid']}")
    return db.update(phone_numbers, number_sid, messaging_service_sid=None)
