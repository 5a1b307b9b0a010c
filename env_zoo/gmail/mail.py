"""How mail moves inside the domain: addresses, threading headers, sending, delivery to colleagues' mailboxes
(blocked senders, their filters), and the vacation responder's automatic replies."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .access import domain
from .labels import sorted_labels
from .schema import blocked_senders, contacts, filters, mailboxes, messages, send_as, vacation_settings
from .search import Context, criteria_matcher

ADDRESS = re.compile(r'^\s*(?:"?([^"<>]*?)"?\s*<\s*([^<>\s]+)\s*>|([^<>\s]+))\s*$')
EMAIL = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
PREFIX = re.compile(r"^\s*(re|fwd?|aw)\s*:\s*", re.IGNORECASE)
VACATION_GAP = timedelta(days=4)  # one auto-reply per sender every 4 days
INBOUND = ("INBOX", "UNREAD", "CATEGORY_PERSONAL")


# ---------------------------------------------------------------- addresses


def check_email(value: str, what: str = "address") -> str:
    """A syntactically valid address, lower-cased."""
    email = value.strip().lower()
    if not EMAIL.match(email):
        raise InvalidRequest(f"Invalid {what}: {value!r}")
    return email


def display_name(db: Database, owner: str, email: str) -> str | None:
    """The name the domain directory, or the owner's contacts, know an address by."""
    found = db.find(mailboxes, email=email)
    if found:
        return found[0]["display_name"]
    known = db.find(contacts, owner=owner, email=email)
    return known[0]["name"] if known else None


def recipients(db: Database, owner: str, values: list[str] | None, header: str) -> list[dict[str, str]]:
    """`Name <email>` or bare addresses as stored people (names from the directory or contacts when known)."""
    people = []
    for value in values or []:
        match = ADDRESS.match(value)
        if not match:
            raise InvalidRequest(f"Invalid {header} header: {value!r}")
        name, bracketed, bare = match.groups()
        email = check_email(bracketed or bare, f"{header} header")
        people.append({"name": display_name(db, owner, email) or (name or "").strip(), "email": email})
    return people


def my_addresses(db: Database, owner: str) -> frozenset[str]:
    """The mailbox's own address and its send-as aliases."""
    return frozenset({owner} | {row["send_as_email"] for row in db.find(send_as, owner=owner)})


def search_context(db: Database, owner: str, label_names: dict[str, str]) -> Context:
    """What search terms of this mailbox resolve against."""
    return Context(my_addresses(db, owner), label_names, db.now())


def sender_for(db: Database, owner: str, send_as_email: str | None) -> dict[str, str]:
    """The From of a new message: the default send-as address, or a verified alias the mailbox owns."""
    rows = db.find(send_as, owner=owner)
    if send_as_email is None:
        row = next(r for r in rows if r["is_default"])
    else:
        wanted = check_email(send_as_email, "send-as address")
        found = [r for r in rows if r["send_as_email"] == wanted]
        if not found:
            raise PermissionDenied(f"{wanted} is not a send-as address of {owner}; see settings_sendAs_list.")
        row = found[0]
    if row["verification_status"] != "accepted":
        raise PermissionDenied(
            f"Send-as address {row['send_as_email']} is not verified (verificationStatus: "
            f"{row['verification_status']}); mail can't be sent from it until the confirmation "
            "link sent to that address is opened."
        )
    return {"name": row["display_name"], "email": row["send_as_email"]}


def route(db: Database, email: str) -> str | None:
    """The mailbox of the domain that receives mail for an address (its own address or a verified alias)."""
    if db.find(mailboxes, email=email):
        return email
    aliases = [r for r in db.find(send_as, send_as_email=email) if r["verification_status"] == "accepted"]
    return aliases[0]["owner"] if aliases and domain(email) == domain(aliases[0]["owner"]) else None


# ---------------------------------------------------------------- threading


def strip_prefixes(subject: str) -> str:
    """The subject without Re:/Fwd: prefixes."""
    stripped = subject.strip()
    while PREFIX.match(stripped):
        stripped = PREFIX.sub("", stripped, count=1)
    return stripped


def same_subject(a: str, b: str) -> bool:
    """Whether two subjects are the same conversation's (prefixes, case and spacing aside)."""
    return " ".join(strip_prefixes(a).split()).casefold() == " ".join(strip_prefixes(b).split()).casefold()


def reply_headers(db: Database, owner: str, thread_id: str, subject: str | None) -> dict[str, Any]:
    """Subject, In-Reply-To and References of a message joining a thread of the mailbox. The subject must match
    the thread's (Gmail threads a reply only then); it defaults to 'Re: <thread subject>'."""
    rows = [r for r in db.find(messages, owner=owner, thread_id=thread_id) if "DRAFT" not in r["label_ids"]]
    if not rows:
        raise NotFound(f"Thread '{thread_id}' not found")
    first = min(rows, key=lambda r: (r["internal_date"], r["id"]))
    last = max(rows, key=lambda r: (r["internal_date"], r["id"]))
    if subject is None:
        subject = f"Re: {strip_prefixes(first['subject'])}"
    elif not same_subject(subject, first["subject"]):
        raise InvalidRequest(
            f"A reply's subject must match the thread's: use 'Re: {strip_prefixes(first['subject'])}'"
            " (or leave subject out), or send without threadId to start a new conversation."
        )
    return {
        "thread_id": thread_id,
        "subject": subject.strip(),
        "in_reply_to": last["rfc822_message_id"],
        "references": [*last["references"], last["rfc822_message_id"]],
    }


def new_message_id(db: Database) -> str:
    """A fresh 16-hex-digit message id."""
    return db.new_id(messages, "197", 13)


def rfc822_id(message_id: str) -> str:
    """The Message-ID header Gmail gives a message it sends."""
    return f"<CA{message_id.upper()}@mail.gmail.com>"


def find_thread(db: Database, owner: str, source: dict[str, Any]) -> str | None:
    """The mailbox's thread an incoming message belongs to: one holding a message it refers to, same subject."""
    refs = set(source["references"]) | ({source["in_reply_to"]} if source["in_reply_to"] else set())
    for row in db.find(messages, owner=owner, order_by=[messages.c.internal_date]):
        if row["rfc822_message_id"] in refs and same_subject(row["subject"], source["subject"]):
            return row["thread_id"]
    return None


# ---------------------------------------------------------------- sending and delivery


def send(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Send a stored message (a new one or a draft's): it becomes SENT and a copy reaches every recipient mailbox
    of the domain."""
    people = row["to"] + row["cc"] + row["bcc"]
    if not people:
        raise InvalidRequest("Recipient address required")
    owner = row["owner"]
    mine = my_addresses(db, owner)
    label_ids = ["SENT"] + (["INBOX"] if any(p["email"] in mine for p in people) else [])
    sent = db.update(messages, row["id"], label_ids=sorted_labels(label_ids), internal_date=db.now_iso())
    delivered: set[str] = {owner}
    for person in people:
        target = route(db, person["email"])
        if target is not None and target not in delivered:
            delivered.add(target)
            deliver(db, sent, target)
    return db.get(messages, row["id"], "Message")


def deliver(db: Database, source: dict[str, Any], owner: str) -> dict[str, Any]:
    """Put a copy of a sent message into a colleague's mailbox: Spam when they blocked the sender, else their
    filters run on it; then their vacation responder may answer."""
    copy_id = new_message_id(db)
    values = {
        k: source[k]
        for k in (
            "sender",
            "to",
            "cc",
            "subject",
            "body",
            "attachments",
            "rfc822_message_id",
            "in_reply_to",
            "references",
            "auto_submitted",
        )
    }
    copy = db.insert(
        messages,
        id=copy_id,
        owner=owner,
        thread_id=find_thread(db, owner, source) or copy_id,
        label_ids=sorted_labels(INBOUND),
        bcc=[],
        internal_date=db.now_iso(),
        **values,
    )
    if db.find(blocked_senders, owner=owner, email=source["sender"]["email"]):
        return db.update(messages, copy_id, label_ids=sorted_labels(["SPAM", "UNREAD"]))
    copy = db.update(messages, copy_id, label_ids=filtered_labels(db, owner, copy))
    if "TRASH" not in copy["label_ids"]:
        vacation_reply(db, owner, copy)
    return copy


def filtered_labels(db: Database, owner: str, message: dict[str, Any]) -> list[str]:
    """The labels an incoming message ends up with after the mailbox's filters (in creation order)."""
    label_ids = set(message["label_ids"])
    ctx = search_context(db, owner, {})
    for row in db.find(filters, owner=owner):
        if criteria_matcher(row["criteria"], ctx)(message):
            label_ids |= set(row["action"].get("addLabelIds", []))
            label_ids -= set(row["action"].get("removeLabelIds", []))
    return sorted_labels(label_ids)


def vacation_active(settings: dict[str, Any] | None, now: str) -> bool:
    """Whether a vacation responder answers mail arriving now."""
    if settings is None or not settings["enable_auto_reply"]:
        return False
    started = settings["start_time"] is None or settings["start_time"] <= now
    return started and (settings["end_time"] is None or now < settings["end_time"])


def vacation_reply(db: Database, owner: str, received: dict[str, Any]) -> None:
    """The owner's vacation responder answers a message that just arrived, at most once per sender every 4 days,
    never to an automatic reply, only to contacts or the domain when so restricted."""
    found = db.find(vacation_settings, owner=owner)
    now = db.now_iso()
    if not found or not vacation_active(found[0], now) or received["auto_submitted"]:
        return
    settings, sender = found[0], received["sender"]["email"]
    if settings["restrict_to_domain"] and domain(sender) != domain(owner):
        return
    if settings["restrict_to_contacts"] and not db.find(contacts, owner=owner, email=sender):
        return
    since = (db.now() - VACATION_GAP).strftime("%Y-%m-%dT%H:%M:%SZ")
    if any(
        r["auto_submitted"] and r["to"][0]["email"] == sender and r["internal_date"] >= since
        for r in db.find(messages, owner=owner)
        if "SENT" in r["label_ids"]
    ):
        return
    reply_id = new_message_id(db)
    reply = db.insert(
        messages,
        id=reply_id,
        owner=owner,
        thread_id=received["thread_id"],
        label_ids=["SENT"],
        sender=sender_for(db, owner, None),
        to=[received["sender"]],
        cc=[],
        bcc=[],
        subject=settings["response_subject"] or f"Re: {strip_prefixes(received['subject'])}",
        body=settings["response_body_plain_text"],
        attachments=[],
        rfc822_message_id=rfc822_id(reply_id),
        in_reply_to=received["rfc822_message_id"],
        references=[*received["references"], received["rfc822_message_id"]],
        auto_submitted=True,
        internal_date=now,
    )
    target = route(db, sender)
    if target is not None and target != owner:
        deliver(db, reply, target)
