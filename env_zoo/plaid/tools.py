"""Plaid API tools as a fintech app's backend calls them with its team's API keys: the app's own end-user records,
Items and institutions, accounts and real-time balances, Auth numbers, transactions sync with cursors, Link update
mode, and Transfer (authorizations, transfers, events, the ledger, and Sandbox simulation)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, tool
from envfactory_gym.fields import IsoTimestamp, NonBlankText, bounded
from envfactory_gym.values import iso_timestamp, parse_timestamp

from . import rules
from .access import account_of, client, item_for, transfer_for
from .ledger import adjust_ledger, move, record_event
from .objects import (
    AccountsResponse,
    AchNumbers,
    AuthNumbers,
    AuthResponse,
    Connected,
    EndUser,
    Institution,
    Item,
    ItemRemoved,
    ItemUpdated,
    LedgerBalance,
    LinkToken,
    RemovedTransaction,
    SyncResponse,
    Transfer,
    TransferAuthorization,
    TransferEventList,
    TransferList,
    account_object,
    app_item_object,
    authorization_object,
    event_object,
    institution_object,
    item_object,
    ledger_object,
    transaction_object,
    transfer_object,
)
from .rules import plaid_error
from .schema import (
    accounts,
    clients,
    end_users,
    institutions,
    items,
    link_tokens,
    sessions,
    transactions,
    transfer_authorizations,
    transfer_events,
    transfers,
)

AccessToken = Annotated[str, Field(pattern=r"^access-(sandbox|production)-[0-9a-f-]{36}$")]
Uuid = Annotated[str, Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]
AccountIds = Annotated[list[str], Unordered, Field(min_length=1)]
Amount = Annotated[
    str,
    Field(pattern=r"^(0\.(0[1-9]|[1-9][0-9])|[1-9][0-9]{0,6}\.[0-9]{2})$", description='decimal string, e.g. "125.50"'),
]
Product = Literal["auth", "balance", "identity", "transactions", "transfer", "investments", "liabilities"]
TransferType = Literal["debit", "credit"]
Network = Literal["ach", "same-day-ach", "rtp"]
AchClass = Literal["ppd", "ccd", "web"]
SimulatedEvent = Literal["posted", "settled", "failed", "returned"]
EventType = Literal["pending", "cancelled", "failed", "posted", "settled", "returned"]
ReturnCode = Literal["R01", "R02", "R03", "R04", "R08", "R10", "R16", "R29"]
RETURN_REASONS = {
    "R01": "R01: Insufficient funds",
    "R02": "R02: Account closed",
    "R03": "R03: No account or unable to locate account",
    "R04": "R04: Invalid account number",
    "R08": "R08: Payment stopped",
    "R10": "R10: Customer advises not authorized",
    "R16": "R16: Account frozen",
    "R29": "R29: Corporate customer advises not authorized",
}
LINK_TOKEN_LIFETIME = timedelta(hours=4)


@tool(user_only=True)
def sign_in(
    db: Database,
    client_id: Annotated[str, Field(pattern=r"^[0-9a-f]{24}$")],
    secret: Annotated[str, Field(pattern=r"^[0-9a-f]{30}$")],
) -> Connected:
    """Give the assistant the team's Plaid API keys (the developer does this from the Plaid Dashboard).

    Args:
        client_id: The team's client_id.
        secret: The secret for the Sandbox environment.
    """
    found = db.find(clients, client_id=client_id, secret=secret)
    if not found:
        raise plaid_error(InvalidRequest, "INVALID_INPUT", "INVALID_API_KEYS", "invalid client_id or secret provided")
    db.start_session(sessions, client_id=client_id)
    return Connected(client_id=client_id, company_name=found[0]["company_name"])


@tool(read_only=True)
def search_end_users(db: Database, query: NonBlankText) -> list[EndUser]:
    """Look up the app's own users (the records the backend keeps with their Items' access tokens and saved sync
    cursors) by name, e-mail or client_user_id.

    Args:
        query: Part of the person's name, e-mail or app user id.
    """
    me = client(db)["client_id"]
    like = f"%{query.strip()}%"
    found = db.select(
        end_users,
        "client_id = ? AND (legal_name LIKE ? OR email LIKE ? OR client_user_id LIKE ?)",
        (me, like, like, like),
        order_by="legal_name",
        limit=20,
    )
    names = {row["institution_id"]: row["name"] for row in db.find(institutions)}
    return [
        EndUser(
            **user,
            items=[
                app_item_object(item, names[item["institution_id"]])
                for item in db.find(items, client_user_id=user["client_user_id"], order_by=[items.c.created])
            ],
        )
        for user in ({k: v for k, v in row.items() if k != "client_id"} for row in found)
    ]


@tool(read_only=True)
def item_get(db: Database, access_token: AccessToken) -> Item:
    """/item/get: an Item's institution, products and error state (works while the Item is in error).

    Args:
        access_token: The Item's access token.
    """
    item = item_for(db, access_token)
    return item_object(item, db.get(institutions, item["institution_id"])["name"])


@tool()
def item_remove(db: Database, access_token: AccessToken) -> ItemRemoved:
    """/item/remove: remove an Item for good (the user unlinks their bank); its access token stops working and
    billing for it ends. Cannot be undone: the user would have to link the bank again.

    Args:
        access_token: The Item's access token.
    """
    item = item_for(db, access_token)
    db.update(items, item["item_id"], removed=True)
    return ItemRemoved(item_id=item["item_id"], removed=True)


@tool(read_only=True)
def institutions_get_by_id(db: Database, institution_id: Annotated[str, Field(pattern=r"^ins_[0-9]+$")]) -> Institution:
    """/institutions/get_by_id: one institution with its supported products and current status.

    Args:
        institution_id: The institution's id, e.g. ins_109508.
    """
    found = db.find(institutions, institution_id=institution_id)
    if not found:
        raise plaid_error(
            NotFound, "INVALID_INPUT", "INVALID_INSTITUTION", f"invalid institution_id provided: {institution_id}"
        )
    return institution_object(found[0])


@tool(read_only=True)
def institutions_search(
    db: Database, query: NonBlankText, products: Annotated[list[Product], Unordered] | None = None
) -> list[Institution]:
    """/institutions/search: institutions whose name matches, optionally only those supporting every product given.

    Args:
        query: Part of the institution's name.
        products: Products the institution must support.
    """
    found = db.select(institutions, "name LIKE ?", (f"%{query.strip()}%",), order_by="name", limit=10)
    wanted = set(products or [])
    return [institution_object(row) for row in found if wanted <= set(row["products"])]


@tool(read_only=True)
def accounts_get(db: Database, access_token: AccessToken, account_ids: AccountIds | None = None) -> AccountsResponse:
    """/accounts/get: the Item's accounts with their cached balances (as of the last update).

    Args:
        access_token: The Item's access token.
        account_ids: Only these accounts.
    """
    item = item_for(db, access_token)
    rules.require_healthy(item)
    return _accounts(db, item, account_ids)


@tool(read_only=True)
def accounts_balance_get(
    db: Database, access_token: AccessToken, account_ids: AccountIds | None = None
) -> AccountsResponse:
    """/accounts/balance/get: real-time balances fetched from the institution (fails while the institution is down).

    Args:
        access_token: The Item's access token.
        account_ids: Only these accounts.
    """
    item = item_for(db, access_token)
    rules.require_healthy(item)
    if db.get(institutions, item["institution_id"])["status"] == "DOWN":
        raise plaid_error(
            Conflict, "INSTITUTION_ERROR", "INSTITUTION_DOWN", "this institution is not currently responding"
        )
    return _accounts(db, item, account_ids)


@tool(read_only=True)
def auth_get(db: Database, access_token: AccessToken, account_ids: AccountIds | None = None) -> AuthResponse:
    """/auth/get: account and routing numbers of the Item's checking and savings accounts.

    Args:
        access_token: The Item's access token.
        account_ids: Only these accounts.
    """
    item = item_for(db, access_token)
    rules.require_healthy(item)
    rules.require_product(item, "auth")
    rows = [row for row in _account_rows(db, item, account_ids) if row["subtype"] in rules.TRANSFERABLE_SUBTYPES]
    numbers = [
        AchNumbers(
            account_id=row["account_id"],
            account=row["account_number"],
            routing=row["routing_number"],
            wire_routing=row["wire_routing"],
        )
        for row in rows
    ]
    return AuthResponse(accounts=[account_object(row) for row in rows], numbers=AuthNumbers(ach=numbers))


@tool(read_only=True)
def transactions_sync(
    db: Database, access_token: AccessToken, cursor: str = "", count: bounded(1, 500) = 100
) -> SyncResponse:
    """/transactions/sync: transactions added, modified and removed since `cursor` (empty for the full history),
    oldest change first; call again with `next_cursor` while `has_more`.

    Args:
        access_token: The Item's access token.
        cursor: The next_cursor of the previous sync (or the one the app saved); empty for everything.
        count: How many changes at most in this page.
    """
    item = item_for(db, access_token)
    rules.require_healthy(item)
    rules.require_product(item, "transactions")
    after = rules.decode_cursor(item["item_id"], cursor)
    rows = db.select(
        transactions,
        "item_id = ? AND (added_seq > ? OR modified_seq > ? OR removed_seq > ?)",
        (item["item_id"], after, after, after),
    )
    changes = sorted(
        ((change, row) for row in rows if (change := rules.sync_change(row, after)) is not None),
        key=lambda pair: (pair[0][1], pair[1]["transaction_id"]),
    )
    page = changes[:count]
    last = page[-1][0][1] if len(changes) > count else item["update_seq"]
    return SyncResponse(
        added=[transaction_object(row) for (kind, _), row in page if kind == "added"],
        modified=[transaction_object(row) for (kind, _), row in page if kind == "modified"],
        removed=[
            RemovedTransaction(transaction_id=row["transaction_id"], account_id=row["account_id"])
            for (kind, _), row in page
            if kind == "removed"
        ],
        next_cursor=rules.encode_cursor(item["item_id"], max(last, after)),
        has_more=len(changes) > count,
    )


@tool()
def link_token_create(
    db: Database, client_user_id: NonBlankText, access_token: AccessToken, client_name: NonBlankText = "the app"
) -> LinkToken:
    """/link/token/create in update mode: a Link token the app opens so the user can sign in to their bank again
    (fixes ITEM_LOGIN_REQUIRED). Valid for 4 hours, once.

    Args:
        client_user_id: The app's id of the user who owns the Item.
        access_token: The Item to update.
        client_name: The app's name as Link shows it.
    """
    item = item_for(db, access_token)
    if item["client_user_id"] != client_user_id:
        raise plaid_error(
            InvalidRequest, "INVALID_INPUT", "INVALID_FIELD", "the access_token does not belong to this client_user_id"
        )
    token = f"link-sandbox-{db.new_uuid(link_tokens)}"
    expiration = iso_timestamp(db.now() + LINK_TOKEN_LIFETIME)
    db.insert(
        link_tokens,
        link_token=token,
        client_id=item["client_id"],
        client_user_id=client_user_id,
        item_id=item["item_id"],
        expiration=expiration,
        used=False,
    )
    return LinkToken(link_token=token, expiration=expiration)


@tool(user_only=True)
def open_link(db: Database, link_token: Annotated[str, Field(pattern=r"^link-sandbox-[0-9a-f-]{36}$")]) -> ItemUpdated:
    """The app's user opens Link with the token and signs in to their bank again (update mode), which clears the
    Item's login error.

    Args:
        link_token: The Link token the app created.
    """
    found = db.find(link_tokens, link_token=link_token)
    if not found or found[0]["used"] or parse_timestamp(found[0]["expiration"], "expiration") <= db.now():
        raise plaid_error(
            InvalidRequest, "INVALID_INPUT", "INVALID_LINK_TOKEN", "provided link token is expired or invalid"
        )
    db.update(link_tokens, link_token, used=True)
    db.update(items, found[0]["item_id"], error_code=None)
    return ItemUpdated(item_id=found[0]["item_id"], status="good")


@tool()
def sandbox_item_reset_login(db: Database, access_token: AccessToken) -> Item:
    """/sandbox/item/reset_login: force an Item into ITEM_LOGIN_REQUIRED, to test the app's update-mode flow.

    Args:
        access_token: The Item's access token.
    """
    item = item_for(db, access_token)
    updated = db.update(items, item["item_id"], error_code="ITEM_LOGIN_REQUIRED")
    return item_object(updated, db.get(institutions, item["institution_id"])["name"])


@tool()
def transfer_authorization_create(
    db: Database,
    access_token: AccessToken,
    account_id: NonBlankText,
    type: TransferType,
    network: Network,
    amount: Amount,
    legal_name: NonBlankText,
    ach_class: AchClass | None = None,
) -> TransferAuthorization:
    """/transfer/authorization/create: ask Plaid to approve a proposed transfer. `approved` lets you create the
    transfer (same account and amount, once); `declined` says why (NSF, RISK, TRANSFER_LIMIT_REACHED);
    `user_action_required` means the Item needs Link's update mode first.

    Args:
        access_token: The Item holding the user's account.
        account_id: The user's checking or savings account.
        type: debit pulls money from the user's account; credit pays money out to it.
        network: ach, same-day-ach, or rtp (credits only).
        amount: The amount, e.g. "125.50".
        legal_name: The account holder's legal name.
        ach_class: Required on ACH networks: ppd (consumer), ccd (business), web (consumer, online).
    """
    me = client(db)
    item = item_for(db, access_token)
    rules.require_product(item, "transfer")
    account = account_of(db, item, account_id)
    if account["subtype"] not in rules.TRANSFERABLE_SUBTYPES:
        raise plaid_error(
            InvalidRequest,
            "TRANSFER_ERROR",
            "TRANSFER_UNSUPPORTED_ACCOUNT_TYPE",
            f"transfers are only supported for checking and savings accounts, not {account['subtype']}",
        )
    if network != "rtp" and ach_class is None:
        raise plaid_error(InvalidRequest, "INVALID_REQUEST", "MISSING_FIELDS", "ach_class is required for ACH")
    if network == "rtp" and type == "debit":
        raise plaid_error(InvalidRequest, "INVALID_INPUT", "INVALID_FIELD", "the rtp network supports credits only")
    cents = rules.cents(amount)
    decision, code = rules.decide(me, item, account, type, cents)
    description = rules.DECLINES.get(code or "", rules.LOGIN_REQUIRED_MESSAGE if code else None)
    row = db.insert(
        transfer_authorizations,
        id=db.new_uuid(transfer_authorizations),
        client_id=me["client_id"],
        item_id=item["item_id"],
        account_id=account_id,
        type=type,
        network=network,
        ach_class=None if network == "rtp" else ach_class,
        amount=cents,
        legal_name=legal_name,
        decision=decision,
        rationale_code=code,
        rationale_description=description,
        transfer_id=None,
        created=db.now_iso(),
    )
    return authorization_object(row)


@tool()
def transfer_create(
    db: Database,
    access_token: AccessToken,
    account_id: NonBlankText,
    authorization_id: Uuid,
    amount: Amount,
    description: Annotated[str, Field(min_length=1, max_length=15)],
) -> Transfer:
    """/transfer/create: create the transfer an approved authorization allows (same account and amount; each
    authorization makes one transfer). A credit needs that much in the ledger's available balance.

    Args:
        access_token: The Item holding the user's account.
        account_id: The account the authorization was for.
        authorization_id: The approved authorization's id.
        amount: The authorized amount, e.g. "125.50".
        description: What the user's bank statement shows (15 characters at most).
    """
    me = client(db)
    item = item_for(db, access_token)
    found = db.find(transfer_authorizations, id=authorization_id, client_id=me["client_id"])
    if not found:
        raise plaid_error(NotFound, "INVALID_INPUT", "INVALID_FIELD", "authorization_id not found")
    auth = found[0]
    if auth["decision"] != "approved":
        raise plaid_error(
            InvalidRequest,
            "TRANSFER_ERROR",
            "TRANSFER_AUTHORIZATION_NOT_APPROVED",
            f"the authorization's decision is {auth['decision']}; only approved authorizations create transfers",
        )
    if auth["account_id"] != account_id or auth["item_id"] != item["item_id"]:
        raise plaid_error(
            InvalidRequest, "INVALID_INPUT", "INVALID_FIELD", "account_id does not match the authorization"
        )
    cents = rules.cents(amount)
    if auth["amount"] != cents:
        raise plaid_error(InvalidRequest, "INVALID_INPUT", "INVALID_FIELD", "amount does not match the authorization")
    if auth["transfer_id"] is not None:
        raise plaid_error(
            Conflict, "TRANSFER_ERROR", "TRANSFER_AUTHORIZATION_USED", "this authorization was already used"
        )
    if auth["type"] == "credit" and me["ledger_available"] < cents:
        raise plaid_error(
            Conflict, "TRANSFER_ERROR", "INSUFFICIENT_FUNDS", "the Plaid Ledger's available balance is too low"
        )
    row = db.insert(
        transfers,
        id=db.new_uuid(transfers),
        client_id=me["client_id"],
        authorization_id=authorization_id,
        item_id=item["item_id"],
        account_id=account_id,
        type=auth["type"],
        network=auth["network"],
        ach_class=auth["ach_class"],
        amount=cents,
        description=description,
        legal_name=auth["legal_name"],
        status="pending",
        failure_reason=None,
        created=db.now_iso(),
    )
    db.update(transfer_authorizations, authorization_id, transfer_id=row["id"])
    adjust_ledger(db, me["client_id"], -cents if row["type"] == "credit" else 0, cents if row["type"] == "debit" else 0)
    record_event(db, row, "pending")
    return transfer_object(row)


@tool(read_only=True)
def transfer_get(db: Database, transfer_id: Uuid) -> Transfer:
    """/transfer/get: one transfer with its status.

    Args:
        transfer_id: The transfer's id.
    """
    return transfer_object(transfer_for(db, transfer_id))


@tool(read_only=True)
def transfer_list(
    db: Database,
    start_date: IsoTimestamp | None = None,
    end_date: IsoTimestamp | None = None,
    count: bounded(1, 25) = 25,
    offset: bounded(0) = 0,
) -> TransferList:
    """/transfer/list: the client's transfers created in a time window, newest first.

    Args:
        start_date: Created at or after this time.
        end_date: Created before this time.
        count: How many at most.
        offset: How many to skip.
    """
    where, params = ["client_id = ?"], [client(db)["client_id"]]
    if start_date is not None:
        where.append("created >= ?")
        params.append(start_date)
    if end_date is not None:
        where.append("created < ?")
        params.append(end_date)
    rows = db.select(transfers, " AND ".join(where), params, order_by="created DESC")
    return TransferList(transfers=[transfer_object(row) for row in rows[offset : offset + count]])


@tool(read_only=True)
def transfer_event_list(
    db: Database,
    transfer_id: Uuid | None = None,
    account_id: str | None = None,
    event_types: Annotated[list[EventType], Unordered] | None = None,
    count: bounded(1, 25) = 25,
    offset: bounded(0) = 0,
) -> TransferEventList:
    """/transfer/event/list: status changes of the client's transfers, oldest first, filtered by transfer, the
    user's account or event type.

    Args:
        transfer_id: Only this transfer's events.
        account_id: Only events of transfers with this account.
        event_types: Only these event types.
        count: How many at most.
        offset: How many to skip.
    """
    mine = {row["id"] for row in db.find(transfers, client_id=client(db)["client_id"])}
    where, params = [], []
    if transfer_id is not None:
        where.append("transfer_id = ?")
        params.append(transfer_id)
    if account_id is not None:
        where.append("account_id = ?")
        params.append(account_id)
    rows = [
        row
        for row in db.select(transfer_events, " AND ".join(where), params, order_by="event_id")
        if row["transfer_id"] in mine and (not event_types or row["event_type"] in event_types)
    ]
    return TransferEventList(transfer_events=[event_object(row) for row in rows[offset : offset + count]])


@tool()
def transfer_cancel(db: Database, transfer_id: Uuid) -> Transfer:
    """/transfer/cancel: cancel a transfer; only a pending one can be (a credit's money goes back to the ledger).

    Args:
        transfer_id: The transfer's id.
    """
    transfer = transfer_for(db, transfer_id)
    if transfer["status"] != "pending":
        raise plaid_error(
            Conflict,
            "TRANSFER_ERROR",
            "TRANSFER_NOT_CANCELLABLE",
            f"transfer is {transfer['status']} and cannot be cancelled",
        )
    return transfer_object(move(db, transfer, "cancelled"))


@tool(read_only=True)
def transfer_ledger_get(db: Database) -> LedgerBalance:
    """/transfer/ledger/get: the client's Plaid Ledger balance (available pays credits; pending holds debits)."""
    return ledger_object(client(db))


@tool()
def sandbox_transfer_simulate(
    db: Database, transfer_id: Uuid, event_type: SimulatedEvent, failure_reason: ReturnCode | None = None
) -> Transfer:
    """/sandbox/transfer/simulate: move a transfer along (pending -> posted -> settled; pending -> failed; posted or
    settled -> returned), as the bank would.

    Args:
        transfer_id: The transfer's id.
        event_type: What happens to it.
        failure_reason: The ACH return code for failed or returned (R01 insufficient funds by default).
    """
    transfer = transfer_for(db, transfer_id)
    if transfer["status"] not in rules.TRANSITIONS[event_type]:
        raise plaid_error(
            InvalidRequest,
            "INVALID_INPUT",
            "INVALID_FIELD",
            f"cannot simulate {event_type} for a transfer that is {transfer['status']}",
        )
    reason = RETURN_REASONS[failure_reason or "R01"] if event_type in ("failed", "returned") else None
    return transfer_object(move(db, transfer, event_type, reason))


def _account_rows(db: Database, item: dict[str, Any], account_ids: list[str] | None) -> list[dict[str, Any]]:
    rows = db.find(accounts, item_id=item["item_id"])
    if account_ids is not None:
        unknown = sorted(set(account_ids) - {row["account_id"] for row in rows})
        if unknown:
            raise plaid_error(
                InvalidRequest, "INVALID_INPUT", "INVALID_ACCOUNT_ID", f"account_ids not on this item: {unknown}"
            )
        rows = [row for row in rows if row["account_id"] in account_ids]
    return rows


def _accounts(db: Database, item: dict[str, Any], account_ids: list[str] | None) -> AccountsResponse:
    name = db.get(institutions, item["institution_id"])["name"]
    rows = _account_rows(db, item, account_ids)
    return AccountsResponse(item=item_object(item, name), accounts=[account_object(row) for row in rows])
