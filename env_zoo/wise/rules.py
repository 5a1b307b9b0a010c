"""Wise's business rules: its error shape, quote pricing and expiry, the transfer state machine, and the fields each
recipient account type requires, with their checks (sort code and account number, IBAN check digits, ABA routing
number checksum, BSB)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError
from envfactory_gym.values import ZERO_DECIMAL, parse_timestamp

from .schema import rates

QUOTE_LIFETIME = timedelta(minutes=30)
#: Transfers can be cancelled until Wise converts the funds.
CANCELLABLE = ("incoming_payment_waiting", "processing")
FINAL = ("outgoing_payment_sent", "cancelled", "funds_refunded", "bounced_back")
#: Which currencies each recipient account type pays out in.
TYPE_CURRENCIES = {
    "sort_code": ("GBP",),
    "iban": ("EUR", "GBP", "CHF", "PLN"),
    "aba": ("USD",),
    "australian": ("AUD",),
}
#: The details each account type needs: (title, [(key, name, required, example)]).
REQUIREMENTS: dict[str, tuple[str, list[tuple[str, str, bool, str]]]] = {
    "sort_code": (
        "Local bank account (sort code)",
        [("sortCode", "UK sort code", True, "040075"), ("accountNumber", "Account number", True, "37778842")],
    ),
    "iban": (
        "IBAN",
        [("IBAN", "IBAN", True, "DE89370400440532013000"), ("BIC", "BIC / SWIFT", False, "COBADEFFXXX")],
    ),
    "aba": (
        "ACH (routing and account number)",
        [
            ("abartn", "ACH routing number", True, "026009593"),
            ("accountNumber", "Account number", True, "12345678"),
            ("accountType", "Account type", True, "CHECKING"),
            ("address", "Address", True, "country, city, firstLine, postCode (and state)"),
        ],
    ),
    "australian": (
        "Local bank account (BSB)",
        [("bsbCode", "BSB code", True, "062000"), ("accountNumber", "Account number", True, "12345678")],
    ),
}
#: IBAN lengths of the countries the seed's routes reach.
IBAN_LENGTHS = {
    "AT": 20, "BE": 16, "CH": 21, "DE": 22, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "IE": 22, "IT": 27,
    "LU": 20, "NL": 18, "PL": 28, "PT": 25,
}  # fmt: skip


def wise_error(kind: type[ToolError], code: str, message: str, path: str | None = None) -> ToolError:
    """An error in Wise's shape, {"errors": [{"code", "message", "path"}]}, as the tool error's text."""
    error: dict[str, Any] = {"code": code, "message": message}
    if path is not None:
        error["path"] = path
    return kind(json.dumps({"errors": [error]}))


def exponent(currency: str) -> int:
    """Decimal places of a currency's minor unit."""
    return 0 if currency in ZERO_DECIMAL else 2


def route(db: Database, source: str, target: str) -> dict[str, Any]:
    """The rate row for a currency pair; Wise refuses routes it does not support."""
    try:
        return db.get(rates, f"{source}-{target}")
    except NotFound:
        raise wise_error(
            InvalidRequest, "error.route.not.supported", f"We don't support {source} to {target}.", "targetCurrency"
        ) from None


def price(rate_row: dict[str, Any], source_amount: int | None, target_amount: int | None) -> tuple[int, int, int]:
    """(source amount, target amount, fee) in minor units: the fee (fixed plus a percentage of the amount sent) is
    taken from the source amount and the rest converted at the mid-market rate, rounded to the minor unit; for a
    target amount, the source amount is the one whose converted remainder pays it."""
    scale = 10 ** (exponent(rate_row["target"]) - exponent(rate_row["source"]))
    rate, percent, fixed = rate_row["rate"], rate_row["fee_percent"], rate_row["fixed_fee"]
    if source_amount is not None:
        fee = fixed + round(source_amount * percent / 100)
        if fee >= source_amount:
            raise wise_error(
                InvalidRequest, "error.sourceAmount.too.low", "The amount is too low to cover the fee.", "sourceAmount"
            )
        return source_amount, round((source_amount - fee) * rate * scale), fee
    assert target_amount is not None
    converted = round(target_amount / rate / scale)
    paid = round((converted + fixed) / (1 - percent / 100))
    return paid, target_amount, paid - converted


def quote_status(db: Database, quote: dict[str, Any]) -> str:
    """A quote's status now: a PENDING quote past its expiration time reads EXPIRED."""
    if quote["status"] == "PENDING" and parse_timestamp(quote["expiration_time"], "expirationTime") <= db.now():
        return "EXPIRED"
    return str(quote["status"])


def usable_quote(db: Database, quote: dict[str, Any]) -> None:
    """A quote can be used once, before it expires."""
    status = quote_status(db, quote)
    if status == "EXPIRED":
        raise wise_error(
            Conflict, "error.quote.expired", "This quote has expired. Please create a new one.", "quoteUuid"
        )
    if status != "PENDING":
        raise wise_error(Conflict, "error.quote.used", "This quote has already been used.", "quoteUuid")


def _digits(value: str) -> str:
    return re.sub(r"[\s-]", "", value)


def iban_valid(iban: str) -> bool:
    """Country length and ISO 7064 mod-97 check digits."""
    iban = _digits(iban).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", iban) or IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def aba_valid(routing: str) -> bool:
    """Nine digits whose weighted sum (3, 7, 1) is a multiple of ten."""
    if not re.fullmatch(r"\d{9}", routing):
        return False
    weights = (3, 7, 1) * 3
    return sum(int(d) * w for d, w in zip(routing, weights)) % 10 == 0


def _require(details: dict[str, Any], field: str, message: str) -> str:
    value = details.get(field)
    if not value:
        raise wise_error(InvalidRequest, "NOT_VALID", message, f"details.{field}")
    return str(value)


def recipient_details(account_type: str, currency: str, details: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The details Wise stores for an account type, checked, and the bank's country; refuses what is wrong with the
    field's path, as Wise's account requirements do."""
    if currency not in TYPE_CURRENCIES[account_type]:
        raise wise_error(
            InvalidRequest, "NOT_VALID", f"Account type {account_type} can't receive {currency}.", "currency"
        )
    if account_type == "sort_code":
        sort_code = _digits(_require(details, "sortCode", "Please specify a sort code."))
        number = _digits(_require(details, "accountNumber", "Please specify an account number."))
        if not re.fullmatch(r"\d{6}", sort_code):
            raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid sort code.", "details.sortCode")
        if not re.fullmatch(r"\d{8}", number):
            raise wise_error(
                InvalidRequest, "NOT_VALID", "Please specify a valid account number.", "details.accountNumber"
            )
        return {"sortCode": sort_code, "accountNumber": number}, "GB"
    if account_type == "iban":
        iban = _digits(_require(details, "IBAN", "Please specify an IBAN.")).upper()
        if not iban_valid(iban):
            raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid IBAN.", "details.IBAN")
        kept: dict[str, Any] = {"IBAN": iban}
        if details.get("BIC"):
            bic = str(details["BIC"]).upper()
            if not re.fullmatch(r"[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?", bic):
                raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid BIC.", "details.BIC")
            kept["BIC"] = bic
        return kept, iban[:2]
    if account_type == "aba":
        routing = _require(details, "abartn", "Please specify a routing number.")
        number = _require(details, "accountNumber", "Please specify an account number.")
        account_kind = _require(details, "accountType", "Please choose CHECKING or SAVINGS.")
        address = details.get("address") or {}
        if not aba_valid(routing):
            raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid routing number.", "details.abartn")
        if not re.fullmatch(r"\d{4,17}", number):
            raise wise_error(
                InvalidRequest, "NOT_VALID", "Please specify a valid account number.", "details.accountNumber"
            )
        for part in ("country", "city", "firstLine", "postCode"):
            if not address.get(part):
                raise wise_error(
                    InvalidRequest, "NOT_VALID", "Please enter the recipient's address.", f"details.address.{part}"
                )
        return {"abartn": routing, "accountNumber": number, "accountType": account_kind, "address": address}, "US"
    bsb = _digits(_require(details, "bsbCode", "Please specify a BSB code."))
    number = _require(details, "accountNumber", "Please specify an account number.")
    if not re.fullmatch(r"\d{6}", bsb):
        raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid BSB code.", "details.bsbCode")
    if not re.fullmatch(r"\d{5,9}", number):
        raise wise_error(InvalidRequest, "NOT_VALID", "Please specify a valid account number.", "details.accountNumber")
    return {"bsbCode": bsb, "accountNumber": number}, "AU"


def account_summary(account_type: str, details: dict[str, Any]) -> str:
    """How Wise summarises an account in lists: the bank identifiers with all but the last digits hidden."""
    if account_type == "sort_code":
        code = details["sortCode"]
        return f"({code[:2]}-{code[2:4]}-{code[4:]}) {details['accountNumber']}"
    if account_type == "iban":
        return f"{details['IBAN'][:4]} **** {details['IBAN'][-4:]}"
    if account_type == "aba":
        return f"{details['abartn']} ****{details['accountNumber'][-4:]}"
    return f"BSB {details['bsbCode'][:3]}-{details['bsbCode'][3:]} {details['accountNumber']}"
