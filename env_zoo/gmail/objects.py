"""Gmail API resources as output models (and the filter criteria/action inputs), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SNIPPET = 120


class ApiModel(BaseModel):
    """A Gmail resource: field names as in the API (`from` included)."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)


class Attachment(ApiModel):
    """A file attached to a message."""

    filename: str
    mimeType: str
    size: int = Field(description="bytes")


class MessageSummary(ApiModel):
    """A message as listed: ids, labels, the main headers and a snippet of the body."""

    id: str
    threadId: str
    labelIds: list[str]
    snippet: str
    from_: str = Field(alias="from")
    to: list[str]
    subject: str
    internalDate: str = Field(description="when Gmail received (or sent) it, RFC 3339 UTC")
    hasAttachments: bool


class MessageObject(MessageSummary):
    """A full message: every header, the plain-text body and the attachments."""

    cc: list[str]
    bcc: list[str] = Field(description="only on the sender's own copy")
    messageId: str = Field(description="the RFC 2822 Message-ID header")
    inReplyTo: str | None = Field(description="the In-Reply-To header")
    references: list[str]
    autoSubmitted: bool = Field(description="true for automatic replies (vacation responder)")
    sizeEstimate: int
    body: str
    attachments: list[Attachment]


class ThreadObject(ApiModel):
    """A conversation: its messages in this mailbox, oldest first."""

    id: str
    snippet: str
    messages: list[MessageObject]


class LabelColor(ApiModel):
    """A label's colours; both must come from Gmail's label palette (e.g. #4a86e8 on #ffffff)."""

    model_config = ConfigDict(extra="forbid")
    textColor: str = Field(description="hex colour of the text, e.g. #ffffff")
    backgroundColor: str = Field(description="hex colour of the background, e.g. #4a86e8")


class LabelObject(ApiModel):
    """A system or user label with its message and thread counts."""

    id: str
    name: str
    type: str = Field(description="system or user")
    messageListVisibility: str | None
    labelListVisibility: str | None
    color: LabelColor | None
    messagesTotal: int
    messagesUnread: int
    threadsTotal: int
    threadsUnread: int


class DraftObject(ApiModel):
    """A draft and the message it holds."""

    id: str
    message: MessageObject


class FilterCriteria(ApiModel):
    """What a filter matches on incoming mail (every given criterion must match)."""

    model_config = ConfigDict(extra="forbid")
    from_: str | None = Field(None, alias="from", description="sender's display name or email address")
    to: str | None = Field(None, description="a recipient (To, Cc or Bcc) name or address")
    subject: str | None = Field(None, description="case-insensitive phrase in the subject")
    query: str | None = Field(None, description="a Gmail search query the message must match")
    negatedQuery: str | None = Field(None, description="a Gmail search query the message must not match")
    hasAttachment: bool | None = Field(None, description="true: only messages with attachments")


class FilterAction(ApiModel):
    """What a filter does to matching mail."""

    model_config = ConfigDict(extra="forbid")
    addLabelIds: list[str] = Field(
        default_factory=list, description="user label ids, STARRED, IMPORTANT, TRASH (delete it) or a CATEGORY_* label"
    )
    removeLabelIds: list[str] = Field(
        default_factory=list,
        description="INBOX (skip the inbox), UNREAD (mark as read), IMPORTANT or SPAM (never send to spam)",
    )
    forward: str | None = Field(None, description="a verified forwarding address")


class FilterObject(ApiModel):
    """A filter: criteria and the action taken on matching incoming mail."""

    id: str
    criteria: FilterCriteria
    action: FilterAction


class ForwardingAddress(ApiModel):
    """An address filters may forward to, once verified."""

    forwardingEmail: str
    verificationStatus: str = Field(description="accepted, or pending until the owner of the address confirms")


class FilterSettings(ApiModel):
    """The mailbox's filters, blocked addresses and the forwarding addresses filters may use."""

    filter: list[FilterObject]
    blockedAddresses: list[str]
    forwardingAddresses: list[ForwardingAddress]


class VacationSettings(ApiModel):
    """The vacation responder."""

    enableAutoReply: bool
    responseSubject: str
    responseBodyPlainText: str
    restrictToContacts: bool
    restrictToDomain: bool
    startTime: str | None
    endTime: str | None = Field(description="auto-replies stop at this moment")


class SendAsObject(ApiModel):
    """An address the mailbox can send mail as."""

    sendAsEmail: str
    displayName: str
    replyToAddress: str
    isPrimary: bool
    isDefault: bool
    treatAsAlias: bool
    verificationStatus: str = Field(description="accepted, or pending until the confirmation link is opened")


class BlockResult(ApiModel):
    """A sender's blocked state after the change."""

    emailAddress: str
    blocked: bool


class Deleted(ApiModel):
    """What was deleted for good."""

    id: str
    deleted: bool = True


def address(person: dict[str, str]) -> str:
    """`Name <email>` (or the bare address)."""
    return f"{person['name']} <{person['email']}>" if person["name"] else person["email"]


def snippet(body: str) -> str:
    """The start of the body on one line."""
    flat = " ".join(body.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 3].rstrip() + "..."


def size_estimate(row: dict[str, Any]) -> int:
    """Rough RFC 822 size: headers, body and attachments."""
    return 600 + len(row["subject"]) + len(row["body"].encode()) + sum(a["size"] for a in row["attachments"])


def summary(row: dict[str, Any]) -> MessageSummary:
    """A message row as listed."""
    return MessageSummary(**_summary_fields(row))


def message_object(row: dict[str, Any]) -> MessageObject:
    """A message row in full."""
    return MessageObject(
        **_summary_fields(row),
        cc=[address(p) for p in row["cc"]],
        bcc=[address(p) for p in row["bcc"]],
        messageId=row["rfc822_message_id"],
        inReplyTo=row["in_reply_to"],
        references=row["references"],
        autoSubmitted=row["auto_submitted"],
        sizeEstimate=size_estimate(row),
        body=row["body"],
        attachments=[Attachment(**a) for a in row["attachments"]],
    )


def _summary_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "threadId": row["thread_id"],
        "labelIds": row["label_ids"],
        "snippet": snippet(row["body"]),
        "from": address(row["sender"]),
        "to": [address(p) for p in row["to"]],
        "subject": row["subject"],
        "internalDate": row["internal_date"],
        "hasAttachments": bool(row["attachments"]),
    }


def label_object(label: dict[str, Any] | str, rows: list[dict[str, Any]]) -> LabelObject:
    """A label (a user label row or a system label id) with counts over the mailbox's message rows."""
    label_id = label if isinstance(label, str) else label["id"]
    tagged = [r for r in rows if label_id in r["label_ids"]]
    unread = [r for r in tagged if "UNREAD" in r["label_ids"]]
    if isinstance(label, str):
        fields: dict[str, Any] = {
            "id": label,
            "name": label,
            "type": "system",
            "messageListVisibility": None,
            "labelListVisibility": None,
            "color": None,
        }
    else:
        fields = {
            "id": label["id"],
            "name": label["name"],
            "type": "user",
            "messageListVisibility": label["message_list_visibility"],
            "labelListVisibility": label["label_list_visibility"],
            "color": label["color"],
        }
    return LabelObject(
        **fields,
        messagesTotal=len(tagged),
        messagesUnread=len(unread),
        threadsTotal=len({r["thread_id"] for r in tagged}),
        threadsUnread=len({r["thread_id"] for r in unread}),
    )


def filter_object(row: dict[str, Any]) -> FilterObject:
    """A filter row."""
    return FilterObject(id=row["id"], criteria=FilterCriteria(**row["criteria"]), action=FilterAction(**row["action"]))


def vacation_object(row: dict[str, Any]) -> VacationSettings:
    """A vacation_settings row."""
    return VacationSettings(
        enableAutoReply=row["enable_auto_reply"],
        responseSubject=row["response_subject"],
        responseBodyPlainText=row["response_body_plain_text"],
        restrictToContacts=row["restrict_to_contacts"],
        restrictToDomain=row["restrict_to_domain"],
        startTime=row["start_time"],
        endTime=row["end_time"],
    )


def send_as_object(row: dict[str, Any]) -> SendAsObject:
    """A send_as row."""
    return SendAsObject(
        sendAsEmail=row["send_as_email"],
        displayName=row["display_name"],
        replyToAddress=row["reply_to_address"],
        isPrimary=row["is_primary"],
        isDefault=row["is_default"],
        treatAsAlias=row["treat_as_alias"],
        verificationStatus=row["verification_status"],
    )
