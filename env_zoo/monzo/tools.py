"""Monzo API tools: accounts, balance, pots, transactions, feed items, cards, payees and Faster Payments."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import PageSize

from .arguments import (
    AccountNumber,
    Category,
    FeedTitle,
    GoalAmount,
    HexColour,
    HttpsUrl,
    Moment,
    Notes,
    PayeeName,
    PaymentStatus,
    Pennies,
    PotName,
    PotStyle,
    Reference,
    SortCode,
)
from .objects import (
    AccountObject,
    BalanceObject,
    CardObject,
    FeedItemObject,
    PayeeObject,
    PaymentObject,
    PotObject,
    TransactionObject,
    balance_object,
    transaction_object,
    transaction_objects,
)
from .rules import (
    account_payee,
    check_daily_limit,
    check_deletable,
    check_deposit,
    check_funds,
    check_payee_removable,
    check_withdrawal,
    existing_payee,
    keep_one_round_up,
    live_pot,
    moment,
    move_pot_money,
    needs_approval,
    open_account,
    pot_account,
    repeated_pot_move,
    send,
    spent_today,
    transfer_account,
    waiting_payment,
)
from .schema import accounts, cards, feed_items, payees, payments, pots, transactions

DEFAULT_FEED_IMAGE = "https://monzo.com/static/images/favicon.png"


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
    return balance_object(db, db.get(accounts, account_id, "Account"), spent_today(db, account_id))


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
    name: PotName,
    goal_amount: GoalAmount | None = None,
    style: PotStyle = "piggy_bank",
) -> PotObject:
    """Open a new, empty pot on a current account.

    Args:
        current_account_id: The account the pot belongs to (acc_...).
        name: The pot's name (at most 40 characters).
        goal_amount: A savings goal in pennies.
        style: The pot's look in the app.
    """
    transfer_account(db, current_account_id)
    now = db.now_iso()
    row = db.insert(
        pots,
        id=db.new_id(pots, "pot_"),
        current_account_id=current_account_id,
        name=name.strip(),
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
    name: PotName | None = None,
    goal_amount: GoalAmount | None = None,
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
    pot = live_pot(db, pot_id)
    changes = given(name=name.strip() if name is not None else None, goal_amount=goal_amount, round_up=round_up)
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, goal_amount or round_up.")
    if round_up:
        keep_one_round_up(db, pot)
    return PotObject(**db.update(pots, pot_id, updated=db.now_iso(), **changes))


@tool()
def deposit_into_pot(db: Database, pot_id: str, source_account_id: str, amount: Pennies, dedupe_id: str) -> PotObject:
    """Move money from the pot's current account into the pot. Overdraft money can't go into a pot.

    Args:
        pot_id: The pot's ID (pot_...).
        source_account_id: The pot's own current account (acc_...).
        amount: Pennies to move, e.g. 5000 for £50.
        dedupe_id: A unique string for this transfer; repeating it does not move the money twice.
    """
    pot = live_pot(db, pot_id)
    account = pot_account(db, pot, source_account_id, "source_account_id")
    if not repeated_pot_move(db, pot_id, dedupe_id):
        check_deposit(account, amount)
        move_pot_money(db, pot, account, -amount, dedupe_id)
    return PotObject(**db.get(pots, pot_id, "Pot"))


@tool()
def withdraw_from_pot(
    db: Database, pot_id: str, destination_account_id: str, amount: Pennies, dedupe_id: str
) -> PotObject:
    """Move money out of a pot back into its current account. Locked pots stay shut until their unlock date.

    Args:
        pot_id: The pot's ID (pot_...).
        destination_account_id: The pot's own current account (acc_...).
        amount: Pennies to move, e.g. 5000 for £50.
        dedupe_id: A unique string for this transfer; repeating it does not move the money twice.
    """
    pot = live_pot(db, pot_id)
    account = pot_account(db, pot, destination_account_id, "destination_account_id")
    if not repeated_pot_move(db, pot_id, dedupe_id):
        check_withdrawal(db, pot, amount)
        move_pot_money(db, pot, account, amount, dedupe_id)
    return PotObject(**db.get(pots, pot_id, "Pot"))


@tool()
def delete_pot(db: Database, pot_id: str) -> PotObject:
    """Delete an empty, unlocked pot.

    Args:
        pot_id: The pot's ID (pot_...).
    """
    check_deletable(live_pot(db, pot_id))
    return PotObject(**db.update(pots, pot_id, deleted=True, round_up=False, updated=db.now_iso()))


# ---------------------------------------------------------------- transactions and feed


@tool(read_only=True)
def list_transactions(
    db: Database,
    account_id: str,
    since: Moment | None = None,
    before: Moment | None = None,
    limit: PageSize = 100,
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
    where, params = ["account_id = ?"], [account_id]
    if since is not None:
        where, params = [*where, "created >= ?"], [*params, moment(since, "since")]
    if before is not None:
        where, params = [*where, "created < ?"], [*params, moment(before, "before")]
    page = paginate(db.select(transactions, " AND ".join(where), params, order_by="created"), limit, cursor)
    return Page[TransactionObject](
        results=transaction_objects(db, page.results), next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool()
def annotate_transaction(
    db: Database, transaction_id: str, notes: Notes | None = None, category: Category | None = None
) -> TransactionObject:
    """Add notes to a transaction or recategorise it (how it counts in spending insights).

    Args:
        transaction_id: The transaction's ID (tx_...).
        notes: The new notes text (replaces the old; an empty string clears them; at most 500 characters).
        category: The new spending category.
    """
    tx = db.get(transactions, transaction_id, "Transaction")
    changes = given(notes=notes, category=category)
    if not changes:
        raise InvalidRequest("Nothing to update: give notes or a category.")
    if category is not None and tx["scheme"] == "uk_retail_pot":
        raise InvalidRequest("Pot transfers can't be recategorised.")
    return transaction_object(db, db.update(transactions, transaction_id, **changes))


@tool()
def create_feed_item(
    db: Database,
    account_id: str,
    title: FeedTitle,
    body: str | None = None,
    image_url: HttpsUrl = DEFAULT_FEED_IMAGE,
    url: str | None = None,
    background_color: HexColour | None = None,
    title_color: HexColour | None = None,
    body_color: HexColour | None = None,
) -> FeedItemObject:
    """Post a basic item to the account's feed in the Monzo app.

    Args:
        account_id: The account whose feed gets the item (acc_...).
        title: The item's title.
        body: Text under the title.
        image_url: An https icon URL; defaults to the app icon.
        url: Opened when the user taps the item.
        background_color: Hex colour such as #FCF1EE.
        title_color: Hex colour of the title.
        body_color: Hex colour of the body.
    """
    open_account(db, account_id)
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
    name: PayeeName,
    sort_code: SortCode,
    account_number: AccountNumber,
    default_reference: Reference | None = None,
) -> PayeeObject:
    """Save a UK bank account as a payee, to send it Faster Payments.

    Args:
        account_id: The account that will pay (acc_...).
        name: The account holder's name (at most 40 characters).
        sort_code: Six digits, with or without dashes (20-45-77).
        account_number: Eight digits.
        default_reference: Reference suggested for payments: 1 to 18 letters, digits, spaces or - . / &.
    """
    transfer_account(db, account_id)
    code = sort_code.replace("-", "").replace(" ", "")
    existing_payee(db, account_id, code, account_number)
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
    check_payee_removable(db, payee)
    db.delete(payees, payee_id)
    return PayeeObject(**payee)


@tool(read_only=True)
def list_payments(db: Database, account_id: str, status: PaymentStatus | None = None) -> list[PaymentObject]:
    """List an account's outgoing Faster Payments, newest first.

    Args:
        account_id: The account's ID (acc_...).
        status: Only payments in this status.
    """
    db.get(accounts, account_id, "Account")
    rows = db.find(payments, account_id=account_id, order_by=[payments.c.created.desc()], **given(status=status))
    return [PaymentObject(**r) for r in rows]


@tool()
def make_faster_payment(
    db: Database, account_id: str, payee_id: str, amount: Pennies, reference: Reference, dedupe_id: str
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
    account = transfer_account(db, account_id)
    payee = account_payee(db, account_id, payee_id)
    repeated = db.find(payments, account_id=account_id, dedupe_id=dedupe_id)
    if repeated:
        return PaymentObject(**repeated[0])
    check_funds(account, amount)
    check_daily_limit(db, account, amount)
    waits = needs_approval(db, payee_id, amount)
    row: dict[str, Any] = db.insert(
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
    return PaymentObject(**(row if waits else send(db, row)))


# ---------------------------------------------------------------- the account holder


@tool(user_only=True)
def approve_in_app(db: Database, payee_name: str, amount: Pennies, approve: bool = True) -> PaymentObject:
    """(Account holder only, in the Monzo app) Approve or decline a payment waiting for strong customer
    authentication.

    Args:
        payee_name: The payee the app shows.
        amount: The amount the app shows, in pennies.
        approve: true to approve (the money leaves), false to decline.
    """
    payment = waiting_payment(db, payee_name, amount)
    if not approve:
        return PaymentObject(**db.update(payments, payment["id"], status="declined"))
    return PaymentObject(**send(db, payment))
