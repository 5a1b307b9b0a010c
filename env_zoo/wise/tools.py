"""Wise Platform API tools as a connected user sees them: their profiles (personal and business), multi-currency
balances and jars, exchange rates, quotes, recipient accounts, transfers and their funding, conversions between
balances, and the activity list; plus the user's own connection with a personal API token."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import CurrencyCode, IsoDate, IsoTimestamp, NonBlankText, PageSize
from envfactory_gym.values import iso_timestamp, parse_timestamp

from . import rules
from .access import my_profile_ids, profile_for, role, signed_in
from .ledger import credit, debit, next_id, owned_balance, record, set_activity_status, standard_balance
from .movements import convert, move
from .objects import (
    AccountRequirement,
    Activity,
    Balance,
    BalanceMovement,
    Funding,
    Me,
    OffsetPage,
    Profile,
    Quote,
    Rate,
    Recipient,
    RequirementField,
    Transfer,
    activity_object,
    balance_object,
    movement_object,
    page,
    profile_object,
    quote_object,
    recipient_object,
    transfer_object,
)
from .schema import (
    activities,
    balances,
    profiles,
    quotes,
    recipients,
    sessions,
    tokens,
    transfers,
    users,
)

BalanceType = Literal["STANDARD", "SAVINGS"]
AccountType = Literal["sort_code", "iban", "aba", "australian"]
TransferStatus = Literal[
    "incoming_payment_waiting",
    "processing",
    "funds_converted",
    "outgoing_payment_sent",
    "cancelled",
    "funds_refunded",
    "bounced_back",
]
ActivityStatus = Literal["COMPLETED", "PENDING", "CANCELLED", "REFUNDED"]
MinorAmount = Annotated[int, Field(ge=1, description="minor units: pence, cents, whole yen")]
Offset = Annotated[int, Field(ge=0)]
TransferPageSize = Annotated[int, Field(ge=1, le=200)]
Uuid = Annotated[str, Field(pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
#: How long a reference each payout currency's banks carry.
REFERENCE_LIMITS = {"GBP": 18, "USD": 10, "AUD": 18}
REFERENCE_DEFAULT_LIMIT = 35


class Address(BaseModel):
    """A recipient's address (needed for USD ACH accounts)."""

    country: Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
    city: NonBlankText
    firstLine: NonBlankText
    postCode: NonBlankText
    state: str | None = None


class AccountDetails(BaseModel):
    """Bank details; which fields are needed depends on the account type (see get_account_requirements)."""

    sortCode: str | None = Field(default=None, description="sort_code: 6 digits")
    accountNumber: str | None = Field(default=None, description="sort_code: 8 digits; aba: 4-17; australian: 5-9")
    IBAN: str | None = Field(default=None, description="iban")
    BIC: str | None = Field(default=None, description="iban, optional")
    abartn: str | None = Field(default=None, description="aba: the 9-digit ACH routing number")
    accountType: Literal["CHECKING", "SAVINGS"] | None = Field(default=None, description="aba")
    address: Address | None = Field(default=None, description="aba")
    bsbCode: str | None = Field(default=None, description="australian: 6 digits")


class Money(BaseModel):
    """An amount to move: value in minor units and its currency."""

    value: MinorAmount
    currency: CurrencyCode


# ---------------------------------------------------------------- helpers


def _quote(db: Database, profile_id: int, quote_id: str) -> dict[str, Any]:
    quote = db.get(quotes, quote_id, "Quote")
    if quote["profile_id"] != profile_id:
        raise NotFound(f"Quote '{quote_id}' not found")
    return quote


def _recipient(db: Database, account_id: int) -> dict[str, Any]:
    """A recipient account of one of the user's profiles."""
    row = db.get(recipients, account_id, "Recipient account")
    if role(db, signed_in(db), row["profile_id"]) is None:
        raise NotFound(f"Recipient account '{account_id}' not found")
    return row


def _transfer(db: Database, transfer_id: int) -> dict[str, Any]:
    """A transfer of one of the user's profiles."""
    row = db.get(transfers, transfer_id, "Transfer")
    if role(db, signed_in(db), row["profile_id"]) is None:
        raise NotFound(f"Transfer '{transfer_id}' not found")
    return row


def _currency(code: str) -> str:
    return code.strip().upper()


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, token: NonBlankText) -> Me:
    """(User only) The user connects their Wise account by giving the assistant a personal API token (Settings >
    API tokens); the assistant then acts for the profiles the user may act for.

    Args:
        token: The personal API token, a UUID.
    """
    found = db.find(tokens, token=token.strip())
    if not found or found[0]["revoked"]:
        raise PermissionDenied("Unauthorized: invalid token.")
    db.start_session(sessions, user_id=found[0]["user_id"])
    return _me(db)


def _me(db: Database) -> Me:
    user = db.get(users, signed_in(db), "User")
    listed = [profile_object(db.get(profiles, pid), role(db, user["id"], pid) or "") for pid in my_profile_ids(db)]
    return Me(id=user["id"], name=user["name"], email=user["email"], profiles=listed)


# ---------------------------------------------------------------- profiles and balances


@tool(read_only=True)
def list_profiles(db: Database) -> list[Profile]:
    """List the profiles the connected user may act for (their personal profile and businesses whose team they are
    on), with their role on each. Every other call names one of these profiles."""
    return _me(db).profiles


@tool(read_only=True)
def list_balances(
    db: Database, profileId: int, types: Annotated[list[BalanceType], Unordered] | None = None
) -> list[Balance]:
    """List a profile's open balances: one STANDARD balance per currency and any SAVINGS jars.

    Args:
        profileId: The profile.
        types: Which balance types to list (default both).
    """
    profile_for(db, profileId)
    wanted = set(types or ("STANDARD", "SAVINGS"))
    rows = db.find(balances, profile_id=profileId, closed=False)
    return [balance_object(b) for b in rows if b["type"] in wanted]


@tool()
def open_balance(
    db: Database,
    profileId: int,
    currency: CurrencyCode,
    type: BalanceType = "STANDARD",
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None,
) -> Balance:
    """Open a balance: a STANDARD balance in a currency the profile has none in yet, or a named SAVINGS jar.

    Args:
        profileId: The profile.
        currency: The balance's currency, e.g. EUR.
        type: STANDARD (one per currency) or SAVINGS (a jar; needs a name).
        name: The jar's name (SAVINGS only).
    """
    profile_for(db, profileId, "manage")
    currency = _currency(currency)
    rules.route(db, currency, currency)
    if type == "STANDARD":
        if name is not None:
            raise rules.wise_error(InvalidRequest, "NOT_VALID", "Only jars have a name.", "name")
        if standard_balance(db, profileId, currency):
            raise rules.wise_error(
                Conflict, "error.balance.exists", f"You already have a {currency} balance.", "currency"
            )
    else:
        if not name or not name.strip():
            raise rules.wise_error(InvalidRequest, "NOT_VALID", "Please give your jar a name.", "name")
        taken = {b["name"].lower() for b in db.find(balances, profile_id=profileId, type="SAVINGS", closed=False)}
        if name.strip().lower() in taken:
            raise rules.wise_error(Conflict, "error.balance.exists", "You already have a jar with this name.", "name")
    now = db.now_iso()
    row = db.insert(
        balances,
        id=next_id(db, balances),
        profile_id=profileId,
        currency=currency,
        type=type,
        name=name.strip() if name else None,
        amount=0,
        reserved=0,
        visible=True,
        closed=False,
        creation_time=now,
        modification_time=now,
    )
    return balance_object(row)


@tool()
def close_balance(db: Database, profileId: int, balanceId: int) -> Balance:
    """Close an empty balance or jar (move or convert its money out first).

    Args:
        profileId: The profile.
        balanceId: The balance or jar to close.
    """
    profile_for(db, profileId, "manage")
    balance = owned_balance(db, profileId, balanceId)
    if balance["amount"] != 0:
        raise rules.wise_error(Conflict, "error.balance.not.empty", "Only empty balances can be closed.", "balanceId")
    return balance_object(db.update(balances, balanceId, closed=True, visible=False, modification_time=db.now_iso()))


@tool(read_only=True)
def get_exchange_rate(db: Database, source: CurrencyCode, target: CurrencyCode) -> Rate:
    """The current mid-market rate from one currency to another (no fee; a quote gives the price of a transfer).

    Args:
        source: The currency sent, e.g. GBP.
        target: The currency received, e.g. EUR.
    """
    row = rules.route(db, _currency(source), _currency(target))
    return Rate(source=row["source"], target=row["target"], rate=row["rate"], time=row["time"])


# ---------------------------------------------------------------- quotes


@tool()
def create_quote(
    db: Database,
    profileId: int,
    sourceCurrency: CurrencyCode,
    targetCurrency: CurrencyCode,
    sourceAmount: MinorAmount | None = None,
    targetAmount: MinorAmount | None = None,
    targetAccount: int | None = None,
) -> Quote:
    """Quote a transfer or a conversion: the rate, the fee and both amounts. Give exactly one of sourceAmount (what
    leaves the balance, fee included) and targetAmount (what arrives). A quote is needed to create a transfer or to
    convert between balances; it can be used once, within 30 minutes.

    Args:
        profileId: The profile that pays.
        sourceCurrency: The currency paid from, e.g. GBP.
        targetCurrency: The currency received, e.g. EUR.
        sourceAmount: The amount to send, fee included, in minor units.
        targetAmount: The amount to arrive, in minor units.
        targetAccount: The recipient account the transfer will go to (optional; it can be set later).
    """
    profile_for(db, profileId, "prepare")
    if (sourceAmount is None) == (targetAmount is None):
        raise rules.wise_error(
            InvalidRequest, "NOT_VALID", "Please provide either sourceAmount or targetAmount.", "sourceAmount"
        )
    source, target = _currency(sourceCurrency), _currency(targetCurrency)
    rate_row = rules.route(db, source, target)
    if targetAccount is not None:
        account = _recipient(db, targetAccount)
        _check_account_fits(account, profileId, target)
    paid, received, fee = rules.price(rate_row, sourceAmount, targetAmount)
    now = db.now()
    row = db.insert(
        quotes,
        id=db.new_uuid(quotes),
        profile_id=profileId,
        source_currency=source,
        target_currency=target,
        source_amount=paid,
        target_amount=received,
        rate=rate_row["rate"],
        fee=fee,
        rate_type="FIXED",
        provided_amount_type="SOURCE" if sourceAmount is not None else "TARGET",
        target_account=targetAccount,
        status="PENDING",
        created_time=iso_timestamp(now),
        expiration_time=iso_timestamp(now + rules.QUOTE_LIFETIME),
    )
    return quote_object(db, row)


def _check_account_fits(account: dict[str, Any], profile_id: int, currency: str) -> None:
    if account["profile_id"] != profile_id:
        raise rules.wise_error(
            InvalidRequest, "NOT_VALID", "The recipient belongs to another profile.", "targetAccount"
        )
    if not account["active"]:
        raise rules.wise_error(InvalidRequest, "NOT_VALID", "This recipient has been deleted.", "targetAccount")
    if account["currency"] != currency:
        raise rules.wise_error(
            InvalidRequest,
            "NOT_VALID",
            f"The recipient receives {account['currency']}, not {currency}.",
            "targetAccount",
        )


@tool(read_only=True)
def get_quote(db: Database, profileId: int, quoteId: str) -> Quote:
    """Get a quote, with its status now (EXPIRED once past its expiration time unless it was used).

    Args:
        profileId: The profile the quote was made for.
        quoteId: The quote's id (a UUID).
    """
    profile_for(db, profileId)
    return quote_object(db, _quote(db, profileId, quoteId))


@tool()
def update_quote(db: Database, profileId: int, quoteId: str, targetAccount: int) -> Quote:
    """Set the recipient account of a pending quote (its currency must be the quote's target currency).

    Args:
        profileId: The profile the quote was made for.
        quoteId: The quote's id.
        targetAccount: The recipient account.
    """
    profile_for(db, profileId, "prepare")
    quote = _quote(db, profileId, quoteId)
    rules.usable_quote(db, quote)
    _check_account_fits(_recipient(db, targetAccount), profileId, quote["target_currency"])
    return quote_object(db, db.update(quotes, quoteId, target_account=targetAccount))


# ---------------------------------------------------------------- recipients


@tool(read_only=True)
def get_account_requirements(db: Database, currency: CurrencyCode) -> list[AccountRequirement]:
    """The recipient account types that can receive a currency, and the details each needs.

    Args:
        currency: The currency the recipient will receive.
    """
    code = _currency(currency)
    kinds = [kind for kind, currencies in rules.TYPE_CURRENCIES.items() if code in currencies]
    if not kinds:
        raise rules.wise_error(InvalidRequest, "NOT_VALID", f"We can't send {code} yet.", "currency")
    return [
        AccountRequirement(
            type=kind,
            title=rules.REQUIREMENTS[kind][0],
            fields=[
                RequirementField(key=k, name=n, required=r, example=e) for k, n, r, e in rules.REQUIREMENTS[kind][1]
            ],
        )
        for kind in kinds
    ]


@tool()
def create_recipient_account(
    db: Database,
    profileId: int,
    accountHolderName: Annotated[str, Field(min_length=2, max_length=140, pattern=r"\S+\s+\S+")],
    currency: CurrencyCode,
    type: AccountType,
    details: AccountDetails,
    legalType: Literal["PRIVATE", "BUSINESS"] = "PRIVATE",
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")] | None = None,
) -> Recipient:
    """Add a recipient account to a profile. The details depend on the type (get_account_requirements lists them);
    bank identifiers are checked (sort code, IBAN check digits, ACH routing number).

    Args:
        profileId: The profile that will pay the recipient.
        accountHolderName: The account holder's full name (first and last name, or the business's name).
        currency: The currency the account receives.
        type: sort_code (GBP), iban (EUR, GBP, CHF, PLN), aba (USD) or australian (AUD).
        details: The bank details the type needs.
        legalType: PRIVATE for a person, BUSINESS for a company.
        email: The recipient's email, for Wise's payment notification (optional).
    """
    profile_for(db, profileId, "prepare")
    code = _currency(currency)
    stored, country = rules.recipient_details(type, code, details.model_dump(exclude_none=True))
    row = db.insert(
        recipients,
        id=next_id(db, recipients),
        profile_id=profileId,
        account_holder_name=" ".join(accountHolderName.split()),
        currency=code,
        country=country,
        type=type,
        legal_type=legalType,
        details=stored,
        email=email,
        active=True,
        created=db.now_iso(),
    )
    return recipient_object(row)


@tool(read_only=True)
def list_recipient_accounts(
    db: Database,
    profileId: int,
    currency: CurrencyCode | None = None,
    offset: Offset = 0,
    limit: PageSize = 50,
) -> OffsetPage[Recipient]:
    """List a profile's active recipient accounts, by name.

    Args:
        profileId: The profile.
        currency: Only accounts receiving this currency.
        offset: How many to skip.
        limit: How many to return (1-100).
    """
    profile_for(db, profileId)
    code = _currency(currency) if currency else None
    rows = db.find(recipients, profile_id=profileId, active=True, **given(currency=code))
    rows.sort(key=lambda r: (r["account_holder_name"].lower(), r["id"]))
    return page(rows, offset, limit, recipient_object)


@tool(read_only=True)
def get_recipient_account(db: Database, accountId: int) -> Recipient:
    """Get one recipient account with its bank details.

    Args:
        accountId: The recipient account's id.
    """
    return recipient_object(_recipient(db, accountId))


@tool()
def deactivate_recipient_account(db: Database, accountId: int) -> Recipient:
    """Delete a recipient account (it stays on past transfers but can't be paid again).

    Args:
        accountId: The recipient account's id.
    """
    account = _recipient(db, accountId)
    profile_for(db, account["profile_id"], "prepare")
    if not account["active"]:
        raise rules.wise_error(Conflict, "NOT_VALID", "This recipient has already been deleted.", "accountId")
    return recipient_object(db.update(recipients, accountId, active=False))


# ---------------------------------------------------------------- transfers


@tool()
def create_transfer(
    db: Database,
    targetAccount: int,
    quoteUuid: Uuid,
    customerTransactionId: Uuid,
    reference: Annotated[str, Field(max_length=140)] = "",
) -> Transfer:
    """Create a transfer to a recipient from a pending quote of the same profile; it then waits for payment
    (fund_transfer). customerTransactionId is a UUID you choose that makes the call idempotent: repeating it returns
    the transfer already made. References are limited by the payout currency (GBP and AUD 18 characters, USD 10,
    others 35).

    Args:
        targetAccount: The recipient account.
        quoteUuid: The quote's id.
        customerTransactionId: A new UUID identifying this transfer request.
        reference: The payment reference the recipient sees.
    """
    quote = db.get(quotes, quoteUuid, "Quote")
    profile_for(db, quote["profile_id"], "prepare")
    done = db.find(transfers, profile_id=quote["profile_id"], customer_transaction_id=customerTransactionId.lower())
    if done:
        return transfer_object(done[0])
    rules.usable_quote(db, quote)
    account = _recipient(db, targetAccount)
    _check_account_fits(account, quote["profile_id"], quote["target_currency"])
    if quote["target_account"] is not None and quote["target_account"] != targetAccount:
        raise rules.wise_error(
            InvalidRequest, "NOT_VALID", "The quote was made for a different recipient.", "targetAccount"
        )
    limit = REFERENCE_LIMITS.get(quote["target_currency"], REFERENCE_DEFAULT_LIMIT)
    if len(reference) > limit:
        raise rules.wise_error(
            InvalidRequest,
            "NOT_VALID",
            f"The reference can be at most {limit} characters for {quote['target_currency']}.",
            "reference",
        )
    db.update(quotes, quoteUuid, status="ACCEPTED", target_account=targetAccount)
    row = db.insert(
        transfers,
        id=next_id(db, transfers),
        profile_id=quote["profile_id"],
        user_id=signed_in(db),
        target_account=targetAccount,
        quote_uuid=quoteUuid,
        status="incoming_payment_waiting",
        reference=reference,
        rate=quote["rate"],
        source_currency=quote["source_currency"],
        source_value=quote["source_amount"],
        target_currency=quote["target_currency"],
        target_value=quote["target_amount"],
        fee=quote["fee"],
        customer_transaction_id=customerTransactionId.lower(),
        funded_from=None,
        created=db.now_iso(),
    )
    return transfer_object(row)


@tool()
def fund_transfer(db: Database, profileId: int, transferId: int, type: Literal["BALANCE"] = "BALANCE") -> Funding:
    """Pay a transfer that is waiting for its money from the profile's balance in the source currency; it then
    goes to processing. When the balance holds too little, the payment is REJECTED
    (transfer.insufficient_funds) and nothing changes.

    Args:
        profileId: The profile that owns the transfer.
        transferId: The transfer.
        type: How to pay: BALANCE.
    """
    profile_for(db, profileId, "pay")
    transfer = _transfer(db, transferId)
    if transfer["profile_id"] != profileId:
        raise NotFound(f"Transfer '{transferId}' not found")
    if transfer["status"] != "incoming_payment_waiting":
        raise rules.wise_error(
            Conflict, "transfer.already.funded", f"This transfer can't be paid: it is {transfer['status']}."
        )
    balance = standard_balance(db, profileId, transfer["source_currency"])
    if balance is None or balance["amount"] < transfer["source_value"]:
        return Funding(type=type, status="REJECTED", errorCode="transfer.insufficient_funds", balanceId=None)
    debit(db, balance, transfer["source_value"])
    db.update(transfers, transferId, status="processing", funded_from=balance["id"])
    db.update(quotes, transfer["quote_uuid"], status="FUNDED")
    name = db.get(recipients, transfer["target_account"])["account_holder_name"]
    record(
        db,
        profileId,
        "TRANSFER",
        ("TRANSFER", transferId),
        f"To {name}",
        transfer["reference"] or "Sent money",
        (-transfer["source_value"], transfer["source_currency"]),
        (transfer["target_value"], transfer["target_currency"]),
        status="PENDING",
    )
    return Funding(type=type, status="COMPLETED", errorCode=None, balanceId=balance["id"])


@tool(read_only=True)
def list_transfers(
    db: Database,
    profileId: int,
    status: Annotated[list[TransferStatus], Unordered] | None = None,
    sourceCurrency: CurrencyCode | None = None,
    targetCurrency: CurrencyCode | None = None,
    createdDateStart: IsoDate | None = None,
    createdDateEnd: IsoDate | None = None,
    offset: Offset = 0,
    limit: TransferPageSize = 100,
) -> OffsetPage[Transfer]:
    """List a profile's transfers, newest first.

    Args:
        profileId: The profile.
        status: Only transfers in one of these statuses.
        sourceCurrency: Only transfers paid in this currency.
        targetCurrency: Only transfers paying out in this currency.
        createdDateStart: Only transfers created on or after this date.
        createdDateEnd: Only transfers created on or before this date.
        offset: How many to skip.
        limit: How many to return (1-200).
    """
    profile_for(db, profileId)
    where: list[str] = ["profile_id = ?"]
    params: list[Any] = [profileId]
    if status:
        where.append(f"status IN ({', '.join('?' for _ in status)})")
        params.extend(status)
    for column, value in (("source_currency", sourceCurrency), ("target_currency", targetCurrency)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value.upper())
    if createdDateStart is not None:
        where.append("created >= ?")
        params.append(createdDateStart)
    if createdDateEnd is not None:
        where.append("created < ?")
        params.append(createdDateEnd + "T99")
    rows = db.select(transfers, " AND ".join(where), params, order_by="created DESC, id DESC", limit=offset + limit + 1)
    return page(rows, offset, limit, transfer_object)


@tool(read_only=True)
def get_transfer(db: Database, transferId: int) -> Transfer:
    """Get one transfer with its status.

    Args:
        transferId: The transfer's id.
    """
    return transfer_object(_transfer(db, transferId))


@tool()
def cancel_transfer(db: Database, transferId: int) -> Transfer:
    """Cancel a transfer before its funds are converted (while incoming_payment_waiting or processing). An unpaid
    transfer becomes cancelled; a paid one funds_refunded, its money back on the balance that paid it.

    Args:
        transferId: The transfer.
    """
    transfer = _transfer(db, transferId)
    profile_for(db, transfer["profile_id"], "prepare")
    if transfer["status"] not in rules.CANCELLABLE:
        raise rules.wise_error(
            Conflict,
            "transfer.cancellation.not.allowed",
            f"This transfer can no longer be cancelled: it is {transfer['status']}.",
        )
    if transfer["funded_from"] is None:
        return transfer_object(db.update(transfers, transferId, status="cancelled"))
    credit(db, transfer["funded_from"], transfer["source_value"])
    set_activity_status(db, "TRANSFER", transferId, "REFUNDED")
    return transfer_object(db.update(transfers, transferId, status="funds_refunded"))


# ---------------------------------------------------------------- moving money between balances


@tool()
def create_balance_movement(
    db: Database,
    profileId: int,
    quoteId: str | None = None,
    sourceBalanceId: int | None = None,
    targetBalanceId: int | None = None,
    amount: Money | None = None,
) -> BalanceMovement:
    """Move money between the profile's own balances. Either convert with a pending quote that has no recipient
    (quoteId: from the source currency's balance to the target currency's, which must be open), or move money into
    or out of a jar of the same currency (sourceBalanceId, targetBalanceId and amount).

    Args:
        profileId: The profile.
        quoteId: A pending quote, for a conversion.
        sourceBalanceId: The balance or jar money leaves (jar moves).
        targetBalanceId: The balance or jar money goes to (jar moves).
        amount: How much to move (jar moves).
    """
    profile_for(db, profileId, "pay")
    jar_move = (sourceBalanceId, targetBalanceId, amount)
    if quoteId is not None:
        if any(v is not None for v in jar_move):
            raise rules.wise_error(
                InvalidRequest, "NOT_VALID", "Give a quoteId, or balances and an amount, not both.", "quoteId"
            )
        return movement_object(convert(db, profileId, _quote(db, profileId, quoteId)))
    if sourceBalanceId is None or targetBalanceId is None or amount is None:
        raise rules.wise_error(
            InvalidRequest, "NOT_VALID", "Give a quoteId, or sourceBalanceId, targetBalanceId and amount.", "quoteId"
        )
    return movement_object(
        move(db, profileId, sourceBalanceId, targetBalanceId, amount.value, _currency(amount.currency))
    )


# ---------------------------------------------------------------- activity


@tool(read_only=True)
def list_activities(
    db: Database,
    profileId: int,
    status: ActivityStatus | None = None,
    since: IsoTimestamp | None = None,
    until: IsoTimestamp | None = None,
    offset: Offset = 0,
    limit: PageSize = 50,
) -> OffsetPage[Activity]:
    """List a profile's activity (card payments, transfers, conversions, money in, jar moves), newest first.

    Args:
        profileId: The profile.
        status: Only entries in this status.
        since: Only entries from this moment on, e.g. 2025-03-01T00:00:00Z.
        until: Only entries before this moment.
        offset: How many to skip.
        limit: How many to return (1-100).
    """
    profile_for(db, profileId)
    where: list[str] = ["profile_id = ?"]
    params: list[Any] = [profileId]
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if since is not None:
        where.append("created_on >= ?")
        params.append(iso_timestamp(parse_timestamp(since, "since")))
    if until is not None:
        where.append("created_on < ?")
        params.append(iso_timestamp(parse_timestamp(until, "until")))
    rows = db.select(
        activities, " AND ".join(where), params, order_by="created_on DESC, id DESC", limit=offset + limit + 1
    )
    return page(rows, offset, limit, activity_object)
