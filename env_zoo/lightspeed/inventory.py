"""Stock work between and within shops: inventory counts (items counted into an open count, scans of one item
adding up; reconciling, a manager's job, sets each counted item's quantity on hand to what was counted and records
the differences) and transfers (a draft names the items to send from one shop to another; sending takes the stock
out of the sending shop, never more than it has; receiving puts what arrived into the receiving shop, never more
than was sent)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict
from .rules import add_stock, fetch, next_key, require, sellable_item, stock
from .schema import inventory_count_items, inventory_counts, items, shops, transfers


def counted(db: Database, count_id: int) -> dict[int, int]:
    """Units counted per item in a count."""
    totals: dict[int, int] = {}
    for row in db.find(inventory_count_items, inventory_count_id=count_id):
        totals[row["item_id"]] = totals.get(row["item_id"], 0) + row["qty"]
    return totals


def create_count(db: Database, shop_id: int, name: str) -> dict[str, Any]:
    """Start an inventory count at a shop."""
    employee = require(db, "count")
    shop = fetch(db, shops, shop_id, "Shop")
    if shop["archived"]:
        raise bad_request(f"Shop {shop_id} is archived.")
    return db.insert(
        inventory_counts,
        inventory_count_id=next_key(db, inventory_counts),
        shop_id=shop_id,
        name=name,
        status="open",
        employee_id=employee["employee_id"],
        create_time=db.now_iso(),
        reconcile_time=None,
        adjustments=None,
    )


def open_count(db: Database, count_id: int) -> dict[str, Any]:
    """A count that has not been reconciled."""
    count = fetch(db, inventory_counts, count_id, "InventoryCount")
    if count["status"] != "open":
        raise conflict(f"InventoryCount {count_id} is already reconciled.")
    return count


def add_counted(db: Database, count_id: int, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Record counted units of items."""
    employee = require(db, "count")
    count = open_count(db, count_id)
    for entry in entries:
        sellable_item(db, entry["item_id"])
        stock(db, entry["item_id"], count["shop_id"])
    for entry in entries:
        db.insert(
            inventory_count_items,
            inventory_count_item_id=next_key(db, inventory_count_items),
            inventory_count_id=count_id,
            item_id=entry["item_id"],
            qty=entry["qty"],
            employee_id=employee["employee_id"],
        )
    return count


def reconcile(db: Database, count_id: int) -> dict[str, Any]:
    """Set each counted item's quantity on hand at the count's shop to the count."""
    require(db, "reconcile")
    count = open_count(db, count_id)
    totals = counted(db, count_id)
    if not totals:
        raise bad_request(f"InventoryCount {count_id} has no counted items.")
    adjustments = []
    for item_id, qty in sorted(totals.items()):
        before = stock(db, item_id, count["shop_id"])["qoh"]
        add_stock(db, item_id, count["shop_id"], qty - before)
        adjustments.append({"itemID": item_id, "qohBefore": before, "counted": qty, "difference": qty - before})
    return db.update(
        inventory_counts, count_id, status="reconciled", reconcile_time=db.now_iso(), adjustments=adjustments
    )


def create_transfer(
    db: Database, send_shop_id: int, receive_shop_id: int, entries: list[dict[str, Any]], note: str
) -> dict[str, Any]:
    """A draft transfer of items from one shop to another."""
    employee = require(db, "transfer")
    if send_shop_id == receive_shop_id:
        raise bad_request("The sending and receiving shops must differ.")
    for shop_id in (send_shop_id, receive_shop_id):
        fetch(db, shops, shop_id, "Shop")
    lines: dict[int, int] = {}
    for entry in entries:
        sellable_item(db, entry["item_id"])
        lines[entry["item_id"]] = lines.get(entry["item_id"], 0) + entry["quantity"]
    return db.insert(
        transfers,
        transfer_id=next_key(db, transfers),
        send_shop_id=send_shop_id,
        receive_shop_id=receive_shop_id,
        status="draft",
        note=note,
        items=[{"itemID": i, "toSend": q, "received": 0} for i, q in lines.items()],
        created_by=employee["employee_id"],
        create_time=db.now_iso(),
        sent_time=None,
        received_time=None,
    )


def send(db: Database, transfer_id: int) -> dict[str, Any]:
    """Send a draft transfer: the sending shop's stock goes out."""
    require(db, "transfer")
    transfer = fetch(db, transfers, transfer_id, "Transfer")
    if transfer["status"] != "draft":
        raise conflict(f"Transfer {transfer_id} is {transfer['status']}; only a draft can be sent.")
    for line in transfer["items"]:
        on_hand = stock(db, line["itemID"], transfer["send_shop_id"])["qoh"]
        if line["toSend"] > on_hand:
            item = db.get(items, line["itemID"])
            raise bad_request(
                f"Not enough stock of {item['description']} at shop {transfer['send_shop_id']}: "
                f"{on_hand} on hand, {line['toSend']} to send."
            )
    for line in transfer["items"]:
        add_stock(db, line["itemID"], transfer["send_shop_id"], -line["toSend"])
    return db.update(transfers, transfer_id, status="sent", sent_time=db.now_iso())


def receive(db: Database, transfer_id: int, arrived: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Receive a sent transfer: what arrived (everything sent when not said) goes into the receiving shop."""
    require(db, "transfer")
    transfer = fetch(db, transfers, transfer_id, "Transfer")
    if transfer["status"] != "sent":
        raise conflict(f"Transfer {transfer_id} is {transfer['status']}; only a sent transfer can be received.")
    sent = {line["itemID"]: line["toSend"] for line in transfer["items"]}
    got = dict(sent) if arrived is None else {i: 0 for i in sent}
    for entry in arrived or []:
        if entry["item_id"] not in sent:
            raise bad_request(f"Item {entry['item_id']} is not on transfer {transfer_id}.")
        got[entry["item_id"]] = entry["received"]
        if entry["received"] > sent[entry["item_id"]]:
            raise bad_request(
                f"Cannot receive {entry['received']} of item {entry['item_id']}: only {sent[entry['item_id']]} sent."
            )
    for item_id, qty in got.items():
        if qty:
            add_stock(db, item_id, transfer["receive_shop_id"], qty)
    lines = [{**line, "received": got[line["itemID"]]} for line in transfer["items"]]
    return db.update(transfers, transfer_id, status="received", items=lines, received_time=db.now_iso())
