"""Twilio's messaging rules: SIDs, segments and their encoding, prices, the scheduling window and the A2P 10DLC use
cases by brand type."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import Table

from envfactory_gym import Database

#: GSM 03.38 basic characters (plus the extension table, whose characters take two septets)
GSM_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿"
    "abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM_EXTENDED = set("^{}\\[~]|€")

#: what one outbound SMS segment costs, by destination country (ten-thousandths of a dollar)
SMS_PRICE = {"US": 79, "CA": 79, "GB": 463, "MX": 502, "AU": 515}
#: monthly price of a number, by type
NUMBER_PRICE = {"local": 11500, "toll_free": 21500, "mobile": 10000}
#: the usage category a number's monthly fee is recorded under
NUMBER_CATEGORY = {"local": "phonenumbers-local", "toll_free": "phonenumbers-tollfree", "mobile": "phonenumbers-mobile"}
#: a US A2P campaign's vetting fee
CAMPAIGN_VETTING_FEE = 150000

#: country calling codes -> ISO country (the +1 plan is the US here unless an area code says Canada)
CANADIAN_AREA_CODES = frozenset({"416", "437", "647", "604", "778", "514", "438", "613", "403", "587"})
COUNTRY_CODES = {"44": "GB", "52": "MX", "61": "AU"}

#: scheduled messages go out 15 minutes to 35 days after they are created
SCHEDULE_MIN = timedelta(minutes=15)
SCHEDULE_MAX = timedelta(days=35)

#: a sole proprietor campaign may send from one number only
SOLE_PROPRIETOR_SENDERS = 1

#: US A2P campaign use cases per brand type
STANDARD_USECASES = frozenset(
    {"MARKETING", "ACCOUNT_NOTIFICATION", "2FA", "CUSTOMER_CARE", "DELIVERY_NOTIFICATION", "MIXED", "LOW_VOLUME"}
)
USECASES_BY_BRAND = {
    "STANDARD": STANDARD_USECASES,
    "LOW_VOLUME_STANDARD": frozenset({"LOW_VOLUME", "MIXED"}),
    "SOLE_PROPRIETOR": frozenset({"SOLE_PROPRIETOR"}),
}


def new_sid(db: Database, table: Table, prefix: str) -> str:
    """A fresh, deterministic Twilio SID: the kind's two letters and 32 hex digits."""
    number = db.next_number(f"sid:{table.name}")
    return prefix + hashlib.md5(f"{prefix}:{number}".encode()).hexdigest()


def is_gsm(body: str) -> bool:
    """Whether the body fits the GSM-7 alphabet (otherwise it is sent as UCS-2)."""
    return all(ch in GSM_BASIC or ch in GSM_EXTENDED for ch in body)


def segments(body: str) -> int:
    """How many SMS segments a body takes: GSM-7 holds 160 septets in one segment or 153 per segment of a longer
    message; UCS-2 holds 70 characters or 67 per segment."""
    if is_gsm(body):
        length = sum(2 if ch in GSM_EXTENDED else 1 for ch in body)
        single, part = 160, 153
    else:
        length = sum(2 if ord(ch) > 0xFFFF else 1 for ch in body)
        single, part = 70, 67
    return 1 if length <= single else -(-length // part)


def country_of(number: str) -> str:
    """The ISO country of an E.164 number (the NANP is US except Canadian area codes)."""
    if number.startswith("+1"):
        return "CA" if number[2:5] in CANADIAN_AREA_CODES else "US"
    return next((iso for code, iso in COUNTRY_CODES.items() if number[1:].startswith(code)), "ZZ")


def is_nanp(number: str) -> bool:
    """Whether a number is in the North American plan (+1), where 10DLC registration applies."""
    return number.startswith("+1")


def dollars(amount: int | None) -> str | None:
    """Ten-thousandths of a dollar as Twilio prints prices: `-0.0079`."""
    return None if amount is None else f"{Decimal(amount) / Decimal(10000):.4f}"
