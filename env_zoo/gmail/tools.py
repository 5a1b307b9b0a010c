"""Gmail API tools (users/me): messages and threads with Gmail search, sending and replies, labels, drafts, filters
and blocked senders, the vacation responder and send-as aliases; plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.fields import ErrorText, page_size
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import Scope, me
from .labels import (
    SYSTEM_LABELS,
    check_color,
    check_label_ids,
    children,
    clean_name,
    sorted_labels,
    user_label,
    user_labels,
)
from .mail import (
    check_email,
    my_addresses,
    new_message_id,
    recipients,
    reply_headers,
    rfc822_id,
    same_subject,
    search_context,
    send,
    sender_for,
    strip_prefixes,
)
from .objects import (
    BlockResult,
    Deleted,
    DraftObject,
    FilterAction,
    FilterCriteria,
    FilterObject,
    FilterSettings,
    ForwardingAddress,
    LabelColor,
    LabelObject,
    MessageObject,
    MessageSummary,
    SendAsObject,
    ThreadObject,
    VacationSettings,
    filter_object,
    label_object,
    message_object,
    send_as_object,
    snippet,
    summary,
    vacation_object,
)
from .schema import (
    blocked_senders,
    drafts,
    filters,
    forwarding_addresses,
    labels,
    mailboxes,
    messages,
    oauth_grants,
    send_as,
    vacation_settings,
)
from .search import criteria_matcher, matcher, names_spam_or_trash, parse

LabelListVisibility = Literal["labelShow", "labelShowIfUnread", "labelHide"]
MessageListVisibility = Literal["show", "hide"]
CATEGORIES = ("CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS")
MODIFIABLE = ("INBOX", "SPAM", "UNREAD", "STARRED", "IMPORTANT", *CATEGORIES)
FILTER_ADDS = ("STARRED", "IMPORTANT", "TRASH", *CATEGORIES)
FILTER_REMOVES = ("INBOX", "UNREAD", "IMPORTANT", "SPAM")
#: A vacation window bound: a date, an RFC 3339 date-time, or "" to clear it.
Moment = Annotated[
    str,
    Field(pattern=r"^$|^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2}))?$"),
    ErrorText('must be a date (2025-06-20) or an RFC 3339 date-time (2025-06-20T17:00:00Z); "" clears it'),
]


# ---------------------------------------------------------------- helpers


def _message(db: Database, owner: str, message_id: str) -> dict[str, Any]:
    return db.find_one(messages, id=message_id, owner=owner, not_found=f"Message '{message_id}' not found")


def _label_names(db: Database, owner: str) -> dict[str, str]:
    return {row["id"]: row["name"] for row in user_labels(db, owner)}


def _search(db: Database, owner: str, rows: list[dict[str, Any]], q: str | None) -> list[dict[str, Any]]:
    """Rows matching a Gmail query, newest first."""
    if q and q.strip():
        match = matcher(parse(q), search_context(db, owner, _label_names(db, owner)))
        rows = [r for r in rows if match(r)]
    return sorted(rows, key=lambda r: (r["internal_date"], r["id"]), reverse=True)


def _content(
    db: Database, owner: str, to: list[str] | None, cc: list[str] | None, bcc: list[str] | None, body: str | None
) -> dict[str, Any]:
    """Recipient and body columns of a message being written (only the given ones)."""
    values: dict[str, Any] = {}
    for header, given in (("to", to), ("cc", cc), ("bcc", bcc)):
        if given is not None:
            values[header] = recipients(db, owner, given, header.capitalize())
    if body is not None:
        values["body"] = body
    return values


def _new_message(
    db: Database, owner: str, subject: str | None, thread_id: str | None, send_as_email: str | None, **content: Any
) -> dict[str, Any]:
    """Store a message being composed (a DRAFT until sent): a new conversation, or a reply joining `thread_id`."""
    message_id = new_message_id(db)
    if thread_id is not None:
        threading = reply_headers(db, owner, thread_id, subject)
    else:
        threading = {"thread_id": message_id, "subject": (subject or "").strip(), "in_reply_to": None, "references": []}
    values = {"to": [], "cc": [], "bcc": [], "body": "", **content}
    return db.insert(
        messages,
        id=message_id,
        owner=owner,
        label_ids=["DRAFT"],
        sender=sender_for(db, owner, send_as_email),
        attachments=[],
        rfc822_message_id=rfc822_id(message_id),
        auto_submitted=False,
        internal_date=db.now_iso(),
        **threading,
        **values,
    )


def _draft(db: Database, owner: str, draft_id: str) -> dict[str, Any]:
    return db.find_one(drafts, id=draft_id, owner=owner, not_found=f"Draft '{draft_id}' not found")


def _draft_object(db: Database, draft: dict[str, Any]) -> DraftObject:
    return DraftObject(id=draft["id"], message=message_object(db.get(messages, draft["message_id"], "Message")))


def _moment(value: str, name: str) -> str | None:
    """A date (its midnight UTC) or RFC 3339 date-time as UTC text; an empty string clears the setting."""
    return iso_timestamp(parse_timestamp(value, name, "2025-06-20T17:00:00Z", dates=True)) if value else None


# ---------------------------------------------------------------- the user (consent screen)


@tool(user_only=True)
def sign_in(db: Database, email: str, scope: Scope = "gmail.modify") -> str:
    """(User only, on Google's consent screen) The user signs in with their Google Workspace account and lets the
    app use their Gmail: gmail.readonly (read only), gmail.modify (read, send, organise and change settings, but
    never delete forever) or mail.google.com (full access, including permanent deletion).

    Args:
        email: The user's Google Workspace address.
        scope: gmail.readonly, gmail.modify or mail.google.com.
    """
    found = db.find(mailboxes, email=email.strip().lower())
    if not found:
        raise NotFound("Couldn't find your Google Account.")
    db.conn.execute(oauth_grants.delete())
    db.insert(oauth_grants, id="current", email=found[0]["email"], scope=scope, granted_at=db.now_iso())
    return f"{found[0]['email']} granted {scope}"


# ---------------------------------------------------------------- messages and threads


@tool(read_only=True)
def messages_list(
    db: Database,
    q: str | None = None,
    labelIds: list[str] | None = None,
    includeSpamTrash: bool = False,
    maxResults: page_size(500) = 20,
    pageToken: str | None = None,
) -> Page[MessageSummary]:
    """List the mailbox's messages, newest first, optionally narrowed by a Gmail search query and label ids.
    Query operators: from: to: cc: bcc: subject: label: is:unread/read/starred/important,
    in:inbox/sent/drafts/trash/spam/anywhere, has:attachment, has:userlabels/nouserlabels, filename:,
    category:primary/social/promotions/updates/forums, after:2025/06/01, before:2025/06/01, newer_than:7d,
    older_than:1m, free words and "quoted phrases", -term to negate, OR between two terms; from:me / to:me for
    this mailbox. Spam and Trash are left out unless includeSpamTrash is true or the query asks for them.

    Args:
        q: Gmail search query, e.g. 'from:dana@harborviewhoa.org is:unread after:2025/06/01'.
        labelIds: Only messages carrying all of these label ids (e.g. ["INBOX", "Label_4"]).
        includeSpamTrash: Include messages in Spam and Trash.
        maxResults: Messages per page, 1 to 500.
        pageToken: The next_cursor of the previous page.
    """
    owner = me(db)
    rows = db.find(messages, owner=owner)
    if labelIds:
        check_label_ids(db, owner, labelIds, SYSTEM_LABELS, "unknown label")
        rows = [r for r in rows if set(labelIds) <= set(r["label_ids"])]
    hidden = (
        not includeSpamTrash
        and not ({"SPAM", "TRASH"} & set(labelIds or []))
        and not (q and names_spam_or_trash(parse(q)))
    )
    if hidden:
        rows = [r for r in rows if not {"SPAM", "TRASH"} & set(r["label_ids"])]
    page = paginate(_search(db, owner, rows, q), maxResults, pageToken, max_page_size=500)
    return Page[MessageSummary](
        results=[summary(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def messages_get(db: Database, id: str) -> MessageObject:
    """Get one message in full: headers (From, To, Cc, Subject, Message-ID, In-Reply-To), labels, body and
    attachments.

    Args:
        id: The message id, as returned by messages_list.
    """
    return message_object(_message(db, me(db), id))


@tool(read_only=True)
def threads_get(db: Database, id: str) -> ThreadObject:
    """Get a conversation: all its messages in this mailbox, oldest first (drafts, Spam and Trash included).

    Args:
        id: The thread id (a message's threadId).
    """
    rows = db.find(messages, owner=me(db), thread_id=id)
    if not rows:
        raise NotFound(f"Thread '{id}' not found")
    rows.sort(key=lambda r: (r["internal_date"], r["id"]))
    return ThreadObject(id=id, snippet=snippet(rows[-1]["body"]), messages=[message_object(r) for r in rows])


@tool()
def messages_send(
    db: Database,
    to: list[str],
    body: str,
    subject: str | None = None,
    cc: list[str] | None = None,
    bcc: list[str] | None = None,
    threadId: str | None = None,
    sendAsEmail: str | None = None,
) -> MessageObject:
    """Send an email. To reply, give the conversation's threadId: the reply then carries In-Reply-To/References of
    the thread's latest message, and its subject must match the thread's ('Re: <subject>', the default when subject
    is left out). Recipients in this Workspace domain receive it in their mailbox at once (where their filters,
    blocked senders and vacation responder apply). From is your default address unless sendAsEmail names a
    verified send-as alias.

    Args:
        to: Recipient addresses ("dana@harborviewhoa.org" or "Dana Whitlock <dana@harborviewhoa.org>").
        body: Plain-text body.
        subject: Subject line; required for a new conversation, optional for a reply.
        cc: Cc addresses.
        bcc: Bcc addresses (hidden from the other recipients).
        threadId: The thread to reply in (a message's threadId).
        sendAsEmail: Send from this verified send-as alias instead of your default address.
    """
    owner = me(db, "gmail.modify")
    if threadId is None and not (subject or "").strip():
        raise InvalidRequest("subject is required for a new conversation (give threadId to reply)")
    row = _new_message(db, owner, subject, threadId, sendAsEmail, **_content(db, owner, to, cc, bcc, body))
    return message_object(send(db, row))


@tool()
def messages_modify(
    db: Database,
    id: str,
    addLabelIds: Annotated[list[str], Unordered] | None = None,
    removeLabelIds: Annotated[list[str], Unordered] | None = None,
) -> MessageSummary:
    """Add or remove labels on a message: user labels, or INBOX (remove to archive), UNREAD (remove to mark
    read), STARRED, IMPORTANT, SPAM (report spam / not spam) and CATEGORY_* tabs. SENT and DRAFT can't change;
    use messages_trash / messages_untrash for Trash.

    Args:
        id: The message id.
        addLabelIds: Label ids to add.
        removeLabelIds: Label ids to remove.
    """
    owner = me(db, "gmail.modify")
    row = _message(db, owner, id)
    add, remove = set(addLabelIds or []), set(removeLabelIds or [])
    if not add and not remove:
        raise InvalidRequest("Give addLabelIds or removeLabelIds.")
    if add & remove:
        raise InvalidRequest(f"A label can't be both added and removed: {', '.join(sorted(add & remove))}")
    why = "SENT and DRAFT can't be changed, and Trash is changed with messages_trash / messages_untrash"
    check_label_ids(db, owner, add | remove, MODIFIABLE, why)
    labels_now = (set(row["label_ids"]) | add) - remove
    return summary(db.update(messages, id, label_ids=sorted_labels(labels_now)))


@tool()
def messages_trash(db: Database, id: str) -> MessageSummary:
    """Move a message to Trash (it keeps its other labels and comes back where it was when untrashed).

    Args:
        id: The message id.
    """
    row = _message(db, me(db, "gmail.modify"), id)
    if "DRAFT" in row["label_ids"]:
        raise InvalidRequest("Drafts can't be moved to Trash; send the draft or delete it for good.")
    if "TRASH" in row["label_ids"]:
        raise Conflict("Message is already in Trash.")
    return summary(db.update(messages, id, label_ids=sorted_labels([*row["label_ids"], "TRASH"])))


@tool()
def messages_untrash(db: Database, id: str) -> MessageSummary:
    """Take a message out of Trash.

    Args:
        id: The message id.
    """
    row = _message(db, me(db, "gmail.modify"), id)
    if "TRASH" not in row["label_ids"]:
        raise Conflict("Message is not in Trash.")
    return summary(db.update(messages, id, label_ids=sorted_labels(set(row["label_ids"]) - {"TRASH"})))


@tool()
def messages_delete(db: Database, id: str) -> Deleted:
    """Delete a message immediately and permanently (it can't be recovered; prefer messages_trash). Needs the
    full-access grant (https://mail.google.com/). Deleting a draft's message discards the draft.

    Args:
        id: The message id.
    """
    owner = me(db, "mail.google.com")
    _message(db, owner, id)
    for draft in db.find(drafts, message_id=id):
        db.delete(drafts, draft["id"])
    db.delete(messages, id)
    return Deleted(id=id)


# ---------------------------------------------------------------- labels


@tool(read_only=True)
def labels_list(db: Database) -> list[LabelObject]:
    """List the mailbox's labels, system labels first (INBOX, SENT, ...), then user labels by name (nested ones are
    named "Parent/Child"), each with its message and thread counts."""
    owner = me(db)
    rows = db.find(messages, owner=owner)
    return [label_object(label, rows) for label in (*SYSTEM_LABELS, *user_labels(db, owner))]


@tool()
def labels_create(
    db: Database,
    name: str,
    labelListVisibility: LabelListVisibility = "labelShow",
    messageListVisibility: MessageListVisibility = "show",
    color: LabelColor | None = None,
) -> LabelObject:
    """Create a user label. Names are unique (ignoring case) and can't be a system label's; "Parent/Child" nests a
    label under an existing one. Colours come from Gmail's label palette.

    Args:
        name: The label's display name, e.g. "Clients/Harbor View".
        labelListVisibility: Shown in the label list: labelShow, labelShowIfUnread or labelHide.
        messageListVisibility: Shown on messages in the message list: show or hide.
        color: Text and background colours from the palette.
    """
    owner = me(db, "gmail.modify")
    row = db.insert(
        labels,
        id=db.new_id(labels, "Label_", 1),
        owner=owner,
        name=clean_name(db, owner, name),
        message_list_visibility=messageListVisibility,
        label_list_visibility=labelListVisibility,
        color=check_color(color.model_dump() if color else None),
    )
    return label_object(row, [])


@tool()
def labels_patch(
    db: Database,
    id: str,
    name: str | None = None,
    labelListVisibility: LabelListVisibility | None = None,
    messageListVisibility: MessageListVisibility | None = None,
    color: LabelColor | None = None,
) -> LabelObject:
    """Change a user label: rename it (its nested labels move with it; the new parent must exist), its visibility or
    its colours. System labels can't be changed.

    Args:
        id: The label id (Label_...).
        name: The new name.
        labelListVisibility: labelShow, labelShowIfUnread or labelHide.
        messageListVisibility: show or hide.
        color: New text and background colours from the palette.
    """
    owner = me(db, "gmail.modify")
    row = user_label(db, owner, id)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = clean_name(db, owner, name, renaming=row)
        for child in children(db, owner, row):
            db.update(labels, child["id"], name=changes["name"] + child["name"][len(row["name"]) :])
    if labelListVisibility is not None:
        changes["label_list_visibility"] = labelListVisibility
    if messageListVisibility is not None:
        changes["message_list_visibility"] = messageListVisibility
    if color is not None:
        changes["color"] = check_color(color.model_dump())
    if not changes:
        raise InvalidRequest("Nothing to update: give name, a visibility or color.")
    return label_object(db.update(labels, id, **changes), db.find(messages, owner=owner))


@tool()
def labels_delete(db: Database, id: str) -> Deleted:
    """Delete a user label: it is removed from every message (the messages stay) and from filters that apply it
    (a filter left with nothing to do is deleted). A label with nested labels can't be deleted before them.

    Args:
        id: The label id (Label_...).
    """
    owner = me(db, "gmail.modify")
    row = user_label(db, owner, id)
    nested = children(db, owner, row)
    if nested:
        raise Conflict(
            f"'{row['name']}' has nested labels ({', '.join(c['name'] for c in nested)}); delete or move them first."
        )
    for message in db.find(messages, owner=owner):
        if id in message["label_ids"]:
            db.update(messages, message["id"], label_ids=[x for x in message["label_ids"] if x != id])
    for found in db.find(filters, owner=owner):
        action = {
            key: [x for x in value if x != id] if isinstance(value, list) else value
            for key, value in found["action"].items()
        }
        if action == found["action"]:
            continue
        if action.get("addLabelIds") or action.get("removeLabelIds") or action.get("forward"):
            db.update(filters, found["id"], action=action)
        else:
            db.delete(filters, found["id"])
    db.delete(labels, id)
    return Deleted(id=id)


# ---------------------------------------------------------------- drafts


@tool(read_only=True)
def drafts_list(db: Database, q: str | None = None) -> list[DraftObject]:
    """List the mailbox's drafts, newest first, optionally only those matching a Gmail search query.

    Args:
        q: Gmail search query the draft's message must match, e.g. 'to:ray@cascadebuilders.com'.
    """
    owner = me(db)
    by_message = {d["message_id"]: d for d in db.find(drafts, owner=owner)}
    rows = _search(db, owner, [db.get(messages, m, "Message") for m in by_message], q)
    return [DraftObject(id=by_message[r["id"]]["id"], message=message_object(r)) for r in rows]


@tool()
def drafts_create(
    db: Database,
    to: list[str] | None = None,
    subject: str | None = None,
    body: str = "",
    cc: list[str] | None = None,
    bcc: list[str] | None = None,
    threadId: str | None = None,
    sendAsEmail: str | None = None,
) -> DraftObject:
    """Save a new draft (recipients may be left for later). With threadId it is a reply draft: its subject must
    match the thread's ('Re: <subject>' by default).

    Args:
        to: Recipient addresses.
        subject: Subject line.
        body: Plain-text body.
        cc: Cc addresses.
        bcc: Bcc addresses.
        threadId: The thread the draft replies in.
        sendAsEmail: A verified send-as alias to send from.
    """
    owner = me(db, "gmail.modify")
    row = _new_message(db, owner, subject, threadId, sendAsEmail, **_content(db, owner, to, cc, bcc, body))
    draft = db.insert(drafts, id=db.new_id(drafts, "r-80", 17), owner=owner, message_id=row["id"])
    return _draft_object(db, draft)


@tool()
def drafts_update(
    db: Database,
    id: str,
    to: list[str] | None = None,
    subject: str | None = None,
    body: str | None = None,
    cc: list[str] | None = None,
    bcc: list[str] | None = None,
    sendAsEmail: str | None = None,
) -> DraftObject:
    """Change a draft; fields left out keep their value (a given list replaces the old one). A reply draft's
    subject must keep matching its thread.

    Args:
        id: The draft id (r-...).
        to: New recipient list.
        subject: New subject line.
        body: New plain-text body (replaces the old one).
        cc: New Cc list.
        bcc: New Bcc list.
        sendAsEmail: A verified send-as alias to send from.
    """
    owner = me(db, "gmail.modify")
    draft = _draft(db, owner, id)
    row = db.get(messages, draft["message_id"], "Message")
    changes = _content(db, owner, to, cc, bcc, body)
    if subject is not None:
        if row["in_reply_to"] and not same_subject(subject, row["subject"]):
            raise InvalidRequest(
                f"This draft replies in a thread; its subject must stay 'Re: {strip_prefixes(row['subject'])}'."
            )
        changes["subject"] = subject.strip()
    if sendAsEmail is not None:
        changes["sender"] = sender_for(db, owner, sendAsEmail)
    if not changes:
        raise InvalidRequest("Nothing to update.")
    db.update(messages, row["id"], internal_date=db.now_iso(), **changes)
    return _draft_object(db, draft)


@tool()
def drafts_send(db: Database, id: str) -> MessageObject:
    """Send a draft to its To, Cc and Bcc recipients; the draft is gone afterwards and the message is in Sent.

    Args:
        id: The draft id (r-...).
    """
    owner = me(db, "gmail.modify")
    draft = _draft(db, owner, id)
    row = db.get(messages, draft["message_id"], "Message")
    sender_for(db, owner, row["sender"]["email"])
    db.delete(drafts, id)
    return message_object(send(db, row))


# ---------------------------------------------------------------- filters and blocked senders


@tool(read_only=True)
def filters_list(db: Database) -> FilterSettings:
    """List the mailbox's filters (oldest first), its blocked addresses, and the forwarding addresses a filter may
    forward to (only verified ones work)."""
    owner = me(db)
    return FilterSettings(
        filter=[filter_object(r) for r in db.find(filters, owner=owner)],
        blockedAddresses=[
            r["email"] for r in db.find(blocked_senders, owner=owner, order_by=[blocked_senders.c.email])
        ],
        forwardingAddresses=[
            ForwardingAddress(forwardingEmail=r["forwarding_email"], verificationStatus=r["verification_status"])
            for r in db.find(forwarding_addresses, owner=owner, order_by=[forwarding_addresses.c.forwarding_email])
        ],
    )


@tool()
def filters_create(db: Database, criteria: FilterCriteria, action: FilterAction) -> FilterObject:
    """Create a filter: mail arriving from now on that matches every given criterion gets the action (existing
    mail is not touched). Actions: add user labels, STARRED, IMPORTANT, TRASH (delete it) or a CATEGORY_* label;
    remove INBOX (skip the inbox), UNREAD (mark as read), IMPORTANT or SPAM (never send to spam); forward to a
    verified forwarding address. An identical filter can't be created twice.

    Args:
        criteria: What incoming mail must match (from, to, subject, query, negatedQuery, hasAttachment).
        action: What to do with it (addLabelIds, removeLabelIds, forward).
    """
    owner = me(db, "gmail.modify")
    stored_criteria = {
        k: (" ".join(v.split()) if isinstance(v, str) else v)
        for k, v in criteria.model_dump(exclude_none=True).items()
        if v not in ("", False)
    }
    if not stored_criteria:
        raise InvalidRequest("Filter criteria are empty: give from, to, subject, query, negatedQuery or hasAttachment.")
    criteria_matcher(stored_criteria, search_context(db, owner, _label_names(db, owner)))
    add, remove = sorted(set(action.addLabelIds)), sorted(set(action.removeLabelIds))
    if not add and not remove and not action.forward:
        raise InvalidRequest("Filter action is empty: give addLabelIds, removeLabelIds or forward.")
    if set(add) & set(remove):
        raise InvalidRequest("A filter can't both add and remove the same label.")
    check_label_ids(db, owner, add, FILTER_ADDS, "filters can add STARRED, IMPORTANT, TRASH or CATEGORY_* only")
    check_label_ids(db, owner, remove, FILTER_REMOVES, "filters can remove INBOX, UNREAD, IMPORTANT or SPAM only")
    stored_action: dict[str, Any] = {"addLabelIds": add, "removeLabelIds": remove}
    if action.forward:
        target = check_email(action.forward, "forwarding address")
        known = db.find(forwarding_addresses, owner=owner, forwarding_email=target)
        if not known or known[0]["verification_status"] != "accepted":
            raise PermissionDenied(f"{target} is not a verified forwarding address of this account.")
        stored_action["forward"] = target
    if any(r["criteria"] == stored_criteria and r["action"] == stored_action for r in db.find(filters, owner=owner)):
        raise Conflict("Filter already exists")
    row = db.insert(
        filters, id=db.new_id(filters, "ANe1Bm", 10), owner=owner, criteria=stored_criteria, action=stored_action
    )
    return filter_object(row)


@tool()
def filters_delete(db: Database, id: str) -> Deleted:
    """Delete a filter (mail it already sorted stays as it is).

    Args:
        id: The filter id, from filters_list.
    """
    owner = me(db, "gmail.modify")
    if not db.find(filters, id=id, owner=owner):
        raise NotFound(f"Filter '{id}' not found")
    db.delete(filters, id)
    return Deleted(id=id)


@tool()
def block_sender(db: Database, emailAddress: str, blocked: bool = True) -> BlockResult:
    """Block a sender (their future messages go straight to Spam, and get no vacation reply) or unblock them.
    Mail already received is not moved.

    Args:
        emailAddress: The sender's address.
        blocked: true to block, false to unblock.
    """
    owner = me(db, "gmail.modify")
    email = check_email(emailAddress)
    if email in my_addresses(db, owner):
        raise InvalidRequest("You can't block your own address.")
    found = db.find(blocked_senders, owner=owner, email=email)
    if blocked and found:
        raise Conflict(f"{email} is already blocked.")
    if not blocked and not found:
        raise Conflict(f"{email} is not blocked.")
    if blocked:
        db.insert(
            blocked_senders, id=db.new_id(blocked_senders, "blk_"), owner=owner, email=email, blocked_at=db.now_iso()
        )
    else:
        db.delete(blocked_senders, found[0]["id"])
    return BlockResult(emailAddress=email, blocked=blocked)


# ---------------------------------------------------------------- settings


@tool(read_only=True)
def settings_getVacation(db: Database) -> VacationSettings:
    """Get the vacation responder (auto-reply) settings."""
    return vacation_object(db.get(vacation_settings, me(db), "Vacation settings"))


@tool()
def settings_updateVacation(
    db: Database,
    enableAutoReply: bool,
    responseSubject: str | None = None,
    responseBodyPlainText: str | None = None,
    restrictToContacts: bool | None = None,
    restrictToDomain: bool | None = None,
    startTime: Moment | None = None,
    endTime: Moment | None = None,
) -> VacationSettings:
    """Turn the vacation responder on or off and change its message or window; settings left out keep their value.
    While on (and between startTime and endTime), each sender gets one auto-reply every 4 days. An enabled
    responder needs a message body; endTime must be after startTime.

    Args:
        enableAutoReply: true to turn auto-replies on, false to turn them off.
        responseSubject: Subject of the auto-reply (empty: 'Re: <their subject>').
        responseBodyPlainText: The auto-reply's text.
        restrictToContacts: Only reply to people in your contacts.
        restrictToDomain: Only reply to people in your organisation's domain.
        startTime: When auto-replies start: a date (2025-06-16, from 00:00 UTC) or an RFC 3339 date-time; "" clears it.
        endTime: When auto-replies stop (exclusive): a date (2025-06-23 means until the end of June 22, UTC) or an
            RFC 3339 date-time; "" clears it.
    """
    owner = me(db, "gmail.modify")
    current = db.get(vacation_settings, owner, "Vacation settings")
    changes: dict[str, Any] = {"enable_auto_reply": enableAutoReply}
    for column, value in (
        ("response_subject", responseSubject),
        ("response_body_plain_text", responseBodyPlainText),
        ("restrict_to_contacts", restrictToContacts),
        ("restrict_to_domain", restrictToDomain),
    ):
        if value is not None:
            changes[column] = value.strip() if isinstance(value, str) else value
    for column, value, name in (("start_time", startTime, "startTime"), ("end_time", endTime, "endTime")):
        if value is not None:
            changes[column] = _moment(value, name)
    merged = {**current, **changes}
    if merged["enable_auto_reply"] and not merged["response_body_plain_text"]:
        raise InvalidRequest("The vacation responder needs a message (responseBodyPlainText) to be turned on.")
    if merged["start_time"] and merged["end_time"] and merged["end_time"] <= merged["start_time"]:
        raise InvalidRequest("endTime must be after startTime.")
    return vacation_object(db.update(vacation_settings, owner, **changes))


@tool(read_only=True)
def settings_sendAs_list(db: Database) -> list[SendAsObject]:
    """List the addresses this mailbox can send as: its primary address and aliases, with their verification status
    (only accepted ones can be used as From)."""
    owner = me(db)
    rows = db.find(send_as, owner=owner)
    return [send_as_object(r) for r in sorted(rows, key=lambda r: (not r["is_primary"], r["send_as_email"]))]
