"""Moving crypto on chain: sends (network, address, minimum and allowlist checks, the network fee on top, funds
held while a send waits for approval in the app, the account holder's approval or denial), receive addresses and
address-book entries."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import check_allowlisted, needs_approval
from .rules import (
    adjust,
    check_address,
    check_available,
    dec,
    fmt,
    generated_address,
    native,
    network,
    parse_amount,
    places,
    record,
)
from .rules import tx_hash as chain_hash
from .schema import accounts, address_book, addresses, transactions
from .trades import crypto_account


def send(
    db: Database,
    account_id: str,
    to: str,
    amount: float,
    network_name: str | None,
    description: str | None,
    idem: str | None,
) -> dict[str, Any]:
    """Send crypto to an allowlisted address; a send worth the 2-step threshold or more waits, held, for approval."""
    account = crypto_account(db, account_id)
    code = account["currency"]
    net = network(db, code, network_name)
    address = check_address(net, to)
    if idem is not None:
        repeated = db.find(transactions, account_id=account_id, idem=idem)
        if repeated:
            return repeated[0]
    exp = places(db, code)
    quantity = parse_amount(amount, exp)
    if quantity < dec(net["min_send"]):
        raise InvalidRequest(f"The minimum send of {code} on {net['display_name']} is {net['min_send']} {code}")
    check_allowlisted(db, code, net["name"], address)
    fee = dec(net["network_fee"])
    total = quantity + fee
    check_available(db, account, total, "this send")
    waits = needs_approval(db, native(db, code, quantity))
    info = {
        "name": net["name"],
        "status": "pending" if waits else "confirmed",
        "hash": None,
        "transaction_fee": fmt(fee, exp),
        "transaction_amount": fmt(quantity, exp),
    }
    adjust(db, account, available=-total, hold=total if waits else Decimal(0))
    row = record(
        db,
        account,
        "send",
        -total,
        status="pending" if waits else "completed",
        description=description,
        awaiting_2fa=waits,
        network=info,
        to_address=address,
        idem=idem,
    )
    if waits:
        return row
    return db.update(transactions, row["id"], network=info | {"hash": chain_hash(net["name"], row["id"])})


def decide(db: Database, amount: float, code: str, approve: bool) -> dict[str, Any]:
    """Approve (the crypto leaves) or deny (the held funds return) the latest send of `amount` awaiting approval."""
    wanted = Decimal(str(amount))
    waiting = [
        t
        for t in db.find(
            transactions, type="send", awaiting_2fa=True, currency=code, order_by=[transactions.c.created_at]
        )
        if dec(t["network"]["transaction_amount"]) == wanted
    ]
    if not waiting:
        raise NotFound(f"No send of {amount} {code} is waiting for your approval")
    tx = waiting[-1]
    total = -dec(tx["amount"])
    account = db.get(accounts, tx["account_id"])
    if approve:
        adjust(db, account, hold=-total)
        info = tx["network"] | {"status": "confirmed", "hash": chain_hash(tx["network"]["name"], tx["id"])}
        return db.update(transactions, tx["id"], status="completed", awaiting_2fa=False, network=info)
    adjust(db, account, available=total, hold=-total)
    return db.update(
        transactions, tx["id"], status="canceled", awaiting_2fa=False, network=tx["network"] | {"status": "canceled"}
    )


def new_receive_address(
    db: Database, account: dict[str, Any], name: str | None, network_name: str | None
) -> dict[str, Any]:
    """A fresh deposit address for a crypto wallet on a network (its default one when not named)."""
    net = network(db, account["currency"], network_name)
    address_id = db.new_uuid(addresses)
    return db.insert(
        addresses,
        id=address_id,
        account_id=account["uuid"],
        address=generated_address(net["name"], address_id),
        name=name.strip() if name else None,
        network=net["name"],
        created_at=db.now_iso(),
    )


def save_address(db: Database, code: str, address: str, label: str, network_name: str | None) -> dict[str, Any]:
    """Add a valid external address to the address book, once per currency, network and address."""
    net = network(db, code, network_name)
    clean = check_address(net, address)
    existing = db.find(address_book, currency=code, network=net["name"], address=clean)
    if existing:
        raise Conflict(f"This address is already in your address book as '{existing[0]['label']}'")
    return db.insert(
        address_book,
        id=db.new_uuid(address_book),
        currency=code,
        network=net["name"],
        address=clean,
        label=label.strip(),
        added_at=db.now_iso(),
    )
