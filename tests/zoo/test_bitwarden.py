"""The Bitwarden environment's tools: collection permissions, master password re-prompt, the trash, sharing into
organizations, member roles, seats and confirmation, Send limits and policies, and the deterministic generator,
with every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("bitwarden")
CLOCK = datetime(2025, 6, 10, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
MASTER = "Ponderosa-Tidepool-47-Lantern"
FAMILY, NORTHWIND, CLUB = "Reyes Family", "Northwind Creative", "Maplewood Climbing Club"


def one(table: str, **equals: object) -> str:
    found = [r for r in SEED[table] if all(r[k] == v for k, v in equals.items())]
    assert len(found) == 1, (table, equals)
    return found[0]["id"]


def item(name: str) -> str:
    return one("items", name=name)


def org(name: str) -> str:
    return one("organizations", name=name)


def coll(organization: str, name: str) -> str:
    return one("collections", organization_id=org(organization), name=name)


def member(organization: str, email: str) -> str:
    return one("members", organization_id=org(organization), email=email)


def send(name: str) -> str:
    return one("sends", name=name)


def folder(name: str) -> str:
    return one("folders", name=name)


session = session_fixture(SPEC, CLOCK)


def unlock(session: ToolSession, name: str) -> dict:
    return ok(session, "confirm_master_password", {"item_name": name, "master_password": MASTER}, caller="user")


def all_items(session: ToolSession, **filters: object) -> list[dict]:
    found, cursor = [], None
    while True:
        page = ok(session, "list_items", {**filters, "page_size": 30, **({"cursor": cursor} if cursor else {})})
        found += page["results"]
        if not page["has_more"]:
            return found
        cursor = page["next_cursor"]


# ---------------------------------------------------------------- interface


def test_tools_and_the_master_password_reprompt_is_user_only(session):
    assert len(SPEC.tools) == 22
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["confirm_master_password"]
    assert SPEC.tools["list_folders"].input_schema["properties"] == {}
    assert SPEC.tools["list_organizations"].input_schema["properties"] == {}
    outcome = session.call("confirm_master_password", {"item_name": "Coinbase", "master_password": MASTER})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert session.dump()["reprompts"] == {}


# ---------------------------------------------------------------- listing and visibility


def test_list_items_paginates_by_name(session):
    first = ok(session, "list_items", {})
    assert len(first["results"]) == 25 and first["has_more"] and first["next_cursor"] == "25"
    listed = all_items(session)
    names = [i["name"].casefold() for i in listed]
    assert names == sorted(names)
    assert len({i["id"] for i in listed}) == len(listed)
    assert all(i["deletedDate"] is None for i in listed)
    assert "password" not in listed[0] and "notes" not in listed[0]
    for bad in (0, 31):
        fails(session, "list_items", {"page_size": bad}, "invalid_arguments", "page_size")
    fails(session, "list_items", {"cursor": "abc"}, "InvalidRequest", "cursor")


def test_items_of_unassigned_collections_are_invisible(session):
    listed = {i["name"] for i in all_items(session)}
    assert "Gusto Payroll Admin" not in listed and "Carta" not in listed and "DocuSign Admin" not in listed
    assert {"Figma – Northwind Team", "Harbor Coffee – Instagram", "Spotify Family", "Square POS"} <= listed
    fails(session, "get_item", {"item_id": item("Gusto Payroll Admin")}, "NotFound", "not found")
    chase = {i["name"] for i in ok(session, "list_items", {"search": "chase"})["results"]}
    assert chase == {"Chase Online Banking", "Chase Sapphire Preferred", "Zelle via Chase"}


def test_null_filters_and_organization_filter(session):
    loose = all_items(session, folder_id="null")
    assert loose and all(i["folderId"] is None for i in loose)
    personal = all_items(session, organization_id="null")
    assert personal and all(i["organizationId"] is None for i in personal)
    club = all_items(session, organization_id=org(CLUB))
    assert len(club) == sum(1 for i in SEED["items"] if i["organization_id"] == org(CLUB) and not i["deleted"])
    cards = ok(session, "list_items", {"type": 3, "organization_id": "null"})["results"]
    assert ("Chase Sapphire Preferred", "Visa, *5519") in {(c["name"], c["subtitle"]) for c in cards}
    fails(session, "list_items", {"folder_id": "nope"}, "NotFound", "Folder")


def test_url_filter_follows_uri_match_detection(session):
    github = {i["name"] for i in ok(session, "list_items", {"url": "https://github.com/login"})["results"]}
    assert github == {"GitHub", "GitHub – northwind-creative org"}
    gmail = {i["name"] for i in ok(session, "list_items", {"url": "https://mail.google.com/mail"})["results"]}
    assert {"Google", "Northwind Google Workspace"} <= gmail
    assert ok(session, "list_items", {"url": "http://192.168.1.40:8080"})["results"] == []  # match: never
    exact = ok(session, "list_items", {"url": "https://192.168.4.1/login"})["results"]
    assert exact == []  # Eero matches its exact URI only
    assert [i["name"] for i in ok(session, "list_items", {"url": "https://192.168.4.1"})["results"]] == ["Eero Router"]


def test_trash_listing(session):
    trash = ok(session, "list_items", {"trash": True})["results"]
    assert {i["name"] for i in trash} == {
        "MySpace",
        "Blockbuster Online",
        "Vine",
        "Old Comcast Login",
        "Groupon",
        "Hulu (old personal)",
        "Old Wi-Fi (apartment)",
        "Disney+ (old)",
    }
    assert all(i["deletedDate"] for i in trash)


# ---------------------------------------------------------------- master password re-prompt


def test_reprompt_items_open_only_after_the_user_confirms(session):
    coinbase = item("Coinbase")
    fails(session, "get_item", {"item_id": coinbase}, "PermissionDenied", "master password re-prompt")
    fails(session, "get_totp", {"item_id": coinbase}, "PermissionDenied", "re-prompt")
    fails(session, "update_item", {"item_id": coinbase, "username": "x"}, "PermissionDenied", "re-prompt")
    fails(
        session,
        "confirm_master_password",
        {"item_name": "Coinbase", "master_password": "wrong"},
        "PermissionDenied",
        "Invalid master password",
        caller="user",
    )
    fails(
        session,
        "confirm_master_password",
        {"item_name": "Netflix", "master_password": MASTER},
        "NotFound",
        "asks for the master password",
        caller="user",
    )
    assert unlock(session, "coinbase")["itemId"] == coinbase
    opened = ok(session, "get_item", {"item_id": coinbase})
    assert opened["login"]["password"] and opened["login"]["totp"]
    assert ok(session, "update_item", {"item_id": coinbase, "username": "d@x.io"})["login"]["username"] == "d@x.io"


def test_reprompt_lasts_ten_minutes(session):
    unlock(session, "Social Security Card")
    assert "541-22-9087" in ok(session, "get_item", {"item_id": item("Social Security Card")})["notes"]
    for _ in range(20):  # 30 seconds of simulated time per call
        ok(session, "list_folders")
    fails(session, "get_item", {"item_id": item("Social Security Card")}, "PermissionDenied", "re-prompt")


def test_favorite_and_folder_need_no_reprompt(session):
    chase = item("Chase Online Banking")
    result = ok(session, "update_item", {"item_id": chase, "favorite": False, "folder_id": "null"})
    assert (result["favorite"], result["folderId"]) == (False, None)
    assert result["login"]["password"] is None  # still closed: the secret stays hidden
    assert session.dump()["items"][chase]["favorite"] is False


# ---------------------------------------------------------------- collection permissions


def test_read_only_collection_allows_only_folder_and_favorite(session):
    insta = item("Harbor Coffee – Instagram")
    opened = ok(session, "get_item", {"item_id": insta})
    assert (opened["edit"], opened["viewPassword"]) == (False, True) and opened["login"]["password"]
    moved = ok(session, "update_item", {"item_id": insta, "folder_id": folder("Work/Clients"), "favorite": True})
    assert (moved["folderId"], moved["favorite"]) == (folder("Work/Clients"), True)
    fails(session, "update_item", {"item_id": insta, "password": "Latte-Art-Season-9"}, "PermissionDenied", "read-only")
    fails(session, "update_item", {"item_id": insta, "favorite": False, "name": "x"}, "PermissionDenied", "read-only")
    fails(session, "delete_item", {"item_id": insta}, "PermissionDenied", "delete")


def test_hidden_passwords_collection(session):
    wordpress = item("Lumen Health – WordPress")
    opened = ok(session, "get_item", {"item_id": wordpress})
    assert (opened["edit"], opened["viewPassword"]) == (True, False)
    assert opened["login"]["password"] is None and opened["login"]["totp"] is None
    assert opened["passwordHistory"] is None
    fails(session, "get_totp", {"item_id": wordpress}, "PermissionDenied", "hidden")
    fails(session, "update_item", {"item_id": wordpress, "password": "new"}, "PermissionDenied", "hidden")
    assert ok(session, "update_item", {"item_id": wordpress, "username": "agency"})["login"]["username"] == "agency"
    assert (
        session.dump()["items"][wordpress]["login_password"]
        == next(i for i in SEED["items"] if i["id"] == wordpress)["login_password"]
    )


def test_collections_listed_with_my_access(session):
    northwind = {c["name"]: c for c in ok(session, "list_collections", {"organization_id": org(NORTHWIND)})}
    assert set(northwind) == {
        "Design Tools",
        "Clients/Harbor Coffee",
        "Clients/Lumen Health",
        "Social Media",
        "Shared Dev Accounts",
    }
    assert (northwind["Clients/Harbor Coffee"]["readOnly"], northwind["Clients/Lumen Health"]["hidePasswords"]) == (
        True,
        True,
    )
    family = ok(session, "list_collections", {"organization_id": org(FAMILY)})
    assert len(family) == 5 and all(not c["readOnly"] and c["manage"] for c in family)
    fails(session, "list_collections", {"organization_id": "nope"}, "NotFound", "Organization")


# ---------------------------------------------------------------- editing items


def test_new_password_goes_into_history_keeping_five(session):
    github = item("GitHub")
    old = next(i for i in SEED["items"] if i["id"] == github)
    for n in range(5):
        ok(session, "update_item", {"item_id": github, "password": f"pw-{n}"})
    history = ok(session, "get_item", {"item_id": github})["passwordHistory"]
    assert [h["password"] for h in history] == ["pw-3", "pw-2", "pw-1", "pw-0", old["login_password"]]
    same = ok(session, "update_item", {"item_id": github, "password": "pw-4"})
    assert same["login"]["password"] == "pw-4"
    assert len(ok(session, "get_item", {"item_id": github})["passwordHistory"]) == 5


def test_update_item_checks_what_belongs_to_the_type(session):
    card = item("Amex Blue Cash Everyday")
    fails(session, "update_item", {"item_id": card, "username": "x"}, "InvalidRequest", "not a login")
    fails(session, "update_item", {"item_id": item("Netflix"), "card": {"code": "123"}}, "InvalidRequest", "not a card")
    fails(session, "update_item", {"item_id": card}, "InvalidRequest", "Nothing to update")
    for field, bad in (("expMonth", "13"), ("expMonth", "0"), ("expYear", "28"), ("code", "12"), ("number", "4111x")):
        fails(session, "update_item", {"item_id": card, "card": {field: bad}}, "invalid_arguments", f"card.{field}")
    fails(session, "update_item", {"item_id": card, "card": {"number": "4111 1111"}}, "InvalidRequest", "12 to 19")
    fails(
        session,
        "update_item",
        {"item_id": item("GitHub"), "totp": "not base32!"},
        "InvalidRequest",
        "authenticator key",
    )
    fails(session, "update_item", {"item_id": card, "folder_id": "nope"}, "NotFound", "Folder")


def test_card_update_merges_parts(session):
    amex = item("Amex Blue Cash Everyday")
    updated = ok(session, "update_item", {"item_id": amex, "card": {"expMonth": "07", "expYear": "2030"}})
    assert updated["card"] == {
        "cardholderName": "Daniel Reyes",
        "brand": "Amex",
        "number": "374245455400126",
        "expMonth": "7",
        "expYear": "2030",
        "code": "7312",
    }


def test_create_items_of_each_type(session):
    login = ok(
        session,
        "create_item",
        {
            "type": 1,
            "name": " Spline ",
            "login": {"username": "me", "password": "pw", "uris": [{"uri": "https://app.spline.design", "match": 1}]},
        },
    )
    assert (login["name"], login["login"]["uris"], login["organizationId"]) == (
        "Spline",
        [{"match": 1, "uri": "https://app.spline.design"}],
        None,
    )
    note = ok(session, "create_item", {"type": 2, "name": "Locker", "notes": "18-4-33", "reprompt": 1})
    assert note["secureNote"] == {"type": 0} and note["reprompt"] == 1
    card = ok(
        session, "create_item", {"type": 3, "name": "Visa", "card": {"number": "4111 1111 1111 1111", "brand": "Visa"}}
    )
    assert card["card"]["number"] == "4111111111111111"
    fails(
        session,
        "create_item",
        {"type": 2, "name": "x", "login": {"username": "u"}},
        "InvalidRequest",
        "can't have login",
    )
    fails(
        session, "create_item", {"type": 3, "name": "x", "card": {"brand": "Visa Gold"}}, "invalid_arguments", "brand"
    )
    fails(session, "create_item", {"type": 4, "name": "x", "identity": {"title": "Sir"}}, "invalid_arguments", "title")
    for bad in ("  ", "", "x" * 1001):
        fails(session, "create_item", {"type": 1, "name": bad}, "invalid_arguments", "name: The Name field is required")
    fails(
        session,
        "create_item",
        {"type": 1, "name": "x", "collection_ids": [coll(FAMILY, "Household")]},
        "InvalidRequest",
        "organization_id",
    )
    assert len(session.dump()["items"]) == len(SEED["items"]) + 3


def test_create_item_in_an_organization_needs_a_writable_collection(session):
    created = ok(
        session,
        "create_item",
        {
            "type": 1,
            "name": "Spline",
            "organization_id": org(NORTHWIND),
            "collection_ids": [coll(NORTHWIND, "Design Tools")],
        },
    )
    assert (created["organizationId"], created["collectionIds"], created["edit"]) == (
        org(NORTHWIND),
        [coll(NORTHWIND, "Design Tools")],
        True,
    )
    fails(
        session,
        "create_item",
        {"type": 1, "name": "x", "organization_id": org(NORTHWIND), "collection_ids": [coll(NORTHWIND, "Finance")]},
        "PermissionDenied",
        "Finance",
    )
    fails(
        session,
        "create_item",
        {"type": 1, "name": "x", "organization_id": org(NORTHWIND)},
        "InvalidRequest",
        "at least one collection",
    )


# ---------------------------------------------------------------- TOTP


def _rfc6238(secret_b32: str, at: int) -> str:
    key = base64.b32decode(secret_b32)
    digest = hmac.new(key, (at // 30).to_bytes(8, "big"), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return str((int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF) % 10**6).zfill(6)


def test_totp_code_follows_rfc_6238_at_the_simulated_time(session):
    secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # RFC 6238's SHA-1 test key
    session.reset("seed", datetime.fromtimestamp(1111111079, timezone.utc))
    created = ok(session, "create_item", {"type": 1, "name": "RFC", "login": {"totp": secret}})
    totp = ok(session, "get_totp", {"item_id": created["id"]})  # one 30-second tick later: 1111111109
    assert totp["code"] == "081804" == _rfc6238(secret, 1111111109)
    assert (totp["period"], totp["secondsRemaining"]) == (30, 30 - 1111111109 % 30)
    uri = ok(
        session,
        "create_item",
        {"type": 1, "name": "URI", "login": {"totp": f"otpauth://totp/Acme:dan?secret={secret}&issuer=Acme"}},
    )
    assert ok(session, "get_totp", {"item_id": uri["id"]})["code"] == _rfc6238(secret, 1111111079 + 90)
    fails(session, "get_totp", {"item_id": item("Netflix")}, "NotFound", "No TOTP")


# ---------------------------------------------------------------- trash


def test_trash_restore_cycle(session):
    spotify = item("Spotify Family")
    trashed = ok(session, "delete_item", {"item_id": spotify})
    assert trashed["deletedDate"] is not None and session.dump()["items"][spotify]["deleted"] is True
    assert spotify not in {i["id"] for i in all_items(session)}
    fails(session, "update_item", {"item_id": spotify, "name": "Spotify"}, "Conflict", "in the trash")
    fails(session, "delete_item", {"item_id": spotify}, "Conflict", "already in the trash")
    fails(
        session,
        "move_item_to_organization",
        {"item_id": item("Groupon"), "organization_id": org(FAMILY), "collection_ids": [coll(FAMILY, "Household")]},
        "Conflict",
        "in the trash",
    )
    restored = ok(session, "restore_item", {"item_id": spotify})
    assert restored["deletedDate"] is None and session.dump()["items"][spotify]["deleted"] is False
    fails(session, "restore_item", {"item_id": spotify}, "Conflict", "not in the trash")


def test_permanent_delete_removes_the_item_and_its_reprompts(session):
    unlock(session, "Coinbase")
    ok(session, "delete_item", {"item_id": item("Coinbase"), "permanent": True})
    ok(session, "delete_item", {"item_id": item("MySpace"), "permanent": True})
    state = session.dump()
    assert item("Coinbase") not in state["items"] and item("MySpace") not in state["items"]
    assert state["reprompts"] == {}
    fails(session, "restore_item", {"item_id": item("MySpace")}, "NotFound", "Item")


# ---------------------------------------------------------------- sharing


def test_moving_a_personal_item_into_an_organization(session):
    rei = item("REI Co-op")
    base = {"item_id": rei, "organization_id": org(FAMILY)}
    fails(
        session,
        "move_item_to_organization",
        {**base, "collection_ids": []},
        "InvalidRequest",
        "at least one collection",
    )
    fails(
        session,
        "move_item_to_organization",
        {**base, "collection_ids": [coll(CLUB, "Board")]},
        "NotFound",
        "Collection",
    )
    fails(
        session,
        "move_item_to_organization",
        {
            "item_id": rei,
            "organization_id": org(NORTHWIND),
            "collection_ids": [coll(NORTHWIND, "Clients/Harbor Coffee")],
        },
        "PermissionDenied",
        "Clients/Harbor Coffee",
    )
    moved = ok(
        session,
        "move_item_to_organization",
        {**base, "collection_ids": [coll(FAMILY, "Travel"), coll(FAMILY, "Household"), coll(FAMILY, "Travel")]},
    )
    assert moved["organizationId"] == org(FAMILY)
    assert moved["collectionIds"] == sorted({coll(FAMILY, "Travel"), coll(FAMILY, "Household")})
    assert moved["folderId"] == folder("Shopping")  # the folder is the user's own and stays
    fails(
        session,
        "move_item_to_organization",
        {**base, "collection_ids": [coll(FAMILY, "Travel")]},
        "Conflict",
        "already belongs",
    )


# ---------------------------------------------------------------- folders


def test_folders(session):
    names = [f["name"] for f in ok(session, "list_folders")]
    assert names == sorted(names, key=str.casefold) and "Work/Clients" in names
    nested = ok(session, "create_folder", {"name": "Home/Smart Home"})
    assert nested["name"] == "Home/Smart Home"
    archive = folder("Archive")
    inside = [i["id"] for i in SEED["items"] if i["folder_id"] == archive]
    assert ok(session, "delete_folder", {"folder_id": archive})["name"] == "Archive"
    state = session.dump()
    assert archive not in state["folders"]
    assert all(state["items"][i]["folder_id"] is None and i in state["items"] for i in inside)
    fails(session, "delete_folder", {"folder_id": archive}, "NotFound", "Folder")
    fails(session, "create_folder", {"name": " "}, "invalid_arguments", "name: The Name field is required")


# ---------------------------------------------------------------- organizations and members


def test_organizations_show_role_seats_and_binding_policies(session):
    orgs = {o["name"]: o for o in ok(session, "list_organizations")}
    assert [(orgs[n]["type"], orgs[n]["occupiedSeats"], orgs[n]["seats"]) for n in (FAMILY, NORTHWIND, CLUB)] == [
        (0, 5, 6),
        (2, 21, 30),
        (1, 10, 10),
    ]
    applying = {p["name"] for p in orgs[NORTHWIND]["policies"] if p["appliesToYou"]}
    assert {"Password generator", "Send options"} <= applying
    assert not any(p["appliesToYou"] for p in orgs[CLUB]["policies"])  # admins are exempt
    assert "Single organization" not in {p["name"] for p in orgs[NORTHWIND]["policies"]}  # disabled


def test_only_owners_and_admins_manage_members(session):
    fails(session, "list_members", {"organization_id": org(NORTHWIND)}, "PermissionDenied", "owners and admins")
    fails(
        session,
        "invite_member",
        {"organization_id": org(NORTHWIND), "email": "new@x.io"},
        "PermissionDenied",
        "owners and admins",
    )
    fails(
        session,
        "confirm_member",
        {"member_id": member(NORTHWIND, "leo@northwindcreative.co")},
        "PermissionDenied",
        "owners and admins",
    )
    club = ok(session, "list_members", {"organization_id": org(CLUB)})
    assert len(club) == 11 and {m["status"] for m in club} == {-1, 0, 1, 2}


def test_invitations_take_seats(session):
    invited = ok(
        session,
        "invite_member",
        {
            "organization_id": org(FAMILY),
            "email": " Tomas.Reyes@Proton.me",
            "collections": [{"id": coll(FAMILY, "Streaming"), "readOnly": True}],
        },
    )
    assert (invited["email"], invited["status"], invited["userId"], invited["type"]) == (
        "tomas.reyes@proton.me",
        0,
        None,
        2,
    )
    fails(session, "invite_member", {"organization_id": org(FAMILY), "email": "ana@x.io"}, "Conflict", "Seat limit")
    fails(
        session,
        "invite_member",
        {"organization_id": org(CLUB), "email": "dana.whitaker@gmail.com"},
        "Conflict",
        "10 seats",
    )


def test_invitation_rules(session):
    fails(
        session,
        "invite_member",
        {"organization_id": org(FAMILY), "email": "SOFIA.reyes@fastmail.com"},
        "Conflict",
        "already a member",
    )
    fails(
        session,
        "invite_member",
        {"organization_id": org(FAMILY), "email": "not-an-email"},
        "invalid_arguments",
        "email: The Email field is not a valid e-mail address.",
    )
    fails(
        session,
        "invite_member",
        {"organization_id": org(FAMILY), "email": "a@b.io", "collections": [{"id": coll(CLUB, "Board")}]},
        "NotFound",
        "Collection",
    )
    fails(
        session,
        "invite_member",
        {"organization_id": org(CLUB), "email": "a@b.io", "type": 0},
        "PermissionDenied",
        "Only an Owner",
    )


def test_confirmation_needs_acceptance_and_two_step_login(session):
    fails(
        session, "confirm_member", {"member_id": member(CLUB, "keiko.tanaka@gmail.com")}, "Conflict", "hasn't accepted"
    )
    fails(
        session, "confirm_member", {"member_id": member(CLUB, "ruth.okonkwo@yahoo.com")}, "Conflict", "two-step login"
    )
    fails(session, "confirm_member", {"member_id": member(CLUB, "ben.harper.climbs@gmail.com")}, "Conflict", "revoked")
    assert ok(session, "confirm_member", {"member_id": member(CLUB, "jonah.whitfield@gmail.com")})["status"] == 2
    fails(
        session,
        "confirm_member",
        {"member_id": member(CLUB, "jonah.whitfield@gmail.com")},
        "Conflict",
        "already confirmed",
    )
    # no two-step policy in the family organization
    assert ok(session, "confirm_member", {"member_id": member(FAMILY, "lucia.reyes08@gmail.com")})["status"] == 2


def test_owner_rules_when_changing_roles(session):
    priya = member(CLUB, "priya.natarajan@gmail.com")
    fails(session, "update_member", {"member_id": priya, "type": 1}, "PermissionDenied", "Only an Owner")
    fails(
        session,
        "update_member",
        {"member_id": member(CLUB, "theo.nakamura@outlook.com"), "type": 0},
        "PermissionDenied",
        "Only an Owner",
    )
    me = member(FAMILY, "daniel.reyes@fastmail.com")
    fails(session, "update_member", {"member_id": me, "type": 1}, "Conflict", "at least one confirmed owner")
    assert (
        ok(session, "update_member", {"member_id": member(FAMILY, "sofia.reyes@fastmail.com"), "type": 0})["type"] == 0
    )
    assert ok(session, "update_member", {"member_id": me, "type": 1})["type"] == 1
    # no longer an owner, Daniel can't touch Sofia
    fails(
        session,
        "update_member",
        {"member_id": member(FAMILY, "sofia.reyes@fastmail.com"), "type": 2},
        "PermissionDenied",
        "Only an Owner",
    )


def test_update_member_collections_replace_the_old_ones(session):
    mateo = member(FAMILY, "mateo.reyes.pdx@gmail.com")
    updated = ok(
        session,
        "update_member",
        {
            "member_id": mateo,
            "collections": [{"id": coll(FAMILY, "Travel"), "readOnly": True}, {"id": coll(FAMILY, "Streaming")}],
        },
    )
    assert {(c["id"], c["readOnly"]) for c in updated["collections"]} == {
        (coll(FAMILY, "Travel"), True),
        (coll(FAMILY, "Streaming"), False),
    }
    fails(session, "update_member", {"member_id": mateo}, "InvalidRequest", "Nothing to update")
    fails(
        session,
        "update_member",
        {"member_id": mateo, "collections": [{"id": coll(FAMILY, "Travel")}, {"id": coll(FAMILY, "Travel")}]},
        "InvalidRequest",
        "more than once",
    )
    fails(
        session,
        "update_member",
        {"member_id": member(CLUB, "ben.harper.climbs@gmail.com"), "type": 3},
        "Conflict",
        "revoked",
    )


# ---------------------------------------------------------------- Send


def test_seeded_send_statuses(session):
    statuses = {s["name"]: s["status"] for s in ok(session, "list_sends")}
    assert statuses["Guest Wi-Fi for the Airbnb guests"] == "expired"
    assert statuses["Netflix login for Sofia's mom"] == "max access count reached"
    assert statuses["Harbor Coffee staging login"] == "disabled"
    assert statuses["Garage code for Pacific Roofing"] == "active"
    assert [s["name"] for s in ok(session, "list_sends", {"search": "roofing"})] == ["Garage code for Pacific Roofing"]


def test_create_send(session):
    created = ok(
        session,
        "create_send",
        {
            "name": "Dog walker",
            "text": "Lockbox 0611",
            "password": "biscuit",
            "max_access_count": 4,
            "deletion_days": 3,
            "expiration_days": 2,
        },
    )
    assert (created["deletionDate"], created["expirationDate"]) == ("2025-06-13T15:00:00Z", "2025-06-12T15:00:00Z")
    assert created["passwordSet"] and created["status"] == "active" and created["accessCount"] == 0
    assert (
        created["accessUrl"]
        == f"https://send.bitwarden.com/#{created['accessId']}/" + session.dump()["sends"][created["id"]]["key"]
    )
    assert session.dump()["sends"][created["id"]]["password_hash"] == hashlib.sha256(b"biscuit").hexdigest()


def test_send_limits_and_the_hide_email_policy(session):
    base = {"name": "x", "text": "y"}
    for bad in (0, 32):
        fails(session, "create_send", {**base, "deletion_days": bad}, "invalid_arguments", "that far into the future")
    fails(session, "create_send", {**base, "expiration_days": 0}, "invalid_arguments", "expiration_days: ")
    fails(
        session,
        "create_send",
        {**base, "deletion_days": 3, "expiration_days": 4},
        "InvalidRequest",
        "can't expire after",
    )
    fails(session, "create_send", {**base, "hide_email": True}, "PermissionDenied", "policy")
    fails(session, "create_send", {**base, "max_access_count": 0}, "invalid_arguments", "at least 1")
    fails(session, "create_send", {"name": "x", "text": " "}, "invalid_arguments", "text: The text to share")
    fails(session, "create_send", {"name": " ", "text": "y"}, "invalid_arguments", "name: The Name field")


def test_update_send(session):
    figma = send("Figma handoff for Lucas")
    assert ok(session, "update_send", {"send_id": figma, "max_access_count": 4})["status"] == "active"
    assert ok(session, "update_send", {"send_id": figma, "disabled": True})["status"] == "disabled"
    fails(session, "update_send", {"send_id": figma, "remove_password": True}, "Conflict", "has no password")
    tax = send("Tax documents password for CPA")
    fails(
        session, "update_send", {"send_id": tax, "password": "a", "remove_password": True}, "InvalidRequest", "not both"
    )
    assert ok(session, "update_send", {"send_id": tax, "remove_password": True})["passwordSet"] is False
    roofing = send("Garage code for Pacific Roofing")
    fails(session, "update_send", {"send_id": roofing, "expiration_days": 7}, "InvalidRequest", "deletion date")
    extended = ok(session, "update_send", {"send_id": roofing, "expiration_days": 7, "deletion_days": 7})
    assert extended["expirationDate"] == extended["deletionDate"] == "2025-06-17T15:00:00Z"
    fails(session, "update_send", {"send_id": roofing}, "InvalidRequest", "Nothing to update")
    fails(session, "update_send", {"send_id": roofing, "hide_email": True}, "PermissionDenied", "policy")


# ---------------------------------------------------------------- generator


def test_generator_is_deterministic_and_obeys_the_policy(session):
    first = ok(session, "generate_password", {"length": 12})
    assert first == ok(session, "generate_password", {"length": 12})
    value = first["data"]
    assert first["policyInEffect"] and len(value) == 16  # Northwind's policy: at least 16 characters
    assert sum(c.isdigit() for c in value) >= 2 and any(c in "!@#$%^&*" for c in value)
    assert not set(value) & set("lIO01")
    phrase = ok(session, "generate_password", {"passphrase": True, "words": 3, "separator": "_"})
    assert len(phrase["data"].split("_")) == 4 and any(c.isdigit() for c in phrase["data"])
    ok(session, "update_item", {"item_id": item("Etsy"), "password": value})
    assert ok(session, "generate_password", {"length": 12})["data"] != value  # the vault moved on
    for bad in (4, 200):
        fails(session, "generate_password", {"length": bad}, "invalid_arguments", "between 5 and 128")
    for bad in (2, 21):
        fails(session, "generate_password", {"passphrase": True, "words": bad}, "invalid_arguments", "3 to 20 words")
    fails(
        session, "generate_password", {"passphrase": True, "separator": "--"}, "invalid_arguments", "single character"
    )
