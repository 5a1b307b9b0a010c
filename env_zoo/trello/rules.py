"""Trello's rules shared by the tools: ids and short links, positions ("top", "bottom" or a positive number),
due and start dates, the card history (actions), moving a card to another board, and what deleting removes."""

from __future__ import annotations

import hashlib
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import board_role, in_workspace
from .schema import (
    actions,
    board_memberships,
    boards,
    card_labels,
    card_members,
    cards,
    check_items,
    checklists,
    labels,
    lists,
    organizations,
)

POS_STEP = 16384.0
CLEAR = "null"
MAX_CHECK_ITEMS = 200
LABEL_COLORS = ("green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black")
ID_PREFIX = {
    "cards": "67d1a4e90b3c5f28",
    "lists": "67d1a4e90b3c5f11",
    "labels": "67d1a4e90b3c5f3a",
    "checklists": "67d1a4e90b3c5f4b",
    "check_items": "67d1a4e90b3c5f5c",
    "actions": "67d1a4e90b3c5f6d",
    "board_memberships": "67d1a4e90b3c5f7e",
}
_LINK_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_id(db: Database, table: Any) -> str:
    """A fresh 24-character hex id for a row of `table`."""
    return db.new_id(table, ID_PREFIX[table.name], width=8)


def short_link(object_id: str) -> str:
    """The 8-character short link Trello shows in a card's URL, derived from its id."""
    digest = hashlib.sha256(object_id.encode()).digest()
    return "".join(_LINK_ALPHABET[b % len(_LINK_ALPHABET)] for b in digest[:8])


def position(siblings: list[dict[str, Any]], pos: str | float | None, default: str = "bottom") -> float:
    """The float position for "top", "bottom" or a positive number among `siblings` (rows with `pos`)."""
    where = default if pos is None else pos
    taken = sorted(float(s["pos"]) for s in siblings)
    if isinstance(where, str):
        if where == "top":
            return taken[0] / 2 if taken else POS_STEP
        if where == "bottom":
            return taken[-1] + POS_STEP if taken else POS_STEP
        raise InvalidRequest("invalid value for pos")
    if where <= 0:
        raise InvalidRequest("invalid value for pos")
    return float(where)


def moment(value: str, field: str) -> str | None:
    """A due or start argument as stored: ISO 8601 UTC with milliseconds, or None for "null"."""
    if value.strip().lower() == CLEAR:
        return None
    try:
        return iso_timestamp(parse_timestamp(value, field, dates=True, naive_as_utc=True), milliseconds=True)
    except InvalidRequest:
        raise InvalidRequest(f"invalid value for {field}") from None


def check_dates(start: str | None, due: str | None) -> None:
    """A start date must come before the due date."""
    if start and due and start >= due:
        raise InvalidRequest("invalid value for start: the start date must be before the due date")


def log(db: Database, kind: str, board: str, card: str | None, member: str, data: dict[str, Any]) -> dict[str, Any]:
    """Record an action (a comment or a change) on the board's history, and touch the board's activity."""
    row = db.insert(
        actions,
        id=new_id(db, actions),
        type=kind,
        board=board,
        card=card,
        member_creator=member,
        data=data,
        date=iso_timestamp(db.now(), milliseconds=True),
    )
    db.update(boards, board, date_last_activity=row["date"])
    return row


def next_short_id(db: Database, board: str) -> int:
    """The next per-board card number."""
    found = db.select(cards, "board = ?", [board], order_by="id_short DESC", limit=1)
    return int(found[0]["id_short"]) + 1 if found else 1


def transfer(db: Database, card: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
    """Column changes for a card moving to another board: a new card number there; its labels kept where that
    board has a label of the same name and color, else dropped; members not on that board taken off."""
    own = {row["label"] for row in db.find(card_labels, card=card["id"])}
    targets = {(row["name"], row["color"]): row["id"] for row in db.find(labels, board=board["id"])}
    for label in own:
        old = db.get(labels, label)
        db.conn.execute(card_labels.delete().where(card_labels.c.card == card["id"], card_labels.c.label == label))
        match = targets.get((old["name"], old["color"]))
        if match is not None:
            db.insert(card_labels, card=card["id"], label=match)
    on_board = {row["member"] for row in db.find(board_memberships, board=board["id"])}
    for row in db.find(card_members, card=card["id"]):
        if row["member"] not in on_board:
            db.conn.execute(
                card_members.delete().where(card_members.c.card == card["id"], card_members.c.member == row["member"])
            )
    return {"board": board["id"], "id_short": next_short_id(db, board["id"])}


def set_links(db: Database, table: Any, card: str, column: str, values: list[str]) -> None:
    """Replace a card's labels or members with `values`."""
    db.conn.execute(table.delete().where(table.c.card == card))
    for value in values:
        db.insert(table, card=card, **{column: value})


def delete_card(db: Database, card: dict[str, Any]) -> None:
    """Delete a card for good: its labels, members, checklists and comments go with it."""
    if not card["closed"]:
        raise Conflict("Archive the card before deleting it; only archived cards can be deleted")
    key = card["id"]
    for checklist in db.find(checklists, card=key):
        db.conn.execute(check_items.delete().where(check_items.c.checklist == checklist["id"]))
        db.delete(checklists, checklist["id"])
    for table in (card_labels, card_members):
        db.conn.execute(table.delete().where(table.c.card == key))
    db.conn.execute(actions.delete().where(actions.c.card == key, actions.c.type == "commentCard"))
    db.delete(cards, key)


def open_list(db: Database, list_row: dict[str, Any]) -> dict[str, Any]:
    """A list that takes cards: not archived."""
    if list_row["closed"]:
        raise Conflict(f"List {list_row['name']} is archived; unarchive it or pick another list")
    return list_row


def admins_left(db: Database, board: str, without: str) -> int:
    """How many admins the board keeps when `without` stops being one."""
    return len([m for m in db.find(board_memberships, board=board, member_type="admin") if m["member"] != without])


def list_cards(db: Database, list_id: str, closed: bool | None = False) -> list[dict[str, Any]]:
    """The cards of a list in position order (open ones only by default)."""
    if closed is None:
        return db.find(cards, list=list_id, order_by=[cards.c.pos])
    return db.find(cards, list=list_id, closed=closed, order_by=[cards.c.pos])


def lists_of(db: Database, board: str) -> list[dict[str, Any]]:
    """The lists of a board in position order."""
    return db.find(lists, board=board, order_by=[lists.c.pos])


def premium(db: Database, board: dict[str, Any]) -> bool:
    """Whether the board's workspace is on the Premium plan (observers and some settings need it)."""
    return bool(board["organization"]) and db.get(organizations, board["organization"])["plan"] == "premium"


def board_labels(db: Database, board: dict[str, Any], ids: list[str]) -> list[str]:
    """Label ids that must all be the board's."""
    keys = list(dict.fromkeys(i.strip() for i in ids))
    for key in keys:
        if not db.find(labels, id=key, board=board["id"]):
            raise InvalidRequest("invalid value for idLabels")
    return keys


def board_people(db: Database, board: dict[str, Any], ids: list[str], field: str = "idMembers") -> list[str]:
    """Member ids that must all be members of the board."""
    keys = list(dict.fromkeys(i.strip() for i in ids))
    for key in keys:
        if not db.find(board_memberships, board=board["id"], member=key):
            raise InvalidRequest(f"invalid value for {field}: not a member of the board")
    return keys


def may_comment(db: Database, board: dict[str, Any]) -> None:
    """Whether the signed-in member may comment on the board's cards, by its comments setting."""
    role = board_role(db, board)
    setting = board["comments"]
    allowed = {
        "disabled": False,
        "members": role in ("normal", "admin"),
        "observers": role is not None,
        "org": role is not None or in_workspace(db, board["organization"]),
        "public": True,
    }[setting]
    if not allowed:
        raise PermissionDenied("unauthorized permission requested: comments on this board are limited")
    if board["closed"]:
        raise PermissionDenied(f"Board {board['name']} is closed; reopen it first")
