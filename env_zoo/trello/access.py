"""Who the assistant acts as (the member whose API token it holds) and what that member may see and do: boards
are visible to their members, org boards to the workspace's members too, public boards to everyone; observers
read and (where the board allows) comment; normal members and admins edit; board settings and membership need an
admin (or, for invitations, any member where the board allows it). Closed boards are read-only."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .schema import board_memberships, boards, cards, checklists, lists, members, org_memberships, sessions

UNAUTHORIZED = "unauthorized permission requested"
INVALID_TOKEN = "invalid token"
RANK = {None: 0, "observer": 1, "normal": 2, "admin": 3}


def me(db: Database) -> str:
    """The id of the signed-in member."""
    return str(db.current_session(sessions, INVALID_TOKEN)["member"])


def board_role(db: Database, board: dict[str, Any], member: str | None = None) -> str | None:
    """The member's type on a board (admin, normal, observer), or None when they are not on it."""
    found = db.find(board_memberships, board=board["id"], member=member or me(db))
    return str(found[0]["member_type"]) if found else None


def in_workspace(db: Database, organization: str | None, member: str | None = None) -> bool:
    """Whether the member belongs to the workspace."""
    return bool(organization) and bool(db.find(org_memberships, organization=organization, member=member or me(db)))


def can_see(db: Database, board: dict[str, Any]) -> bool:
    """Whether the signed-in member can see the board."""
    if board["permission_level"] == "public" or board_role(db, board) is not None:
        return True
    return board["permission_level"] == "org" and in_workspace(db, board["organization"])


def board_of(db: Database, board_id: str) -> dict[str, Any]:
    """A board the signed-in member can see, by id or short link."""
    key = board_id.strip()
    found = db.find(boards, id=key) or db.find(boards, short_link=key)
    if not found or not can_see(db, found[0]):
        raise NotFound("The requested resource was not found.")
    return found[0]


def writable_board(db: Database, board: dict[str, Any], need: str = "normal") -> dict[str, Any]:
    """The board, when the signed-in member may change it with at least `need` rights and it is open."""
    if RANK[board_role(db, board)] < RANK[need]:
        raise PermissionDenied(UNAUTHORIZED)
    if board["closed"]:
        raise PermissionDenied(f"Board {board['name']} is closed; reopen it first")
    return board


def list_of(db: Database, list_id: str, field: str = "idList") -> tuple[dict[str, Any], dict[str, Any]]:
    """A list, with its board, that the signed-in member can see."""
    found = db.find(lists, id=list_id.strip())
    if not found:
        raise InvalidRequest(f"invalid value for {field}")
    board = db.get(boards, found[0]["board"])
    if not can_see(db, board):
        raise InvalidRequest(f"invalid value for {field}")
    return found[0], board


def card_of(db: Database, card_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A card (by id or short link), with its board, that the signed-in member can see."""
    key = card_id.strip()
    found = db.find(cards, id=key) or db.find(cards, short_link=key)
    if not found:
        raise NotFound("The requested resource was not found.")
    board = db.get(boards, found[0]["board"])
    if not can_see(db, board):
        raise NotFound("The requested resource was not found.")
    return found[0], board


def editable_card(db: Database, card_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A card the signed-in member may edit (normal or admin on its open board)."""
    card, board = card_of(db, card_id)
    return card, writable_board(db, board)


def checklist_of(db: Database, checklist_id: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A checklist with its card and board, which the signed-in member may edit."""
    found = db.find(checklists, id=checklist_id.strip())
    if not found:
        raise NotFound("The requested resource was not found.")
    card, board = editable_card(db, found[0]["card"])
    return found[0], card, board


def member_ref(db: Database, value: str) -> dict[str, Any]:
    """A member given as an id, a username (with or without @) or an email."""
    key = value.strip().lstrip("@")
    found = db.find(members, id=key) or db.find(members, username=key.lower()) or db.find(members, email=key.lower())
    if not found:
        raise NotFound("member not found")
    return found[0]
