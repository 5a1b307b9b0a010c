"""The GitHub environment's tools on the real seed: sign-in and token scopes, roles from ownership, organizations,
teams and collaboration, archived repositories, labels created on first use, assignees and milestones, state reasons,
locked conversations, pull requests (forks, drafts, duplicates, empty branches), reviews and dismissals, merging
(methods, conflicts, branch protection, admins' bypass, closing keywords, deleted head branches, pull requests that
fall behind), branch protection changes, and re-running workflow runs. Every error path is checked to leave the state
unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("github")
CLOCK = datetime(2025, 6, 18, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ACCOUNTS = {a["login"]: a for a in SEED["accounts"]}
TOKENS = {(t["user_id"], t["note"]): t["token"] for t in SEED["tokens"]}
REPOS = {r["full_name"]: r for r in SEED["repositories"]}
API, WEB, ROUTE, INFRA = (
    "harborline/dispatch-api",
    "harborline/dispatch-web",
    "harborline/route-optimizer",
    "harborline/infra",
)
OPAL, SITE, PORTAL, LEGACY = (
    "opal-data/opal",
    "fernhill-studio/website",
    "fernhill-studio/client-portal",
    "harborline/dispatch-api-legacy",
)

session = session_fixture(SPEC, CLOCK)


def token(login: str, note: str = "assistant") -> str:
    return TOKENS[(ACCOUNTS[login]["id"], note)]


def sign_in(session: ToolSession, login: str, note: str = "assistant") -> dict:
    return ok(session, "sign_in", {"token": token(login, note)}, caller="user")


def milestone(repo: str, title: str) -> int:
    return next(m["number"] for m in SEED["milestones"] if m["repo_id"] == REPOS[repo]["id"] and m["title"] == title)


def number(repo: str, title: str) -> int:
    return next(i["number"] for i in SEED["issues"] if i["repo_id"] == REPOS[repo]["id"] and i["title"] == title)


def pull(session: ToolSession, repo: str, title: str) -> dict:
    return ok(session, "get_pull_request", {"repository": repo, "pull_number": number(repo, title)})


def issue(session: ToolSession, repo: str, n: int) -> dict:
    return ok(session, "get_issue", {"repository": repo, "issue_number": n})


RETRY = "Exponential backoff for carrier webhook retries"
GEOCODE = "Batch geocoding requests in chunks of 200"
PGX = "Upgrade pgx to v5"
REMOVE_V1 = "Remove legacy v1 dispatch endpoints"
CHERRY = "Cherry-pick: tender timezone fix for the June release"
XNET = "Bump golang.org/x/net from 0.23.0 to 0.25.0"
RATE_CACHE = "WIP: carrier rate cache"
DARK = "Dark mode for the dispatcher console"
ETA = "Show ETAs in the dispatcher's time zone"
ORTOOLS = "Use OR-Tools 9.10"
MATRIX = "Cache the distance matrix per depot"
UNICODE = "Handle non-ASCII column names in the header parser"
TYPOS = "Fix typos in the README quickstart"


# ---------------------------------------------------------------- signing in and seeing repositories


def test_nothing_works_before_the_user_signs_in_and_sign_in_is_theirs(session):
    assert len(SPEC.tools) == 25
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    fails(session, "get_authenticated_user", {}, "PermissionDenied", "Requires authentication")
    fails(session, "get_repository", {"repository": API}, "PermissionDenied", "Requires authentication")
    outcome = session.call("sign_in", {"token": token("priyaraman")})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_sign_in_with_a_token_and_its_scopes(session):
    me = sign_in(session, "priyaraman")
    assert me["login"] == "priyaraman" and me["token_scopes"] == ["repo", "workflow", "read:org"]
    assert me["organizations"] == ["harborline", "harborline-labs", "opal-data"]
    fails(session, "sign_in", {"token": "ghp_" + "x" * 36}, "PermissionDenied", "Bad credentials", caller="user")
    fails(
        session,
        "sign_in",
        {"token": token("dokafor", "laptop 2024")},
        "PermissionDenied",
        "Bad credentials",
        caller="user",
    )  # expired on May 31
    assert ok(session, "get_authenticated_user")["login"] == "priyaraman"


def test_a_token_without_the_repo_scope_sees_no_private_repository(session):
    sign_in(session, "priyaraman", "status-page widget")
    listed = [r["full_name"] for r in ok(session, "list_repositories", {"per_page": 100})["items"]]
    assert listed and not any(REPOS[name]["private"] for name in listed)
    fails(session, "get_repository", {"repository": API}, "NotFound", "Not Found")
    sign_in(session, "priyaraman")
    assert ok(session, "get_repository", {"repository": API})["private"] is True


def test_roles_come_from_ownership_organizations_teams_and_collaborators(session):
    sign_in(session, "priyaraman")
    role = {
        name: ok(session, "get_repository", {"repository": name})["role_name"]
        for name in (API, WEB, ROUTE, INFRA, "harborline/docs", "priyaraman/dotfiles", OPAL, PORTAL)
    }
    assert role == {
        API: "maintain",
        WEB: "maintain",
        ROUTE: "admin",
        INFRA: "write",
        "harborline/docs": "read",
        "priyaraman/dotfiles": "admin",
        OPAL: "maintain",
        PORTAL: "read",
    }
    fails(session, "get_repository", {"repository": SITE}, "NotFound", "Not Found")  # another org's private repo
    assert ok(session, "get_repository", {"repository": "HarborLine/Dispatch-API"})["full_name"] == API
    sign_in(session, "dokafor")  # an organization owner is admin everywhere in it
    assert ok(session, "get_repository", {"repository": WEB})["permissions"]["admin"] is True


def test_repositories_list_explicit_access_only_and_page(session):
    sign_in(session, "priyaraman")
    everything = ok(session, "list_repositories", {"per_page": 100})
    names = [r["full_name"] for r in everything["items"]]
    assert names == sorted(names, key=str.lower) and PORTAL not in names  # public, but no explicit access
    assert ok(session, "get_repository", {"repository": PORTAL})["role_name"] == "read"
    first = ok(session, "list_repositories", {"per_page": 5, "page": 1})
    second = ok(session, "list_repositories", {"per_page": 5, "page": 2})
    assert first["next_page"] == 2 and [r["full_name"] for r in first["items"] + second["items"]] == names[:10]
    assert ok(session, "list_repositories", {"per_page": 5, "page": 9})["items"] == []
    near = [r["full_name"] for r in ok(session, "list_repositories", {"query": "dispatch-api"})["items"]]
    assert near == ["harborline-labs/dispatch-api", API, LEGACY]
    private = ok(session, "list_repositories", {"owner": "harborline", "visibility": "private"})["items"]
    assert {r["full_name"] for r in private} >= {API, WEB, INFRA} and all(r["private"] for r in private)
    outcome = session.call("list_repositories", {"per_page": 101})
    assert not outcome.ok and "per_page" in outcome.error


def test_an_archived_repository_is_read_only(session):
    sign_in(session, "priyaraman")
    assert ok(session, "get_repository", {"repository": LEGACY})["archived"] is True
    open_one = ok(session, "list_issues", {"repository": LEGACY})["items"][0]["number"]
    fails(
        session,
        "update_issue",
        {"repository": LEGACY, "issue_number": open_one, "state": "closed"},
        "PermissionDenied",
        "archived so is read-only",
    )
    fails(session, "create_issue", {"repository": LEGACY, "title": "x"}, "PermissionDenied", "archived")
    fails(
        session,
        "create_issue_comment",
        {"repository": LEGACY, "issue_number": open_one, "body": "x"},
        "PermissionDenied",
        "archived",
    )


def test_collaborators_need_push_access_and_filter_by_permission(session):
    sign_in(session, "abello")  # triage on dispatch-web
    fails(
        session,
        "list_collaborators",
        {"repository": WEB},
        "PermissionDenied",
        "Must have push access to view repository collaborators.",
    )
    sign_in(session, "priyaraman")
    people = {
        c["login"]: c["role_name"]
        for c in ok(session, "list_collaborators", {"repository": WEB, "per_page": 100})["items"]
    }
    assert people["ohaddad"] == "write" and people["gliu-pm"] == "triage" and people["dokafor"] == "admin"
    assert people["meichen-dev"] == "read" and "mei-chen" not in people
    pushers = {
        c["login"]
        for c in ok(session, "list_collaborators", {"repository": WEB, "permission": "push", "per_page": 100})["items"]
    }
    assert "ohaddad" in pushers and not {"meichen-dev", "gliu-pm", "abello"} & pushers


# ---------------------------------------------------------------- issues


def test_issues_list_pull_requests_too_and_filter(session):
    sign_in(session, "priyaraman")
    listed = ok(session, "list_issues", {"repository": API, "per_page": 100})["items"]
    assert any(i["pull_request"] for i in listed) and any(not i["pull_request"] for i in listed)
    assert all(i["state"] == "open" for i in listed)
    bugs = ok(session, "list_issues", {"repository": API, "labels": ["bug", "P1"], "per_page": 100})["items"]
    assert bugs and all({"bug", "p1"} <= set(i["labels"]) for i in bugs)
    assert ok(session, "list_issues", {"repository": API, "labels": ["no-such-label"]})["items"] == []
    unassigned = ok(session, "list_issues", {"repository": API, "assignee": "none", "per_page": 100})["items"]
    assert unassigned and all(not i["assignees"] for i in unassigned)
    june = ok(session, "list_milestones", {"repository": API})["items"][0]
    assert june["title"] == "June release"
    in_june = ok(session, "list_issues", {"repository": API, "milestone": str(june["number"]), "per_page": 100})
    assert in_june["total_count"] == june["open_issues"]
    found = ok(session, "list_issues", {"repository": API, "query": "redis flaky"})["items"]
    assert [i["title"] for i in found] == ["Flaky TestRedisLock in CI"]


def test_labels_are_created_on_first_use_and_removing_needs_the_label(session):
    sign_in(session, "priyaraman")
    n = number(API, "Add idempotency keys to POST /loads")
    before = len(ok(session, "list_labels", {"repository": API, "per_page": 100})["items"])
    changed = ok(session, "update_issue", {"repository": API, "issue_number": n, "add_labels": ["API-design", "P2"]})
    assert changed["labels"] == ["API-design", "enhancement", "p2"]
    labels = ok(session, "list_labels", {"repository": API, "per_page": 100})["items"]
    assert len(labels) == before + 1
    assert [(label["color"], label["default"]) for label in labels if label["name"] == "API-design"] == [
        ("ededed", False)
    ]
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "remove_labels": ["security"]},
        "NotFound",
        "Label does not exist",
    )
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "remove_labels": ["nonsense"]},
        "NotFound",
        "Label does not exist",
    )
    assert ok(session, "update_issue", {"repository": API, "issue_number": n, "remove_labels": ["p2"]})["labels"] == [
        "API-design",
        "enhancement",
    ]


def test_without_triage_access_new_issue_labels_are_silently_dropped(session):
    sign_in(session, "priyaraman")  # read on harborline/docs
    made = ok(
        session,
        "create_issue",
        {
            "repository": "harborline/docs",
            "title": "Document rate limits",
            "labels": ["documentation"],
            "assignees": ["lferreira"],
        },
    )
    assert made["labels"] == [] and made["assignees"] == [] and made["user"] == "priyaraman"
    fails(
        session,
        "update_issue",
        {"repository": "harborline/docs", "issue_number": made["number"], "add_labels": ["documentation"]},
        "PermissionDenied",
        "triage access",
    )
    assert (
        ok(
            session,
            "update_issue",
            {"repository": "harborline/docs", "issue_number": made["number"], "title": "Document the rate limits"},
        )["title"]
        == "Document the rate limits"
    )


def test_issue_numbers_are_shared_with_pull_requests(session):
    sign_in(session, "priyaraman")
    last = REPOS[API]["last_number"]
    made = ok(
        session,
        "create_issue",
        {
            "repository": API,
            "title": "Tender API: idempotent retries",
            "labels": ["enhancement"],
            "milestone": milestone(API, "July release"),
        },
    )
    assert made["number"] == last + 1 and made["milestone"]["title"] == "July release"
    pr = ok(session, "create_pull_request", {"repository": API, "title": "Audit log", "head": "priya/tender-audit-log"})
    assert pr["number"] == last + 2
    fails(session, "get_pull_request", {"repository": API, "pull_number": last + 1}, "NotFound", "Not Found")


def test_assignees_need_access_and_there_are_at_most_ten(session):
    sign_in(session, "priyaraman")
    n = number(API, "Add idempotency keys to POST /loads")
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "add_assignees": ["mei-chen"]},
        "InvalidRequest",
        '"field": "assignees"',
    )  # the other Mei Chen has no access
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "add_assignees": ["harborline"]},
        "InvalidRequest",
        "Validation Failed",
    )
    fails(
        session,
        "create_issue",
        {"repository": API, "title": "x", "milestone": 99},
        "InvalidRequest",
        '"field": "milestone"',
    )
    assert ok(
        session, "update_issue", {"repository": API, "issue_number": n, "add_assignees": ["MeiChen-Dev", "tkowalski"]}
    )["assignees"] == ["meichen-dev", "tkowalski"]

    def crowd(tables):
        row = next(i for i in tables["issues"] if i["repo_id"] == REPOS[API]["id"] and i["number"] == n)
        row["assignee_ids"] = sorted(
            ACCOUNTS[a]["id"]
            for a in (
                "priyaraman",
                "dokafor",
                "meichen-dev",
                "lferreira",
                "snyberg",
                "tkowalski",
                "abello",
                "jwhitfield",
                "npetrova",
                "gliu-pm",
            )
        )

    restore_seed_with(session, crowd, CLOCK)
    sign_in(session, "priyaraman")
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "add_assignees": ["rpatel"]},
        "InvalidRequest",
        "too_many",
    )


def test_closing_reasons_and_reopening(session):
    sign_in(session, "priyaraman")
    n = number(API, "Deprecate XML carrier feeds?")
    closed = ok(session, "update_issue", {"repository": API, "issue_number": n, "state": "closed"})
    assert closed["state_reason"] == "completed" and closed["closed_by"] == "priyaraman"
    assert (
        ok(session, "update_issue", {"repository": API, "issue_number": n, "state_reason": "not_planned"})[
            "state_reason"
        ]
        == "not_planned"
    )
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "state": "closed", "state_reason": "reopened"},
        "InvalidRequest",
        "state_reason",
    )
    reopened = ok(session, "update_issue", {"repository": API, "issue_number": n, "state": "open"})
    assert reopened["state_reason"] == "reopened" and reopened["closed_at"] is None
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": n, "state_reason": "duplicate"},
        "InvalidRequest",
        "state_reason",
    )
    fails(session, "update_issue", {"repository": API, "issue_number": n}, "InvalidRequest", "Nothing to update")
    pr = number(API, PGX)
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": pr, "state": "closed", "state_reason": "not_planned"},
        "InvalidRequest",
        "state_reason",
    )
    assert (
        ok(session, "update_issue", {"repository": API, "issue_number": pr, "state": "closed"})["state_reason"] is None
    )


def test_authors_edit_and_close_their_own_issues_others_need_a_role(session):
    sign_in(session, "abello")  # triage on dispatch-api
    mine = number(API, "POST /tenders returns 500 when the carrier SCAC is lowercase")
    theirs = number(API, "Add idempotency keys to POST /loads")
    assert ok(session, "update_issue", {"repository": API, "issue_number": mine, "body": "Repro attached."})
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": theirs, "title": "Idempotency"},
        "PermissionDenied",
        "Must have admin rights",
    )
    assert (
        ok(
            session,
            "update_issue",
            {"repository": API, "issue_number": theirs, "state": "closed", "state_reason": "not_planned"},
        )["state"]
        == "closed"
    )
    sign_in(session, "ezeller")  # no role on dispatch-api: it does not exist for him
    fails(session, "get_issue", {"repository": API, "issue_number": mine}, "NotFound", "Not Found")


def test_a_locked_conversation_takes_comments_only_from_writers(session):
    thread = number(OPAL, "Drop Python 3.8 support")
    sign_in(session, "ezeller")  # triage on opal
    assert issue(session, OPAL, thread)["active_lock_reason"] == "too heated"
    fails(
        session,
        "create_issue_comment",
        {"repository": OPAL, "issue_number": thread, "body": "Pin opal<0.9."},
        "PermissionDenied",
        "Unable to create comment because issue is locked.",
    )
    sign_in(session, "bwalsh")  # maintain
    note = ok(session, "create_issue_comment", {"repository": OPAL, "issue_number": thread, "body": "Pin opal<0.9."})
    assert note["user"] == "bwalsh" and issue(session, OPAL, thread)["thread"][-1]["body"] == "Pin opal<0.9."


def test_a_repository_without_issues_refuses_new_ones(session):
    sign_in(session, "priyaraman")
    fails(
        session,
        "create_issue",
        {"repository": "priyaraman/opal", "title": "x"},
        "Conflict",
        "Issues are disabled for this repo",
    )


# ---------------------------------------------------------------- pull requests


def test_mergeable_state_reads_the_merge_box(session):
    sign_in(session, "priyaraman")
    states = {
        title: pull(session, repo, title)["mergeable_state"]
        for repo, title in ((API, GEOCODE), (API, RETRY), (API, PGX), (API, RATE_CACHE), (WEB, DARK), (ROUTE, ORTOOLS))
    }
    assert states == {
        GEOCODE: "clean",
        RETRY: "blocked",
        PGX: "dirty",
        RATE_CACHE: "draft",
        DARK: "unstable",
        ORTOOLS: "behind",
    }
    retry = pull(session, API, RETRY)
    assert retry["review_decision"] == "REVIEW_REQUIRED"
    assert [(c["name"], c["conclusion"], c["required"]) for c in retry["status_checks"]] == [
        ("build", "success", True),
        ("lint", "success", True),
        ("test", "failure", True),
    ]
    assert pull(session, API, PGX)["conflicting_files"] == ["go.mod", "go.sum", "internal/db/pool.go"]
    assert pull(session, API, PGX)["mergeable"] is False
    assert pull(session, API, REMOVE_V1)["review_decision"] == "CHANGES_REQUESTED"
    assert pull(session, API, GEOCODE)["closing_issues"] == [
        number(API, "Geocoder times out on batches over 500 stops")
    ]


def test_opening_pull_requests(session):
    sign_in(session, "priyaraman")
    fails(
        session,
        "create_pull_request",
        {"repository": API, "title": "x", "head": "priya/nope"},
        "InvalidRequest",
        '"field": "head"',
    )
    fails(
        session,
        "create_pull_request",
        {"repository": API, "title": "x", "head": "priya/tender-audit-log", "base": "nope"},
        "InvalidRequest",
        '"field": "base"',
    )
    fails(
        session,
        "create_pull_request",
        {"repository": API, "title": "x", "head": "tom/metrics-cleanup"},
        "InvalidRequest",
        "No commits between main and tom/metrics-cleanup",
    )
    fails(
        session,
        "create_pull_request",
        {"repository": API, "title": "x", "head": "priya/retry-backoff"},
        "InvalidRequest",
        "A pull request already exists for harborline:priya/retry-backoff.",
    )
    runs_before = ok(session, "list_workflow_runs", {"repository": API})["total_count"]
    made = ok(
        session,
        "create_pull_request",
        {
            "repository": API,
            "title": "Audit log for tender changes",
            "head": "priya/tender-audit-log",
            "body": "Closes #276",
            "draft": True,
        },
    )
    assert made["draft"] and made["base"] == "main" and made["commits"] == 4 and made["closing_issues"] == [276]
    assert {(c["name"], c["status"]) for c in made["status_checks"]} == {
        ("build", "queued"),
        ("test", "queued"),
        ("lint", "queued"),
    }
    queued = ok(session, "list_workflow_runs", {"repository": API, "event": "pull_request", "status": "queued"})
    assert queued["items"][0]["pull_requests"] == [made["number"]] and queued["items"][0]["run_number"] > 1
    assert ok(session, "list_workflow_runs", {"repository": API})["total_count"] == runs_before + 1


def test_pull_requests_from_forks(session):
    sign_in(session, "priyaraman")
    made = ok(
        session,
        "create_pull_request",
        {"repository": OPAL, "title": "Add DataFrame.to_parquet", "head": "priyaraman:parquet-writer"},
    )
    assert made["head_label"] == "priyaraman:parquet-writer" and made["behind_by"] == 2
    fails(
        session,
        "create_pull_request",
        {"repository": OPAL, "title": "x", "head": "dokafor:parquet-writer"},
        "InvalidRequest",
        '"field": "head"',
    )
    listed = ok(session, "list_pull_requests", {"repository": OPAL, "head": "quietfox:fix-unicode-header"})["items"]
    assert [p["title"] for p in listed] == [UNICODE]


def test_drafts_are_not_available_in_private_repositories_on_github_free(session):
    sign_in(session, "cmorales")
    fails(
        session,
        "create_pull_request",
        {"repository": SITE, "title": "Team page", "head": "ivy/team-page", "draft": True},
        "InvalidRequest",
        "Draft pull requests are not supported",
    )
    made = ok(session, "create_pull_request", {"repository": SITE, "title": "Team page", "head": "ivy/team-page"})
    fails(
        session,
        "update_pull_request",
        {"repository": SITE, "pull_number": made["number"], "draft": True},
        "InvalidRequest",
        "Draft pull requests are not supported",
    )


def test_editing_pull_requests(session):
    sign_in(session, "priyaraman")
    n = number(API, RATE_CACHE)
    ready = ok(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": n, "draft": False, "title": "Carrier rate cache"},
    )
    assert not ready["draft"] and ready["title"] == "Carrier rate cache" and ready["mergeable_state"] == "blocked"
    fails(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": n, "base": "nope"},
        "InvalidRequest",
        "Proposed base branch 'nope' was not found",
    )
    fails(session, "update_pull_request", {"repository": API, "pull_number": n}, "InvalidRequest", "Nothing")
    moved = ok(session, "update_pull_request", {"repository": API, "pull_number": n, "base": "release/2025.06"})
    assert moved["base"] == "release/2025.06"
    closed = ok(session, "update_pull_request", {"repository": API, "pull_number": n, "state": "closed"})
    assert closed["state"] == "closed" and closed["mergeable"] is None
    fails(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": n, "draft": True},
        "InvalidRequest",
        "Pull request is closed",
    )
    sign_in(session, "abello")  # triage, not the author: may close, may not edit
    other = number(API, PGX)
    fails(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": other, "title": "pgx"},
        "PermissionDenied",
        "Must have admin rights",
    )


def test_a_merged_pull_request_cannot_be_reopened_nor_one_whose_branch_is_gone(session):
    sign_in(session, "priyaraman")
    merged = number(API, "Upgrade to Go 1.22")
    fails(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": merged, "state": "open"},
        "InvalidRequest",
        "already been merged",
    )
    fails(
        session,
        "update_issue",
        {"repository": API, "issue_number": merged, "state": "open"},
        "InvalidRequest",
        "already been merged",
    )
    n = number(API, GEOCODE)
    ok(session, "update_pull_request", {"repository": API, "pull_number": n, "state": "closed"})

    def drop_branch(tables):
        tables["branches"] = [b for b in tables["branches"] if b["name"] != "tom/sonic-json"]

    restore_seed_with(session, drop_branch, CLOCK)
    sign_in(session, "priyaraman")
    fails(
        session,
        "update_pull_request",
        {"repository": API, "pull_number": number(API, "Try the sonic JSON encoder"), "state": "open"},
        "InvalidRequest",
        "branch has been deleted",
    )


# ---------------------------------------------------------------- reviews


def test_review_requests(session):
    sign_in(session, "priyaraman")
    n = number(API, RETRY)
    fails(
        session,
        "request_reviewers",
        {"repository": API, "pull_number": n, "reviewers": ["priyaraman"]},
        "InvalidRequest",
        "Review cannot be requested from pull request author.",
    )
    fails(
        session,
        "request_reviewers",
        {"repository": API, "pull_number": n, "reviewers": ["mei-chen"]},
        "InvalidRequest",
        "not a collaborator of the harborline/dispatch-api repository",
    )
    fails(
        session,
        "request_reviewers",
        {"repository": API, "pull_number": n, "team_reviewers": ["mobile"]},
        "InvalidRequest",
        "Reviews may only be requested from collaborators",
    )
    fails(session, "request_reviewers", {"repository": API, "pull_number": n}, "InvalidRequest", "reviewers")
    asked = ok(
        session,
        "request_reviewers",
        {"repository": API, "pull_number": n, "reviewers": ["meichen-dev"], "team_reviewers": ["backend"]},
    )
    assert asked["requested_reviewers"] == ["meichen-dev"] and asked["requested_teams"] == ["backend"]
    fails(
        session,
        "request_reviewers",
        {"repository": API, "pull_number": number(API, "Upgrade to Go 1.22"), "reviewers": ["meichen-dev"]},
        "InvalidRequest",
        "closed pull request",
    )
    sign_in(session, "ezeller")  # triage on opal; not the author of Marta's PR
    assert ok(
        session, "request_reviewers", {"repository": OPAL, "pull_number": number(OPAL, TYPOS), "reviewers": ["bwalsh"]}
    )["requested_reviewers"] == ["bwalsh"]


def test_reviews_and_who_may_submit_them(session):
    sign_in(session, "priyaraman")
    mine = number(API, RETRY)
    fails(
        session,
        "create_review",
        {"repository": API, "pull_number": mine, "event": "APPROVE"},
        "InvalidRequest",
        "Can not approve your own pull request",
    )
    fails(
        session,
        "create_review",
        {"repository": API, "pull_number": mine, "event": "REQUEST_CHANGES", "body": "x"},
        "InvalidRequest",
        "Can not request changes on your own",
    )
    assert (
        ok(
            session,
            "create_review",
            {"repository": API, "pull_number": mine, "event": "COMMENT", "body": "Jitter is capped at 5m."},
        )["state"]
        == "COMMENTED"
    )
    xnet = number(API, XNET)
    fails(
        session,
        "create_review",
        {"repository": API, "pull_number": xnet, "event": "COMMENT"},
        "InvalidRequest",
        '"field": "body"',
    )
    before = pull(session, API, XNET)
    assert before["requested_reviewers"] == ["meichen-dev", "tkowalski"]
    sign_in(session, "meichen-dev")
    approved = ok(session, "create_review", {"repository": API, "pull_number": xnet, "event": "APPROVE"})
    assert approved["commit_id"] == before["head_sha"]
    assert pull(session, API, XNET)["requested_reviewers"] == ["tkowalski"]
    fails(
        session,
        "create_review",
        {"repository": API, "pull_number": number(API, "Upgrade to Go 1.22"), "event": "APPROVE"},
        "InvalidRequest",
        "closed pull request",
    )


def test_only_approvals_from_writers_count(session):
    sign_in(session, "meichen-dev")  # read on dispatch-web
    eta = number(WEB, ETA)
    ok(session, "create_review", {"repository": WEB, "pull_number": eta, "event": "APPROVE"})
    after = pull(session, WEB, ETA)
    assert after["review_decision"] == "REVIEW_REQUIRED" and after["mergeable_state"] == "blocked"
    sign_in(session, "lferreira")  # write
    ok(session, "create_review", {"repository": WEB, "pull_number": eta, "event": "APPROVE"})
    assert pull(session, WEB, ETA)["mergeable_state"] == "clean"


def test_dismissing_reviews(session):
    sign_in(session, "priyaraman")
    n = number(API, REMOVE_V1)
    reviews = {r["user"]: r for r in pull(session, API, REMOVE_V1)["reviews"]}
    fails(
        session,
        "dismiss_review",
        {"repository": API, "pull_number": n, "review_id": 1, "message": "x"},
        "NotFound",
        "Not Found",
    )
    commented = next(r for r in pull(session, API, RETRY)["reviews"] if r["state"] == "COMMENTED")
    fails(
        session,
        "dismiss_review",
        {"repository": API, "pull_number": number(API, RETRY), "review_id": commented["id"], "message": "answered"},
        "InvalidRequest",
        "Can not dismiss a commented pull request review",
    )
    dismissed = ok(
        session,
        "dismiss_review",
        {"repository": API, "pull_number": n, "review_id": reviews["dokafor"]["id"], "message": "Migrated."},
    )
    assert dismissed["state"] == "DISMISSED"
    fails(
        session,
        "dismiss_review",
        {"repository": API, "pull_number": n, "review_id": reviews["dokafor"]["id"], "message": "again"},
        "InvalidRequest",
        "Can not dismiss a dismissed",
    )
    assert pull(session, API, REMOVE_V1)["review_decision"] == "APPROVED"
    sign_in(session, "abello")  # triage
    fails(
        session,
        "dismiss_review",
        {"repository": API, "pull_number": n, "review_id": reviews["meichen-dev"]["id"], "message": "x"},
        "PermissionDenied",
        "write access",
    )


# ---------------------------------------------------------------- merging


def test_merging_needs_write_access_an_allowed_method_and_the_current_head(session):
    sign_in(session, "abello")
    n = number(API, GEOCODE)
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": n, "merge_method": "squash"},
        "PermissionDenied",
        "write access",
    )
    sign_in(session, "priyaraman")
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": n},
        "InvalidRequest",
        "Merge commits are not allowed on this repository.",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": n, "merge_method": "rebase"},
        "InvalidRequest",
        "Rebase merges are not allowed on this repository.",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": n, "merge_method": "squash", "sha": "0" * 40},
        "Conflict",
        "Head branch was modified",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, PGX), "merge_method": "squash"},
        "Conflict",
        "Pull Request is not mergeable",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, RATE_CACHE), "merge_method": "squash"},
        "Conflict",
        "Pull Request is still a draft",
    )
    head = pull(session, API, GEOCODE)["head_sha"]
    result = ok(
        session, "merge_pull_request", {"repository": API, "pull_number": n, "merge_method": "squash", "sha": head}
    )
    assert result["merged"] and len(result["sha"]) == 40
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": n, "merge_method": "squash"},
        "Conflict",
        "already merged",
    )


def test_a_merge_closes_linked_issues_deletes_the_branch_and_leaves_others_behind(session):
    sign_in(session, "priyaraman")
    geocoder = number(API, "Geocoder times out on batches over 500 stops")
    ok(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, GEOCODE), "merge_method": "squash"},
    )
    merged = pull(session, API, GEOCODE)
    assert merged["merged"] and merged["merged_by"] == "priyaraman" and merged["state"] == "closed"
    closed = issue(session, API, geocoder)
    assert (closed["state"], closed["state_reason"], closed["closed_by"]) == ("closed", "completed", "priyaraman")
    branches = {b["name"] for b in ok(session, "list_branches", {"repository": API, "per_page": 100})["items"]}
    assert "mei/batch-geocode" not in branches and "priya/retry-backoff" in branches
    main = next(
        b for b in ok(session, "list_branches", {"repository": API, "protected": True})["items"] if b["name"] == "main"
    )
    assert (
        main["commit_sha"]
        == ok(session, "get_pull_request", {"repository": API, "pull_number": number(API, GEOCODE)})["merge_commit_sha"]
    )
    assert pull(session, API, XNET)["behind_by"] == 1 and pull(session, API, XNET)["mergeable_state"] == "blocked"
    assert pull(session, API, CHERRY)["behind_by"] == 0  # a pull request on another base


def test_a_merge_into_another_branch_closes_nothing(session):
    sign_in(session, "dokafor")
    ok(session, "update_pull_request", {"repository": API, "pull_number": number(API, CHERRY), "body": "Fixes #265"})
    ok(session, "merge_pull_request", {"repository": API, "pull_number": number(API, CHERRY), "merge_method": "squash"})
    assert issue(session, API, 265)["state"] == "open"


def test_branch_protection_blocks_merges(session):
    sign_in(session, "priyaraman")
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, RETRY), "merge_method": "squash"},
        "Conflict",
        "At least 2 approving reviews are required by reviewers with write access.",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, REMOVE_V1), "merge_method": "squash"},
        "Conflict",
        "Changes requested by a reviewer with write access.",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": number(API, CHERRY), "merge_method": "squash"},
        "PermissionDenied",
        "You're not authorized to push to this branch.",
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": ROUTE, "pull_number": number(ROUTE, MATRIX) + 0, "sha": "f" * 40},
        "Conflict",
        "Head branch was modified",
    )
    sign_in(session, "npetrova")  # write: no bypass
    fails(
        session,
        "merge_pull_request",
        {"repository": ROUTE, "pull_number": number(ROUTE, ORTOOLS)},
        "Conflict",
        "Head branch is out of date with the base branch.",
    )
    sign_in(session, "bwalsh")
    fails(
        session,
        "merge_pull_request",
        {"repository": OPAL, "pull_number": number(OPAL, "Add Python 3.13 to the CI matrix"), "merge_method": "squash"},
        "Conflict",
        'Required status check "tests (3.12)" is failing.',
    )


def test_required_checks_that_never_reported_or_still_run_are_expected(session):
    sign_in(session, "priyaraman")
    made = ok(session, "create_pull_request", {"repository": API, "title": "Audit", "head": "priya/tender-audit-log"})
    sign_in(session, "dokafor")
    ok(session, "create_review", {"repository": API, "pull_number": made["number"], "event": "APPROVE"})
    ok(
        session,
        "update_branch_protection",
        {
            "repository": API,
            "branch": "main",
            "required_approving_review_count": 1,
            "add_status_checks": ["openapi"],
            "enforce_admins": True,
        },
    )
    checks = {
        c["name"]: c["status"]
        for c in ok(session, "get_pull_request", {"repository": API, "pull_number": made["number"]})["status_checks"]
    }
    assert checks == {"build": "queued", "test": "queued", "lint": "queued", "openapi": "expected"}
    fails(
        session,
        "merge_pull_request",
        {"repository": API, "pull_number": made["number"], "merge_method": "squash"},
        "Conflict",
        'Required status check "build" is expected.',
    )


def test_linear_history_refuses_merge_commits(session):
    sign_in(session, "snyberg")  # admin on infra, where the rules bind admins
    nat = number(INFRA, "Add a NAT gateway to staging")
    ok(
        session,
        "update_branch_protection",
        {"repository": INFRA, "branch": "main", "required_approving_review_count": 1},
    )

    def allow_merge_commits(tables):
        next(r for r in tables["repositories"] if r["full_name"] == INFRA)["allow_merge_commit"] = True

    restore_seed_with(session, allow_merge_commits, CLOCK)
    sign_in(session, "snyberg")
    ok(
        session,
        "update_branch_protection",
        {"repository": INFRA, "branch": "main", "required_approving_review_count": 1},
    )
    fails(
        session,
        "merge_pull_request",
        {"repository": INFRA, "pull_number": nat, "merge_method": "merge"},
        "Conflict",
        "This branch must not contain merge commits.",
    )
    assert ok(session, "merge_pull_request", {"repository": INFRA, "pull_number": nat, "merge_method": "squash"})[
        "merged"
    ]


def test_admins_bypass_protection_unless_it_is_enforced_for_them(session):
    sign_in(session, "priyaraman")  # admin on route-optimizer, protection not enforced for admins
    assert pull(session, ROUTE, ORTOOLS)["mergeable_state"] == "behind"
    assert ok(session, "merge_pull_request", {"repository": ROUTE, "pull_number": number(ROUTE, ORTOOLS)})["merged"]
    assert pull(session, ROUTE, MATRIX)["mergeable_state"] == "behind"
    sign_in(session, "snyberg")  # admin on infra, where enforce_admins is on
    fails(
        session,
        "merge_pull_request",
        {"repository": INFRA, "pull_number": number(INFRA, "Add a NAT gateway to staging"), "merge_method": "squash"},
        "Conflict",
        "At least 2 approving reviews",
    )


def test_an_unstable_pull_request_can_merge(session):
    sign_in(session, "lferreira")
    dark = pull(session, WEB, DARK)
    assert dark["mergeable_state"] == "unstable"
    assert ok(session, "merge_pull_request", {"repository": WEB, "pull_number": dark["number"]})["merged"]
    assert issue(session, WEB, dark["closing_issues"][0])["state"] == "closed"
    branches = {b["name"] for b in ok(session, "list_branches", {"repository": WEB, "per_page": 100})["items"]}
    assert "lucas/dark-mode" in branches  # dispatch-web keeps head branches


# ---------------------------------------------------------------- branch protection changes


def test_changing_branch_protection(session):
    sign_in(session, "priyaraman")  # maintain, not admin
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "main", "strict": False},
        "PermissionDenied",
        "Must have admin rights to Repository.",
    )
    sign_in(session, "dokafor")
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "nope", "strict": True},
        "NotFound",
        "Branch not found",
    )
    fails(session, "update_branch_protection", {"repository": API, "branch": "main"}, "InvalidRequest", "Nothing")
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "main", "remove_status_checks": ["e2e"]},
        "InvalidRequest",
        "contexts",
    )
    fails(
        session,
        "update_branch_protection",
        {
            "repository": API,
            "branch": "main",
            "require_pull_request_reviews": False,
            "required_approving_review_count": 1,
        },
        "InvalidRequest",
        "required_approving_review_count",
    )
    changed = ok(
        session,
        "update_branch_protection",
        {
            "repository": API,
            "branch": "main",
            "required_approving_review_count": 1,
            "add_status_checks": ["openapi"],
            "remove_status_checks": ["lint"],
            "enforce_admins": True,
        },
    )
    assert changed["required_pull_request_reviews"] == {
        "required_approving_review_count": 1,
        "dismiss_stale_reviews": True,
    }
    assert changed["required_status_checks"] == {"strict": True, "contexts": ["build", "test", "openapi"]}
    assert changed["enforce_admins"] and changed["required_linear_history"]
    off = ok(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "main", "require_pull_request_reviews": False, "require_status_checks": False},
    )
    assert off["required_pull_request_reviews"] is None and off["required_status_checks"] is None
    outcome = session.call(
        "update_branch_protection", {"repository": API, "branch": "main", "required_approving_review_count": 7}
    )
    assert not outcome.ok and "required_approving_review_count" in outcome.error


def test_protecting_a_new_branch_starts_from_nothing(session):
    sign_in(session, "dokafor")
    made = ok(
        session, "update_branch_protection", {"repository": API, "branch": "release/2025.05", "allow_deletions": True}
    )
    assert made == {
        "required_status_checks": None,
        "required_pull_request_reviews": None,
        "enforce_admins": False,
        "restrictions": None,
        "required_linear_history": False,
        "allow_force_pushes": False,
        "allow_deletions": True,
    }
    protected = {b["name"] for b in ok(session, "list_branches", {"repository": API, "protected": True})["items"]}
    assert protected == {"main", "release/2025.05", "release/2025.06"}


def test_push_restrictions(session):
    sign_in(session, "dokafor")
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "release/2025.06", "add_push_users": ["ohaddad"]},
        "InvalidRequest",
        "ohaddad",
    )
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "release/2025.06", "add_push_users": ["gliu-pm"]},
        "InvalidRequest",
        "gliu-pm",
    )
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "release/2025.06", "add_push_teams": ["qa"]},
        "InvalidRequest",
        '"field": "teams"',
    )
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "release/2025.06", "add_push_teams": ["nobody"]},
        "NotFound",
        "Team 'nobody'",
    )
    fails(
        session,
        "update_branch_protection",
        {"repository": API, "branch": "release/2025.06", "remove_push_users": ["priyaraman"]},
        "InvalidRequest",
        '"field": "users"',
    )
    rule = ok(
        session,
        "update_branch_protection",
        {
            "repository": API,
            "branch": "release/2025.06",
            "add_push_users": ["priyaraman"],
            "remove_push_teams": ["release-managers"],
        },
    )
    assert rule["restrictions"] == {"users": ["dokafor", "priyaraman"], "teams": []}
    sign_in(session, "priyaraman")
    assert ok(
        session, "merge_pull_request", {"repository": API, "pull_number": number(API, CHERRY), "merge_method": "squash"}
    )["merged"]
    sign_in(session, "dokafor")
    lifted = ok(
        session, "update_branch_protection", {"repository": API, "branch": "release/2025.06", "restrict_pushes": False}
    )
    assert lifted["restrictions"] is None


def test_user_repositories_have_no_push_restrictions_and_free_private_ones_no_protection(session):
    sign_in(session, "priyaraman")
    fails(
        session,
        "update_branch_protection",
        {"repository": "priyaraman/dotfiles", "branch": "main", "add_push_users": ["priyaraman"]},
        "InvalidRequest",
        "Only organization repositories can have users and team restrictions",
    )
    assert (
        ok(
            session,
            "update_branch_protection",
            {"repository": "priyaraman/dotfiles", "branch": "main", "required_approving_review_count": 1},
        )["required_pull_request_reviews"]["required_approving_review_count"]
        == 1
    )
    sign_in(session, "cmorales")
    fails(
        session,
        "update_branch_protection",
        {"repository": SITE, "branch": "main", "required_approving_review_count": 1},
        "PermissionDenied",
        "Upgrade to GitHub Pro or make this repository public to use this feature.",
    )
    assert ok(session, "get_repository", {"repository": SITE})["owner_plan"] == "free"
    assert ok(
        session, "update_branch_protection", {"repository": PORTAL, "branch": "main", "add_status_checks": ["build"]}
    )["required_status_checks"] == {"strict": False, "contexts": ["build"]}


# ---------------------------------------------------------------- GitHub Actions


def nightly(session: ToolSession, day: str) -> dict:
    runs = ok(session, "list_workflow_runs", {"repository": API, "event": "schedule", "per_page": 100})["items"]
    return next(r for r in runs if r["created_at"].startswith(day))


def test_listing_runs_filters_by_status_or_conclusion(session):
    sign_in(session, "priyaraman")
    runs = ok(session, "list_workflow_runs", {"repository": API, "per_page": 50})
    created = [r["created_at"] for r in runs["items"]]
    assert created == sorted(created, reverse=True) and runs["next_page"] == 2 and runs["total_count"] > 50
    failed = ok(session, "list_workflow_runs", {"repository": API, "status": "failure", "per_page": 100})["items"]
    assert failed and all(r["conclusion"] == "failure" for r in failed)
    running = ok(session, "list_workflow_runs", {"repository": API, "status": "in_progress"})["items"]
    assert [(r["name"], r["head_branch"]) for r in running] == [("CI", "main")]
    mine = ok(session, "list_workflow_runs", {"repository": API, "branch": "priya/retry-backoff"})["items"]
    assert [r["conclusion"] for r in mine] == ["failure"]
    other_repo_run = ok(session, "list_workflow_runs", {"repository": WEB})["items"][0]["id"]
    fails(session, "get_workflow_run", {"repository": API, "run_id": other_repo_run}, "NotFound", "Not Found")


def test_rerunning_failed_jobs_starts_a_new_attempt(session):
    sign_in(session, "priyaraman")
    run = ok(session, "get_workflow_run", {"repository": API, "run_id": nightly(session, "2025-06-18")["id"]})
    assert [(j["name"], j["conclusion"], j["failed_step"]) for j in run["jobs"]] == [
        ("integration", "failure", "DHL sandbox: create shipment")
    ]
    again = ok(session, "rerun_workflow_run", {"repository": API, "run_id": run["id"]})
    assert (again["status"], again["conclusion"], again["run_attempt"]) == ("queued", None, 2)
    assert [(j["status"], j["run_attempt"]) for j in again["jobs"]] == [("queued", 2)]
    fails(
        session,
        "rerun_workflow_run",
        {"repository": API, "run_id": run["id"]},
        "PermissionDenied",
        "This workflow is already running",
    )


def test_only_failed_jobs_or_all_of_them(session):
    sign_in(session, "priyaraman")
    retry = pull(session, API, RETRY)
    run_id = next(c["workflow_run_id"] for c in retry["status_checks"] if c["name"] == "test")
    again = ok(session, "rerun_workflow_run", {"repository": API, "run_id": run_id})
    assert {j["name"]: j["status"] for j in again["jobs"]} == {
        "build": "completed",
        "test": "queued",
        "lint": "completed",
    }
    assert {c["name"]: c["status"] for c in pull(session, API, RETRY)["status_checks"]}["test"] == "queued"
    green = nightly(session, "2025-06-17")
    fails(session, "rerun_workflow_run", {"repository": API, "run_id": green["id"]}, "Conflict", "no failed jobs")
    everything = ok(
        session, "rerun_workflow_run", {"repository": API, "run_id": green["id"], "failed_jobs_only": False}
    )
    assert [j["status"] for j in everything["jobs"]] == ["queued"]


def test_runs_older_than_a_month_and_readers_cannot_be_rerun(session):
    sign_in(session, "priyaraman")
    old = nightly(session, "2025-05-12")
    assert old["conclusion"] == "failure"
    fails(
        session,
        "rerun_workflow_run",
        {"repository": API, "run_id": old["id"]},
        "PermissionDenied",
        "Unable to retry this workflow run because it was created over a month ago",
    )
    recent = nightly(session, "2025-06-11")
    sign_in(session, "abello")  # triage
    fails(
        session, "rerun_workflow_run", {"repository": API, "run_id": recent["id"]}, "PermissionDenied", "write access"
    )


@pytest.mark.parametrize("per_page", [0, 101])
def test_page_sizes_are_bounded_in_the_schema(session, per_page):
    sign_in(session, "priyaraman")
    outcome = session.call("list_issues", {"repository": API, "per_page": per_page})
    assert not outcome.ok and "per_page" in (outcome.error or "")
    assert SPEC.tools["list_issues"].input_schema["properties"]["per_page"]["maximum"] == 100
