"""The Hugging Face Hub environment's tools on the real seed: signing in, who sees a private repo, who writes where
(owners, org write/admin members, contributors on repos they created, read members nowhere), creating repos and
changing settings (gating only for models and datasets), branches and tags, commits (parent_commit guard, deletes,
pull requests on refs/pr/<num>, drafts opening on their first commit), discussions (disabled repos, who closes and
reopens, merged pull requests frozen), merging (write access, open only, conflicts), gated access requests,
collections, likes and organization roles. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("huggingface_hub")
CLOCK = datetime(2025, 6, 16, 10, 0, tzinfo=timezone.utc)
WFB, WFS, SS = "tidewater-ai/wave-forecaster-base", "tidewater-ai/wave-forecaster-small", "tidewater-ai/storm-surge-7b"
EV, B24, TGE = (
    "tidewater-ai/wave-eval-suite",
    "tidewater-ai/buoy-observations-2024",
    "tidewater-ai/tide-gauge-embeddings",
)
KSB, PG, DEMO = "kestrel-nlp/kestrel-sum-base", "kestrel-nlp/summarizer-playground", "tidewater-ai/wave-forecast-demo"
WAVE = "tidewater-ai/wave-forecasting-d0e6e55bfb9b5319b472b2a4"
EVAL = "tidewater-ai/internal-eval-sets-6f4c20be4eb283f8a5da03ec"

session = session_fixture(SPEC, CLOCK)


def login(session: ToolSession, user: str) -> dict:
    return ok(session, "login", {"username": user}, caller="user")


def add(path: str, content: str) -> dict:
    return {"operation": "add", "path_in_repo": path, "content": content}


def commit(repo: str, *ops: dict, **extra) -> dict:
    return {"repo_id": repo, "operations": list(ops), "commit_message": "Update", **extra}


# ---------------------------------------------------------------- signing in and seeing


def test_nothing_works_before_login_and_login_is_the_users(session):
    assert 15 <= len(SPEC.tools) <= 25
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["login"]
    fails(session, "whoami", {}, "PermissionDenied", "401 Unauthorized")
    assert session.call("login", {"username": "maya-lindqvist"}).error_kind == "user_only"
    fails(session, "login", {"username": "tidewater-ai"}, "PermissionDenied", "Invalid user token", caller="user")
    me = login(session, "maya-lindqvist")
    assert {o["name"]: o["role"] for o in me["orgs"]} == {"openmed-collective": "read", "tidewater-ai": "admin"}


def test_private_repos_exist_only_for_the_owner_and_org_members(session):
    login(session, "ben-hartley")
    fails(session, "repo_info", {"repo_id": TGE}, "NotFound", "404 Repository Not Found")
    assert TGE not in {r["id"] for r in ok(session, "list_repos", {"author": "tidewater-ai", "limit": 100})}
    login(session, "li-wei")  # a read member sees it
    assert ok(session, "repo_info", {"repo_id": TGE})["private"] is True
    assert TGE in {r["id"] for r in ok(session, "list_repos", {"author": "tidewater-ai", "limit": 100})}


def test_one_name_per_kind_the_model_and_dataset_coastal_sst_differ(session):
    login(session, "ben-hartley")
    assert ok(session, "repo_info", {"repo_id": "tidewater-ai/coastal-sst", "repo_type": "dataset"})["private"] is False
    fails(session, "repo_info", {"repo_id": "tidewater-ai/coastal-sst"}, "NotFound", "model 'tidewater-ai/coastal-sst'")


# ---------------------------------------------------------------- who writes where


def test_contributors_write_only_to_repos_they_created(session):
    login(session, "priya-raman")
    fails(session, "create_commit", commit(WFB, add("x.md", "x")), "PermissionDenied", "Open a pull request instead")
    made = ok(session, "create_commit", commit(EV, add("x.md", "x"), repo_type="dataset"))
    assert made["pr_num"] is None and made["revision"] == "main"
    files = ok(session, "list_repo_files", {"repo_id": EV, "repo_type": "dataset"})
    assert files["commit_id"] == made["commit_oid"] and "x.md" in {f["path"] for f in files["files"]}


def test_read_members_and_outsiders_cannot_write_but_may_open_pull_requests(session):
    login(session, "li-wei")
    fails(
        session, "create_commit", commit(B24, add("a.md", "a"), repo_type="dataset"), "PermissionDenied", "write access"
    )
    fails(session, "create_tag", {"repo_id": WFB, "tag": "mine"}, "PermissionDenied", "write access")
    pr = ok(session, "create_commit", commit(B24, add("a.md", "a"), repo_type="dataset", create_pr=True))
    assert pr["pr_num"] == 2 and pr["pr_revision"] == "refs/pr/2"
    details = ok(session, "get_discussion_details", {"repo_id": B24, "repo_type": "dataset", "discussion_num": 2})
    assert details["status"] == "open" and details["changed_files"] == ["a.md"]
    main = ok(session, "list_repo_files", {"repo_id": B24, "repo_type": "dataset"})
    assert "a.md" not in {f["path"] for f in main["files"]}


def test_a_users_repos_take_writes_from_that_user_only(session):
    login(session, "maya-lindqvist")
    fails(session, "create_commit", commit("hannah-schmidt/gec-t5-small", add("a", "a")), "PermissionDenied", "403")


# ---------------------------------------------------------------- repositories and settings


def test_create_repo_needs_the_namespace_and_a_free_name(session):
    login(session, "li-wei")
    fails(session, "create_repo", {"repo_id": "tidewater-ai/new-one"}, "PermissionDenied", 'namespace "tidewater-ai"')
    login(session, "priya-raman")
    fails(
        session,
        "create_repo",
        {"repo_id": EV, "repo_type": "dataset"},
        "Conflict",
        "You already created this dataset repo",
    )
    assert ok(session, "create_repo", {"repo_id": EV, "repo_type": "dataset", "exist_ok": True})["id"] == EV
    fails(session, "create_repo", {"repo_id": "tidewater-ai/app", "repo_type": "space"}, "InvalidRequest", "space_sdk")
    fails(session, "create_repo", {"repo_id": "tidewater-ai/-bad"}, "invalid_arguments", "Repo id must be")
    made = ok(
        session,
        "create_repo",
        {"repo_id": "tidewater-ai/wave-forecaster-base", "repo_type": "dataset", "private": True},
    )
    assert made["private"] and made["siblings"] == [".gitattributes"]
    # she created it, so the contributor may write to it
    ok(session, "create_commit", commit("tidewater-ai/wave-forecaster-base", add("a", "a"), repo_type="dataset"))


def test_only_models_and_datasets_can_be_gated_and_settings_need_write(session):
    login(session, "maya-lindqvist")
    fails(
        session,
        "update_repo_settings",
        {"repo_id": DEMO, "repo_type": "space", "gated": "manual"},
        "InvalidRequest",
        "models and datasets",
    )
    fails(session, "update_repo_settings", {"repo_id": WFB}, "InvalidRequest", "at least one setting")
    assert ok(session, "update_repo_settings", {"repo_id": WFB, "gated": "auto"})["gated"] == "auto"
    assert ok(session, "update_repo_settings", {"repo_id": WFB, "gated": False})["gated"] is False
    login(session, "li-wei")
    fails(session, "update_repo_settings", {"repo_id": WFB, "private": True}, "PermissionDenied", "write access")


# ---------------------------------------------------------------- refs and commits


def test_branches_and_tags_resolve_revisions_and_refuse_duplicates(session):
    login(session, "jonas-okafor")
    refs = ok(session, "list_repo_refs", {"repo_id": WFB, "include_pull_requests": True})
    assert [b["name"] for b in refs["branches"]] == ["dev", "main"] and [t["name"] for t in refs["tags"]] == ["v1.0"]
    assert {p["ref"] for p in refs["pull_requests"]} >= {"refs/pr/2", "refs/pr/4"}
    tag = ok(session, "create_branch", {"repo_id": WFB, "branch": "from-tag", "revision": "v1.0"})
    assert tag["target_commit"] == refs["tags"][0]["target_commit"]
    fails(session, "create_branch", {"repo_id": WFB, "branch": "dev"}, "Conflict", "Reference already exists")
    assert ok(session, "create_branch", {"repo_id": WFB, "branch": "dev", "exist_ok": True})["name"] == "dev"
    fails(session, "create_tag", {"repo_id": WFB, "tag": "v1.0"}, "Conflict", "Tag already exists")
    fails(session, "create_tag", {"repo_id": WFB, "tag": "v9", "revision": "nope"}, "NotFound", "Revision Not Found")
    short = refs["tags"][0]["target_commit"][:8]
    assert ok(session, "list_repo_commits", {"repo_id": WFB, "revision": short})[0]["commit_id"].startswith(short)


def test_commits_check_parent_commit_paths_and_branches(session):
    login(session, "jonas-okafor")
    head = ok(session, "repo_info", {"repo_id": WFB})["sha"]
    stale = ok(session, "list_repo_commits", {"repo_id": WFB})[1]["commit_id"]
    fails(
        session, "create_commit", commit(WFB, add("a", "a"), parent_commit=stale), "Conflict", "412 Precondition Failed"
    )
    fails(
        session,
        "create_commit",
        commit(WFB, {"operation": "delete", "path_in_repo": "nope.txt"}),
        "NotFound",
        "Entry Not Found",
    )
    fails(session, "create_commit", commit(WFB, add("a", "1"), add("a", "2")), "InvalidRequest", "only one operation")
    fails(session, "create_commit", commit(WFB, add("a", "a"), revision="v1.0"), "NotFound", "is not a branch")
    made = ok(
        session,
        "create_commit",
        commit(WFB, {"operation": "delete", "path_in_repo": "config.json"}, parent_commit=head),
    )
    history = ok(session, "list_repo_commits", {"repo_id": WFB, "limit": 2})
    assert [c["commit_id"] for c in history] == [made["commit_oid"], head]
    files = {f["path"] for f in ok(session, "list_repo_files", {"repo_id": WFB})["files"]}
    assert "config.json" not in files and "model.safetensors" in files
    old = {f["path"] for f in ok(session, "list_repo_files", {"repo_id": WFB, "revision": "v1.0"})["files"]}
    assert "config.json" in old


def test_a_draft_pull_request_opens_with_its_first_commit_by_its_author(session):
    login(session, "ben-hartley")
    draft = ok(session, "create_discussion", {"repo_id": WFS, "title": "Add ONNX", "pull_request": True})
    assert draft["status"] == "draft" and draft["git_reference"] == "refs/pr/3"
    login(session, "raj-patel")
    fails(
        session,
        "create_commit",
        commit(WFS, add("a", "a"), revision="refs/pr/3"),
        "PermissionDenied",
        "only the author",
    )
    login(session, "ben-hartley")
    ok(session, "create_commit", commit(WFS, add("onnx/x.md", "x"), revision="refs/pr/3"))
    details = ok(session, "get_discussion_details", {"repo_id": WFS, "discussion_num": 3})
    assert details["status"] == "open" and [e["type"] for e in details["events"]] == ["commit"]
    fails(session, "merge_pull_request", {"repo_id": WFS, "discussion_num": 3}, "PermissionDenied", "write access")


# ---------------------------------------------------------------- discussions and merging


def test_disabled_discussions_refuse_new_threads_and_comments(session):
    login(session, "arjun-mehta")
    fails(
        session,
        "create_discussion",
        {"repo_id": PG, "repo_type": "space", "title": "Hello"},
        "PermissionDenied",
        "Discussions are disabled",
    )
    fails(
        session,
        "create_commit",
        commit(PG, add("a", "a"), repo_type="space", create_pr=True),
        "PermissionDenied",
        "disabled",
    )
    ok(session, "update_repo_settings", {"repo_id": PG, "repo_type": "space", "discussions_disabled": False})
    assert ok(session, "create_discussion", {"repo_id": PG, "repo_type": "space", "title": "Hello"})["num"] == 1


def test_only_the_author_or_a_writer_closes_and_merged_stays_merged(session):
    login(session, "ines-moreau")
    fails(
        session,
        "change_discussion_status",
        {"repo_id": WFB, "discussion_num": 1, "new_status": "closed"},
        "PermissionDenied",
        "only the author",
    )
    closed = ok(
        session,
        "change_discussion_status",
        {"repo_id": WFB, "discussion_num": 5, "new_status": "closed", "comment": "Thanks"},
    )
    assert closed["status"] == "closed" and [e["type"] for e in closed["events"]][-2:] == ["comment", "status-change"]
    fails(
        session,
        "change_discussion_status",
        {"repo_id": WFB, "discussion_num": 5, "new_status": "closed"},
        "Conflict",
        "already closed",
    )
    login(session, "jonas-okafor")
    fails(
        session,
        "change_discussion_status",
        {"repo_id": WFB, "discussion_num": 3, "new_status": "open"},
        "Conflict",
        "is merged",
    )
    assert (
        ok(session, "comment_discussion", {"repo_id": WFB, "discussion_num": 3, "comment": "late thanks"})["status"]
        == "merged"
    )


def test_merging_needs_an_open_clean_pull_request_and_applies_its_files(session):
    login(session, "jonas-okafor")
    fails(session, "merge_pull_request", {"repo_id": WFB, "discussion_num": 1}, "InvalidRequest", "not a pull request")
    fails(session, "merge_pull_request", {"repo_id": WFB, "discussion_num": 3}, "Conflict", "already merged")
    details = ok(session, "get_discussion_details", {"repo_id": WFB, "discussion_num": 4})
    assert details["conflicting_files"] == ["config.json"]
    fails(
        session,
        "merge_pull_request",
        {"repo_id": WFB, "discussion_num": 4},
        "Conflict",
        "merge conflicts with 'main' in config.json",
    )
    ok(session, "change_discussion_status", {"repo_id": WFB, "discussion_num": 2, "new_status": "closed"})
    fails(
        session, "merge_pull_request", {"repo_id": WFB, "discussion_num": 2}, "Conflict", "is closed: reopen it first"
    )
    ok(session, "change_discussion_status", {"repo_id": WFB, "discussion_num": 2, "new_status": "open"})
    merged = ok(session, "merge_pull_request", {"repo_id": WFB, "discussion_num": 2, "comment": "Thanks!"})
    assert merged["status"] == "merged" and merged["merge_commit_oid"]
    files = {f["path"] for f in ok(session, "list_repo_files", {"repo_id": WFB})["files"]}
    assert {"onnx/model.onnx", "onnx/README.md", "config.json"} <= files
    assert ok(session, "list_repo_commits", {"repo_id": WFB, "limit": 1})[0]["title"] == "Add ONNX export"


# ---------------------------------------------------------------- gated access


def test_access_requests_are_reviewed_by_writers_on_gated_repos_only(session):
    login(session, "li-wei")
    fails(session, "list_access_requests", {"repo_id": SS}, "PermissionDenied", "write access")
    login(session, "maya-lindqvist")
    fails(session, "list_access_requests", {"repo_id": WFB}, "InvalidRequest", "is not gated")
    pending = [r["username"] for r in ok(session, "list_access_requests", {"repo_id": SS})]
    assert pending == ["omar-haddad", "noah-becker", "ines-moreau", "samuel-adeyemi", "nina-popescu"]
    args = {"repo_id": SS, "user": "omar-haddad"}
    fails(
        session,
        "handle_access_request",
        {**args, "status": "accepted", "rejection_reason": "x"},
        "InvalidRequest",
        "rejection_reason",
    )
    fails(session, "handle_access_request", {**args, "status": "pending"}, "Conflict", "already pending")
    fails(
        session,
        "handle_access_request",
        {**args, "user": "kenji-sato", "status": "accepted"},
        "NotFound",
        "has not requested access",
    )
    fails(
        session,
        "handle_access_request",
        {**args, "user": "no-such-user", "status": "accepted"},
        "NotFound",
        "no user or organization",
    )
    assert ok(session, "handle_access_request", {**args, "status": "accepted"})["status"] == "accepted"
    rejected = ok(
        session,
        "handle_access_request",
        {**args, "user": "noah-becker", "status": "rejected", "rejection_reason": "No."},
    )
    assert rejected["rejection_reason"] == "No."
    login(session, "omar-haddad")
    assert ok(session, "repo_info", {"repo_id": SS})["access_request_status"] == "accepted"


# ---------------------------------------------------------------- collections, likes, organizations


def test_collections_take_items_from_their_owners_once(session):
    login(session, "ben-hartley")
    assert EVAL not in {c["slug"] for c in ok(session, "list_collections", {"owner": "tidewater-ai"})}
    fails(
        session,
        "add_collection_item",
        {"collection_slug": EVAL, "item_id": WFB, "item_type": "model"},
        "NotFound",
        "Collection",
    )
    login(session, "priya-raman")  # a contributor cannot edit the organization's collections
    fails(
        session,
        "add_collection_item",
        {"collection_slug": WAVE, "item_id": EV, "item_type": "dataset"},
        "PermissionDenied",
        "403",
    )
    login(session, "jonas-okafor")
    item = {"collection_slug": WAVE, "item_id": WFB, "item_type": "model"}
    fails(session, "add_collection_item", item, "Conflict", "already in this collection")
    assert len(ok(session, "add_collection_item", {**item, "exists_ok": True})["items"]) == 4
    fails(session, "add_collection_item", {**item, "item_id": "tidewater-ai/none"}, "NotFound", "Repository Not Found")
    grown = ok(session, "add_collection_item", {**item, "item_id": EV, "item_type": "dataset", "note": "eval"})
    assert [(i["item_id"], i["position"], i["note"]) for i in grown["items"]][-1] == (EV, 4, "eval")
    found = ok(session, "list_collections", {"item": f"datasets/{EV}"})
    assert {c["slug"] for c in found} == {WAVE, EVAL}


def test_a_like_counts_once(session):
    login(session, "ben-hartley")
    assert ok(session, "like", {"repo_id": WFB})["likes"] == 213
    assert ok(session, "like", {"repo_id": WFB})["likes"] == 213


def test_member_roles_change_on_paid_plans_by_writers_and_admins_keep_an_admin(session):
    login(session, "ben-hartley")
    fails(session, "list_organization_members", {"organization": "tidewater-ai"}, "PermissionDenied", "only members")
    login(session, "sofia-marquez")
    fails(
        session,
        "update_org_member_role",
        {"organization": "kestrel-nlp", "username": "arjun-mehta", "role": "admin"},
        "InvalidRequest",
        "402 Payment Required",
    )
    login(session, "li-wei")
    fails(
        session,
        "update_org_member_role",
        {"organization": "tidewater-ai", "username": "priya-raman", "role": "write"},
        "PermissionDenied",
        "write or admin role",
    )
    login(session, "jonas-okafor")
    fails(
        session,
        "update_org_member_role",
        {"organization": "tidewater-ai", "username": "priya-raman", "role": "admin"},
        "PermissionDenied",
        "only admins",
    )
    assert (
        ok(
            session,
            "update_org_member_role",
            {"organization": "tidewater-ai", "username": "priya-raman", "role": "write"},
        )["role"]
        == "write"
    )
    fails(
        session,
        "update_org_member_role",
        {"organization": "tidewater-ai", "username": "nobody", "role": "read"},
        "NotFound",
        "not a member",
    )
    login(session, "kenji-sato")
    fails(
        session,
        "update_org_member_role",
        {"organization": "fernwood-labs", "username": "kenji-sato", "role": "write"},
        "Conflict",
        "at least one admin",
    )
    login(session, "priya-raman")  # now a writer: she writes to every repo of the organization
    ok(session, "create_commit", commit(WFB, add("a", "a")))
