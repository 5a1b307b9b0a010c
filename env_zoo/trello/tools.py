"""Trello REST API tools as the member whose API token the assistant holds sees them: their workspaces and
boards, lists, cards (labels, members, dates, positions), checklists, comments and history, board membership and
settings; plus the member's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, Unordered, tool
from envfactory_gym.fields import ErrorText, NonBlankText

from . import rules
from .access import (
    RANK,
    UNAUTHORIZED,
    board_of,
    board_role,
    can_see,
    card_of,
    checklist_of,
    editable_card,
    list_of,
    me,
    member_ref,
    writable_board,
)
from .objects import (
    Action,
    ArchivedCards,
    Board,
    BoardMember,
    BoardSummary,
    Card,
    CardSummary,
    CheckItem,
    Checklist,
    Deleted,
    Label,
    Me,
    SearchResults,
    TrelloList,
    action_object,
    board_members,
    board_object,
    board_summary,
    card_object,
    card_summaries,
    checklist_object,
    label_object,
    list_object,
    me_object,
)
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
    sessions,
    tokens,
)

TrelloId = Annotated[str, Field(pattern=r"^\s*[0-9a-fA-F]{24}\s*$"), ErrorText("invalid id")]
CardRef = Annotated[
    str,
    Field(pattern=r"^\s*([0-9a-fA-F]{24}|[A-Za-z0-9]{8})\s*$", description="a card id or its 8-character short link"),
    ErrorText("invalid id"),
]
BoardRef = Annotated[
    str,
    Field(pattern=r"^\s*([0-9a-fA-F]{24}|[A-Za-z0-9]{8})\s*$", description="a board id or its 8-character short link"),
    ErrorText("invalid id"),
]
Ids = Annotated[list[TrelloId], Unordered, Field(max_length=50)]
Name = Annotated[str, Field(min_length=1, max_length=16384, pattern=r"\S"), ErrorText("invalid value for name")]
Desc = Annotated[str, Field(max_length=16384), ErrorText("invalid value for desc")]
CommentText = Annotated[str, Field(min_length=1, max_length=16384, pattern=r"\S"), ErrorText("invalid value for text")]
Pos = Literal["top", "bottom"] | Annotated[float, Field(gt=0)]
When = Annotated[str, Field(min_length=4, description='ISO 8601 date-time (UTC if no zone), or "null" to remove')]
Color = Literal["green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"]
Filter = Literal["open", "closed", "all"]


def _touch(db: Database, card: dict, **changes: object) -> dict:
    return db.update(cards, card["id"], date_last_activity=db.now_iso(), **changes)


# ---------------------------------------------------------------- the member


@tool(user_only=True)
def sign_in(db: Database, token: NonBlankText) -> Me:
    """(User only) The member pastes an API token they generated for the assistant; the assistant then acts as them.

    Args:
        token: The API token (ATTA followed by 60 hex characters).
    """
    found = db.find(tokens, token=token.strip())
    if not found:
        raise PermissionDenied("invalid token")
    db.start_session(sessions, member=found[0]["member"])
    return me_object(db, found[0]["member"])


@tool(read_only=True)
def get_me(db: Database) -> Me:
    """Get the signed-in member with their workspaces and the ids of their boards (GET /members/me)."""
    return me_object(db, me(db))


# ---------------------------------------------------------------- boards


@tool(read_only=True)
def list_boards(db: Database, filter: Filter = "open", idOrganization: TrelloId | None = None) -> list[BoardSummary]:
    """List the boards you are a member of, A-Z (GET /members/me/boards).

    Args:
        filter: open (default), closed (archived boards) or all.
        idOrganization: Only the boards of this workspace (an id from get_me).
    """
    member = me(db)
    ids = [m["board"] for m in db.find(board_memberships, member=member)]
    rows = [db.get(boards, b) for b in ids]
    if filter != "all":
        rows = [r for r in rows if r["closed"] == (filter == "closed")]
    if idOrganization is not None:
        rows = [r for r in rows if r["organization"] == idOrganization.strip()]
    rows.sort(key=lambda r: (r["name"].lower(), r["id"]))
    return [board_summary(db, r) for r in rows]


@tool(read_only=True)
def get_board(db: Database, board_id: BoardRef) -> Board:
    """Get a board with its settings, its labels and your member type on it (GET /boards/{id}).

    Args:
        board_id: The board's id or short link.
    """
    return board_object(db, board_of(db, board_id))


@tool()
def update_board(
    db: Database,
    board_id: BoardRef,
    name: Name | None = None,
    desc: Desc | None = None,
    closed: bool | None = None,
    permissionLevel: Literal["private", "org", "public"] | None = None,
    comments: Literal["disabled", "members", "observers", "org", "public"] | None = None,
    invitations: Literal["members", "admins"] | None = None,
) -> Board:
    """Rename, describe, close (archive) or reopen a board, or change its settings (PUT /boards/{id}). Board admins
    only. A closed board is read-only until reopened; an org-visible board needs a workspace.

    Args:
        board_id: The board's id or short link.
        name: A new name.
        desc: A new description.
        closed: true closes (archives) the board, false reopens it.
        permissionLevel: Who can see it: private (its members), org (its workspace), public.
        comments: Who may comment: disabled, members, observers (members and observers), org, public.
        invitations: Who may add members: members or admins.
    """
    board = board_of(db, board_id)
    if board_role(db, board) != "admin":
        raise PermissionDenied(UNAUTHORIZED)
    if board["closed"] and closed is not False:
        raise PermissionDenied(f"Board {board['name']} is closed; reopen it first")
    if permissionLevel == "org" and not board["organization"]:
        raise InvalidRequest("invalid value for prefs/permissionLevel: the board is not in a workspace")
    changes = dict(
        name=name.strip() if name is not None else None,
        desc=desc,
        closed=closed,
        permission_level=permissionLevel,
        comments=comments,
        invitations=invitations,
    )
    row = db.update(boards, board["id"], **{k: v for k, v in changes.items() if v is not None})
    return board_object(db, row)


@tool(read_only=True)
def get_board_members(db: Database, board_id: BoardRef) -> list[BoardMember]:
    """List a board's members with their type (admin, normal, observer) (GET /boards/{id}/memberships).

    Args:
        board_id: The board's id or short link.
    """
    return board_members(db, board_of(db, board_id)["id"])


@tool()
def add_board_member(
    db: Database, board_id: BoardRef, member: NonBlankText, type: Literal["admin", "normal", "observer"] = "normal"
) -> list[BoardMember]:
    """Add someone to a board, or change the type of someone already on it (PUT /boards/{id}/members/{idMember}).
    Changing types needs a board admin; adding needs an admin, or any member where the board lets members invite.
    Observers are a Premium workspace feature. A board keeps at least one admin.

    Args:
        board_id: The board's id or short link.
        member: The person's member id, username or email.
        type: admin, normal (default) or observer.
    """
    board = board_of(db, board_id)
    mine = board_role(db, board)
    person = member_ref(db, member)
    current = db.find(board_memberships, board=board["id"], member=person["id"])
    allowed = mine == "admin" or (not current and board["invitations"] == "members" and RANK[mine] >= RANK["normal"])
    if not allowed or (type == "admin" and mine != "admin"):
        raise PermissionDenied(UNAUTHORIZED)
    writable_board(db, board, "observer")
    if type == "observer" and not rules.premium(db, board):
        raise InvalidRequest("invalid value for type: observers need a Premium workspace")
    if current:
        if (
            current[0]["member_type"] == "admin"
            and type != "admin"
            and not rules.admins_left(db, board["id"], person["id"])
        ):
            raise Conflict("A board must have at least one admin")
        db.update(board_memberships, current[0]["id"], member_type=type)
    else:
        db.insert(
            board_memberships,
            id=rules.new_id(db, board_memberships),
            board=board["id"],
            member=person["id"],
            member_type=type,
        )
    return board_members(db, board["id"])


@tool()
def remove_board_member(db: Database, board_id: BoardRef, member: NonBlankText) -> list[BoardMember]:
    """Take someone off a board (DELETE /boards/{id}/members/{idMember}); they also come off its cards. Board admins
    only, though anyone may remove themselves; a board keeps at least one admin.

    Args:
        board_id: The board's id or short link.
        member: The person's member id, username or email.
    """
    board = board_of(db, board_id)
    person = member_ref(db, member)
    if board_role(db, board) != "admin" and person["id"] != me(db):
        raise PermissionDenied(UNAUTHORIZED)
    writable_board(db, board, "observer")
    current = db.find(board_memberships, board=board["id"], member=person["id"])
    if not current:
        raise NotFound(f"{person['full_name']} is not a member of this board")
    if current[0]["member_type"] == "admin" and not rules.admins_left(db, board["id"], person["id"]):
        raise Conflict("A board must have at least one admin")
    db.delete(board_memberships, current[0]["id"])
    for card in db.find(cards, board=board["id"]):
        db.conn.execute(
            card_members.delete().where(card_members.c.card == card["id"], card_members.c.member == person["id"])
        )
    return board_members(db, board["id"])


@tool()
def create_label(
    db: Database, board_id: BoardRef, name: Annotated[str, Field(max_length=16384)], color: Color | None
) -> Label:
    """Create a label on a board (POST /labels). A board has one label of each name and color.

    Args:
        board_id: The board's id or short link.
        name: The label's name (may be empty for a color-only label).
        color: green, yellow, orange, red, purple, blue, sky, lime, pink, black, or null for no color.
    """
    board = writable_board(db, board_of(db, board_id))
    if db.find(labels, board=board["id"], name=name.strip(), color=color):
        raise Conflict(f"The board already has a {color or 'colorless'} label named {name.strip()!r}")
    row = db.insert(labels, id=rules.new_id(db, labels), board=board["id"], name=name.strip(), color=color)
    return label_object(row)


# ---------------------------------------------------------------- lists


@tool(read_only=True)
def get_lists(db: Database, board_id: BoardRef, filter: Filter = "open") -> list[TrelloList]:
    """List a board's lists left to right (GET /boards/{id}/lists).

    Args:
        board_id: The board's id or short link.
        filter: open (default), closed (archived lists) or all.
    """
    board = board_of(db, board_id)
    found = rules.lists_of(db, board["id"])
    if filter != "all":
        found = [r for r in found if r["closed"] == (filter == "closed")]
    return [list_object(r) for r in found]


@tool()
def create_list(db: Database, board_id: BoardRef, name: Name, pos: Pos = "bottom") -> TrelloList:
    """Add a list to a board (POST /lists). Lists cannot be deleted, only archived.

    Args:
        board_id: The board's id or short link.
        name: The list's name.
        pos: top, bottom (default) or a positive number; to go between two, the midpoint of their pos values.
    """
    board = writable_board(db, board_of(db, board_id))
    place = rules.position(rules.lists_of(db, board["id"]), pos)
    row = db.insert(lists, id=rules.new_id(db, lists), board=board["id"], name=name.strip(), closed=False, pos=place)
    return list_object(row)


@tool()
def update_list(
    db: Database,
    list_id: TrelloId,
    name: Name | None = None,
    closed: bool | None = None,
    pos: Pos | None = None,
) -> TrelloList:
    """Rename, move, archive or unarchive a list (PUT /lists/{id}). Archiving a list hides it with its cards; the
    cards stay open and come back with it.

    Args:
        list_id: The list's id.
        name: A new name.
        closed: true archives the list, false unarchives it.
        pos: top, bottom or a positive number; to go between two, the midpoint of their pos values.
    """
    row, board = list_of(db, list_id, "id")
    writable_board(db, board)
    changes: dict = {}
    if name is not None:
        changes["name"] = name.strip()
    if closed is not None:
        changes["closed"] = closed
    if pos is not None:
        others = [r for r in rules.lists_of(db, board["id"]) if r["id"] != row["id"]]
        changes["pos"] = rules.position(others, pos)
    return list_object(db.update(lists, row["id"], **changes))


@tool()
def archive_all_cards(db: Database, list_id: TrelloId) -> ArchivedCards:
    """Archive every open card of a list (POST /lists/{id}/archiveAllCards).

    Args:
        list_id: The list's id.
    """
    row, board = list_of(db, list_id, "id")
    writable_board(db, board)
    closed = []
    for card in rules.list_cards(db, row["id"]):
        _touch(db, card, closed=True)
        closed.append(card["id"])
    return ArchivedCards(idList=row["id"], archived=closed)


# ---------------------------------------------------------------- cards


@tool(read_only=True)
def get_cards(
    db: Database, board_id: BoardRef | None = None, list_id: TrelloId | None = None, filter: Filter = "open"
) -> list[CardSummary]:
    """List the cards of a board (list by list, top to bottom) or of one list (GET /boards/{id}/cards, GET
    /lists/{id}/cards). Give exactly one of board_id or list_id. Cards of archived lists are left out of a board's
    open cards.

    Args:
        board_id: The board's id or short link.
        list_id: The list's id.
        filter: open (default), closed (archived cards) or all.
    """
    if (board_id is None) == (list_id is None):
        raise InvalidRequest("Give exactly one of board_id or list_id")
    closed = None if filter == "all" else filter == "closed"
    if list_id is not None:
        row, _ = list_of(db, list_id, "id")
        found = rules.list_cards(db, row["id"], closed)
    else:
        assert board_id is not None  # exactly one was given, checked above
        board = board_of(db, board_id)
        found = []
        for row in rules.lists_of(db, board["id"]):
            if filter == "open" and row["closed"]:
                continue
            found.extend(rules.list_cards(db, row["id"], closed))
    return card_summaries(db, found)


@tool(read_only=True)
def get_card(db: Database, card_id: CardRef) -> Card:
    """Get a card with its description, dates, labels, members and checklists (GET /cards/{id}).

    Args:
        card_id: The card's id or its short link (the 8 characters after trello.com/c/).
    """
    card, _ = card_of(db, card_id)
    return card_object(db, card)


@tool(read_only=True)
def search(
    db: Database,
    query: NonBlankText,
    modelTypes: Literal["cards", "boards", "all"] = "all",
    idBoards: Ids | None = None,
    cards_limit: Annotated[int, Field(ge=1, le=1000)] = 10,
    cards_page: Annotated[int, Field(ge=0, le=100)] = 0,
    include_closed: bool = False,
) -> SearchResults:
    """Search the boards and cards you can see by words in their name (and a card's description) (GET /search).
    Every word must match (case-insensitive); archived cards and closed boards only with include_closed.

    Args:
        query: The words to look for.
        modelTypes: What to search: cards, boards or all (default).
        idBoards: Only cards of these boards.
        cards_limit: Cards per page, 1 to 1000 (default 10).
        cards_page: Which page of cards, from 0.
        include_closed: Also archived cards and closed boards.
    """
    words = [w.lower() for w in query.split()]
    like = " AND ".join(['(lower(name) LIKE ? OR lower("desc") LIKE ?)'] * len(words))
    params: list = [p for w in words for p in (f"%{w}%", f"%{w}%")]
    found_cards: list[CardSummary] = []
    found_boards: list[BoardSummary] = []
    if modelTypes in ("cards", "all"):
        where = like + ("" if include_closed else " AND closed = 0")
        extra: list = []
        if idBoards:
            where += f" AND board IN ({', '.join('?' * len(idBoards))})"
            extra = [b.strip() for b in idBoards]
        rows = db.select(cards, where, params + extra, order_by="date_last_activity DESC")
        seen = {}
        hits = []
        for row in rows:
            if row["board"] not in seen:
                board = db.get(boards, row["board"])
                seen[row["board"]] = can_see(db, board) and (include_closed or not board["closed"])
            if seen[row["board"]]:
                hits.append(row)
        start = cards_page * cards_limit
        found_cards = card_summaries(db, hits[start : start + cards_limit])
    if modelTypes in ("boards", "all"):
        where = " AND ".join(["lower(name) LIKE ?"] * len(words)) + ("" if include_closed else " AND closed = 0")
        rows = db.select(boards, where, [f"%{w}%" for w in words], order_by="name")
        found_boards = [board_summary(db, r) for r in rows if can_see(db, r)]
    return SearchResults(cards=found_cards, boards=found_boards)


@tool()
def create_card(
    db: Database,
    idList: TrelloId,
    name: Name,
    desc: Desc = "",
    pos: Pos = "bottom",
    due: When | None = None,
    start: When | None = None,
    idLabels: Ids | None = None,
    idMembers: Ids | None = None,
) -> Card:
    """Create a card in a list (POST /cards). Labels must be the board's; members must be on the board; the list
    must not be archived and the board not closed.

    Args:
        idList: The list to put it in.
        name: The card's title.
        desc: Its description.
        pos: top, bottom (default) or a positive number; to go between two, the midpoint of their pos values.
        due: Due date-time (ISO 8601).
        start: Start date-time (ISO 8601), before the due date.
        idLabels: Label ids of the board to put on it.
        idMembers: Member ids of board members to assign.
    """
    row, board = list_of(db, idList)
    writable_board(db, board)
    rules.open_list(db, row)
    due_at = rules.moment(due, "due") if due is not None else None
    start_at = rules.moment(start, "start") if start is not None else None
    rules.check_dates(start_at, due_at)
    label_ids = rules.board_labels(db, board, idLabels or [])
    member_ids = rules.board_people(db, board, idMembers or [])
    key = rules.new_id(db, cards)
    card = db.insert(
        cards,
        id=key,
        board=board["id"],
        list=row["id"],
        id_short=rules.next_short_id(db, board["id"]),
        short_link=rules.short_link(key),
        name=name.strip(),
        desc=desc,
        closed=False,
        pos=rules.position(rules.list_cards(db, row["id"], None), pos),
        start=start_at,
        due=due_at,
        due_complete=False,
        date_last_activity=db.now_iso(),
    )
    rules.set_links(db, card_labels, key, "label", label_ids)
    rules.set_links(db, card_members, key, "member", member_ids)
    rules.log(
        db,
        "createCard",
        board["id"],
        key,
        me(db),
        {"card": {"id": key, "name": card["name"]}, "list": {"id": row["id"], "name": row["name"]}},
    )
    return card_object(db, card)


@tool()
def update_card(
    db: Database,
    card_id: CardRef,
    name: Name | None = None,
    desc: Desc | None = None,
    idList: TrelloId | None = None,
    pos: Pos | None = None,
    due: When | None = None,
    start: When | None = None,
    dueComplete: bool | None = None,
    closed: bool | None = None,
    idLabels: Ids | None = None,
    idMembers: Ids | None = None,
) -> Card:
    """Change a card (PUT /cards/{id}): its title, description, dates, completion, position, list (also a list of
    another board), labels or members (each list replaces the current one: read the card first to add or remove
    one), or archive (closed: true) and unarchive it. Moving to another board keeps the labels that board has
    (same name and color) and takes off members who are not on it.

    Args:
        card_id: The card's id or short link.
        name: A new title.
        desc: A new description.
        idList: Move it to this list (an open list; may be on another board you can edit).
        pos: top, bottom or a positive number within its (new) list; to go between two cards, the midpoint of
            their pos values.
        due: Due date-time (ISO 8601), or "null" to remove.
        start: Start date-time (ISO 8601), or "null" to remove.
        dueComplete: Mark the due date done (true) or not (false).
        closed: true archives the card, false unarchives it.
        idLabels: The label ids it should carry (replaces all).
        idMembers: The member ids it should have (replaces all).
    """
    card, board = editable_card(db, card_id)
    changes: dict = {}
    target_list = db.get(lists, card["list"])
    if idList is not None and idList.strip() != card["list"]:
        target_list, target_board = list_of(db, idList)
        rules.open_list(db, target_list)
        changes["list"] = target_list["id"]
        if target_board["id"] != board["id"]:
            writable_board(db, target_board)
            changes.update(rules.transfer(db, card, target_board))
            board = target_board
        changes["pos"] = rules.position(rules.list_cards(db, target_list["id"], None), pos or "bottom")
        rules.log(
            db,
            "updateCard",
            board["id"],
            card["id"],
            me(db),
            {
                "card": {"id": card["id"], "name": card["name"]},
                "listBefore": {"id": card["list"]},
                "listAfter": {"id": target_list["id"], "name": target_list["name"]},
            },
        )
    elif pos is not None:
        others = [c for c in rules.list_cards(db, card["list"], None) if c["id"] != card["id"]]
        changes["pos"] = rules.position(others, pos)
    if name is not None:
        changes["name"] = name.strip()
    if desc is not None:
        changes["desc"] = desc
    if due is not None:
        changes["due"] = rules.moment(due, "due")
    if start is not None:
        changes["start"] = rules.moment(start, "start")
    rules.check_dates(changes.get("start", card["start"]), changes.get("due", card["due"]))
    if dueComplete is not None:
        changes["due_complete"] = dueComplete
    if closed is not None:
        changes["closed"] = closed
    if idLabels is not None:
        rules.set_links(db, card_labels, card["id"], "label", rules.board_labels(db, board, idLabels))
    if idMembers is not None:
        rules.set_links(db, card_members, card["id"], "member", rules.board_people(db, board, idMembers))
    return card_object(db, _touch(db, card, **changes))


@tool()
def delete_card(db: Database, card_id: CardRef) -> Deleted:
    """Delete a card for good, with its checklists and comments (DELETE /cards/{id}). This cannot be undone: only
    archived cards can be deleted (archive it with update_card first).

    Args:
        card_id: The card's id or short link.
    """
    card, _ = editable_card(db, card_id)
    rules.delete_card(db, card)
    return Deleted(id=card["id"])


# ---------------------------------------------------------------- comments and history


@tool(read_only=True)
def get_card_actions(
    db: Database,
    card_id: CardRef,
    filter: Literal["commentCard", "all"] = "commentCard",
    limit: Annotated[int, Field(ge=1, le=1000)] = 50,
) -> list[Action]:
    """A card's comments (default) or whole history, newest first (GET /cards/{id}/actions).

    Args:
        card_id: The card's id or short link.
        filter: commentCard (comments only, default) or all.
        limit: How many, 1 to 1000.
    """
    card, _ = card_of(db, card_id)
    where = "card = ?" + (" AND type = 'commentCard'" if filter == "commentCard" else "")
    rows = db.select(actions, where, [card["id"]], order_by="date DESC, id DESC", limit=limit)
    return [action_object(db, r) for r in rows]


@tool()
def add_comment(db: Database, card_id: CardRef, text: CommentText) -> Action:
    """Comment on a card (POST /cards/{id}/actions/comments). Who may comment follows the board's comments setting;
    a closed board takes no comments.

    Args:
        card_id: The card's id or short link.
        text: The comment (up to 16384 characters; @username mentions someone).
    """
    card, board = card_of(db, card_id)
    rules.may_comment(db, board)
    row = rules.log(
        db,
        "commentCard",
        board["id"],
        card["id"],
        me(db),
        {"text": text, "card": {"id": card["id"], "name": card["name"]}},
    )
    _touch(db, card)
    return action_object(db, row)


# ---------------------------------------------------------------- checklists


@tool()
def create_checklist(
    db: Database,
    card_id: CardRef,
    name: Name,
    items: Annotated[list[Name], Field(max_length=200)] | None = None,
    pos: Pos = "bottom",
) -> Checklist:
    """Add a checklist to a card (POST /cards/{id}/checklists), with items if given, in that order.

    Args:
        card_id: The card's id or short link.
        name: The checklist's name.
        items: Item names to add, in order (at most 200).
        pos: top, bottom (default) or a positive number among the card's checklists.
    """
    card, _ = editable_card(db, card_id)
    place = rules.position(db.find(checklists, card=card["id"]), pos)
    row = db.insert(checklists, id=rules.new_id(db, checklists), card=card["id"], name=name.strip(), pos=place)
    for number, item in enumerate(items or [], start=1):
        db.insert(
            check_items,
            id=rules.new_id(db, check_items),
            checklist=row["id"],
            name=item.strip(),
            state="incomplete",
            pos=number * rules.POS_STEP,
            due=None,
            member=None,
        )
    _touch(db, card)
    return checklist_object(db, row)


@tool()
def add_check_item(
    db: Database,
    checklist_id: TrelloId,
    name: Name,
    pos: Pos = "bottom",
    checked: bool = False,
    due: When | None = None,
    idMember: TrelloId | None = None,
) -> CheckItem:
    """Add an item to a checklist (POST /checklists/{id}/checkItems); a checklist holds at most 200 items.

    Args:
        checklist_id: The checklist's id (from get_card).
        name: The item's text.
        pos: top, bottom (default) or a positive number; to go between two, the midpoint of their pos values.
        checked: Add it already ticked.
        due: Due date-time of the item (ISO 8601).
        idMember: A board member to assign it to.
    """
    checklist, card, board = checklist_of(db, checklist_id)
    siblings = db.find(check_items, checklist=checklist["id"])
    if len(siblings) >= rules.MAX_CHECK_ITEMS:
        raise Conflict(f"Checklist {checklist['name']} already has {rules.MAX_CHECK_ITEMS} items")
    person = rules.board_people(db, board, [idMember], "idMember")[0] if idMember else None
    row = db.insert(
        check_items,
        id=rules.new_id(db, check_items),
        checklist=checklist["id"],
        name=name.strip(),
        state="complete" if checked else "incomplete",
        pos=rules.position(siblings, pos),
        due=rules.moment(due, "due") if due else None,
        member=person,
    )
    _touch(db, card)
    return CheckItem(
        id=row["id"],
        idChecklist=row["checklist"],
        name=row["name"],
        state=row["state"],
        pos=row["pos"],
        due=row["due"],
        idMember=row["member"],
    )


@tool()
def update_check_item(
    db: Database,
    card_id: CardRef,
    check_item_id: TrelloId,
    state: Literal["complete", "incomplete"] | None = None,
    name: Name | None = None,
    pos: Pos | None = None,
    due: When | None = None,
    idMember: Annotated[str, Field(pattern=r"^\s*([0-9a-fA-F]{24}|null)\s*$")] | None = None,
) -> Checklist:
    """Tick, untick, rename, move or (re)assign an item of a card's checklist (PUT /cards/{id}/checkItem/{idCheckItem}).

    Args:
        card_id: The card's id or short link.
        check_item_id: The item's id (from get_card).
        state: complete or incomplete.
        name: New text.
        pos: top, bottom or a positive number; to go between two, the midpoint of their pos values.
        due: Due date-time (ISO 8601), or "null" to remove.
        idMember: A board member's id to assign, or "null" to unassign.
    """
    card, board = editable_card(db, card_id)
    item = db.find(check_items, id=check_item_id.strip())
    checklist = db.get(checklists, item[0]["checklist"]) if item else None
    if not item or checklist is None or checklist["card"] != card["id"]:
        raise NotFound("invalid value for idCheckItem")
    changes: dict = {}
    if state is not None:
        changes["state"] = state
    if name is not None:
        changes["name"] = name.strip()
    if pos is not None:
        others = [i for i in db.find(check_items, checklist=checklist["id"]) if i["id"] != item[0]["id"]]
        changes["pos"] = rules.position(others, pos)
    if due is not None:
        changes["due"] = rules.moment(due, "due")
    if idMember is not None:
        who = idMember.strip()
        changes["member"] = None if who == "null" else rules.board_people(db, board, [who], "idMember")[0]
    if changes:
        db.update(check_items, item[0]["id"], **changes)
    _touch(db, card)
    return checklist_object(db, checklist)
