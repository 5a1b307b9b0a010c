"""The Gmail environment's tools: OAuth scopes, search, threading, delivery between the domain's mailboxes (blocked
senders, filters, vacation replies), labels, drafts, filters and send-as rules, with every error path leaving the
state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("gmail")
CLOCK = datetime(2025, 6, 12, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
MAYA, TOM, LUCIA, SAM, PRIYA = (f"{k}@fernhillstudio.com" for k in ("maya", "tom", "lucia", "sam", "priya"))

session = session_fixture(SPEC, CLOCK)


def seed_message(owner: str, subject: str) -> dict:
    return next(m for m in SEED["messages"] if m["owner"] == owner and m["subject"].startswith(subject))


def label_id(owner: str, name: str) -> str:
    return next(row["id"] for row in SEED["labels"] if row["owner"] == owner and row["name"] == name)


def sign_in(session: ToolSession, email: str, scope: str = "gmail.modify") -> None:
    ok(session, "sign_in", {"email": email, "scope": scope}, caller="user")


def mailbox(session: ToolSession, owner: str) -> list[dict]:
    """Every stored message of a mailbox (from the state, not through a tool)."""
    return [m for m in session.dump()["messages"].values() if m["owner"] == owner]


def new_rows(session: ToolSession, owner: str) -> list[dict]:
    seeded = {m["id"] for m in SEED["messages"]}
    return sorted((m for m in mailbox(session, owner) if m["id"] not in seeded), key=lambda m: m["id"])


def search(session: ToolSession, q: str, **extra) -> list[dict]:
    return ok(session, "messages_list", {"q": q, "maxResults": 500, **extra})["results"]


def send(session: ToolSession, to: list[str], subject: str = "Hello", body: str = "Hi", **extra) -> dict:
    return ok(session, "messages_send", {"to": to, "subject": subject, "body": body, **extra})


# ---------------------------------------------------------------- interface and access


def test_tools_and_sign_in_is_user_only(session):
    assert len(SPEC.tools) == 24
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    assert SPEC.tools["labels_list"].input_schema["properties"] == {}
    assert SPEC.tools["filters_list"].read_only and not SPEC.tools["filters_create"].read_only
    outcome = session.call("sign_in", {"email": MAYA})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_nothing_works_before_sign_in_and_unknown_accounts_are_refused(session):
    fails(session, "messages_list", {}, "PermissionDenied", "Login Required")
    fails(session, "sign_in", {"email": "nobody@fernhillstudio.com"}, "NotFound", "Couldn't find", caller="user")
    sign_in(session, MAYA)
    assert session.dump()["oauth_grants"]["current"]["email"] == MAYA


def test_read_only_grant_reads_but_never_writes(session):
    sign_in(session, MAYA, "gmail.readonly")
    permit = seed_message(MAYA, "Permit 25-104417-RS: checksheet")
    assert ok(session, "messages_get", {"id": permit["id"]})["subject"].startswith("Permit 25-104417-RS")
    fails(
        session,
        "messages_modify",
        {"id": permit["id"], "addLabelIds": ["STARRED"]},
        "PermissionDenied",
        "insufficient authentication scopes",
    )
    fails(session, "messages_send", {"to": [TOM], "subject": "x", "body": "y"}, "PermissionDenied", "gmail.modify")


def test_permanent_delete_needs_full_access_and_discards_drafts(session):
    sign_in(session, MAYA)
    draft = next(d for d in SEED["drafts"] if d["owner"] == MAYA)
    fails(session, "messages_delete", {"id": draft["message_id"]}, "PermissionDenied", "https://mail.google.com/")
    sign_in(session, MAYA, "mail.google.com")
    assert ok(session, "messages_delete", {"id": draft["message_id"]}) == {"id": draft["message_id"], "deleted": True}
    state = session.dump()
    assert draft["id"] not in state["drafts"] and draft["message_id"] not in state["messages"]


def test_mailboxes_are_isolated(session):
    sign_in(session, TOM)
    lucias = seed_message(LUCIA, "QuickBooks account suspended")
    fails(session, "messages_get", {"id": lucias["id"]}, "NotFound", "not found")
    fails(session, "threads_get", {"id": lucias["thread_id"]}, "NotFound", "Thread")
    maya_filter = next(f for f in SEED["filters"] if f["owner"] == MAYA)
    fails(session, "filters_delete", {"id": maya_filter["id"]}, "NotFound", "Filter")


# ---------------------------------------------------------------- search and listing


def test_search_operators(session):
    sign_in(session, MAYA)
    permits = search(session, "from:portlandoregon.gov")
    assert {m["subject"][:29] for m in permits} == {"Permit 25-104417-RS: applicat", "Permit 25-104417-RS: checkshe"}
    unread_hv = search(session, "label:clients-harbor-view is:unread")
    assert len(unread_hv) == 4 and all("UNREAD" in m["labelIds"] for m in unread_hv)
    assert search(session, 'label:"Clients/Harbor View" is:unread') == unread_hv
    dated = search(session, "from:dana@harborviewhoa.org after:2025/06/01 before:2025/06/11")
    assert [m["subject"] for m in dated] == ["Board meeting on the 19th", "Harbor View HOA - June newsletter"]
    either = search(session, "from:karen.holt OR from:glen.ashby")
    assert {m["from"].split(" <")[0] for m in either} == {"Karen Holt", "Glen Ashby"}
    pdfs = search(session, "has:attachment -from:autodesk filename:pdf newer_than:30d")
    assert pdfs and all(m["hasAttachments"] and "autodesk" not in m["from"] for m in pdfs)
    fails(session, "messages_list", {"q": "is:snoozed"}, "InvalidRequest", "is:snoozed is not supported")
    fails(session, "messages_list", {"q": "after:June"}, "InvalidRequest", "2025/06/01")


def test_spam_and_trash_are_left_out_unless_asked_for(session):
    sign_in(session, MAYA)
    assert search(session, "from:buildsmart-webinars.com") == []
    assert len(search(session, "in:spam from:buildsmart-webinars.com")) == 2
    assert len(search(session, "from:buildsmart-webinars.com", includeSpamTrash=True)) == 2
    spam = ok(session, "messages_list", {"labelIds": ["SPAM"]})["results"]
    assert len(spam) == 2
    fails(session, "messages_list", {"labelIds": ["Label_999"]}, "InvalidRequest", "Invalid label")


def test_pagination_is_newest_first_and_complete(session):
    sign_in(session, MAYA)
    first = ok(session, "messages_list", {"maxResults": 40})
    assert first["has_more"] and len(first["results"]) == 40
    dates = [m["internalDate"] for m in first["results"]]
    assert dates == sorted(dates, reverse=True)
    seen = [m["id"] for m in first["results"]]
    token = first["next_cursor"]
    while token:
        page = ok(session, "messages_list", {"maxResults": 40, "pageToken": token})
        seen += [m["id"] for m in page["results"]]
        token = page["next_cursor"]
    visible = [m for m in SEED["messages"] if m["owner"] == MAYA and not {"SPAM", "TRASH"} & set(m["label_ids"])]
    assert sorted(seen) == sorted(m["id"] for m in visible)
    fails(
        session,
        "messages_list",
        {"maxResults": 501},
        "invalid_arguments",
        "maxResults: Input should be less than or equal to 500",
    )
    fails(session, "messages_list", {"pageToken": "abc"}, "InvalidRequest", "invalid cursor")


def test_bounds_are_in_the_schema(session):
    size = SPEC.tools["messages_list"].input_schema["properties"]["maxResults"]
    assert (size["minimum"], size["maximum"], size["default"]) == (1, 500, 20)
    start = SPEC.tools["settings_updateVacation"].input_schema["properties"]["startTime"]["anyOf"][0]
    assert re.fullmatch(start["pattern"], "2025-06-20T17:00:00Z") and not re.fullmatch(start["pattern"], "20/06/2025")
    sign_in(session, MAYA)
    fails(session, "messages_list", {"maxResults": 0}, "invalid_arguments", "maxResults")


def test_thread_lists_its_messages_oldest_first(session):
    sign_in(session, MAYA)
    tiles = seed_message(MAYA, "Lobby tile samples")
    thread = ok(session, "threads_get", {"id": tiles["thread_id"]})
    assert [m["from"].split(" <")[0] for m in thread["messages"]] == ["Dana Whitlock", "Maya Okafor", "Dana Whitlock"]
    assert thread["messages"][1]["inReplyTo"] == thread["messages"][0]["messageId"]
    assert thread["snippet"] == "Perfect, thank you!"


# ---------------------------------------------------------------- sending, threading and delivery


def test_reply_joins_the_thread_with_headers_and_re_subject(session):
    sign_in(session, MAYA)
    permit = seed_message(MAYA, "Permit 25-104417-RS: checksheet")
    thread = ok(session, "threads_get", {"id": permit["thread_id"]})
    reply = ok(
        session,
        "messages_send",
        {"to": ["karen.holt@portlandoregon.gov"], "body": "Thanks", "threadId": permit["thread_id"]},
    )
    last = thread["messages"][-1]
    assert reply["threadId"] == permit["thread_id"] and reply["labelIds"] == ["SENT"]
    assert reply["subject"] == "Re: Permit 25-104417-RS: checksheet - corrections required"
    assert reply["inReplyTo"] == last["messageId"] and reply["references"][-1] == last["messageId"]
    fails(
        session,
        "messages_send",
        {
            "to": ["karen.holt@portlandoregon.gov"],
            "body": "x",
            "threadId": permit["thread_id"],
            "subject": "Guardrails",
        },
        "InvalidRequest",
        "must match",
    )
    fails(session, "messages_send", {"to": [TOM], "body": "x", "threadId": "197ffffffffffff0"}, "NotFound", "Thread")


def test_send_validation(session):
    sign_in(session, MAYA)
    fails(session, "messages_send", {"to": [TOM], "body": "x"}, "InvalidRequest", "subject is required")
    fails(
        session,
        "messages_send",
        {"to": ["tom at studio"], "subject": "x", "body": "y"},
        "InvalidRequest",
        "Invalid To header",
    )
    fails(session, "messages_send", {"to": [], "subject": "x", "body": "y"}, "InvalidRequest", "Recipient address")
    sent = send(session, ["Somebody Else <TOM@fernhillstudio.com>"])
    assert sent["to"] == ["Tom Becker <tom@fernhillstudio.com>"]  # the directory's name, the address lower-cased


def test_only_verified_send_as_aliases_can_be_used(session):
    sign_in(session, MAYA)
    aliases = {a["sendAsEmail"]: a["verificationStatus"] for a in ok(session, "settings_sendAs_list")}
    assert aliases == {
        "maya@fernhillstudio.com": "accepted",
        "maya@okafor.design": "pending",
        "studio@fernhillstudio.com": "accepted",
    }
    fails(
        session,
        "messages_send",
        {"to": [TOM], "subject": "x", "body": "y", "sendAsEmail": "maya@okafor.design"},
        "PermissionDenied",
        "not verified",
    )
    fails(
        session,
        "messages_send",
        {"to": [TOM], "subject": "x", "body": "y", "sendAsEmail": "hello@fernhillstudio.com"},
        "PermissionDenied",
        "not a send-as",
    )
    sent = send(session, [TOM], sendAsEmail="studio@fernhillstudio.com")
    assert sent["from"] == "Fernhill Studio <studio@fernhillstudio.com>"


def test_colleagues_receive_a_copy_in_their_own_thread(session):
    sign_in(session, TOM)
    schedule = seed_message(TOM, "Alder Street Cafe - revised construction schedule")
    ok(
        session,
        "messages_send",
        {"to": ["ray@cascadebuilders.com"], "cc": [MAYA], "body": "Thanks Ray", "threadId": schedule["thread_id"]},
    )
    copy = new_rows(session, MAYA)
    mayas = seed_message(MAYA, "Alder Street Cafe - revised construction schedule")
    assert len(copy) == 1 and copy[0]["thread_id"] == mayas["thread_id"]
    assert copy[0]["label_ids"] == ["CATEGORY_PERSONAL", "INBOX", "UNREAD"] and copy[0]["bcc"] == []
    assert new_rows(session, SAM) == []


def test_mail_to_an_alias_reaches_its_owner_and_mail_to_yourself_lands_in_the_inbox(session):
    sign_in(session, TOM)
    send(session, ["hello@fernhillstudio.com"], bcc=[TOM])
    assert [m["label_ids"] for m in new_rows(session, PRIYA)] == [["CATEGORY_PERSONAL", "INBOX", "UNREAD"]]
    assert [m["label_ids"] for m in new_rows(session, TOM)] == [["INBOX", "SENT"]]


def test_vacation_responder_answers_once_every_four_days(session):
    sign_in(session, MAYA)
    first = send(session, [SAM], subject="Renders")
    replies = [m for m in new_rows(session, MAYA) if m["auto_submitted"]]
    assert len(replies) == 1 and replies[0]["thread_id"] == first["threadId"]
    assert replies[0]["subject"] == "Re: Renders" and "away from the studio" in replies[0]["body"]
    send(session, [SAM], subject="Renders again")
    assert len([m for m in new_rows(session, MAYA) if m["auto_submitted"]]) == 1
    sign_in(session, TOM)  # Tom already got Sam's auto-reply on June 10
    send(session, [SAM], subject="Still need renders")
    assert [m for m in new_rows(session, TOM) if m["auto_submitted"]] == []


def test_vacation_restrictions_and_window(session):
    sign_in(session, TOM)
    ok(
        session,
        "settings_updateVacation",
        {"enableAutoReply": True, "responseBodyPlainText": "Away", "restrictToContacts": True},
    )
    sign_in(session, PRIYA)  # not in Tom's contacts
    send(session, [TOM])
    sign_in(session, MAYA)  # in Tom's contacts
    send(session, [TOM])
    assert [m for m in new_rows(session, PRIYA) if m["auto_submitted"]] == []
    assert len([m for m in new_rows(session, MAYA) if m["auto_submitted"]]) == 1
    sign_in(session, LUCIA)
    ok(
        session,
        "settings_updateVacation",
        {"enableAutoReply": True, "responseBodyPlainText": "Away", "startTime": "2025-06-16", "endTime": "2025-06-30"},
    )
    sign_in(session, MAYA)
    send(session, [LUCIA])
    assert len([m for m in new_rows(session, MAYA) if m["auto_submitted"]]) == 1  # Lucia's starts next week


def test_vacation_settings_rules(session):
    sign_in(session, PRIYA)
    fails(session, "settings_updateVacation", {"enableAutoReply": True}, "InvalidRequest", "needs a message")
    fails(
        session,
        "settings_updateVacation",
        {"enableAutoReply": True, "responseBodyPlainText": "Out", "startTime": "2025-06-20", "endTime": "2025-06-20"},
        "InvalidRequest",
        "endTime must be after startTime",
    )
    fails(
        session,
        "settings_updateVacation",
        {"enableAutoReply": False, "startTime": "20/06/2025"},
        "invalid_arguments",
        "startTime: must be a date (2025-06-20) or an RFC 3339 date-time",
    )
    fails(
        session,
        "settings_updateVacation",
        {"enableAutoReply": False, "endTime": "2025-02-30"},
        "InvalidRequest",
        "endTime must be an ISO 8601 timestamp",
    )
    assert ok(session, "settings_getVacation")["endTime"] is None  # refused calls change nothing
    result = ok(
        session,
        "settings_updateVacation",
        {"enableAutoReply": True, "responseBodyPlainText": "Out", "startTime": "2025-06-20T09:00:00-07:00"},
    )
    assert (result["enableAutoReply"], result["startTime"], result["endTime"]) == (True, "2025-06-20T16:00:00Z", None)
    assert ok(session, "settings_updateVacation", {"enableAutoReply": False, "startTime": ""})["startTime"] is None
    assert ok(session, "settings_getVacation")["responseBodyPlainText"] == "Out"


def test_blocked_senders_go_to_spam_and_get_no_vacation_reply(session):
    sign_in(session, SAM)
    assert ok(session, "block_sender", {"emailAddress": "Maya@FernhillStudio.com"}) == {
        "emailAddress": MAYA,
        "blocked": True,
    }
    sign_in(session, MAYA)
    send(session, [SAM])
    assert [m["label_ids"] for m in new_rows(session, SAM)] == [["SPAM", "UNREAD"]]
    assert [m for m in new_rows(session, MAYA) if m["auto_submitted"]] == []


def test_block_sender_rules(session):
    sign_in(session, PRIYA)
    assert ok(session, "filters_list")["blockedAddresses"] == ["rachel.kim@pdxmonthly.com"]
    fails(session, "block_sender", {"emailAddress": "hello@fernhillstudio.com"}, "InvalidRequest", "your own address")
    fails(session, "block_sender", {"emailAddress": "rachel.kim@pdxmonthly.com"}, "Conflict", "already blocked")
    fails(session, "block_sender", {"emailAddress": "leo@oregonian.com", "blocked": False}, "Conflict", "not blocked")
    ok(session, "block_sender", {"emailAddress": "rachel.kim@pdxmonthly.com", "blocked": False})
    assert ok(session, "filters_list")["blockedAddresses"] == []


# ---------------------------------------------------------------- labels on messages


def test_modify_labels_rules(session):
    sign_in(session, MAYA)
    permit = seed_message(MAYA, "Permit 25-104417-RS: checksheet")["id"]
    fails(session, "messages_modify", {"id": permit}, "InvalidRequest", "Give addLabelIds")
    fails(session, "messages_modify", {"id": permit, "addLabelIds": ["SENT"]}, "InvalidRequest", "SENT and DRAFT")
    fails(session, "messages_modify", {"id": permit, "addLabelIds": ["TRASH"]}, "InvalidRequest", "messages_trash")
    fails(
        session,
        "messages_modify",
        {"id": permit, "addLabelIds": [label_id(TOM, "Projects")]},
        "InvalidRequest",
        "Invalid label",
    )
    fails(
        session,
        "messages_modify",
        {"id": permit, "addLabelIds": ["STARRED"], "removeLabelIds": ["STARRED"]},
        "InvalidRequest",
        "both added and removed",
    )
    follow = label_id(MAYA, "Follow up")
    result = ok(
        session, "messages_modify", {"id": permit, "addLabelIds": [follow, "STARRED"], "removeLabelIds": ["INBOX"]}
    )
    seeded = next(m["label_ids"] for m in SEED["messages"] if m["id"] == permit)
    assert result["labelIds"] == sorted(set(seeded) - {"INBOX"} | {follow, "STARRED"})
    assert permit in {m["id"] for m in search(session, "label:follow-up is:starred")}


def test_marking_read_updates_label_counts(session):
    sign_in(session, MAYA)
    hv = label_id(MAYA, "Clients/Harbor View")
    counts = {lab["id"]: lab for lab in ok(session, "labels_list")}
    assert (counts[hv]["messagesUnread"], counts["INBOX"]["type"], counts[hv]["type"]) == (4, "system", "user")
    for message in search(session, "label:clients-harbor-view is:unread"):
        ok(session, "messages_modify", {"id": message["id"], "removeLabelIds": ["UNREAD"]})
    after = {lab["id"]: lab for lab in ok(session, "labels_list")}
    assert after[hv]["messagesUnread"] == 0 and after[hv]["messagesTotal"] == counts[hv]["messagesTotal"]
    assert after["UNREAD"]["messagesTotal"] == counts["UNREAD"]["messagesTotal"] - 4


def test_trash_and_untrash(session):
    sign_in(session, LUCIA)
    renewal = seed_message(LUCIA, "Your professional liability policy renewal")["id"]
    assert renewal not in {m["id"] for m in search(session, "Pacific Mutual")}
    fails(session, "messages_trash", {"id": renewal}, "Conflict", "already in Trash")
    restored = ok(session, "messages_untrash", {"id": renewal})
    assert "TRASH" not in restored["labelIds"] and "INBOX" in restored["labelIds"]
    assert renewal in {m["id"] for m in search(session, "in:inbox Pacific Mutual")}
    fails(session, "messages_untrash", {"id": renewal}, "Conflict", "not in Trash")
    draft = next(d for d in SEED["drafts"] if d["owner"] == LUCIA)
    fails(session, "messages_trash", {"id": draft["message_id"]}, "InvalidRequest", "Drafts can't")


# ---------------------------------------------------------------- labels


def test_label_creation_rules(session):
    sign_in(session, MAYA)
    fails(session, "labels_create", {"name": "permits"}, "Conflict", "exists or conflicts")
    fails(session, "labels_create", {"name": "Inbox"}, "InvalidRequest", "reserved")
    fails(session, "labels_create", {"name": "Competitions/Willamette"}, "InvalidRequest", "'Competitions' doesn't")
    fails(session, "labels_create", {"name": "Clients//X"}, "InvalidRequest", "Invalid label name")
    fails(
        session,
        "labels_create",
        {"name": "Bids", "color": {"textColor": "#ffffff", "backgroundColor": "#123456"}},
        "InvalidRequest",
        "#123456 is not on the allowed color palette",
    )
    made = ok(
        session,
        "labels_create",
        {"name": " Clients / Willamette Library ", "color": {"textColor": "#FFFFFF", "backgroundColor": "#16A766"}},
    )
    assert (made["name"], made["type"], made["messagesTotal"]) == ("Clients/Willamette Library", "user", 0)
    assert made["color"] == {"textColor": "#ffffff", "backgroundColor": "#16a766"}
    assert made["id"] == f"Label_{len(SEED['labels']) + 1}"


def test_renaming_a_label_moves_its_nested_labels(session):
    sign_in(session, MAYA)
    ok(session, "labels_patch", {"id": label_id(MAYA, "Clients"), "name": "Jobs"})
    names = {lab["name"] for lab in ok(session, "labels_list") if lab["type"] == "user"}
    assert {"Jobs", "Jobs/Harbor View", "Jobs/Alder Street Cafe", "Jobs/Lindqvist House"} <= names
    assert not any(n.startswith("Clients") for n in names)
    assert len(search(session, "label:jobs-harbor-view is:unread")) == 4
    fails(
        session,
        "labels_patch",
        {"id": label_id(MAYA, "Clients"), "name": "Jobs/Harbor View/Old"},
        "InvalidRequest",
        "nested under itself",
    )
    fails(session, "labels_patch", {"id": "INBOX", "name": "Mail"}, "InvalidRequest", "system label")
    fails(session, "labels_patch", {"id": label_id(MAYA, "Travel")}, "InvalidRequest", "Nothing to update")
    fails(session, "labels_patch", {"id": label_id(MAYA, "Travel"), "name": "Finance"}, "Conflict", "exists")


def test_deleting_labels(session):
    sign_in(session, MAYA)
    parent, child = label_id(MAYA, "Conferences"), label_id(MAYA, "Conferences/AIA 2025")
    fails(session, "labels_delete", {"id": parent}, "Conflict", "nested labels (Conferences/AIA 2025)")
    tagged = [m["id"] for m in SEED["messages"] if child in m["label_ids"]]
    assert len(tagged) == 2 and len(ok(session, "filters_list")["filter"]) == 5
    ok(session, "labels_delete", {"id": child})
    ok(session, "labels_delete", {"id": parent})
    state = session.dump()
    assert all(child not in state["messages"][i]["label_ids"] for i in tagged)  # the messages stay
    assert len(ok(session, "filters_list")["filter"]) == 4  # its only action was that label
    fails(session, "labels_delete", {"id": child}, "NotFound", "not found")


def test_deleting_a_label_keeps_filters_with_other_actions(session):
    sign_in(session, MAYA)
    newsletters = label_id(MAYA, "Newsletters")
    ok(session, "labels_delete", {"id": newsletters})
    actions = [
        f["action"]
        for f in ok(session, "filters_list")["filter"]
        if f["criteria"]["from"] in ("newsletter@archdaily.com", "noreply@dezeen.com")
    ]
    assert actions == [{"addLabelIds": [], "removeLabelIds": ["INBOX"], "forward": None}] * 2


# ---------------------------------------------------------------- drafts


def test_draft_lifecycle(session):
    sign_in(session, PRIYA)
    draft = ok(session, "drafts_create", {"to": ["awards@aiaoregon.org"], "subject": "Thank you", "body": "Thanks!"})
    assert draft["id"].startswith("r-") and draft["message"]["labelIds"] == ["DRAFT"]
    updated = ok(session, "drafts_update", {"id": draft["id"], "cc": [MAYA]})
    assert (updated["message"]["subject"], updated["message"]["body"]) == ("Thank you", "Thanks!")
    assert updated["message"]["cc"] == ["Maya Okafor <maya@fernhillstudio.com>"]
    fails(session, "drafts_update", {"id": draft["id"]}, "InvalidRequest", "Nothing to update")
    sent = ok(session, "drafts_send", {"id": draft["id"]})
    assert sent["labelIds"] == ["SENT"] and sent["id"] == draft["message"]["id"]
    assert draft["id"] not in session.dump()["drafts"]
    assert [m["subject"] for m in new_rows(session, MAYA)] == ["Thank you"]
    fails(session, "drafts_send", {"id": draft["id"]}, "NotFound", "Draft")


def test_drafts_need_recipients_and_a_verified_from(session):
    sign_in(session, PRIYA)
    pitch = ok(session, "drafts_list", {"q": "to:lmartinez@oregonian.com"})
    assert len(pitch) == 1 and pitch[0]["message"]["from"] == "Fernhill Press Office <press@fernhillstudio.com>"
    fails(session, "drafts_send", {"id": pitch[0]["id"]}, "PermissionDenied", "press@fernhillstudio.com is not")
    ok(session, "drafts_update", {"id": pitch[0]["id"], "sendAsEmail": "hello@fernhillstudio.com"})
    assert ok(session, "drafts_send", {"id": pitch[0]["id"]})["from"] == "Fernhill Studio <hello@fernhillstudio.com>"
    sign_in(session, LUCIA)
    closure = ok(session, "drafts_list")
    assert [d["message"]["to"] for d in closure] == [[]]
    fails(session, "drafts_send", {"id": closure[0]["id"]}, "InvalidRequest", "Recipient address required")


def test_reply_drafts_keep_the_thread_subject(session):
    sign_in(session, MAYA)
    board = seed_message(MAYA, "Board meeting on the 19th")
    draft = ok(
        session,
        "drafts_create",
        {"to": ["dana@harborviewhoa.org"], "threadId": board["thread_id"], "body": "Happy to present."},
    )
    assert draft["message"]["subject"] == "Re: Board meeting on the 19th"
    assert draft["message"]["threadId"] == board["thread_id"]
    fails(
        session,
        "drafts_update",
        {"id": draft["id"], "subject": "Lobby finishes"},
        "InvalidRequest",
        "must stay 'Re: Board meeting on the 19th'",
    )


# ---------------------------------------------------------------- filters


def test_filter_rules(session):
    sign_in(session, LUCIA)
    to_pay = label_id(LUCIA, "Invoices/To Pay")
    fails(
        session,
        "filters_create",
        {"criteria": {}, "action": {"addLabelIds": [to_pay]}},
        "InvalidRequest",
        "criteria are empty",
    )
    fails(
        session, "filters_create", {"criteria": {"from": "x@y.com"}, "action": {}}, "InvalidRequest", "action is empty"
    )
    fails(
        session,
        "filters_create",
        {"criteria": {"from": "x@y.com"}, "action": {"addLabelIds": ["SENT"]}},
        "InvalidRequest",
        "filters can add",
    )
    fails(
        session,
        "filters_create",
        {"criteria": {"from": "x@y.com"}, "action": {"removeLabelIds": ["STARRED"]}},
        "InvalidRequest",
        "filters can remove",
    )
    fails(
        session,
        "filters_create",
        {"criteria": {"from": "x@y.com"}, "action": {"forward": "howard.lim@greenleafcpa.com"}},
        "PermissionDenied",
        "not a verified forwarding address",
    )
    fails(
        session,
        "filters_create",
        {"criteria": {"query": "invoice", "hasAttachment": True}, "action": {"addLabelIds": [to_pay]}},
        "Conflict",
        "Filter already exists",
    )
    fails(
        session,
        "filters_create",
        {"criteria": {"query": "is:later"}, "action": {"addLabelIds": [to_pay]}},
        "InvalidRequest",
        "is:later is not supported",
    )
    made = ok(
        session,
        "filters_create",
        {
            "criteria": {"to": "billing@fernhillstudio.com", "hasAttachment": True},
            "action": {"forward": "fernhill@greenleafcpa.com"},
        },
    )
    assert made["action"] == {"addLabelIds": [], "removeLabelIds": [], "forward": "fernhill@greenleafcpa.com"}
    forwarding = ok(session, "filters_list")["forwardingAddresses"]
    assert [(f["forwardingEmail"], f["verificationStatus"]) for f in forwarding] == [
        ("fernhill@greenleafcpa.com", "accepted"),
        ("howard.lim@greenleafcpa.com", "pending"),
    ]


def test_filters_act_on_new_mail_only(session):
    sign_in(session, TOM)
    visits = label_id(TOM, "Site Visits")
    before = {m["id"]: m["label_ids"] for m in mailbox(session, TOM)}
    ok(
        session,
        "filters_create",
        {
            "criteria": {"from": "maya@fernhillstudio.com", "negatedQuery": "urgent"},
            "action": {"addLabelIds": [visits], "removeLabelIds": ["INBOX"]},
        },
    )
    assert {m["id"]: m["label_ids"] for m in mailbox(session, TOM)} == before
    sign_in(session, MAYA)
    send(session, [TOM], subject="Site visit Friday")
    send(session, [TOM], subject="Urgent: permit call")
    labels = {m["subject"]: m["label_ids"] for m in new_rows(session, TOM)}
    assert labels == {
        "Site visit Friday": sorted(["CATEGORY_PERSONAL", "UNREAD", visits]),
        "Urgent: permit call": ["CATEGORY_PERSONAL", "INBOX", "UNREAD"],
    }
    sign_in(session, TOM)
    mine = ok(session, "filters_list")["filter"][-1]
    ok(session, "filters_delete", {"id": mine["id"]})
    fails(session, "filters_delete", {"id": mine["id"]}, "NotFound", "Filter")
