"""The Airtable environment's tools on the real seed: sign-in, base permissions (read, comment, edit, create),
records in batches of ten with typed cells (select choices and typecast, numbers, emails, dates, checkboxes), linked
records mirrored in the inverse field, PATCH against replace, deletes that unlink, the filterByFormula subset,
views, offset paging, schema changes for creators only, and comments only their author may change. Every error path
is checked to leave the state unchanged, with Airtable's error type in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("airtable")
CLOCK = datetime(2026, 4, 14, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
BASES = {b["name"]: b["id"] for b in SEED["bases"]}
CON, HIR, INV, FIN = (
    BASES[n] for n in ("Content Calendar", "Hiring Pipeline", "Studio Shop Inventory", "Finance 2026")
)
MAYA, JONAH, LEO = "maya@fernhill.studio", "jonah@fernhill.studio", "leo@fernhill.studio"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = MAYA) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def records(session: ToolSession, base: str, table: str, formula: str | None = None, **more) -> list[dict]:
    args = {"base_id": base, "table": table, **more}
    if formula:
        args["filter_by_formula"] = formula
    return ok(session, "list_records", args)["records"]


def first_post(session: ToolSession) -> dict:
    return records(session, CON, "Posts", '{Status} = "In review"')[0]


# ---------------------------------------------------------------- sign-in and permissions


def test_tools_need_a_signed_in_user(session: ToolSession) -> None:
    fails(session, "list_bases", {}, "PermissionDenied", "AUTHENTICATION_REQUIRED")


def test_bases_list_only_those_the_user_collaborates_on(session: ToolSession) -> None:
    sign_in(session)
    bases = ok(session, "list_bases")["bases"]
    assert {b["name"]: b["permissionLevel"] for b in bases} == {
        "Content Calendar": "owner",
        "Hiring Pipeline": "edit",
        "Studio Shop Inventory": "create",
    }
    fails(session, "get_base_schema", {"base_id": FIN}, "NotFound", "NOT_FOUND")


def test_read_and_comment_users_cannot_change_records(session: ToolSession) -> None:
    sign_in(session, JONAH)  # comment on Content Calendar, read on Hiring Pipeline
    post = first_post(session)
    update = {"base_id": CON, "table": "Posts", "records": [{"id": post["id"], "fields": {"Status": "Scheduled"}}]}
    fails(session, "update_records", update, "PermissionDenied", "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")
    made = ok(session, "create_comment", {"base_id": CON, "table": "Posts", "record_id": post["id"], "text": "Nice"})
    assert made["author"]["email"] == JONAH
    cand = records(session, HIR, "Candidates", max_records=1)[0]
    comment = {"base_id": HIR, "table": "Candidates", "record_id": cand["id"], "text": "hi"}
    fails(session, "create_comment", comment, "PermissionDenied", "INVALID_PERMISSIONS")


def test_schema_changes_need_creator_permission(session: ToolSession) -> None:
    sign_in(session)  # edit on Hiring Pipeline
    args = {"base_id": HIR, "table": "Roles", "name": "Remote", "type": "checkbox"}
    fails(session, "create_field", args, "PermissionDenied", "INVALID_PERMISSIONS")
    made = ok(session, "create_field", {**args, "base_id": INV, "table": "Products"})
    assert made["type"] == "checkbox" and made["id"].startswith("fld")


# ---------------------------------------------------------------- typed cells


def test_select_values_must_be_choices_unless_typecast(session: ToolSession) -> None:
    sign_in(session)
    args = {"base_id": CON, "table": "Posts", "records": [{"fields": {"Title": "Kiln diary", "Status": "Parked"}}]}
    fails(session, "create_records", args, "InvalidRequest", "INVALID_MULTIPLE_CHOICE_OPTIONS")
    made = ok(session, "create_records", {**args, "typecast": True})["records"][0]
    assert made["fields"] == {"Title": "Kiln diary", "Status": "Parked"}
    schema = ok(session, "get_base_schema", {"base_id": CON})["tables"]
    status = next(f for t in schema if t["name"] == "Posts" for f in t["fields"] if f["name"] == "Status")
    assert "Parked" in [c["name"] for c in status["options"]["choices"]]


def test_unknown_fields_and_wrong_values_are_refused_whole_batch(session: ToolSession) -> None:
    sign_in(session)
    good = {"fields": {"Title": "Fine"}}
    for bad, kind in [
        ({"Titel": "x"}, "UNKNOWN_FIELD_NAME"),
        ({"Word count": "many"}, "INVALID_VALUE_FOR_COLUMN"),
        ({"Featured": "yes"}, "INVALID_VALUE_FOR_COLUMN"),
        ({"Publish date": "next week"}, "INVALID_VALUE_FOR_COLUMN"),
        ({"Author": "Sam"}, "INVALID_VALUE_FOR_COLUMN"),
        ({"Author": ["recAAAAAAAAAAAAAA"]}, "ROW_DOES_NOT_EXIST"),
    ]:
        args = {"base_id": CON, "table": "Posts", "records": [good, {"fields": bad}]}
        fails(session, "create_records", args, "InvalidRequest", kind)
    team = {"base_id": CON, "table": "Team", "records": [{"fields": {"Name": "X", "Email": "not-an-email"}}]}
    fails(session, "create_records", team, "InvalidRequest", "INVALID_VALUE_FOR_COLUMN")


def test_batches_hold_at_most_ten_records(session: ToolSession) -> None:
    sign_in(session)
    args = {"base_id": CON, "table": "Posts", "records": [{"fields": {"Title": f"P{i}"}} for i in range(11)]}
    fails(session, "create_records", args, "invalid_arguments", "at most 10")
    assert len(ok(session, "create_records", {**args, "records": args["records"][:10]})["records"]) == 10


def test_typecast_turns_text_into_numbers(session: ToolSession) -> None:
    sign_in(session)
    prod = records(session, INV, "Products", max_records=1)[0]
    upd = {"base_id": INV, "table": "Products", "records": [{"id": prod["id"], "fields": {"Stock": "42"}}]}
    fails(session, "update_records", upd, "InvalidRequest", "INVALID_VALUE_FOR_COLUMN")
    assert ok(session, "update_records", {**upd, "typecast": True})["records"][0]["fields"]["Stock"] == 42


# ---------------------------------------------------------------- links, patch, replace, delete


def test_links_are_mirrored_and_deletes_unlink(session: ToolSession) -> None:
    sign_in(session)
    sam = records(session, CON, "Team", '{Name} = "Sam Ortiz"')[0]
    made = ok(
        session,
        "create_records",
        {"base_id": CON, "table": "Posts", "records": [{"fields": {"Title": "Glaze lab", "Author": [sam["id"]]}}]},
    )["records"][0]
    member = ok(session, "get_record", {"base_id": CON, "table": "Team", "record_id": sam["id"]})
    assert made["id"] in member["fields"]["Posts"]
    ok(session, "delete_records", {"base_id": CON, "table": "Posts", "record_ids": [made["id"]]})
    member = ok(session, "get_record", {"base_id": CON, "table": "Team", "record_id": sam["id"]})
    assert made["id"] not in member["fields"].get("Posts", [])
    fails(session, "get_record", {"base_id": CON, "table": "Posts", "record_id": made["id"]}, "NotFound", "NOT_FOUND")


def test_patch_keeps_other_cells_and_replace_clears_them(session: ToolSession) -> None:
    sign_in(session)
    post = first_post(session)
    key = {"base_id": CON, "table": "Posts"}
    patched = ok(session, "update_records", {**key, "records": [{"id": post["id"], "fields": {"Featured": True}}]})
    assert patched["records"][0]["fields"]["Title"] == post["fields"]["Title"]
    replaced = ok(
        session, "update_records", {**key, "replace": True, "records": [{"id": post["id"], "fields": {"Title": "New"}}]}
    )
    assert replaced["records"][0]["fields"] == {"Title": "New"}
    author = post["fields"]["Author"][0]
    member = ok(session, "get_record", {"base_id": CON, "table": "Team", "record_id": author})
    assert post["id"] not in member["fields"].get("Posts", [])


def test_updating_a_record_of_another_table_is_not_found(session: ToolSession) -> None:
    sign_in(session)
    member = records(session, CON, "Team", max_records=1)[0]
    upd = {"base_id": CON, "table": "Posts", "records": [{"id": member["id"], "fields": {"Title": "x"}}]}
    fails(session, "update_records", upd, "NotFound", "NOT_FOUND")


# ---------------------------------------------------------------- formulas, views, paging


def test_formulas_filter_and_bad_ones_are_refused(session: ToolSession) -> None:
    sign_in(session)
    low = records(session, INV, "Products", "AND({Stock} <= {Reorder level}, NOT({Discontinued}))")
    assert low and all(r["fields"].get("Stock", 0) <= r["fields"]["Reorder level"] for r in low)
    sams = records(session, CON, "Posts", 'FIND("Sam", {Author})')
    assert sams and len(sams) > len(records(session, CON, "Posts", 'FIND("Sam Patel", {Author})'))
    before = records(session, HIR, "Candidates", 'IS_BEFORE({Applied on}, "2026-02-01")')
    assert before and all(r["fields"]["Applied on"] < "2026-02-01" for r in before)
    bad = {"base_id": CON, "table": "Posts"}
    fails(session, "list_records", {**bad, "filter_by_formula": '{Status = "Idea"'}, "InvalidRequest", "INVALID_FILTER")
    fails(session, "list_records", {**bad, "filter_by_formula": "{Nope} = 1"}, "InvalidRequest", "INVALID_FILTER")


def test_views_filter_and_sort(session: ToolSession) -> None:
    sign_in(session)
    rows = records(session, CON, "Posts", view="Scheduled")
    assert rows and {r["fields"]["Status"] for r in rows} == {"Scheduled"}
    dates = [r["fields"]["Publish date"] for r in rows]
    assert dates == sorted(dates)
    fails(session, "list_records", {"base_id": CON, "table": "Posts", "view": "Nope"}, "InvalidRequest", "VIEW_NAME")


def test_offset_pages_and_max_records(session: ToolSession) -> None:
    sign_in(session)
    page = ok(session, "list_records", {"base_id": CON, "table": "Posts", "page_size": 100})
    assert len(page["records"]) == 100 and page["offset"]
    rest = ok(session, "list_records", {"base_id": CON, "table": "Posts", "offset": page["offset"]})
    assert len(page["records"]) + len(rest["records"]) == 180 and rest["offset"] is None
    assert len(records(session, CON, "Posts", max_records=7)) == 7


# ---------------------------------------------------------------- tables, fields, comments


def test_new_table_needs_a_text_like_primary_and_unique_names(session: ToolSession) -> None:
    sign_in(session)
    args = {"base_id": CON, "name": "Shoots", "fields": [{"name": "Done", "type": "checkbox"}]}
    fails(session, "create_table", args, "InvalidRequest", "primary")
    fails(session, "create_table", {**args, "name": "posts"}, "InvalidRequest", "DUPLICATE_TABLE_NAME")
    made = ok(
        session,
        "create_table",
        {
            **args,
            "fields": [
                {"name": "Name", "type": "singleLineText"},
                {"name": "Posts", "type": "multipleRecordLinks", "linked_table": "Posts"},
            ],
        },
    )
    assert made["primaryFieldId"] == made["fields"][0]["id"]
    schema = ok(session, "get_base_schema", {"base_id": CON})["tables"]
    posts = next(t for t in schema if t["name"] == "Posts")
    assert "Shoots" in [f["name"] for f in posts["fields"]]
    dup = {"base_id": CON, "table": "Posts", "field": "Status", "name": "title"}
    fails(session, "update_field", dup, "InvalidRequest", "DUPLICATE_OR_EMPTY_FIELD_NAME")


def test_only_the_author_changes_a_comment(session: ToolSession) -> None:
    sign_in(session)
    post = first_post(session)
    key = {"base_id": CON, "table": "Posts", "record_id": post["id"]}
    mine = ok(session, "create_comment", {**key, "text": "Tighten the intro"})
    others = [c for c in SEED["comments"] if c["author_id"] != mine["author"]["id"]]
    theirs = next(c for c in others if c["record_id"] in {r["id"] for r in records(session, CON, "Posts")})
    other_key = {"base_id": CON, "table": "Posts", "record_id": theirs["record_id"], "comment_id": theirs["id"]}
    fails(session, "delete_comment", other_key, "InvalidRequest", "INVALID_PERMISSIONS")
    assert ok(session, "update_comment", {**key, "comment_id": mine["id"], "text": "Fixed"})["text"] == "Fixed"
    assert ok(session, "list_comments", key)["comments"][0]["text"] == "Fixed"
    ok(session, "delete_comment", {**key, "comment_id": mine["id"]})
    assert mine["id"] not in [c["id"] for c in ok(session, "list_comments", key)["comments"]]


# ---------------------------------------------------------------- collaborators


def test_collaborators_list_everyone_on_a_base_the_user_can_see(session: ToolSession) -> None:
    sign_in(session, LEO)  # read on Content Calendar, edit on Finance 2026
    base = ok(session, "get_base_collaborators", {"base_id": CON})
    assert base["permissionLevel"] == "read" and base["name"] == "Content Calendar"
    people = {c["email"]: c["permissionLevel"] for c in base["collaborators"]}
    assert people["maya@fernhill.studio"] == "owner" and people[JONAH] == "comment" and people[LEO] == "read"
    assert base["collaborators"][0]["permissionLevel"] == "owner"  # strongest permission first
    assert all(c["userId"].startswith("usr") for c in base["collaborators"])
    fails(session, "get_base_collaborators", {"base_id": INV}, "NotFound", "NOT_FOUND")


# ---------------------------------------------------------------- upserts


def upsert(records_: list[dict], merge: list[str], **more) -> dict:
    return {"base_id": INV, "table": "Suppliers", "records": records_, "fields_to_merge_on": merge, **more}


def test_upsert_updates_the_match_and_creates_the_rest(session: ToolSession) -> None:
    sign_in(session, JONAH)
    before = records(session, INV, "Suppliers", '{Name} = "Keramik Nord"')[0]
    out = ok(
        session,
        "upsert_records",
        upsert(
            [{"fields": {"Name": "Keramik Nord", "Country": "Japan"}}, {"fields": {"Name": "Atelier Faro"}}], ["Name"]
        ),
    )
    assert out["updatedRecords"] == [before["id"]] and len(out["createdRecords"]) == 1
    after = ok(session, "get_record", {"base_id": INV, "table": "Suppliers", "record_id": before["id"]})["fields"]
    assert after["Country"] == "Japan" and after["Email"] == before["fields"]["Email"]  # PATCH: other cells kept
    assert after["Products"] == before["fields"]["Products"]
    assert records(session, INV, "Suppliers", '{Name} = "Atelier Faro"')[0]["id"] == out["createdRecords"][0]


def test_upsert_refuses_ambiguous_or_incomplete_keys_and_changes_nothing(session: ToolSession) -> None:
    sign_in(session, JONAH)
    portugal = upsert([{"fields": {"Country": "Portugal", "Name": "X"}}], ["Country"])
    fails(session, "upsert_records", portugal, "InvalidRequest", "INVALID_RECORDS")  # several suppliers match
    no_key = upsert([{"fields": {"Name": "Keramik Nord"}}, {"fields": {"Country": "Japan"}}], ["Name"])
    fails(session, "upsert_records", no_key, "InvalidRequest", "INVALID_RECORDS")
    twice = upsert([{"fields": {"Name": "New Co"}}, {"fields": {"Name": "New Co"}}], ["Name"])
    fails(session, "upsert_records", twice, "InvalidRequest", "INVALID_RECORDS")
    links = upsert([{"fields": {"Name": "Y", "Products": []}}], ["Products"])
    fails(session, "upsert_records", links, "InvalidRequest", "cannot be used in fieldsToMergeOn")
    unknown = upsert([{"fields": {"Name": "Y"}}], ["Nickname"])
    fails(session, "upsert_records", unknown, "InvalidRequest", "UNKNOWN_FIELD_NAME")
    bad_value = upsert([{"fields": {"Name": "Keramik Nord"}}, {"fields": {"Name": "Z", "Email": "nope"}}], ["Name"])
    fails(session, "upsert_records", bad_value, "InvalidRequest", "INVALID_VALUE_FOR_COLUMN")
    four = upsert([{"fields": {"Name": "Y"}}], ["Name", "Email", "Country", "Products"])
    fails(session, "upsert_records", four, "invalid_arguments", "at most 3 items")


def test_upsert_needs_edit_permission(session: ToolSession) -> None:
    sign_in(session, LEO)
    args = {"base_id": CON, "table": "Team", "records": [{"fields": {"Name": "Leo"}}], "fields_to_merge_on": ["Name"]}
    fails(session, "upsert_records", args, "PermissionDenied", "INVALID_PERMISSIONS")


# ---------------------------------------------------------------- renames


def test_renaming_a_field_keeps_views_that_filter_on_it(session: ToolSession) -> None:
    sign_in(session)  # owner of Content Calendar
    before = ok(session, "list_records", {"base_id": CON, "table": "Posts", "view": "Needs review"})["records"]
    ok(session, "update_field", {"base_id": CON, "table": "Posts", "field": "Status", "name": "Stage"})
    after = ok(session, "list_records", {"base_id": CON, "table": "Posts", "view": "Needs review"})["records"]
    assert [r["id"] for r in after] == [r["id"] for r in before] and after[0]["fields"]["Stage"] == "In review"
    views = {
        v["name"]: v["filter"] for t in ok(session, "get_base_schema", {"base_id": CON})["tables"] for v in t["views"]
    }
    assert views["Needs review"] == '{Stage} = "In review"'
