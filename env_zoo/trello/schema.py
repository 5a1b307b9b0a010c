"""Trello's objects as tables. Every object has a 24-character hex id; a card also has a per-board number
(`id_short`) and an 8-character short link (trello.com/c/<short_link>). Boards belong to a workspace
(an organization); lists and labels to a board; cards to a list of a board; checklists to a card and check items
to a checklist. Comments and the card history are actions. Times are ISO 8601 UTC strings; `pos` is a float
(lower is higher up)."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

members = Table(
    "members",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("full_name", String, nullable=False),
    Column("initials", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token", String, primary_key=True),  # ATTA + 60 hex characters
    Column("member", String, ForeignKey("members.id"), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("member", String, ForeignKey("members.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

organizations = Table(
    "organizations",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),  # the workspace's short name, e.g. "brightlinemktg"
    Column("display_name", String, nullable=False),
    Column("desc", Text, nullable=False),
    Column("plan", String, nullable=False),  # free | standard | premium
)

org_memberships = Table(
    "org_memberships",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization", String, ForeignKey("organizations.id"), nullable=False),
    Column("member", String, ForeignKey("members.id"), nullable=False),
    Column("member_type", String, nullable=False),  # admin | normal
    Index("ix_org_memberships_member", "member"),
)

boards = Table(
    "boards",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("desc", Text, nullable=False),
    Column("organization", String, ForeignKey("organizations.id"), nullable=True),
    Column("closed", Boolean, nullable=False),
    Column("permission_level", String, nullable=False),  # private | org | public
    Column("comments", String, nullable=False),  # disabled | members | observers | org | public
    Column("invitations", String, nullable=False),  # members | admins
    Column("short_link", String, nullable=False, unique=True),
    Column("date_last_activity", String, nullable=True, info={"volatile": True}),
)

board_memberships = Table(
    "board_memberships",
    metadata,
    Column("id", String, primary_key=True),
    Column("board", String, ForeignKey("boards.id"), nullable=False),
    Column("member", String, ForeignKey("members.id"), nullable=False),
    Column("member_type", String, nullable=False),  # admin | normal | observer
    Index("ix_board_memberships_board", "board"),
    Index("ix_board_memberships_member", "member"),
)

lists = Table(
    "lists",
    metadata,
    Column("id", String, primary_key=True),
    Column("board", String, ForeignKey("boards.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("closed", Boolean, nullable=False),
    Column("pos", Float, nullable=False),
    Index("ix_lists_board", "board"),
)

labels = Table(
    "labels",
    metadata,
    Column("id", String, primary_key=True),
    Column("board", String, ForeignKey("boards.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("color", String, nullable=True),  # green, yellow, orange, red, purple, blue, sky, lime, pink, black; null
    Index("ix_labels_board", "board"),
)

cards = Table(
    "cards",
    metadata,
    Column("id", String, primary_key=True),
    Column("board", String, ForeignKey("boards.id"), nullable=False),
    Column("list", String, ForeignKey("lists.id"), nullable=False),
    Column("id_short", Integer, nullable=False),
    Column("short_link", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("desc", Text, nullable=False),
    Column("closed", Boolean, nullable=False),
    Column("pos", Float, nullable=False),
    Column("start", String, nullable=True),
    Column("due", String, nullable=True),
    Column("due_complete", Boolean, nullable=False),
    Column("date_last_activity", String, nullable=True, info={"volatile": True}),
    Index("ix_cards_board", "board"),
    Index("ix_cards_list", "list"),
)

card_labels = Table(
    "card_labels",
    metadata,
    Column("card", String, ForeignKey("cards.id"), primary_key=True),
    Column("label", String, ForeignKey("labels.id"), primary_key=True),
    Index("ix_card_labels_label", "label"),
)

card_members = Table(
    "card_members",
    metadata,
    Column("card", String, ForeignKey("cards.id"), primary_key=True),
    Column("member", String, ForeignKey("members.id"), primary_key=True),
    Index("ix_card_members_member", "member"),
)

checklists = Table(
    "checklists",
    metadata,
    Column("id", String, primary_key=True),
    Column("card", String, ForeignKey("cards.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("pos", Float, nullable=False),
    Index("ix_checklists_card", "card"),
)

check_items = Table(
    "check_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("checklist", String, ForeignKey("checklists.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("state", String, nullable=False),  # complete | incomplete
    Column("pos", Float, nullable=False),
    Column("due", String, nullable=True),
    Column("member", String, ForeignKey("members.id"), nullable=True),
    Index("ix_check_items_checklist", "checklist"),
)

actions = Table(
    "actions",
    metadata,
    Column("id", String, primary_key=True),
    Column("type", String, nullable=False),  # commentCard | createCard | updateCard | addMemberToCard | ...
    Column("board", String, ForeignKey("boards.id"), nullable=False),
    Column("card", String, nullable=True),  # no foreign key: a deleted card's history stays on the board
    Column("member_creator", String, ForeignKey("members.id"), nullable=False),
    Column("data", JSON, nullable=False),  # {"text": ...} for comments; {"old": {...}, "listAfter": ...} etc.
    Column("date", String, nullable=False, info={"volatile": True}),
    Index("ix_actions_card", "card"),
    Index("ix_actions_board", "board"),
)
