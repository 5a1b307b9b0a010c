"""Monzo API tools: accounts, balance, pots, transactions, feed items, cards, payees and Faster Payments."""

from __future__ import annotations

import re
from typing import Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .objects import (
    AccountObject,
    BalanceObject,
    CardObject,
    FeedItemObject,
    PayeeObject,
    PaymentObject,
    PotObject,
    TransactionObject,
    transaction_object,
)
from .rules import (
    _check_daily_limit,
    _check_funds,
    _moment,
    _open_account,
    _post,
    _pot,
    _send,
    _today,
    _transfer_account,
    pounds,
)
from .schema import accounts, cards, feed_items, payees, payments, pots, transactions

Category = Literal[
    "general",
    "eating_out",
    "expenses",
    "transport",
    "cash",
    "bills",
    "entertainment",
    "shopping",
    "holidays",
    "groceries",
    "personal_care",
    "family",
    "charity",
    "finances",
    "gifts",
    "income",
    "savings",
    "transfers",
]
PotStyle = Literal["piggy_bank", "beach_ball", "cactus", "raspberry", "blue", "yellow", "teal", "coral", "midnight"]
SCA_THRESHOLD = 25_000  # payments of £250 or more always need approval in the app
REFERENCE = re.compile(r"^[A-Za-z0-9 \-./&]{1,18}$")
COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
DEFAULT_FEED_IMAGE = "https://monzo.com/static/images/favicon.png"


# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- accounts and balance


@tool(read_only=True)
def list_accounts(db: Database) -> list[AccountObject]:
    """List the accounts of the authenticated user: personal, joint, and closed legacy ones."""
    return [AccountObject(**r) for r in db.find(accounts, order_by=[accounts.c.created])]


@tool(read_only=True)
def get_balance(db: Database, account_id: str) -> BalanceObject:
    """Read an account's balance, its total including pots, and today's spending.

    Args:
        account_id: The account's ID (acc_...).
    """
    account = db.get(accounts, account_id, "Account")
    in_pots = sum(p["balance"] for p in db.find(pots, current_account_id=account_id, deleted=False))
    today = _today(db)
    spent = sum(
        t["amount"]
        for t in db.find(transactions, account_id=account_id, include_in_spending=True)
        if t["amount"] < 0 and t["decline_reason"] is None and t["created"].startswith(today)
    )
    return BalanceObject(
        balance=account["balance"],
        total_balance=account["balance"] + in_pots,
        currency=account["currency"],
        spend_today=spent,
    )


# ---------------------------------------------------------------- pots


@tool(read_only=True)
def list_pots(db: Database, current_account_id: str) -> list[PotObject]:
    """List the pots of a current account (deleted pots included, flagged deleted).

    Args:
        current_account_id: The account the pots belong to (acc_...).
    """
    db.get(accounts, current_account_id, "Account")
    return [PotObject(**r) for r in db.find(pots, current_account_id=current_account_id, order_by=[pots.c.created])]


@tool()
def create_pot(
    db: Database,
    current_account_id: str,
    name: str,
    goal_amount: int | None = None,
    style: PotStyle = "piggy_bank",
) -> PotObject:
    """Open a new, empty pot on a current account.

    Args:
        current_account_id: The account the pot belongs to (acc_...).
        name: The pot's name (at most 40 characters).
        goal_amount: A savings goal in pennies.
        style: The pot's look in the app.
    """
    _transfer_account(db, current_account_id)
    clean = name.strip()
    if not 1 <= len(clean) <= 40:
        raise InvalidRequest("Pot names must be 1 to 40 characters long.")
    if goal_amount is not None and goal_amount < 1:
        raise InvalidRequest("goal_amount must be a positive number of pennies.")
    now = db.now_iso()
    row = db.insert(
        pots,
        id=db.new_id(pots, "pot_"),
        current_account_id=current_account_id,
        name=clean,
        style=style,
        type="flexible_savings",
        balance=0,
        currency="GBP",
        goal_amount=goal_amount,
        round_up=False,
        locked=False,
        locked_until=None,
        deleted=False,
        created=now,
        updated=now,
    )
    return PotObject(**row)


@tool()
def update_pot(
    db: Database,
    pot_id: str,
    name: str | None = None,
    goal_amount: int | None = None,
    round_up: bool | None = None,
) -> PotObject:
    """Rename a pot, change its goal, or switch round-ups on or off. Round-ups go to one pot per account, so
    turning them on here turns them off on the account's other pots.

    Args:
        pot_id: The pot's ID (pot_...).
        name: New name (at most 40 characters).
        goal_amount: New savings goal in pennies.
        round_up: true to collect round-ups from card spending in this pot.
    """
    pot = _pot(db, pot_id)
    changes: dict[str, Any] = {}
    if name is not None:
        if not 1 <= len(name.strip()) <= 40:
            raise InvalidRequest("Pot names must be 1 to 40 characters long.")
        changes["name"] = name.strip()
    if goal_amount is not None:
        if goal_amount < 1:
            raise InvalidRequest("goal_amount must be a positive number of pennies.")
        changes["goal_amount"] = goal_amount
    if round_up is not None:
        if round_up:
            for other in db.find(pots, current_account_id=pot["current_account_id"], round_up=True):
                db.update(pots, other["id"], round_up=False, updated=db.now_iso())
        changes["round_up"] = round_up
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, goal_amount or round_up.")
    return PotObject(**db.update(pots, pot_id, updated=db.now_iso(), **changes))


@tool()
def deposit_into_pot(db: Database, pot_id: str, source_account_id: str, amount: int, dedupe_id: str) -> PotObject:
    """Move money from the pot's current account into the pot. Overdraft money can't go into a pot.

    Args:
        pot_id: The pot's ID (pot_...).
        source_account_id: The pot's own current account (acc_...).
        amount: Pennies to move, e.g. 5000 for £50.
        dedupe_id: A unique string for this transfer; repeating it does not move the money twice.
    """
    pot = _pot(db, pot_id)
    if source_account_id != pot["current_account_id"]:
        raise InvalidRequest("source_account_id must be the current account this pot belongs to.")
    account = _transfer_account(db, source_account_id)
    if amount < 1:
        raise InvalidRequest("amount must be a positive number of pennies.")
    if db.find(transactions, pot_id=pot_id, dedupe_id=dedupe_id):
        return PotObject(**pot)
    if amount > account["balance"]:
        raise Conflict(
            f"Insufficient funds: only {pounds(max(account['balance'], 0))} in the account. Money from your "
            "overdraft can't be moved into a pot."
        )
    _post(
        db,
        account,
        -amount,
        description=pot_id,
        merchant=None,
        category="savings",
        notes="",
        scheme="uk_retail_pot",
        pot_id=pot_id,
        include_in_spending=False,
        dedupe_id=dedupe_id,
        counterparty=None,
    )
    return PotObject(**db.update(pots, pot_id, balance=pot["balance"] + amount, updated=db.now_iso()))


@tool()
def withdraw_from_pot(db: Database, pot_id: str, destination_account_id: str, amount: int, dedupe_id: str) -> PotObject:
    """Move money out of a pot back into its current account. Locked pots stay shut until their unlock date.

    Args:
        pot_id: The pot's ID (pot_...).
        destination_account_id: The pot's own current account (acc_...).
        amount: Pennies to move, e.g. 5000 for £50.
        dedupe_id: A unique string for this transfer; repeating it does not move the money twice.
    """
    pot = _pot(db, pot_id)
    if destination_account_id != pot["current_account_id"]:
        raise InvalidRequest("destination_account_id must be the current account this pot belongs to.")
    account = _transfer_account(db, destination_account_id)
    if amount < 1:
        raise InvalidRequest("amount must be a positive number of pennies.")
    if db.find(transactions, pot_id=pot_id, dedupe_id=dedupe_id):
        return PotObject(**pot)
    if pot["locked"] and (pot["locked_until"] is None or pot["locked_until"] > _today(db)):
        until = f" until {pot['locked_until']}" if pot["locked_until"] else ""
        raise PermissionDenied(f"The pot '{pot['name']}' is locked{until}; money can't be withdrawn yet.")
    if amount > pot["balance"]:
        raise Conflict(f"The pot '{pot['name']}' only holds {pounds(pot['balance'])}.")
    _post(
        db,
        account,
        amount,
        description=pot_id,
        merchant=None,
        category="savings",
        notes="",
        scheme="uk_retail_pot",
        pot_id=pot_id,
        include_in_spending=False,
        dedupe_id=dedupe_id,
        counterparty=None,
    )
    return PotObject(**db.update(pots, pot_id, balance=pot["balance"] - amount, updated=db.now_iso()))


@tool()
def delete_pot(db: Database, pot_id: str) -> PotObject:
    """Delete an empty, unlocked pot.

    Args:
        pot_id: The pot's ID (pot_...).
    """
    pot = _pot(db, pot_id)
    if pot["locked"]:
        raise PermissionDenied(f"The pot '{pot['name']}' is locked and can't be deleted.")
    if pot["balance"] != 0:
        raise Conflict(f"Move the {pounds(pot['balance'])} out of '{pot['name']}' before deleting it.")
    return PotObject(**db.update(pots, pot_id, deleted=True, round_up=False, updated=db.now_iso()))


# ---------------------------------------------------------------- transactions and feed


@tool(read_only=True)
def list_transactions(
    db: Database,
    account_id: str,
    since: str | None = None,
    before: str | None = None,
    limit: int = 100,
    cursor: str | None = None,
) -> Page[TransactionObject]:
    """List an account's transactions, oldest first, with merchants expanded (declined ones included).

    Args:
        account_id: The account's ID (acc_...).
        since: Only transactions created at or after this timestamp or date (2025-05-01).
        before: Only transactions created before this timestamp or date.
        limit: Transactions per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    db.get(accounts, account_id, "Account")
    conditions = [transactions.c.account_id == account_id]
    if since is not None:
        conditions.append(transactions.c.created >= _moment(since, "since"))
    if before is not None:
        conditions.append(transactions.c.created < _moment(before, "before"))
    rows = db.find(transactions, *conditions, order_by=[transactions.c.created])
    return paginate([transaction_object(db, r) for r in rows], limit, cursor)


@tool()
def annotate_transaction(
    db: Database, transaction_id: str, notes: str | None = None, category: Category | None = None
) -> TransactionObject:
    """Add notes to a transaction or recategorise it (how it counts in spending insights).

    Args:
        transaction_id: The transaction's ID (tx_...).
        notes: The new notes text (replaces the old; an empty string clears them).
        category: The new spending category.
    """
    tx = db.get(transactions, transaction_id, "Transaction")
    changes: dict[str, Any] = {}
    if notes is not None:
        if len(notes) > 500:
            raise InvalidRequest("notes can be at most 500 characters.")
        changes["notes"] = notes
    if category is not None:
        if tx["scheme"] == "uk_retail_pot":
            raise InvalidRequest("Pot transfers can't be recategorised.")
        changes["category"] = category
    if not changes:
        raise InvalidRequest("Nothing to update: give notes or a category.")
    return transaction_object(db, db.update(transactions, transaction_id, **changes))


@tool()
def create_feed_item(
    db: Database,
    account_id: str,
    title: str,
    body: str | None = None,
    image_url: str = DEFAULT_FEED_IMAGE,
    url: str | None = None,
    background_color: str | None = None,
    title_color: str | None = None,
    body_color: str | None = None,
) -> FeedItemObject:
    """Post a basic item to the account's feed in the Monzo app.

    Args:
        account_id: The account whose feed gets the item (acc_...).
        title: The item's title.
        body: Text under the title.
        image_url: An icon URL; defaults to the app icon.
        url: Opened when the user taps the item.
        background_color: Hex colour such as #FCF1EE.
        title_color: Hex colour of the title.
        body_color: Hex colour of the body.
    """
    _open_account(db, account_id)
    if not title.strip():
        raise InvalidRequest("params[title] is required.")
    for label, colour in (
        ("background_color", background_color),
        ("title_color", title_color),
        ("body_color", body_color),
    ):
        if colour is not None and not COLOR.match(colour):
            raise InvalidRequest(f"{label} must be a hex colour like #FCF1EE.")
    if not image_url.startswith("https://"):
        raise InvalidRequest("params[image_url] must be an https URL.")
    row = db.insert(
        feed_items,
        id=db.new_id(feed_items, "feed_"),
        account_id=account_id,
        type="basic",
        title=title.strip(),
        body=body,
        image_url=image_url,
        url=url,
        background_color=background_color,
        title_color=title_color,
        body_color=body_color,
        created=db.now_iso(),
    )
    return FeedItemObject(**row)


# ---------------------------------------------------------------- cards


@tool(read_only=True)
def list_cards(db: Database, account_id: str) -> list[CardObject]:
    """List an account's debit cards with their status (ACTIVE, INACTIVE when frozen, CANCELLED).

    Args:
        account_id: The account's ID (acc_...).
    """
    db.get(accounts, account_id, "Account")
    return [CardObject(**r) for r in db.find(cards, account_id=account_id, order_by=[cards.c.created])]


@tool()
def freeze_card(db: Database, card_id: str, frozen: bool) -> CardObject:
    """Freeze a card (all card payments are declined) or unfreeze it.

    Args:
        card_id: The card's ID (card_...).
        frozen: true to freeze, false to unfreeze.
    """
    card = db.get(cards, card_id, "Card")
    if card["status"] == "CANCELLED":
        raise Conflict(f"The card ending {card['last_digits']} has been cancelled and can't be frozen or unfrozen.")
    wanted = "INACTIVE" if frozen else "ACTIVE"
    if card["status"] == wanted:
        raise Conflict(f"The card ending {card['last_digits']} is already {'frozen' if frozen else 'active'}.")
    return CardObject(**db.update(cards, card_id, status=wanted))


# ---------------------------------------------------------------- payees and payments


@tool(read_only=True)
def list_payees(db: Database, account_id: str) -> list[PayeeObject]:
    """List the saved payees of an account.

    Args:
        account_id: The account's ID (acc_...).
    """
    db.get(accounts, account_id, "Account")
    return [PayeeObject(**r) for r in db.find(payees, account_id=account_id, order_by=[payees.c.name])]


@tool()
def create_payee(
    db: Database,
    account_id: str,
    name: str,
    sort_code: str,
    account_number: str,
    default_reference: str | None = None,
) -> PayeeObject:
    """Save a UK bank account as a payee, to send it Faster Payments.

    Args:
        account_id: The account that will pay (acc_...).
        name: The account holder's name.
        sort_code: Six digits, with or without dashes (20-45-77).
        account_number: Eight digits.
        default_reference: Reference suggested for payments (at most 18 characters).
    """
    _transfer_account(db, account_id)
    code = sort_code.replace("-", "").replace(" ", "")
    if not re.fullmatch(r"\d{6}", code):
        raise InvalidRequest("sort_code must be 6 digits, like 20-45-77.")
    if not re.fullmatch(r"\d{8}", account_number):
        raise InvalidRequest("account_number must be 8 digits.")
    if not 1 <= len(name.strip()) <= 40:
        raise InvalidRequest("name must be 1 to 40 characters.")
    if default_reference is not None and not REFERENCE.match(default_reference):
        raise InvalidRequest("A reference has 1 to 18 letters, digits, spaces or - . / &.")
    existing = db.find(payees, account_id=account_id, sort_code=code, account_number=account_number)
    if existing:
        raise Conflict(f"You already have this account saved as the payee '{existing[0]['name']}'.")
    row = db.insert(
        payees,
        id=db.new_id(payees, "payee_"),
        account_id=account_id,
        name=name.strip(),
        sort_code=code,
        account_number=account_number,
        default_reference=default_reference,
        created=db.now_iso(),
    )
    return PayeeObject(**row)


@tool()
def delete_payee(db: Database, payee_id: str) -> PayeeObject:
    """Remove a saved payee (past payments stay in the history).

    Args:
        payee_id: The payee's ID (payee_...).
    """
    payee = db.get(payees, payee_id, "Payee")
    if db.find(payments, payee_id=payee_id, status="pending_approval"):
        raise Conflict(f"A payment to {payee['name']} is waiting for approval in the app; approve or decline it first.")
    db.delete(payees, payee_id)
    return PayeeObject(**payee)


@tool(read_only=True)
def list_payments(
    db: Database,
    account_id: str,
    status: Literal["pending_approval", "completed", "declined"] | None = None,
) -> list[PaymentObject]:
    """List an account's outgoing Faster Payments, newest first.

    Args:
        account_id: The account's ID (acc_...).
        status: Only payments in this status.
    """
    db.get(accounts, account_id, "Account")
    equals = {"status": status} if status is not None else {}
    rows = db.find(payments, account_id=account_id, order_by=[payments.c.created.desc()], **equals)
    return [PaymentObject(**r) for r in rows]


@tool()
def make_faster_payment(
    db: Database, account_id: str, payee_id: str, amount: int, reference: str, dedupe_id: str
) -> PaymentObject:
    """Send money to a saved payee by Faster Payment. It may go into the arranged overdraft, never past it, and
    counts towards the daily transfer limit. The first payment to a payee, and any of £250 or more, waits for the
    account holder to approve it in the Monzo app (status pending_approval); others complete at once.

    Args:
        account_id: The account to pay from (acc_...).
        payee_id: The payee's ID (payee_...), saved on that account.
        amount: Pennies to send, e.g. 2450 for £24.50.
        reference: What the recipient sees: 1 to 18 letters, digits, spaces or - . / &.
        dedupe_id: A unique string for this payment; repeating it returns the first payment instead of paying twice.
    """
    account = _transfer_account(db, account_id)
    payee = db.get(payees, payee_id, "Payee")
    if payee["account_id"] != account_id:
        raise InvalidRequest(f"Payee {payee['name']} is saved on another account.")
    if amount < 1:
        raise InvalidRequest("amount must be a positive number of pennies.")
    if not REFERENCE.match(reference):
        raise InvalidRequest("A reference has 1 to 18 letters, digits, spaces or - . / &.")
    repeated = db.find(payments, account_id=account_id, dedupe_id=dedupe_id)
    if repeated:
        return PaymentObject(**repeated[0])
    _check_funds(db, account, amount)
    _check_daily_limit(db, account, amount)
    known = db.find(payments, payee_id=payee_id, status="completed")
    row = db.insert(
        payments,
        id=db.new_id(payments, "payment_"),
        account_id=account_id,
        payee_id=payee_id,
        payee_name=payee["name"],
        amount=amount,
        reference=reference,
        status="pending_approval",
        transaction_id=None,
        dedupe_id=dedupe_id,
        created=db.now_iso(),
    )
    if known and amount < SCA_THRESHOLD:
        row = _send(db, row)
    return PaymentObject(**row)


# ---------------------------------------------------------------- the account holder


@tool(user_only=True)
def approve_in_app(db: Database, payee_name: str, amount: int, approve: bool = True) -> PaymentObject:
    """(Account holder only, in the Monzo app) Approve or decline a payment waiting for strong customer
    authentication.

    Args:
        payee_name: The payee the app shows.
        amount: The amount the app shows, in pennies.
        approve: true to approve (the money leaves), false to decline.
    """
    waiting = [
        p
        for p in db.find(payments, status="pending_approval", amount=amount)
        if p["payee_name"].casefold() == payee_name.strip().casefold()
    ]
    if not waiting:
        raise NotFound(f"No payment of {pounds(amount)} to {payee_name} is waiting for approval")
    payment = waiting[-1]
    if not approve:
        return PaymentObject(**db.update(payments, payment["id"], status="declined"))
    return PaymentObject(**_send(db, payment))
