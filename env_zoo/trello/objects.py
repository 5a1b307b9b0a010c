"""Trello's API objects as output models (field names as in the API's JSON) and how stored rows become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from envfactory_gym import Database

from .access import board_role
from .schema import (
    actions,
    board_memberships,
    card_labels,
    card_members,
    check_items,
    checklists,
    labels,
    lists,
    members,
    org_memberships,
    organizations,
)


class MemberRef(BaseModel):
    """A member as other objects show them."""

    id: str
    username: str
    fullName: str


class Organization(BaseModel):
    """A workspace the member belongs to."""

    id: str
    name: str
    displayName: str
    plan: str
    memberType: str


class Me(BaseModel):
    """The signed-in member (GET /members/me), with their workspaces and the ids of their boards."""

    id: str
    username: str
    fullName: str
    initials: str
    email: str
    organizations: list[Organization]
    idBoards: list[str]


class Label(BaseModel):
    """A label of a board; a card shows the labels it carries."""

    id: str
    idBoard: str
    name: str
    color: str | None


class BoardMember(BaseModel):
    """A member of a board with their type on it."""

    id: str
    username: str
    fullName: str
    memberType: Literal["admin", "normal", "observer"]


class TrelloList(BaseModel):
    """A list (column) of a board."""

    id: str
    idBoard: str
    name: str
    closed: bool
    pos: float


class BoardPrefs(BaseModel):
    """A board's settings: who sees it, who may comment, who may invite."""

    permissionLevel: Literal["private", "org", "public"]
    comments: Literal["disabled", "members", "observers", "org", "public"]
    invitations: Literal["members", "admins"]


class Board(BaseModel):
    """A board (GET /boards/{id}), with your member type on it (null if you only see it through its workspace or
    because it is public), its settings and labels."""

    id: str
    name: str
    desc: str
    closed: bool
    idOrganization: str | None
    shortLink: str
    url: str
    memberType: str | None
    prefs: BoardPrefs
    labels: list[Label]


class BoardSummary(BaseModel):
    """A board as lists show it."""

    id: str
    name: str
    closed: bool
    idOrganization: str | None
    shortLink: str
    memberType: str | None


class Badges(BaseModel):
    """Counts shown on a card's front."""

    comments: int
    checkItems: int
    checkItemsChecked: int


class CardSummary(BaseModel):
    """A card as lists and searches show it."""

    id: str
    idShort: int
    shortLink: str
    name: str
    idBoard: str
    idList: str
    closed: bool
    pos: float
    start: str | None
    due: str | None
    dueComplete: bool
    labels: list[Label]
    idMembers: list[str]
    badges: Badges


class CheckItem(BaseModel):
    """An item of a checklist."""

    id: str
    idChecklist: str
    name: str
    state: Literal["complete", "incomplete"]
    pos: float
    due: str | None
    idMember: str | None


class Checklist(BaseModel):
    """A checklist of a card with its items in order."""

    id: str
    idCard: str
    name: str
    pos: float
    checkItems: list[CheckItem]


class Card(CardSummary):
    """A card (GET /cards/{id}) with its description, members, checklists and the list it is in."""

    desc: str
    url: str
    listName: str
    members: list[MemberRef]
    checklists: list[Checklist]


class Action(BaseModel):
    """An entry of a card's or board's history: a comment (commentCard) or a change."""

    id: str
    type: str
    date: str
    idCard: str | None
    memberCreator: MemberRef
    data: dict[str, Any]


class SearchResults(BaseModel):
    """What a search found."""

    cards: list[CardSummary]
    boards: list[BoardSummary]


class Deleted(BaseModel):
    """The answer to a delete."""

    id: str
    deleted: bool = True


class ArchivedCards(BaseModel):
    """The cards a list-wide archive closed."""

    idList: str
    archived: list[str]


def member_ref(db: Database, member: str) -> MemberRef:
    row = db.get(members, member)
    return MemberRef(id=row["id"], username=row["username"], fullName=row["full_name"])


def me_object(db: Database, member: str) -> Me:
    row = db.get(members, member)
    orgs = []
    for m in db.find(org_memberships, member=member):
        org = db.get(organizations, m["organization"])
        orgs.append(
            Organization(
                id=org["id"],
                name=org["name"],
                displayName=org["display_name"],
                plan=org["plan"],
                memberType=m["member_type"],
            )
        )
    boards = [m["board"] for m in db.find(board_memberships, member=member)]
    return Me(
        id=row["id"],
        username=row["username"],
        fullName=row["full_name"],
        initials=row["initials"],
        email=row["email"],
        organizations=sorted(orgs, key=lambda o: o.displayName),
        idBoards=boards,
    )


def label_object(row: dict[str, Any]) -> Label:
    return Label(id=row["id"], idBoard=row["board"], name=row["name"], color=row["color"])


def list_object(row: dict[str, Any]) -> TrelloList:
    return TrelloList(id=row["id"], idBoard=row["board"], name=row["name"], closed=row["closed"], pos=row["pos"])


def board_summary(db: Database, row: dict[str, Any]) -> BoardSummary:
    return BoardSummary(
        id=row["id"],
        name=row["name"],
        closed=row["closed"],
        idOrganization=row["organization"],
        shortLink=row["short_link"],
        memberType=board_role(db, row),
    )


def board_object(db: Database, row: dict[str, Any]) -> Board:
    found = db.find(labels, board=row["id"], order_by=[labels.c.name])
    return Board(
        id=row["id"],
        name=row["name"],
        desc=row["desc"],
        closed=row["closed"],
        idOrganization=row["organization"],
        shortLink=row["short_link"],
        url=f"https://trello.com/b/{row['short_link']}",
        memberType=board_role(db, row),
        prefs=BoardPrefs(
            permissionLevel=row["permission_level"], comments=row["comments"], invitations=row["invitations"]
        ),
        labels=[label_object(r) for r in found],
    )


def board_member(db: Database, row: dict[str, Any]) -> BoardMember:
    ref = member_ref(db, row["member"])
    return BoardMember(id=ref.id, username=ref.username, fullName=ref.fullName, memberType=row["member_type"])


def _check_items(db: Database, checklist: str) -> list[CheckItem]:
    return [
        CheckItem(
            id=r["id"],
            idChecklist=r["checklist"],
            name=r["name"],
            state=r["state"],
            pos=r["pos"],
            due=r["due"],
            idMember=r["member"],
        )
        for r in db.find(check_items, checklist=checklist, order_by=[check_items.c.pos])
    ]


def checklist_object(db: Database, row: dict[str, Any]) -> Checklist:
    return Checklist(
        id=row["id"], idCard=row["card"], name=row["name"], pos=row["pos"], checkItems=_check_items(db, row["id"])
    )


def _in(values: list[str]) -> str:
    return ", ".join("?" * len(values))


def _cards_fields(db: Database, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summary fields of several cards, read with one query per related table."""
    ids = [r["id"] for r in rows]
    if not ids:
        return []
    links = db.select(card_labels, f"card IN ({_in(ids)})", ids)
    label_ids = sorted({link["label"] for link in links})
    found = {r["id"]: r for r in db.select(labels, f"id IN ({_in(label_ids)})", label_ids)} if label_ids else {}
    people = db.select(card_members, f"card IN ({_in(ids)})", ids)
    lists_of = db.select(checklists, f"card IN ({_in(ids)})", ids)
    owner = {c["id"]: c["card"] for c in lists_of}
    items = db.select(check_items, f"checklist IN ({_in(list(owner))})", list(owner)) if owner else []
    comments = db.select(actions, f"card IN ({_in(ids)}) AND type = 'commentCard'", ids)
    out = []
    for row in rows:
        own = sorted((found[x["label"]] for x in links if x["card"] == row["id"]), key=lambda r: r["name"])
        mine = [i for i in items if owner[i["checklist"]] == row["id"]]
        out.append(
            dict(
                id=row["id"],
                idShort=row["id_short"],
                shortLink=row["short_link"],
                name=row["name"],
                idBoard=row["board"],
                idList=row["list"],
                closed=row["closed"],
                pos=row["pos"],
                start=row["start"],
                due=row["due"],
                dueComplete=row["due_complete"],
                labels=[label_object(r) for r in own],
                idMembers=[p["member"] for p in people if p["card"] == row["id"]],
                badges=Badges(
                    comments=sum(1 for c in comments if c["card"] == row["id"]),
                    checkItems=len(mine),
                    checkItemsChecked=sum(1 for i in mine if i["state"] == "complete"),
                ),
            )
        )
    return out


def card_summaries(db: Database, rows: list[dict[str, Any]]) -> list[CardSummary]:
    return [CardSummary(**fields) for fields in _cards_fields(db, rows)]


def card_object(db: Database, row: dict[str, Any]) -> Card:
    (fields,) = _cards_fields(db, [row])
    found = db.find(checklists, card=row["id"], order_by=[checklists.c.pos])
    return Card(
        **fields,
        desc=row["desc"],
        url=f"https://trello.com/c/{row['short_link']}",
        listName=db.get(lists, row["list"])["name"],
        members=[member_ref(db, m) for m in fields["idMembers"]],
        checklists=[checklist_object(db, c) for c in found],
    )


def action_object(db: Database, row: dict[str, Any]) -> Action:
    return Action(
        id=row["id"],
        type=row["type"],
        date=row["date"],
        idCard=row["card"],
        memberCreator=member_ref(db, row["member_creator"]),
        data=row["data"],
    )


def board_members(db: Database, board: str) -> list[BoardMember]:
    found = [board_member(db, m) for m in db.find(board_memberships, board=board)]
    return sorted(found, key=lambda m: (m.fullName.lower(), m.id))
