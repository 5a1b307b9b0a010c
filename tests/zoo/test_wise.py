"""The Wise environment's tools on the real seed: connecting with a token, profiles and team roles (owner, payer,
preparer, viewer), balances and jars (one STANDARD per currency, named jars, closing only empty ones), quotes (one of
the two amounts, fee and rate arithmetic, zero-decimal yen, expiry, single use), recipient accounts (sort code, IBAN
check digits and lengths, ACH routing checksum and address, BSB, currencies per type), transfers (references per
payout currency, idempotent customerTransactionId, funding from the balance or REJECTED, cancelling before
conversion with refunds), conversions and jar moves, the activity list and offset/limit paging. Every error path is
checked to leave the state unchanged, and Wise's error shape is checked where the product defines it."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("wise")
CLOCK = datetime(2025, 3, 14, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
TOKENS = {"clara": "9f2c6a1e-4b7d-4c1a-8e3f-2a5b7c9d1e02", "tomas": "c7a3e9f1-2b6d-4a8c-9e4f-1b3d5a7c9e20",
          "priya": "4b8d2f6a-9e1c-4d3b-a7f5-8c2e6a0b4d93", "jonas": "e2f6a0c4-8d2b-4f6e-b1a9-3c7e5d9f1b84"}  # fmt: skip
REVOKED = "1d4e8b2a-7c3f-4e9a-b6d1-5f0a2c8e4b71"
CLARA, STUDIO, LUMEN, TOMAS, PRIYA, JONAS = range(16745201, 16745207)
CTX = "0f8e4c2a-1b3d-4e5f-9a7b-6c8d0e2f4a61"
OTHER = "7d2b9e41-5c6a-4f3e-8b1d-0a9c7e5f3b28"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str = "clara") -> dict[str, Any]:
    return ok(session, "sign_in", {"token": TOKENS[who]}, caller="user")


def recipient(profile: int, name: str, currency: str | None = None) -> int:
    return next(
        r["id"]
        for r in SEED["recipients"]
        if r["profile_id"] == profile and r["account_holder_name"] == name and currency in (None, r["currency"])
    )


def transfer(profile: int, name: str, status: str) -> dict[str, Any]:
    account = {r["id"] for r in SEED["recipients"] if r["profile_id"] == profile and r["account_holder_name"] == name}
    return next(t for t in SEED["transfers"] if t["target_account"] in account and t["status"] == status)


def balance(session: ToolSession, profile: int, currency: str, name: str | None = None) -> dict[str, Any]:
    found = [b for b in ok(session, "list_balances", {"profileId": profile}) if b["currency"] == currency]
    return next(b for b in found if b["name"] == name)


def wise_errors(outcome: Any) -> list[dict[str, Any]]:
    """The {"errors": [...]} body of a failed call."""
    text = outcome.error.split(": ", 2)[-1] if outcome.error.startswith("Error") else outcome.error
    return json.loads(text[text.index("{") :])["errors"]


def quote(session: ToolSession, profile: int = CLARA, **args: Any) -> dict[str, Any]:
    return ok(session, "create_quote", {"profileId": profile, **args})


def send(
    session: ToolSession, account: int, profile: int = CLARA, reference: str = "", ctx: str = CTX, **amounts: Any
) -> dict:
    account_row = next(r for r in SEED["recipients"] if r["id"] == account)
    amounts.setdefault("sourceCurrency", "GBP")
    made = quote(session, profile, targetCurrency=account_row["currency"], targetAccount=account, **amounts)
    return ok(
        session,
        "create_transfer",
        {"targetAccount": account, "quoteUuid": made["id"], "customerTransactionId": ctx, "reference": reference},
    )


# ---------------------------------------------------------------- connecting and roles


def test_tools_need_a_connected_user_and_a_valid_token(session):
    fails(session, "list_profiles", {}, "PermissionDenied", "personal API token")
    fails(session, "sign_in", {"token": REVOKED}, "PermissionDenied", "invalid token", caller="user")
    fails(session, "sign_in", {"token": "not-a-token"}, "PermissionDenied", "invalid token", caller="user")
    me = sign_in(session)
    assert me["name"] == "Clara Hoffmann"
    assert {(p["fullName"], p["role"]) for p in me["profiles"]} == {
        ("Clara Hoffmann", "OWNER"),
        ("Hoffmann Studio Ltd", "OWNER"),
        ("Lumen Bakery Ltd", "PREPARER"),
    }


def test_other_peoples_profiles_and_objects_do_not_exist(session):
    sign_in(session, "jonas")
    fails(session, "list_balances", {"profileId": CLARA}, "NotFound", "Profile")
    fails(session, "get_recipient_account", {"accountId": recipient(CLARA, "Sophie Laurent")}, "NotFound", "Recipient")
    fails(
        session, "get_transfer", {"transferId": transfer(CLARA, "Sophie Laurent", "processing")["id"]}, "NotFound", ""
    )


def test_a_viewer_reads_but_cannot_prepare_or_pay(session):
    sign_in(session, "jonas")
    assert len(ok(session, "list_transfers", {"profileId": STUDIO})["items"]) > 10
    out = fails(
        session,
        "create_quote",
        {"profileId": STUDIO, "sourceCurrency": "GBP", "targetCurrency": "EUR", "sourceAmount": 1000},
        "PermissionDenied",
        "VIEWER",
    )
    assert wise_errors(out)[0]["code"] == "forbidden"
    waiting = transfer(STUDIO, "Amelia Watts", "incoming_payment_waiting")["id"]
    fails(session, "cancel_transfer", {"transferId": waiting}, "PermissionDenied", "VIEWER")


def test_a_preparer_prepares_and_cancels_but_cannot_pay_or_move_money(session):
    sign_in(session)
    made = send(session, recipient(LUMEN, "Sam Patel"), LUMEN, sourceAmount=5000, reference="Deliveries")
    assert made["status"] == "incoming_payment_waiting"
    fails(session, "fund_transfer", {"profileId": LUMEN, "transferId": made["id"]}, "PermissionDenied", "PREPARER")
    oven = balance(session, LUMEN, "GBP", "Oven fund")["id"]
    main = balance(session, LUMEN, "GBP")["id"]
    move = {
        "profileId": LUMEN,
        "sourceBalanceId": oven,
        "targetBalanceId": main,
        "amount": {"value": 100, "currency": "GBP"},
    }
    fails(session, "create_balance_movement", move, "PermissionDenied", "PREPARER")
    assert ok(session, "cancel_transfer", {"transferId": made["id"]})["status"] == "cancelled"


def test_a_payer_pays_but_cannot_open_or_close_balances(session):
    sign_in(session, "priya")
    waiting = transfer(STUDIO, "Amelia Watts", "incoming_payment_waiting")
    assert ok(session, "fund_transfer", {"profileId": STUDIO, "transferId": waiting["id"]})["status"] == "COMPLETED"
    fails(session, "open_balance", {"profileId": STUDIO, "currency": "JPY"}, "PermissionDenied", "PAYER")


# ---------------------------------------------------------------- balances and jars


def test_one_standard_balance_per_currency_and_named_jars(session):
    sign_in(session)
    out = fails(session, "open_balance", {"profileId": CLARA, "currency": "eur"}, "Conflict", "already have a EUR")
    assert wise_errors(out)[0]["code"] == "error.balance.exists"
    fails(session, "open_balance", {"profileId": CLARA, "currency": "GBP", "type": "SAVINGS"}, "InvalidRequest", "name")
    fails(
        session,
        "open_balance",
        {"profileId": CLARA, "currency": "GBP", "type": "SAVINGS", "name": "tax POT"},
        "Conflict",
        "jar with this name",
    )
    fails(session, "open_balance", {"profileId": CLARA, "currency": "JPY", "name": "Yen"}, "InvalidRequest", "jars")
    fails(session, "open_balance", {"profileId": CLARA, "currency": "XYZ"}, "InvalidRequest", "support")
    yen = ok(session, "open_balance", {"profileId": CLARA, "currency": "jpy"})
    assert (yen["currency"], yen["type"], yen["amount"]) == ("JPY", "STANDARD", {"value": 0, "currency": "JPY"})
    jar = ok(session, "open_balance", {"profileId": CLARA, "currency": "EUR", "type": "SAVINGS", "name": "Skis"})
    assert jar["name"] == "Skis"
    assert ok(session, "list_balances", {"profileId": CLARA, "types": ["SAVINGS"]})[-1]["id"] == jar["id"]


def test_only_empty_balances_close_and_closed_ones_disappear(session):
    sign_in(session)
    usd = balance(session, CLARA, "USD")
    out = fails(session, "close_balance", {"profileId": CLARA, "balanceId": usd["id"]}, "Conflict", "empty")
    assert wise_errors(out)[0]["code"] == "error.balance.not.empty"
    pln = balance(session, CLARA, "PLN")
    ok(session, "close_balance", {"profileId": CLARA, "balanceId": pln["id"]})
    assert "PLN" not in {b["currency"] for b in ok(session, "list_balances", {"profileId": CLARA})}
    fails(session, "close_balance", {"profileId": CLARA, "balanceId": pln["id"]}, "NotFound", "Balance")
    assert ok(session, "open_balance", {"profileId": CLARA, "currency": "PLN"})["id"] != pln["id"]


# ---------------------------------------------------------------- quotes


def test_a_quote_takes_exactly_one_amount(session):
    sign_in(session)
    base = {"profileId": CLARA, "sourceCurrency": "GBP", "targetCurrency": "EUR"}
    fails(session, "create_quote", base, "InvalidRequest", "either sourceAmount or targetAmount")
    fails(session, "create_quote", {**base, "sourceAmount": 100, "targetAmount": 100}, "InvalidRequest", "either")
    fails(session, "create_quote", {**base, "sourceAmount": 0}, "invalid_arguments", "sourceAmount")


def test_quote_prices_take_the_fee_from_the_source_and_convert_the_rest(session):
    rate = next(r for r in SEED["rates"] if r["pair"] == "GBP-EUR")
    sign_in(session)
    by_source = quote(session, sourceCurrency="GBP", targetCurrency="EUR", sourceAmount=100000)
    fee = rate["fixed_fee"] + round(100000 * rate["fee_percent"] / 100)
    assert by_source["fee"] == {"value": fee, "currency": "GBP"}
    assert by_source["targetAmount"] == round((100000 - fee) * rate["rate"])
    by_target = quote(session, sourceCurrency="GBP", targetCurrency="EUR", targetAmount=by_source["targetAmount"])
    assert abs(by_target["sourceAmount"] - 100000) <= 2 and by_target["providedAmountType"] == "TARGET"
    same = quote(session, sourceCurrency="GBP", targetCurrency="GBP", sourceAmount=5000)
    assert (same["fee"]["value"], same["targetAmount"]) == (0, 5000)
    yen = quote(session, sourceCurrency="GBP", targetCurrency="JPY", sourceAmount=10000)
    gbp_jpy = next(r for r in SEED["rates"] if r["pair"] == "GBP-JPY")
    assert yen["targetAmount"] == round((10000 - yen["fee"]["value"]) * gbp_jpy["rate"] / 100)
    assert yen["expirationTime"] > yen["createdTime"] and yen["status"] == "PENDING"


def test_expired_and_used_quotes_cannot_make_transfers(session):
    sign_in(session)
    stale = next(q for q in SEED["quotes"] if q["status"] == "PENDING" and q["profile_id"] == CLARA)
    assert ok(session, "get_quote", {"profileId": CLARA, "quoteId": stale["id"]})["status"] == "EXPIRED"
    sophie = recipient(CLARA, "Sophie Laurent")
    args = {"targetAccount": sophie, "quoteUuid": stale["id"], "customerTransactionId": CTX}
    out = fails(session, "create_transfer", args, "Conflict", "expired")
    assert wise_errors(out)[0] == {
        "code": "error.quote.expired",
        "message": out.error.split('"message": "')[1].split('"')[0],
        "path": "quoteUuid",
    }
    made = send(session, sophie, sourceAmount=2000)
    again = {
        "targetAccount": sophie,
        "quoteUuid": made["quoteUuid"],
        "customerTransactionId": CTX.replace("0f8e", "1f8e"),
    }
    fails(session, "create_transfer", again, "Conflict", "already been used")
    fails(
        session,
        "update_quote",
        {"profileId": CLARA, "quoteId": made["quoteUuid"], "targetAccount": sophie},
        "Conflict",
        "used",
    )


def test_a_quote_for_a_recipient_must_match_its_currency_profile_and_state(session):
    sign_in(session)
    base = {"profileId": CLARA, "sourceCurrency": "GBP", "sourceAmount": 1000}
    fails(
        session,
        "create_quote",
        {**base, "targetCurrency": "USD", "targetAccount": recipient(CLARA, "Sophie Laurent")},
        "InvalidRequest",
        "receives EUR",
    )
    fails(
        session,
        "create_quote",
        {**base, "targetCurrency": "EUR", "targetAccount": recipient(STUDIO, "Pixelforge GmbH")},
        "InvalidRequest",
        "another profile",
    )
    fails(
        session,
        "create_quote",
        {**base, "targetCurrency": "GBP", "targetAccount": recipient(CLARA, "Thames Climbing Club")},
        "InvalidRequest",
        "deleted",
    )
    made = quote(session, sourceCurrency="GBP", targetCurrency="EUR", sourceAmount=1000)
    updated = ok(
        session,
        "update_quote",
        {"profileId": CLARA, "quoteId": made["id"], "targetAccount": recipient(CLARA, "Sophie Laurent")},
    )
    assert updated["targetAccount"] == recipient(CLARA, "Sophie Laurent")


# ---------------------------------------------------------------- recipients


def _add(session: ToolSession, **args: Any) -> Any:
    return session.call("create_recipient_account", {"profileId": CLARA, "accountHolderName": "Jan Kowalski", **args})


def test_bank_identifiers_are_checked_with_the_fields_path(session):
    sign_in(session)
    checking = {"accountNumber": "12345678", "accountType": "CHECKING"}
    uk = {"currency": "GBP", "type": "sort_code"}
    eur = {"currency": "EUR", "type": "iban"}
    cases = [
        ({**uk, "details": {"sortCode": "40-12", "accountNumber": "12345678"}}, "details.sortCode"),
        ({**uk, "details": {"sortCode": "401276"}}, "details.accountNumber"),
        ({**eur, "details": {"IBAN": "DE89370400440532013001"}}, "details.IBAN"),
        ({**eur, "details": {"IBAN": "DE8937040044053201300"}}, "details.IBAN"),
        ({**eur, "details": {"IBAN": "DE89370400440532013000", "BIC": "COBA"}}, "details.BIC"),
        ({"currency": "USD", "type": "aba", "details": {"abartn": "026009594", **checking}}, "details.abartn"),
        ({"currency": "USD", "type": "aba", "details": {"abartn": "026009593", **checking}}, "details.address.country"),
        (
            {"currency": "AUD", "type": "australian", "details": {"bsbCode": "0620", "accountNumber": "1234"}},
            "details.bsbCode",
        ),
        (
            {"currency": "USD", "type": "sort_code", "details": {"sortCode": "401276", "accountNumber": "12345678"}},
            "currency",
        ),
    ]
    for args, path in cases:
        before = session.dump()
        outcome = _add(session, **args)
        assert not outcome.ok and outcome.error_kind == "InvalidRequest", (args, outcome.error)
        assert wise_errors(outcome)[0]["path"] == path and wise_errors(outcome)[0]["code"] == "NOT_VALID"
        assert session.dump() == before
    fails(
        session,
        "create_recipient_account",
        {"profileId": CLARA, "accountHolderName": "Jan", "currency": "GBP", "type": "sort_code", "details": {}},
        "invalid_arguments",
        "accountHolderName",
    )


def test_valid_accounts_are_stored_normalised_and_summarised(session):
    sign_in(session)
    made = ok(
        session,
        "create_recipient_account",
        {
            "profileId": CLARA,
            "accountHolderName": "Jan  Kowalski",
            "currency": "EUR",
            "type": "iban",
            "details": {"IBAN": "de89 3704 0044 0532 0130 00"},
        },
    )
    assert made["details"] == {"IBAN": "DE89370400440532013000"} and made["country"] == "DE"
    assert made["accountHolderName"] == "Jan Kowalski" and made["accountSummary"] == "DE89 **** 3000"
    address = {"country": "US", "city": "Brooklyn", "firstLine": "88 Grand St", "postCode": "11211"}
    us = ok(
        session,
        "create_recipient_account",
        {
            "profileId": CLARA,
            "accountHolderName": "Maya Torres",
            "currency": "USD",
            "type": "aba",
            "details": {
                "abartn": "026009593",
                "accountNumber": "441722903",
                "accountType": "CHECKING",
                "address": address,
            },
        },
    )
    assert us["country"] == "US" and us["details"]["address"]["city"] == "Brooklyn"
    uk = ok(
        session,
        "create_recipient_account",
        {
            "profileId": CLARA,
            "accountHolderName": "Ann Lee",
            "currency": "GBP",
            "type": "sort_code",
            "details": {"sortCode": "30-94-57", "accountNumber": "41893020"},
        },
    )
    assert uk["accountSummary"] == "(30-94-57) 41893020"
    listed = ok(session, "list_recipient_accounts", {"profileId": CLARA, "currency": "USD"})
    assert {r["accountHolderName"] for r in listed["items"]} == {"Daniel Kim", "Maya Torres"}
    requirements = ok(session, "get_account_requirements", {"currency": "GBP"})
    assert {r["type"] for r in requirements} == {"sort_code", "iban"}
    fails(session, "get_account_requirements", {"currency": "JPY"}, "InvalidRequest", "JPY")


def test_deleted_recipients_leave_the_list_and_cannot_be_deleted_twice(session):
    sign_in(session)
    kimball = recipient(CLARA, "Daniel Kimball")
    ok(session, "deactivate_recipient_account", {"accountId": kimball})
    names = {r["accountHolderName"] for r in ok(session, "list_recipient_accounts", {"profileId": CLARA})["items"]}
    assert "Daniel Kimball" not in names and "Thames Climbing Club" not in names and "Daniel Kim" in names
    fails(session, "deactivate_recipient_account", {"accountId": kimball}, "Conflict", "already been deleted")
    assert ok(session, "get_recipient_account", {"accountId": kimball})["active"] is False


# ---------------------------------------------------------------- transfers


def test_references_are_limited_by_the_payout_currency(session):
    sign_in(session)
    harrow = recipient(CLARA, "Harrow Lettings Ltd")
    made = quote(session, sourceCurrency="GBP", targetCurrency="GBP", sourceAmount=1000, targetAccount=harrow)
    args = {"targetAccount": harrow, "quoteUuid": made["id"], "customerTransactionId": CTX, "reference": "R" * 19}
    out = fails(session, "create_transfer", args, "InvalidRequest", "at most 18 characters for GBP")
    assert wise_errors(out)[0]["path"] == "reference"
    assert ok(session, "create_transfer", {**args, "reference": "R" * 18})["reference"] == "R" * 18
    assert (
        send(session, recipient(CLARA, "Sophie Laurent"), sourceAmount=1000, reference="E" * 35, ctx=OTHER)["reference"]
        == "E" * 35
    )


def test_customer_transaction_id_makes_transfer_creation_idempotent(session):
    sign_in(session)
    first = send(session, recipient(CLARA, "Sophie Laurent"), sourceAmount=2500)
    before = session.dump()
    other = quote(session, sourceCurrency="GBP", targetCurrency="EUR", sourceAmount=9999)
    repeat = ok(
        session,
        "create_transfer",
        {
            "targetAccount": recipient(CLARA, "Sophie Laurent"),
            "quoteUuid": other["id"],
            "customerTransactionId": CTX.upper(),
        },
    )
    assert repeat["id"] == first["id"] and repeat["sourceValue"] == 2500
    assert len(session.dump()["transfers"]) == len(before["transfers"])


def test_a_quote_made_for_one_recipient_cannot_pay_another(session):
    sign_in(session)
    made = quote(
        session,
        sourceCurrency="GBP",
        targetCurrency="EUR",
        sourceAmount=2000,
        targetAccount=recipient(CLARA, "Sophie Laurent"),
    )
    args = {"targetAccount": recipient(CLARA, "Nora Lindqvist"), "quoteUuid": made["id"], "customerTransactionId": CTX}
    fails(session, "create_transfer", args, "InvalidRequest", "different recipient")


def test_funding_debits_the_source_balance_or_is_rejected_without_change(session):
    sign_in(session)
    gbp = balance(session, CLARA, "GBP")["amount"]["value"]
    made = send(session, recipient(CLARA, "Sophie Laurent"), sourceAmount=10000, reference="Dinner")
    paid = ok(session, "fund_transfer", {"profileId": CLARA, "transferId": made["id"]})
    assert paid == {
        "type": "BALANCE",
        "status": "COMPLETED",
        "errorCode": None,
        "balanceId": balance(session, CLARA, "GBP")["id"],
    }
    assert balance(session, CLARA, "GBP")["amount"]["value"] == gbp - 10000
    assert ok(session, "get_transfer", {"transferId": made["id"]})["status"] == "processing"
    assert ok(session, "get_quote", {"profileId": CLARA, "quoteId": made["quoteUuid"]})["status"] == "FUNDED"
    entry = ok(session, "list_activities", {"profileId": CLARA, "limit": 1})["items"][0]
    assert (entry["type"], entry["title"], entry["primaryAmount"]["value"], entry["status"]) == (
        "TRANSFER",
        "To Sophie Laurent",
        -10000,
        "PENDING",
    )
    fails(session, "fund_transfer", {"profileId": CLARA, "transferId": made["id"]}, "Conflict", "processing")
    big = send(session, recipient(CLARA, "Daniel Kim"), sourceCurrency="USD", targetAmount=20000, ctx=OTHER)
    before = session.dump()
    rejected = ok(session, "fund_transfer", {"profileId": CLARA, "transferId": big["id"]})
    assert rejected["status"] == "REJECTED" and rejected["errorCode"] == "transfer.insufficient_funds"
    assert {k: v for k, v in session.dump().items() if k != "sessions"} == {
        k: v for k, v in before.items() if k != "sessions"
    }
    fails(session, "fund_transfer", {"profileId": STUDIO, "transferId": big["id"]}, "NotFound", "Transfer")


def test_cancelling_before_conversion_refunds_and_after_conversion_is_refused(session):
    sign_in(session)
    gbp = balance(session, CLARA, "GBP")["amount"]["value"]
    waiting = transfer(CLARA, "Marta Nowak", "incoming_payment_waiting")
    assert ok(session, "cancel_transfer", {"transferId": waiting["id"]})["status"] == "cancelled"
    assert balance(session, CLARA, "GBP")["amount"]["value"] == gbp
    sophie = transfer(CLARA, "Sophie Laurent", "processing")
    assert ok(session, "cancel_transfer", {"transferId": sophie["id"]})["status"] == "funds_refunded"
    assert balance(session, CLARA, "GBP")["amount"]["value"] == gbp + sophie["source_value"]
    refunded = [
        a
        for a in ok(session, "list_activities", {"profileId": CLARA, "status": "REFUNDED"})["items"]
        if a["resource"]["id"] == str(sophie["id"])
    ]
    assert len(refunded) == 1
    for done in (
        transfer(CLARA, "Daniel Kim", "funds_converted"),
        transfer(CLARA, "Harrow Lettings Ltd", "bounced_back"),
    ):
        out = fails(session, "cancel_transfer", {"transferId": done["id"]}, "Conflict", "no longer be cancelled")
        assert wise_errors(out)[0]["code"] == "transfer.cancellation.not.allowed"
    fails(session, "cancel_transfer", {"transferId": waiting["id"]}, "Conflict", "cancelled")


def test_transfer_lists_filter_by_status_currency_and_date_newest_first(session):
    sign_in(session)
    waiting = ok(session, "list_transfers", {"profileId": STUDIO, "status": ["incoming_payment_waiting"]})
    assert {t["reference"] for t in waiting["items"]} == {"INV0387", "Feb retainer"}
    moving = ok(session, "list_transfers", {"profileId": CLARA, "status": ["processing", "funds_converted"]})
    assert {(t["reference"], t["status"]) for t in moving["items"]} == {
        ("Concert tickets", "processing"),
        ("Bike share", "funds_converted"),
    }
    feb = ok(
        session,
        "list_transfers",
        {"profileId": STUDIO, "createdDateStart": "2025-02-01", "createdDateEnd": "2025-02-28"},
    )
    assert feb["items"] and all("2025-02-01" <= t["created"][:10] <= "2025-02-28" for t in feb["items"])
    usd = ok(session, "list_transfers", {"profileId": STUDIO, "targetCurrency": "usd"})
    assert all(t["targetCurrency"] == "USD" for t in usd["items"])
    everything = ok(session, "list_transfers", {"profileId": CLARA})
    created = [t["created"] for t in everything["items"]]
    assert created == sorted(created, reverse=True)
    second = ok(session, "list_transfers", {"profileId": CLARA, "offset": 5, "limit": 5})
    assert [t["id"] for t in second["items"]] == [t["id"] for t in everything["items"][5:10]]
    assert second["hasMore"] and (second["offset"], second["limit"]) == (5, 5)
    assert not everything["hasMore"] and len(everything["items"]) < 100
    last = ok(session, "list_transfers", {"profileId": CLARA, "offset": len(everything["items"]) - 2, "limit": 2})
    assert len(last["items"]) == 2 and not last["hasMore"]
    fails(session, "list_transfers", {"profileId": CLARA, "limit": 201}, "invalid_arguments", "limit")


# ---------------------------------------------------------------- conversions and jars


def test_conversions_need_a_pending_quote_without_recipient_and_both_balances(session):
    sign_in(session)
    gbp, eur = balance(session, CLARA, "GBP")["amount"]["value"], balance(session, CLARA, "EUR")["amount"]["value"]
    made = quote(session, sourceCurrency="GBP", targetCurrency="EUR", sourceAmount=20000)
    moved = ok(session, "create_balance_movement", {"profileId": CLARA, "quoteId": made["id"]})
    assert moved["type"] == "CONVERSION" and moved["targetAmount"] == {"value": made["targetAmount"], "currency": "EUR"}
    assert balance(session, CLARA, "GBP")["amount"]["value"] == gbp - 20000
    assert balance(session, CLARA, "EUR")["amount"]["value"] == eur + made["targetAmount"]
    fails(
        session, "create_balance_movement", {"profileId": CLARA, "quoteId": made["id"]}, "Conflict", "already been used"
    )
    yen = quote(session, sourceCurrency="GBP", targetCurrency="JPY", sourceAmount=1000)
    out = fails(
        session, "create_balance_movement", {"profileId": CLARA, "quoteId": yen["id"]}, "Conflict", "Open a JPY balance"
    )
    assert wise_errors(out)[0]["code"] == "error.balance.not.found"
    paying = quote(
        session,
        sourceCurrency="GBP",
        targetCurrency="EUR",
        sourceAmount=1000,
        targetAccount=recipient(CLARA, "Sophie Laurent"),
    )
    fails(
        session,
        "create_balance_movement",
        {"profileId": CLARA, "quoteId": paying["id"]},
        "InvalidRequest",
        "for a transfer",
    )
    much = quote(session, sourceCurrency="USD", targetCurrency="GBP", sourceAmount=15001)
    fails(
        session, "create_balance_movement", {"profileId": CLARA, "quoteId": much["id"]}, "Conflict", "Not enough money"
    )


def test_jar_moves_stay_in_one_currency_between_a_balance_and_its_jar(session):
    sign_in(session)
    main, jar = balance(session, CLARA, "GBP"), balance(session, CLARA, "GBP", "Tax pot")
    eur, eur_jar = balance(session, CLARA, "EUR"), balance(session, CLARA, "EUR", "Emergency")
    gbp = {"value": 5000, "currency": "GBP"}
    moved = ok(
        session,
        "create_balance_movement",
        {"profileId": CLARA, "sourceBalanceId": main["id"], "targetBalanceId": jar["id"], "amount": gbp},
    )
    assert (
        moved["type"] == "DEPOSIT"
        and balance(session, CLARA, "GBP", "Tax pot")["amount"]["value"] == jar["amount"]["value"] + 5000
    )
    back = ok(
        session,
        "create_balance_movement",
        {"profileId": CLARA, "sourceBalanceId": jar["id"], "targetBalanceId": main["id"], "amount": gbp},
    )
    assert back["type"] == "WITHDRAWAL"
    fails(
        session,
        "create_balance_movement",
        {"profileId": CLARA, "sourceBalanceId": main["id"], "targetBalanceId": eur_jar["id"], "amount": gbp},
        "InvalidRequest",
        "same currency",
    )
    fails(
        session,
        "create_balance_movement",
        {
            "profileId": CLARA,
            "sourceBalanceId": jar["id"],
            "targetBalanceId": balance(session, CLARA, "GBP", "Lisbon trip")["id"],
            "amount": gbp,
        },
        "InvalidRequest",
        "one of its jars",
    )
    fails(
        session,
        "create_balance_movement",
        {
            "profileId": CLARA,
            "sourceBalanceId": eur_jar["id"],
            "targetBalanceId": eur["id"],
            "amount": {"value": 50001, "currency": "EUR"},
        },
        "Conflict",
        "Not enough money",
    )
    fails(
        session,
        "create_balance_movement",
        {"profileId": CLARA, "sourceBalanceId": main["id"], "targetBalanceId": jar["id"]},
        "InvalidRequest",
        "Give a quoteId",
    )
    fails(
        session,
        "create_balance_movement",
        {
            "profileId": CLARA,
            "sourceBalanceId": main["id"],
            "targetBalanceId": balance(session, STUDIO, "GBP")["id"],
            "amount": gbp,
        },
        "NotFound",
        "Balance",
    )


def test_activities_filter_by_time_and_status_and_page_with_offset(session):
    sign_in(session)
    feb = ok(
        session,
        "list_activities",
        {"profileId": LUMEN, "since": "2025-02-01T00:00:00Z", "until": "2025-03-01T00:00:00Z", "limit": 100},
    )
    assert feb["items"] and all("2025-02" in a["createdOn"][:7] for a in feb["items"])
    takings = [a for a in feb["items"] if a["title"] == "From Square payouts"]
    assert len(takings) == 1 and takings[0]["primaryAmount"]["value"] > 0
    pending = ok(session, "list_activities", {"profileId": CLARA, "status": "PENDING", "limit": 100})
    assert pending["items"] and all(a["status"] == "PENDING" for a in pending["items"])
    page = ok(session, "list_activities", {"profileId": CLARA, "offset": 10_000})
    assert page["items"] == [] and not page["hasMore"]
    first = ok(session, "list_activities", {"profileId": CLARA, "limit": 3})
    assert len(first["items"]) == 3 and first["hasMore"]
    fails(session, "list_activities", {"profileId": CLARA, "since": "last tuesday"}, "InvalidRequest", "since")


def test_exchange_rates_come_from_the_seed_for_supported_routes(session):
    sign_in(session)
    rate = ok(session, "get_exchange_rate", {"source": "gbp", "target": "EUR"})
    assert rate["rate"] == next(r["rate"] for r in SEED["rates"] if r["pair"] == "GBP-EUR")
    out = fails(session, "get_exchange_rate", {"source": "GBP", "target": "RUB"}, "InvalidRequest", "don't support")
    assert wise_errors(out)[0]["code"] == "error.route.not.supported"
