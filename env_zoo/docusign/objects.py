"""DocuSign eSignature resources as output models (UserInfo, Template, Envelope and its summary, Recipients grouped
by type, Document, Tab, EnvelopeAuditEvent) and how stored rows become them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym.values import iso_timestamp, parse_timestamp


class AccountUser(BaseModel):
    """A user of the account."""

    userId: str
    userName: str
    email: str
    jobTitle: str | None
    permissionProfileName: str = Field(description="Account Administrator, DocuSign Sender or DocuSign Viewer")
    userStatus: str


class SignedIn(BaseModel):
    """Who the assistant now acts for."""

    user: AccountUser
    accountId: str
    accountName: str


class UserList(BaseModel):
    """The account's users."""

    users: list[AccountUser]


class TemplateRole(BaseModel):
    """A placeholder recipient of a template, filled when an envelope is created from it."""

    roleName: str
    recipientType: str
    routingOrder: int


class TemplateSummary(BaseModel):
    """A template in a list."""

    templateId: str
    name: str
    description: str
    shared: bool
    ownerName: str
    created: str


class Template(TemplateSummary):
    """A template with its documents, roles and the tabs each role gets."""

    emailSubject: str
    documents: list[dict[str, Any]]
    roles: list[TemplateRole]
    tabs: list[dict[str, Any]]


class TemplateList(BaseModel):
    """The templates the user may use."""

    envelopeTemplates: list[TemplateSummary]
    resultSetSize: int


class EnvelopeSummary(BaseModel):
    """An envelope in a list."""

    envelopeId: str
    emailSubject: str
    status: str = Field(description="created, sent, delivered, completed, declined or voided")
    senderName: str
    createdDateTime: str
    sentDateTime: str | None
    completedDateTime: str | None
    statusChangedDateTime: str


class EnvelopeList(BaseModel):
    """One page of envelopes."""

    envelopes: list[EnvelopeSummary]
    resultSetSize: int
    totalSetSize: int
    nextUri: str | None = Field(description="pass as `start_position` for the next page; null on the last page")


class Notification(BaseModel):
    """An envelope's reminder and expiration settings."""

    reminderEnabled: bool
    reminderDelay: int = Field(description="days after sending before the first reminder")
    reminderFrequency: int = Field(description="days between reminders")
    expireEnabled: bool
    expireAfter: int = Field(description="days after sending the envelope expires")
    expireWarn: int = Field(description="days before expiry recipients are warned")
    expireDateTime: str | None = Field(description="when a sent envelope expires")


class Envelope(EnvelopeSummary):
    """An envelope with its message, template, void reason, notification settings and routing position."""

    emailBlurb: str
    templateId: str | None
    voidedReason: str | None
    currentRoutingOrder: int | None
    documentCount: int
    recipientCount: int
    notification: Notification


class Recipient(BaseModel):
    """One recipient of an envelope."""

    recipientId: str
    recipientIdGuid: str
    recipientType: str
    name: str
    email: str
    roleName: str | None
    routingOrder: int
    status: str = Field(description="created (not yet reached), sent, delivered, completed or declined")
    declinedReason: str | None
    sentDateTime: str | None
    deliveredDateTime: str | None
    signedDateTime: str | None


class Recipients(BaseModel):
    """An envelope's recipients by type, with the routing order now being worked on."""

    signers: list[Recipient]
    carbonCopies: list[Recipient]
    certifiedDeliveries: list[Recipient]
    currentRoutingOrder: int | None
    recipientCount: int


class Document(BaseModel):
    """A document of an envelope."""

    documentId: str
    name: str
    pages: int


class DocumentList(BaseModel):
    """An envelope's documents."""

    envelopeId: str
    envelopeDocuments: list[Document]


class Tab(BaseModel):
    """A field placed on a document for one recipient."""

    tabId: str
    tabType: str = Field(description="signHere, dateSigned or text")
    tabLabel: str
    documentId: str
    pageNumber: int
    xPosition: int
    yPosition: int
    required: bool
    locked: bool
    value: str | None


class TabList(BaseModel):
    """A recipient's tabs."""

    recipientId: str
    tabs: list[Tab]


class AuditEvent(BaseModel):
    """One entry of an envelope's audit history."""

    logTime: str
    userName: str
    action: str
    message: str
    envelopeStatus: str


class AuditEventList(BaseModel):
    """An envelope's audit history, oldest first."""

    auditEvents: list[AuditEvent]


class EnvelopeUpdate(BaseModel):
    """The result of an action on an envelope."""

    envelopeId: str
    status: str
    statusChangedDateTime: str
    notified: list[str] = Field(default_factory=list, description="the recipients who were (re)notified")


class RecipientsUpdate(BaseModel):
    """The result of adding, correcting or removing recipients."""

    envelopeId: str
    envelopeStatus: str
    recipients: list[Recipient]


def account_user(row: dict[str, Any]) -> AccountUser:
    """A stored user as DocuSign shows it."""
    return AccountUser(
        userId=row["id"],
        userName=row["user_name"],
        email=row["email"],
        jobTitle=row["job_title"],
        permissionProfileName=row["permission_profile"],
        userStatus=row["user_status"],
    )


def template_summary(row: dict[str, Any], owner: str) -> TemplateSummary:
    """A stored template as a list entry."""
    return TemplateSummary(
        templateId=row["id"],
        name=row["name"],
        description=row["description"],
        shared=row["shared"],
        ownerName=owner,
        created=row["created"],
    )


def template_object(row: dict[str, Any], owner: str) -> Template:
    """A stored template in full."""
    return Template(
        **template_summary(row, owner).model_dump(),
        emailSubject=row["email_subject"],
        documents=row["documents"],
        roles=[TemplateRole(**r) for r in row["roles"]],
        tabs=row["tabs"],
    )


def envelope_summary(row: dict[str, Any], sender: str) -> EnvelopeSummary:
    """A stored envelope as a list entry."""
    return EnvelopeSummary(
        envelopeId=row["id"],
        emailSubject=row["email_subject"],
        status=row["status"],
        senderName=sender,
        createdDateTime=row["created"],
        sentDateTime=row["sent"],
        completedDateTime=row["completed"],
        statusChangedDateTime=row["status_changed"],
    )


def notification(row: dict[str, Any]) -> Notification:
    """An envelope's reminder and expiration settings, with the expiry moment once it is sent."""
    expires = None
    if row["expire_enabled"] and row["sent"]:
        expires = iso_timestamp(parse_timestamp(row["sent"], "sent") + timedelta(days=row["expire_after"]))
    return Notification(
        reminderEnabled=row["reminder_enabled"],
        reminderDelay=row["reminder_delay"],
        reminderFrequency=row["reminder_frequency"],
        expireEnabled=row["expire_enabled"],
        expireAfter=row["expire_after"],
        expireWarn=row["expire_warn"],
        expireDateTime=expires,
    )


def recipient_object(row: dict[str, Any]) -> Recipient:
    """A stored recipient as DocuSign shows it."""
    return Recipient(
        recipientId=row["recipient_id"],
        recipientIdGuid=row["id"],
        recipientType=row["recipient_type"],
        name=row["name"],
        email=row["email"],
        roleName=row["role_name"],
        routingOrder=row["routing_order"],
        status=row["status"],
        declinedReason=row["declined_reason"],
        sentDateTime=row["sent"],
        deliveredDateTime=row["delivered"],
        signedDateTime=row["signed"],
    )


def tab_object(row: dict[str, Any]) -> Tab:
    """A stored tab."""
    return Tab(
        tabId=row["id"],
        tabType=row["tab_type"],
        tabLabel=row["tab_label"],
        documentId=row["document_id"],
        pageNumber=row["page_number"],
        xPosition=row["x_position"],
        yPosition=row["y_position"],
        required=row["required"],
        locked=row["locked"],
        value=row["value"],
    )


def audit_object(row: dict[str, Any]) -> AuditEvent:
    """A stored audit event."""
    return AuditEvent(
        logTime=row["logged"],
        userName=row["user_name"],
        action=row["action"],
        message=row["message"],
        envelopeStatus=row["envelope_status"],
    )
