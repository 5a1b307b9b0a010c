"""The AwsS3 environment's tools on the real seed: console sign-in of IAM users (service users refused), the access
decision (identity and bucket policies together, explicit deny wins, S3's AccessDenied texts), bucket names and
creation (global namespace), emptiness before deletion, versioning (delete markers, permanent version deletes,
restoring by copy, suspended buckets overwriting the null version), listings with delimiters and continuation
tokens, archived objects, public policies and ACLs under Block Public Access, lifecycle rules (replace-all, minimum
days, expiration dates on HeadObject), presigned URLs, IAM attachments with the 10-policy quota and the policy
simulator. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("aws_s3")
CLOCK = datetime(2026, 4, 20, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ACC = "210987654321"
RAW = "hl-datalake-raw"
DELETED = "raw/orders/2026/04/14/orders-20260414.json"
PAYROLL = "payroll/2026-03.csv"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, user: str = "maria.santos") -> dict:
    return ok(session, "sign_in", {"account": "harbor-lane", "user_name": user}, caller="user")


def user_arn(name: str) -> str:
    return f"arn:aws:iam::{ACC}:user/{name}"


def policy(name: str) -> str:
    return f"arn:aws:iam::{ACC}:policy/{name}"


def versions(session: ToolSession, bucket: str, key: str) -> list[dict]:
    return [
        v for v in ok(session, "list_object_versions", {"bucket": bucket, "prefix": key})["versions"] if v["key"] == key
    ]


# ---------------------------------------------------------------- sign-in and access decisions


def test_sign_in_needs_the_account_and_a_console_user(session):
    fails(session, "list_buckets", {}, "PermissionDenied", "InvalidClientTokenId")
    fails(
        session,
        "sign_in",
        {"account": "other-co", "user_name": "maria.santos"},
        "PermissionDenied",
        "AccessDenied",
        caller="user",
    )
    fails(
        session,
        "sign_in",
        {"account": ACC, "user_name": "etl-runner"},
        "PermissionDenied",
        "no console password",
        caller="user",
    )
    fails(session, "sign_in", {"account": ACC, "user_name": "maria"}, "NotFound", "NoSuchEntity", caller="user")
    assert sign_in(session)["user"]["arn"] == user_arn("maria.santos")


def test_no_identity_policy_gives_an_implicit_deny(session):
    sign_in(session, "jonah.reyes")
    fails(
        session,
        "put_object",
        {"bucket": "hl-finance-archive", "key": "x.txt", "body": "x"},
        "PermissionDenied",
        "because no identity-based policy allows the s3:PutObject action",
    )
    fails(session, "list_users", {}, "PermissionDenied", "iam:ListUsers")


def test_a_bucket_policy_deny_overrides_an_allow(session):
    sign_in(session, "jonah.reyes")
    version = versions(session, RAW, "raw/orders/2026/04/01/orders-20260401.json")[0]["version_id"]
    args = {"bucket": RAW, "key": "raw/orders/2026/04/01/orders-20260401.json", "version_id": version}
    fails(session, "delete_object", args, "PermissionDenied", "with an explicit deny in a resource-based policy")


def test_an_identity_deny_guardrail_blocks_prod_deletes_even_with_full_access(session):
    sign_in(session, "nadia.rahman")
    args = {"bucket": "hl-web-assets-prod", "key": "public/index.html"}
    fails(session, "delete_object", args, "PermissionDenied", "with an explicit deny in an identity-based policy")
    ok(session, "delete_object", {"bucket": "hl-web-assets-staging", "key": "public/index.html"})


def test_a_bucket_policy_allow_grants_without_an_identity_policy(session):
    sign_in(session)
    statement = {
        "effect": "Allow",
        "principals": [user_arn("priya.nair")],
        "actions": ["s3:PutObject"],
        "resources": ["arn:aws:s3:::hl-sandbox-leo/*"],
    }
    ok(session, "put_bucket_policy", {"bucket": "hl-sandbox-leo", "statements": [statement]})
    sign_in(session, "priya.nair")
    ok(session, "put_object", {"bucket": "hl-sandbox-leo", "key": "note.txt", "body": "hi"})
    fails(
        session,
        "put_object",
        {"bucket": "hl-web-assets-staging", "key": "note.txt", "body": "hi"},
        "PermissionDenied",
        "AccessDenied",
    )


def test_the_simulator_reports_each_decision_and_its_source(session):
    sign_in(session, "hannah.kim")
    results = ok(
        session,
        "simulate_principal_policy",
        {
            "policy_source_arn": user_arn("jonah.reyes"),
            "action_names": ["s3:DeleteObject", "s3:DeleteObjectVersion", "s3:PutObject"],
            "resource_arns": [f"arn:aws:s3:::{RAW}/raw/x.json", "arn:aws:s3:::hl-finance-archive/x.pdf"],
        },
    )
    decided = {
        (r["eval_action_name"], r["eval_resource_name"].split(":::")[1].split("/")[0]): (
            r["eval_decision"],
            r["decided_by"],
        )
        for r in results
    }
    assert decided[("s3:DeleteObject", RAW)] == ("allowed", "identity")
    assert decided[("s3:DeleteObjectVersion", RAW)] == ("explicitDeny", "resource")
    assert decided[("s3:PutObject", "hl-finance-archive")] == ("implicitDeny", None)
    fails(
        session,
        "simulate_principal_policy",
        {"policy_source_arn": f"arn:aws:iam::{ACC}:user/service/jonah.reyes", "action_names": ["s3:GetObject"]},
        "InvalidRequest",
        "InvalidInput",
    )


# ---------------------------------------------------------------- buckets


def test_bucket_names_are_global_and_follow_the_rules(session):
    sign_in(session)
    fails(session, "create_bucket", {"bucket": RAW}, "Conflict", "BucketAlreadyOwnedByYou")
    fails(session, "create_bucket", {"bucket": "reports"}, "Conflict", "BucketAlreadyExists")
    for bad in ("Upper-Case", "has..dots", "192.168.5.4", "-leading", "xn--name"):
        fails(session, "create_bucket", {"bucket": bad}, "InvalidRequest", "InvalidBucketName")
    made = ok(session, "create_bucket", {"bucket": "hl-new-bucket", "region": "eu-central-1"})
    assert made["versioning"] == "Unversioned" and all(made["public_access_block"].values())
    assert made["region"] == "eu-central-1" and not made["has_policy"]


def test_a_bucket_must_be_empty_of_every_version_to_be_deleted(session):
    sign_in(session)
    fails(session, "delete_bucket", {"bucket": "hl-sandbox-priya"}, "Conflict", "BucketNotEmpty")
    ok(session, "create_bucket", {"bucket": "hl-tmp-versions"})
    ok(session, "put_bucket_versioning", {"bucket": "hl-tmp-versions", "status": "Enabled"})
    ok(session, "put_object", {"bucket": "hl-tmp-versions", "key": "a.txt", "body": "a"})
    ok(session, "delete_object", {"bucket": "hl-tmp-versions", "key": "a.txt"})
    assert ok(session, "list_objects_v2", {"bucket": "hl-tmp-versions"})["key_count"] == 0
    fails(session, "delete_bucket", {"bucket": "hl-tmp-versions"}, "Conflict", "You must delete all versions")
    for v in versions(session, "hl-tmp-versions", "a.txt"):
        ok(session, "delete_object", {"bucket": "hl-tmp-versions", "key": "a.txt", "version_id": v["version_id"]})
    left = ok(session, "delete_bucket", {"bucket": "hl-tmp-versions"})
    assert "hl-tmp-versions" not in [b["name"] for b in left["buckets"]]
    fails(session, "get_bucket_settings", {"bucket": "hl-tmp-versions"}, "NotFound", "NoSuchBucket")


def test_deleting_an_empty_bucket_drops_its_lifecycle_rules(session):
    sign_in(session)
    rule = {"id": "r", "expiration_days": 5}
    ok(session, "put_bucket_lifecycle_configuration", {"bucket": "hl-sandbox-leo", "rules": [rule]})
    ok(session, "delete_bucket", {"bucket": "hl-sandbox-leo"})
    assert not [r for r in session.dump()["lifecycle_rules"].values() if r["bucket"] == "hl-sandbox-leo"]


def test_list_buckets_filters_and_pages(session):
    sign_in(session, "priya.nair")
    page = ok(session, "list_buckets", {"max_buckets": 5})
    assert len(page["buckets"]) == 5 and page["continuation_token"]
    rest = ok(session, "list_buckets", {"max_buckets": 100, "continuation_token": page["continuation_token"]})
    assert len(page["buckets"]) + len(rest["buckets"]) == len(SEED["buckets"])
    eu = ok(session, "list_buckets", {"bucket_region": "eu-west-1"})["buckets"]
    assert {b["name"] for b in eu} == {"hl-datalake-raw-eu", "hl-sandbox-priya"}
    assert [b["name"] for b in ok(session, "list_buckets", {"prefix": "hl-web"})["buckets"]] == [
        "hl-web-assets-prod",
        "hl-web-assets-staging",
    ]


# ---------------------------------------------------------------- objects and versions


def test_listing_rolls_up_common_prefixes_and_pages_with_tokens(session):
    sign_in(session, "jonah.reyes")
    top = ok(session, "list_objects_v2", {"bucket": RAW, "delimiter": "/"})
    assert top["common_prefixes"] == ["raw/", "schemas/"] and top["contents"] == []
    april = ok(session, "list_objects_v2", {"bucket": RAW, "prefix": "raw/orders/2026/04/"})
    keys = [o["key"] for o in april["contents"]]
    assert DELETED not in keys and keys == sorted(keys) and len(keys) == 17
    first = ok(session, "list_objects_v2", {"bucket": RAW, "prefix": "raw/orders/2026/04/", "max_keys": 10})
    assert first["is_truncated"] and first["key_count"] == 10
    second = ok(
        session,
        "list_objects_v2",
        {
            "bucket": RAW,
            "prefix": "raw/orders/2026/04/",
            "max_keys": 10,
            "continuation_token": first["next_continuation_token"],
        },
    )
    assert [o["key"] for o in first["contents"] + second["contents"]] == keys and not second["is_truncated"]
    after = ok(session, "list_objects_v2", {"bucket": RAW, "prefix": "raw/orders/2026/04/", "start_after": keys[-2]})
    assert [o["key"] for o in after["contents"]] == keys[-1:]


def test_version_listing_pages_with_markers(session):
    sign_in(session)
    everything = ok(session, "list_object_versions", {"bucket": "hl-terraform-state"})["versions"]
    first = ok(session, "list_object_versions", {"bucket": "hl-terraform-state", "max_keys": 4})
    rest = ok(
        session,
        "list_object_versions",
        {
            "bucket": "hl-terraform-state",
            "key_marker": first["next_key_marker"],
            "version_id_marker": first["next_version_id_marker"],
        },
    )
    assert first["versions"] + rest["versions"] == everything
    assert [v["is_latest"] for v in everything[:10]] == [True] + [False] * 9


def test_a_delete_marker_hides_a_key_and_removing_it_restores_the_key(session):
    sign_in(session)
    fails(session, "head_object", {"bucket": RAW, "key": DELETED}, "NotFound", "NoSuchKey")
    marker = versions(session, RAW, DELETED)[0]
    assert marker["is_delete_marker"] and marker["is_latest"]
    fails(
        session,
        "head_object",
        {"bucket": RAW, "key": DELETED, "version_id": marker["version_id"]},
        "InvalidRequest",
        "MethodNotAllowed",
    )
    removed = ok(session, "delete_object", {"bucket": RAW, "key": DELETED, "version_id": marker["version_id"]})
    assert removed["delete_marker"]
    assert ok(session, "head_object", {"bucket": RAW, "key": DELETED})["size"] > 0
    fails(session, "delete_object", {"bucket": RAW, "key": DELETED, "version_id": "nope"}, "NotFound", "NoSuchVersion")


def test_deleting_in_a_versioned_bucket_adds_a_marker_and_keeps_versions(session):
    sign_in(session)
    key = "raw/orders/2026/04/01/orders-20260401.json"
    before = versions(session, RAW, key)
    out = ok(session, "delete_object", {"bucket": RAW, "key": key})
    assert out["delete_marker"] and out["version_id"] not in ("null", None)
    after = versions(session, RAW, key)
    assert len(after) == len(before) + 1 and after[0]["is_delete_marker"] and not after[1]["is_latest"]


def test_unversioned_buckets_overwrite_and_delete_for_good(session):
    sign_in(session)
    first = ok(session, "put_object", {"bucket": "hl-sandbox-leo", "key": "a.txt", "body": "one"})
    second = ok(
        session,
        "put_object",
        {"bucket": "hl-sandbox-leo", "key": "a.txt", "body": "two!", "content_type": "text/plain"},
    )
    assert first["version_id"] == second["version_id"] == "null" and first["etag"] != second["etag"]
    assert [v["size"] for v in versions(session, "hl-sandbox-leo", "a.txt")] == [4]
    ok(session, "delete_object", {"bucket": "hl-sandbox-leo", "key": "a.txt"})
    assert versions(session, "hl-sandbox-leo", "a.txt") == []


def test_a_suspended_bucket_overwrites_its_null_version(session):
    sign_in(session)
    key = "models/churn/current/model.pkl"
    before = versions(session, "hl-ml-models", key)
    assert before[0]["version_id"] == "null"
    out = ok(
        session,
        "copy_object",
        {
            "source_bucket": "hl-ml-models",
            "source_key": key,
            "source_version_id": before[1]["version_id"],
            "bucket": "hl-ml-models",
            "key": key,
        },
    )
    assert out["version_id"] == "null"
    after = versions(session, "hl-ml-models", key)
    assert len(after) == len(before) and after[0]["size"] == before[1]["size"]


def test_copying_an_old_version_restores_it_and_self_copies_need_a_change(session):
    sign_in(session, "sam.ortiz")
    old = versions(session, "hl-finance-archive", PAYROLL)[1]
    args = {
        "source_bucket": "hl-finance-archive",
        "source_key": PAYROLL,
        "bucket": "hl-finance-archive",
        "key": PAYROLL,
    }
    fails(session, "copy_object", args, "InvalidRequest", "copy an object to itself")
    out = ok(session, "copy_object", {**args, "source_version_id": old["version_id"]})
    head = ok(session, "head_object", {"bucket": "hl-finance-archive", "key": PAYROLL})
    assert (
        head["version_id"] == out["version_id"]
        and head["size"] == old["size"]
        and head["metadata"] == {"note": "corrected"}
    )
    ok(session, "copy_object", {**args, "storage_class": "STANDARD_IA"})


def test_archived_objects_cannot_be_copied_or_presigned(session):
    sign_in(session)
    key = "statements/2025/statement-2025-06.pdf"
    args = {"source_bucket": "hl-finance-archive", "source_key": key, "bucket": "hl-sandbox-leo", "key": "s.pdf"}
    fails(session, "copy_object", args, "InvalidRequest", "InvalidObjectState")
    fails(
        session,
        "generate_presigned_url",
        {"bucket": "hl-finance-archive", "key": key},
        "InvalidRequest",
        "InvalidObjectState",
    )


def test_public_acls_are_refused_while_blocked(session):
    sign_in(session, "leo.fischer")
    args = {"bucket": "hl-web-assets-prod", "key": "public/x.css", "body": "a{}", "acl": "public-read"}
    fails(session, "put_object", args, "PermissionDenied", "BlockPublicAcls")
    sign_in(session)
    ok(
        session,
        "put_public_access_block",
        {
            "bucket": "hl-web-assets-prod",
            "block_public_acls": False,
            "ignore_public_acls": False,
            "block_public_policy": False,
            "restrict_public_buckets": False,
        },
    )
    sign_in(session, "leo.fischer")
    assert ok(session, "put_object", args)["version_id"] == "null"
    assert ok(session, "head_object", {"bucket": "hl-web-assets-prod", "key": "public/x.css"})["acl"] == "public-read"


def test_versioning_can_be_suspended_but_not_switched_off(session):
    sign_in(session)
    fails(session, "put_bucket_versioning", {"bucket": RAW, "status": "Unversioned"}, "invalid_arguments", "status")
    assert ok(session, "put_bucket_versioning", {"bucket": RAW, "status": "Suspended"})["versioning"] == "Suspended"
    out = ok(session, "put_object", {"bucket": RAW, "key": "raw/new.json", "body": "{}"})
    assert out["version_id"] == "null"


# ---------------------------------------------------------------- policies and lifecycle


def test_bucket_policies_are_checked_and_replaced_whole(session):
    sign_in(session)
    good = {
        "sid": "A",
        "effect": "Deny",
        "principals": [user_arn("jonah.reyes")],
        "actions": ["s3:PutObject"],
        "resources": [f"arn:aws:s3:::{RAW}/x/*"],
    }
    fails(
        session,
        "put_bucket_policy",
        {"bucket": RAW, "statements": [{**good, "resources": ["arn:aws:s3:::other/*"]}]},
        "InvalidRequest",
        "invalid resource",
    )
    fails(
        session,
        "put_bucket_policy",
        {"bucket": RAW, "statements": [{**good, "actions": ["ec2:RunInstances"]}]},
        "InvalidRequest",
        "invalid action",
    )
    fails(
        session,
        "put_bucket_policy",
        {"bucket": RAW, "statements": [{**good, "principals": [user_arn("ghost")]}]},
        "InvalidRequest",
        "Invalid principal",
    )
    stored = ok(session, "put_bucket_policy", {"bucket": RAW, "statements": [good]})["policy"]
    assert [s["Sid"] for s in stored["Statement"]] == ["A"]
    assert stored == ok(session, "get_bucket_policy", {"bucket": RAW})["policy"]
    ok(session, "delete_bucket_policy", {"bucket": RAW})
    fails(session, "get_bucket_policy", {"bucket": RAW}, "NotFound", "NoSuchBucketPolicy")


def test_public_policies_need_block_public_policy_off(session):
    sign_in(session)
    public = {
        "effect": "Allow",
        "principals": ["*"],
        "actions": ["s3:GetObject"],
        "resources": ["arn:aws:s3:::hl-web-assets-staging/public/*"],
    }
    fails(
        session,
        "put_bucket_policy",
        {"bucket": "hl-web-assets-staging", "statements": [public]},
        "PermissionDenied",
        "BlockPublicPolicy",
    )
    public_prod = {**public, "resources": ["arn:aws:s3:::hl-web-assets-prod/public/*"]}
    ok(session, "put_bucket_policy", {"bucket": "hl-web-assets-prod", "statements": [public_prod]})


def test_lifecycle_rules_follow_s3_minimums_and_show_on_head_object(session):
    sign_in(session)
    bucket = "hl-app-logs"
    fails(
        session,
        "put_bucket_lifecycle_configuration",
        {"bucket": bucket, "rules": [{"id": "a", "transition_days": 20, "transition_storage_class": "STANDARD_IA"}]},
        "InvalidRequest",
        "greater than or equal to 30",
    )
    fails(
        session,
        "put_bucket_lifecycle_configuration",
        {
            "bucket": bucket,
            "rules": [{"id": "a", "expiration_days": 30, "transition_days": 30, "transition_storage_class": "GLACIER"}],
        },
        "InvalidRequest",
        "must be greater than 'Days' in the Transition",
    )
    fails(
        session,
        "put_bucket_lifecycle_configuration",
        {"bucket": bucket, "rules": [{"id": "a", "expiration_days": 3}, {"id": "a", "expiration_days": 4}]},
        "InvalidRequest",
        "RuleId must be unique",
    )
    fails(
        session,
        "put_bucket_lifecycle_configuration",
        {"bucket": bucket, "rules": [{"id": "a", "prefix": "x/"}]},
        "InvalidRequest",
        "At least one action",
    )
    head = ok(session, "head_object", {"bucket": bucket, "key": "logs/api/2026/04/19/api-20260419-12.log.gz"})
    assert head["expiration"] == {"expiry_date": "2026-05-20T00:00:00Z", "rule_id": "expire-api-logs"}
    ok(
        session,
        "put_bucket_lifecycle_configuration",
        {"bucket": bucket, "rules": [{"id": "web", "prefix": "logs/web/", "expiration_days": 14}]},
    )
    rules = ok(session, "get_bucket_lifecycle_configuration", {"bucket": bucket})["rules"]
    assert [r["id"] for r in rules] == ["web"]
    assert (
        ok(session, "head_object", {"bucket": bucket, "key": "logs/api/2026/04/19/api-20260419-12.log.gz"})[
            "expiration"
        ]
        is None
    )
    fails(
        session,
        "get_bucket_lifecycle_configuration",
        {"bucket": "hl-sandbox-leo"},
        "NotFound",
        "NoSuchLifecycleConfiguration",
    )


# ---------------------------------------------------------------- presigned URLs


def test_presigned_urls_need_the_signers_permission_and_an_existing_key(session):
    sign_in(session, "hannah.kowalski")
    key = "exports/acme-corp/acme-corp-usage-2026-04-13.csv"
    out = ok(session, "generate_presigned_url", {"bucket": "hl-customer-exports", "key": key, "expires_in": 86400})
    assert out["url"].startswith(
        f"https://hl-customer-exports.s3.us-east-1.amazonaws.com/{key}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
    )
    assert "X-Amz-Expires=86400" in out["url"] and out["expires_at"].startswith("2026-04-21T10:00")
    fails(
        session,
        "generate_presigned_url",
        {"bucket": "hl-customer-exports", "key": key, "method": "PUT"},
        "PermissionDenied",
        "s3:PutObject",
    )
    fails(
        session,
        "generate_presigned_url",
        {"bucket": "hl-customer-exports", "key": "exports/none.csv"},
        "NotFound",
        "NoSuchKey",
    )
    fails(
        session,
        "generate_presigned_url",
        {"bucket": "hl-customer-exports", "key": key, "expires_in": 604801},
        "invalid_arguments",
        "604800",
    )
    rows = [r for r in session.dump()["presigned_urls"].values() if r["signed_by"] == "hannah.kowalski"]
    assert len(rows) == 4


# ---------------------------------------------------------------- IAM


def test_attaching_and_detaching_managed_policies(session):
    sign_in(session)
    arn = policy("AthenaResultsAccess")
    attached = ok(session, "attach_user_policy", {"user_name": "jonah.reyes", "policy_arn": arn})
    assert arn in [p["policy_arn"] for p in attached]
    assert ok(session, "attach_user_policy", {"user_name": "jonah.reyes", "policy_arn": arn}) == attached
    fails(
        session,
        "attach_user_policy",
        {"user_name": "jonah.reyes", "policy_arn": policy("Nope")},
        "NotFound",
        "NoSuchEntity",
    )
    ok(session, "detach_user_policy", {"user_name": "jonah.reyes", "policy_arn": arn})
    fails(session, "detach_user_policy", {"user_name": "jonah.reyes", "policy_arn": arn}, "NotFound", "was not found")
    fails(session, "list_attached_user_policies", {"user_name": "nobody"}, "NotFound", "cannot be found")


def test_a_user_holds_at_most_ten_managed_policies(session):
    def eleven(tables):
        extra = [p["arn"] for p in tables["iam_policies"]][:10]
        tables["user_policy_attachments"] = [
            a for a in tables["user_policy_attachments"] if a["user_name"] != "tom.baker"
        ]
        tables["user_policy_attachments"] += [
            {"id": f"tom.baker|{a}", "user_name": "tom.baker", "policy_arn": a} for a in extra
        ]

    restore_seed_with(session, eleven, CLOCK)
    sign_in(session)
    fails(
        session,
        "attach_user_policy",
        {"user_name": "tom.baker", "policy_arn": policy("BackupWriter")},
        "Conflict",
        "PoliciesPerUser: 10",
    )


def test_iam_reads_need_iam_permissions(session):
    sign_in(session, "hannah.kim")
    users = ok(session, "list_users", {"path_prefix": "/service/"})["users"]
    assert [u["user_name"] for u in users] == ["backup-agent", "ci-deploy", "etl-runner"]
    assert users[0]["arn"] == f"arn:aws:iam::{ACC}:user/service/backup-agent"
    doc = ok(session, "get_policy", {"policy_arn": policy("DenyProdDeletes")})
    assert doc["attachment_count"] == 1 and doc["document"]["Statement"][0]["Effect"] == "Deny"
    fails(
        session,
        "attach_user_policy",
        {"user_name": "tom.baker", "policy_arn": policy("BackupWriter")},
        "PermissionDenied",
        "iam:AttachUserPolicy",
    )


def test_the_state_does_not_depend_on_the_order_of_independent_writes():
    def run(order: list[int]) -> dict:
        opened = ToolSession(SPEC)
        opened.reset("seed", CLOCK)
        sign_in(opened)
        calls = [
            (
                "copy_object",
                {
                    "source_bucket": "hl-datalake-raw-eu",
                    "source_key": "raw/orders/2026/04/18/orders-20260418.json",
                    "bucket": RAW,
                    "key": "eu/a.json",
                },
            ),
            ("put_object", {"bucket": RAW, "key": "eu/b.json", "body": "{}"}),
            ("generate_presigned_url", {"bucket": RAW, "key": "schemas/orders.schema.json", "expires_in": 60}),
            ("generate_presigned_url", {"bucket": RAW, "key": "schemas/customers.schema.json", "expires_in": 60}),
            (
                "put_bucket_lifecycle_configuration",
                {
                    "bucket": "hl-app-logs",
                    "rules": [{"id": "b", "expiration_days": 9}, {"id": "a", "expiration_days": 8}][
                        :: 1 if order[0] == 0 else -1
                    ],
                },
            ),
        ]
        for index in order:
            ok(opened, *calls[index])
        state = opened.dump()
        opened.close()
        return state

    assert run([0, 1, 2, 3, 4]) == run([4, 3, 2, 1, 0])
