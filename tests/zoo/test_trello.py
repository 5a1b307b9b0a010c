"""The Trello environment's tools on the real seed: sign-in, board visibility (private, org, public), member types
(admin, normal, observer) and what each may do, closed boards, the last-admin rule, observers on Premium only,
invitations, labels, lists (archive, never delete), cards (positions, dates, labels and members of the board, moves
across boards, archive before delete), archive-all, search, checklists and comments. Every error path is checked to
leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, restore_seed_with, session_fixture
from .toolkit import ok as raw_ok

SPEC = resolve("trello")
CLOCK = datetime(2026, 3, 16, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
MEMBER = {m["username"]: m["id"] for m in SEED["members"]}
TOKEN = {t["member"]: t["token"] for t in SEED["tokens"]}
BOARD = {b["name"]: b["id"] for b in SEED["boards"]}
CC, WEB, FER = "Q2 Content Calendar", "Website Redesign 2026", "Ferris Outdoor - Spring Campaign"
FER25, HOME, TRIP, BRAND = (
    "Ferris Outdoor - Spring Campaign 2025",
    "Home Renovation",
    "Lisbon Trip - May",
    "Brand Guidelines",
)
JORDAN, SAM = MEMBER["jordanreyes"], MEMBER["samreyes"]

session = session_fixture(SPEC, CLOCK)


def view(value: Any) -> Any:
    """A tool's JSON output with attribute access (card.labels[0].name)."""
    if isinstance(value, dict):
        return SimpleNamespace(**{k: view(v) for k, v in value.items()})
    if isinstance(value, list):
        return [view(v) for v in value]
    return value


def ok(session: ToolSession, name: str, args: dict[str, Any] | None = None, caller: str = "agent") -> Any:
    """Call a tool that must succeed; its output with attribute access."""
    return view(raw_ok(session, name, args, caller))


def list_id(board: str, name: str) -> str:
    (found,) = [x["id"] for x in SEED["lists"] if x["board"] == BOARD[board] and x["name"] == name]
    return found


def card(board: str, name: str) -> dict[str, Any]:
    (found,) = [c for c in SEED["cards"] if c["board"] == BOARD[board] and c["name"] == name]
    return found


def label(board: str, name: str) -> str:
    (found,) = [x["id"] for x in SEED["labels"] if x["board"] == BOARD[board] and x["name"] == name]
    return found


def sign_in(session: ToolSession, member: str = JORDAN) -> dict[str, Any]:
    return ok(session, "sign_in", {"token": TOKEN[member]}, caller="user")


# ---------------------------------------------------------------- sign-in and visibility


def test_everything_needs_a_sign_in_and_a_known_token(session):
    fails(session, "get_me", {}, "PermissionDenied", "invalid token")
    fails(session, "sign_in", {"token": "ATTA" + "0" * 60}, "PermissionDenied", "invalid token", caller="user")
    me = sign_in(session)
    assert me.username == "jordanreyes"
    assert {o.name for o in me.organizations} == {"brightlinemktg", "ferrisoutdoor", "reyeshome"}


def test_sign_in_is_user_only(session):
    outcome = session.call("sign_in", {"token": TOKEN[JORDAN]}, caller="agent")
    assert not outcome.ok


def test_list_boards_shows_own_boards_and_filters_closed(session):
    sign_in(session)
    names = [b.name for b in ok(session, "list_boards")]
    assert names == sorted(names, key=str.lower)
    assert FER25 not in names and BRAND not in names and CC in names
    closed = [b.name for b in ok(session, "list_boards", {"filter": "closed"})]
    assert closed == [FER25]


def test_org_board_is_readable_by_workspace_members_but_not_editable(session):
    sign_in(session)
    board = ok(session, "get_board", {"board_id": BOARD[BRAND]})
    assert board.memberType is None and board.prefs.permissionLevel == "org"
    logo = card(BRAND, "Logo usage rules")
    fails(session, "update_card", {"card_id": logo["id"], "name": "Logo"}, "PermissionDenied", "unauthorized")
    fails(session, "add_comment", {"card_id": logo["id"], "text": "hi"}, "PermissionDenied", "unauthorized")


def test_private_board_of_others_is_not_found(session):
    sign_in(session, SAM)
    fails(session, "get_board", {"board_id": BOARD[WEB]}, "NotFound", "The requested resource was not found.")
    fails(session, "get_card", {"card_id": card(WEB, "Dark mode toggle")["id"]}, "NotFound", "not found")


def test_malformed_id_is_refused_by_the_type(session):
    sign_in(session)
    fails(session, "get_board", {"board_id": "not-an-id"}, "invalid_arguments", "invalid id")


def test_card_found_by_short_link(session):
    sign_in(session)
    target = card(CC, "Office dog feature")
    assert ok(session, "get_card", {"card_id": target["short_link"]}).id == target["id"]


# ---------------------------------------------------------------- board settings and membership


def test_only_admins_change_board_settings(session):
    sign_in(session)
    fails(
        session, "update_board", {"board_id": BOARD[FER], "comments": "observers"}, "PermissionDenied", "unauthorized"
    )
    board = ok(session, "update_board", {"board_id": BOARD[CC], "comments": "observers", "permissionLevel": "private"})
    assert board.prefs.comments == "observers" and board.prefs.permissionLevel == "private"


def test_closed_board_is_read_only_until_reopened(session):
    sign_in(session)
    old = card(FER25, "Spring lookbook")
    fails(session, "add_comment", {"card_id": old["id"], "text": "reuse"}, "PermissionDenied", "is closed")
    fails(session, "update_card", {"card_id": old["id"], "name": "x"}, "PermissionDenied", "")
    ok(session, "update_board", {"board_id": BOARD[CC], "closed": True})
    fails(session, "create_card", {"idList": list_id(CC, "Ideas"), "name": "x"}, "PermissionDenied", "is closed")
    fails(session, "update_board", {"board_id": BOARD[CC], "name": "x"}, "PermissionDenied", "is closed")
    assert ok(session, "update_board", {"board_id": BOARD[CC], "closed": False}).closed is False


def test_board_keeps_at_least_one_admin(session):
    sign_in(session)
    fails(
        session,
        "add_board_member",
        {"board_id": BOARD[CC], "member": "jordanreyes", "type": "normal"},
        "Conflict",
        "at least one admin",
    )
    fails(session, "remove_board_member", {"board_id": BOARD[CC], "member": JORDAN}, "Conflict", "at least one admin")
    ok(session, "add_board_member", {"board_id": BOARD[CC], "member": "priyanair", "type": "admin"})
    ok(session, "add_board_member", {"board_id": BOARD[CC], "member": "jordanreyes", "type": "normal"})
    fails(session, "update_board", {"board_id": BOARD[CC], "name": "x"}, "PermissionDenied", "unauthorized")


def test_invitations_setting_decides_who_may_add_members(session):
    sign_in(session)
    fails(
        session,
        "add_board_member",
        {"board_id": BOARD[FER], "member": "derekchung"},
        "PermissionDenied",
        "unauthorized",
    )
    members = ok(
        session, "add_board_member", {"board_id": "%s" % BOARD["Ops & Admin"], "member": "noah@brightlinemktg.com"}
    )
    assert any(m.username == "noahpatel" and m.memberType == "normal" for m in members)
    fails(
        session,
        "add_board_member",
        {"board_id": BOARD["Ops & Admin"], "member": "lenafischer", "type": "admin"},
        "PermissionDenied",
        "unauthorized",
    )


def test_observers_need_a_premium_workspace(session):
    sign_in(session)
    fails(
        session,
        "add_board_member",
        {"board_id": BOARD[HOME], "member": "samreyes", "type": "observer"},
        "InvalidRequest",
        "Premium",
    )
    members = ok(session, "add_board_member", {"board_id": BOARD[CC], "member": "@marcusbell", "type": "observer"})
    assert any(m.username == "marcusbell" and m.memberType == "observer" for m in members)


def test_removing_a_member_takes_them_off_the_boards_cards(session):
    sign_in(session)
    on_cards = [c["card"] for c in SEED["card_members"] if c["member"] == MEMBER["noahpatel"]]
    assert on_cards
    ok(session, "remove_board_member", {"board_id": BOARD[CC], "member": "noahpatel"})
    for cid in on_cards:
        assert MEMBER["noahpatel"] not in ok(session, "get_card", {"card_id": cid}).idMembers
    fails(session, "remove_board_member", {"board_id": BOARD[CC], "member": "noahpatel"}, "NotFound", "not a member")


def test_non_admin_may_remove_only_themselves(session):
    sign_in(session)
    fails(session, "remove_board_member", {"board_id": BOARD[TRIP], "member": SAM}, "PermissionDenied", "unauthorized")
    ok(session, "remove_board_member", {"board_id": BOARD[TRIP], "member": JORDAN})
    fails(session, "get_board", {"board_id": BOARD[TRIP]}, "NotFound", "not found")


def test_observer_comments_follow_the_comments_setting(session):
    sign_in(session)
    olivia_card = card(FER, "Billboard concept A")
    restore_seed_with(
        session, lambda t: t["tokens"].append({"token": "ATTA" + "1" * 60, "member": MEMBER["oliviagrant"]}), CLOCK
    )
    ok(session, "sign_in", {"token": "ATTA" + "1" * 60}, caller="user")
    fails(session, "add_comment", {"card_id": olivia_card["id"], "text": "green logo?"}, "PermissionDenied", "comments")
    fails(session, "update_card", {"card_id": olivia_card["id"], "name": "x"}, "PermissionDenied", "unauthorized")
    ok(session, "add_comment", {"card_id": card(WEB, "Dark mode toggle")["id"], "text": "Looks good"})


# ---------------------------------------------------------------- labels and lists


def test_label_name_and_color_are_unique_per_board(session):
    sign_in(session)
    created = ok(session, "create_label", {"board_id": BOARD[CC], "name": "Podcast", "color": "orange"})
    assert created.color == "orange"
    fails(session, "create_label", {"board_id": BOARD[CC], "name": "Podcast", "color": "orange"}, "Conflict", "already")
    fails(session, "create_label", {"board_id": BOARD[CC], "name": "x", "color": "teal"}, "invalid_arguments", "color")


def test_lists_are_archived_not_deleted_and_archived_lists_take_no_cards(session):
    sign_in(session)
    assert "delete_list" not in SPEC.tools
    old = list_id(CC, "Q1 Leftovers")
    assert old not in [x.id for x in ok(session, "get_lists", {"board_id": BOARD[CC]})]
    fails(session, "create_card", {"idList": old, "name": "x"}, "Conflict", "archived")
    fails(
        session, "update_card", {"card_id": card(CC, "Office dog feature")["id"], "idList": old}, "Conflict", "archived"
    )
    ok(session, "update_list", {"list_id": old, "closed": False})
    assert ok(session, "create_card", {"idList": old, "name": "x"}).idList == old


def test_create_list_positions(session):
    sign_in(session)
    top = ok(session, "create_list", {"board_id": BOARD[CC], "name": "Backlog", "pos": "top"})
    names = [x.name for x in ok(session, "get_lists", {"board_id": BOARD[CC]})]
    assert names[0] == "Backlog" and top.pos < 16384
    fails(
        session, "create_list", {"board_id": BOARD[CC], "name": "x", "pos": -1}, "invalid_arguments", "greater than 0"
    )


def test_archive_all_cards_closes_only_that_lists_open_cards(session):
    sign_in(session)
    published = list_id(CC, "Published")
    before = {c.id for c in ok(session, "get_cards", {"list_id": published})}
    result = ok(session, "archive_all_cards", {"list_id": published})
    assert set(result.archived) == before
    assert ok(session, "get_cards", {"list_id": published}) == []
    assert len(ok(session, "get_cards", {"list_id": list_id(CC, "Ideas")})) == 7


# ---------------------------------------------------------------- cards


def test_create_card_checks_labels_members_and_dates(session):
    sign_in(session)
    ideas = list_id(CC, "Ideas")
    fails(session, "create_card", {"idList": "0" * 24, "name": "x"}, "InvalidRequest", "invalid value for idList")
    fails(
        session,
        "create_card",
        {"idList": ideas, "name": "x", "idLabels": [label(WEB, "Bug")]},
        "InvalidRequest",
        "idLabels",
    )
    fails(
        session,
        "create_card",
        {"idList": ideas, "name": "x", "idMembers": [MEMBER["derekchung"]]},
        "InvalidRequest",
        "idMembers",
    )
    fails(
        session,
        "create_card",
        {"idList": ideas, "name": "x", "start": "2026-04-02T09:00:00Z", "due": "2026-04-01T09:00:00Z"},
        "InvalidRequest",
        "start",
    )
    fails(session, "create_card", {"idList": ideas, "name": "   "}, "invalid_arguments", "invalid value for name")
    made = ok(
        session,
        "create_card",
        {
            "idList": ideas,
            "name": "Podcast ep. 1",
            "due": "2026-04-20T17:00:00Z",
            "pos": "top",
            "idLabels": [label(CC, "Video")],
            "idMembers": [JORDAN],
        },
    )
    assert made.due == "2026-04-20T17:00:00.000Z" and made.idShort == 28 and len(made.shortLink) == 8
    first = ok(session, "get_cards", {"list_id": ideas})[0]
    assert first.id == made.id
    history = ok(session, "get_card_actions", {"card_id": made.id, "filter": "all"})
    assert [a.type for a in history] == ["createCard"]


def test_update_card_replaces_labels_and_members_and_clears_dates(session):
    sign_in(session)
    target = card(CC, "Podcast guest shortlist")
    got = ok(session, "update_card", {"card_id": target["id"], "idLabels": [label(CC, "Blog")], "idMembers": []})
    assert [x.name for x in got.labels] == ["Blog"] and got.idMembers == []
    got = ok(session, "update_card", {"card_id": target["id"], "due": "null", "dueComplete": True})
    assert got.due is None and got.dueComplete is True
    fails(
        session, "update_card", {"card_id": target["id"], "due": "next week"}, "InvalidRequest", "invalid value for due"
    )


def test_start_must_precede_due_on_update(session):
    sign_in(session)
    target = card(HOME, "Countertop measuring")
    fails(session, "update_card", {"card_id": target["id"], "start": "2026-03-23T09:00:00Z"}, "InvalidRequest", "start")
    got = ok(
        session,
        "update_card",
        {"card_id": target["id"], "start": "2026-03-23T09:00:00Z", "due": "2026-03-23T13:00:00Z"},
    )
    assert got.start == "2026-03-23T09:00:00.000Z"


def test_moving_a_card_to_another_board_keeps_matching_labels_and_board_members(session):
    sign_in(session)
    target = card(WEB, "Newsletter signup A/B test")
    ok(session, "update_card", {"card_id": target["id"], "idLabels": [label(WEB, "Bug"), label(WEB, "SEO")]})
    moved = ok(session, "update_card", {"card_id": target["id"], "idList": list_id(CC, "Ideas")})
    assert moved.idBoard == BOARD[CC] and moved.idMembers == [] and moved.labels == []
    assert moved.idShort == 28
    ok(session, "create_label", {"board_id": BOARD[WEB], "name": "Urgent", "color": "red"})
    urgent = card(CC, "Office dog feature")
    ok(session, "update_card", {"card_id": urgent["id"], "idLabels": [label(CC, "Urgent")], "idMembers": [JORDAN]})
    back = ok(session, "update_card", {"card_id": urgent["id"], "idList": list_id(WEB, "Backlog")})
    assert [x.name for x in back.labels] == ["Urgent"] and back.labels[0].idBoard == BOARD[WEB]
    assert back.idMembers == [JORDAN]


def test_moving_to_a_board_you_cannot_edit_is_refused(session):
    sign_in(session)
    fails(
        session,
        "update_card",
        {"card_id": card(CC, "Office dog feature")["id"], "idList": list_id(BRAND, "Current")},
        "PermissionDenied",
        "unauthorized",
    )


def test_only_archived_cards_can_be_deleted_and_delete_removes_everything(session):
    sign_in(session)
    target = card(CC, "Case study: Lumen Coffee")
    fails(session, "delete_card", {"card_id": target["id"]}, "Conflict", "Archive the card")
    ok(session, "update_card", {"card_id": target["id"], "closed": True})
    assert ok(session, "delete_card", {"card_id": target["id"]}).deleted
    fails(session, "get_card", {"card_id": target["id"]}, "NotFound", "not found")
    dump = session.dump()
    assert not [c for c in dump["checklists"].values() if c["card"] == target["id"]]
    assert not [a for a in dump["actions"].values() if a["card"] == target["id"] and a["type"] == "commentCard"]


def test_get_cards_needs_exactly_one_scope_and_hides_archived_lists(session):
    sign_in(session)
    fails(session, "get_cards", {}, "InvalidRequest", "exactly one")
    fails(
        session, "get_cards", {"board_id": BOARD[CC], "list_id": list_id(CC, "Ideas")}, "InvalidRequest", "exactly one"
    )
    names = {c.name for c in ok(session, "get_cards", {"board_id": BOARD[CC]})}
    assert "Holiday recap post" not in names and "Newsletter #11 (February)" not in names
    everything = {c.name for c in ok(session, "get_cards", {"board_id": BOARD[CC], "filter": "all"})}
    assert {"Holiday recap post", "Newsletter #11 (February)"} <= everything


def test_search_skips_closed_boards_unless_asked(session):
    sign_in(session)
    found = ok(session, "search", {"query": "landing page copy"})
    assert [c.idBoard for c in found.cards] == [BOARD[FER]]
    found = ok(session, "search", {"query": "landing page copy", "include_closed": True})
    assert {c.idBoard for c in found.cards} == {BOARD[FER], BOARD[FER25]}
    boards = ok(session, "search", {"query": "events", "modelTypes": "boards"}).boards
    assert [b.name for b in boards] == ["Ferris Events 2026"]


def test_search_pages_cards(session):
    sign_in(session)
    query = {"query": "newsletter", "modelTypes": "cards", "idBoards": [BOARD[CC]]}
    every = [c.id for c in ok(session, "search", {**query, "cards_limit": 100}).cards]
    assert len(every) >= 4
    first = [c.id for c in ok(session, "search", {**query, "cards_limit": 3}).cards]
    second = [c.id for c in ok(session, "search", {**query, "cards_limit": 3, "cards_page": 1}).cards]
    assert first + second == every[:6] and len(first) == 3


# ---------------------------------------------------------------- checklists and comments


def test_checklists_and_items(session):
    sign_in(session)
    target = card(CC, "Office dog feature")
    made = ok(session, "create_checklist", {"card_id": target["id"], "name": "Shoot", "items": ["Book dog", "Photos"]})
    assert [i.name for i in made.checkItems] == ["Book dog", "Photos"]
    item = ok(session, "add_check_item", {"checklist_id": made.id, "name": "Treats", "pos": "top", "idMember": JORDAN})
    fails(
        session,
        "add_check_item",
        {"checklist_id": made.id, "name": "x", "idMember": MEMBER["derekchung"]},
        "InvalidRequest",
        "idMember",
    )
    after = ok(
        session,
        "update_check_item",
        {"card_id": target["id"], "check_item_id": item.id, "state": "complete", "idMember": "null"},
    )
    assert [i.name for i in after.checkItems][0] == "Treats" and after.checkItems[0].state == "complete"
    assert after.checkItems[0].idMember is None
    other = card(CC, "Podcast guest shortlist")
    fails(
        session,
        "update_check_item",
        {"card_id": other["id"], "check_item_id": item.id, "state": "incomplete"},
        "NotFound",
        "idCheckItem",
    )
    badges = ok(session, "get_card", {"card_id": target["id"]}).badges
    assert (badges.checkItems, badges.checkItemsChecked) == (3, 1)


def test_checklist_holds_at_most_200_items(session):
    sign_in(session)
    target = card(CC, "Office dog feature")
    made = ok(
        session, "create_checklist", {"card_id": target["id"], "name": "Big", "items": [f"i{n}" for n in range(200)]}
    )
    fails(session, "add_check_item", {"checklist_id": made.id, "name": "one more"}, "Conflict", "200 items")


def test_comments_are_actions_newest_first(session):
    sign_in(session)
    target = card(CC, "Office dog feature")
    before = len(ok(session, "get_card_actions", {"card_id": target["id"]}))
    posted = ok(session, "add_comment", {"card_id": target["id"], "text": "@priyanair yours now"})
    comments = ok(session, "get_card_actions", {"card_id": target["id"]})
    assert comments[0].id == posted.id and len(comments) == before + 1
    assert comments[0].data.text == "@priyanair yours now" and comments[0].memberCreator.username == "jordanreyes"
    fails(session, "add_comment", {"card_id": target["id"], "text": ""}, "invalid_arguments", "invalid value for text")


def test_board_with_comments_disabled_takes_none(session):
    sign_in(session)
    ok(session, "update_board", {"board_id": BOARD[HOME], "comments": "disabled"})
    fails(
        session,
        "add_comment",
        {"card_id": card(HOME, "Plumber quote")["id"], "text": "hi"},
        "PermissionDenied",
        "comments",
    )
