"""Bitwarden's API objects as output models (the CLI's JSON field names), and how stored rows become them."""

from __future__ import annotations

import base64
import hashlib
import uuid
from typing import Any

from pydantic import BaseModel, Field

from .access import Access
from .inputs import CardInput, IdentityInput

SEND_BASE_URL = "https://send.bitwarden.com/#"
POLICY_NAMES = {
    0: "Require two-step login",
    1: "Master password requirements",
    2: "Password generator",
    3: "Single organization",
    4: "Require single sign-on authentication",
    5: "Remove individual vault",
    6: "Remove Send",
    7: "Send options",
    8: "Account recovery administration",
    9: "Vault timeout",
    10: "Remove individual vault export",
}


class UriObject(BaseModel):
    """A URI of a login."""

    match: int | None = Field(
        description="0 base domain, 1 host, 2 starts with, 3 exact, 4 regex, 5 never, null default"
    )
    uri: str


class LoginObject(BaseModel):
    """The login part of an item."""

    uris: list[UriObject]
    username: str | None
    password: str | None = Field(description="null when hidden (hidden-password collections, re-prompt)")
    totp: str | None = Field(description="the authenticator key; null when hidden")
    passwordRevisionDate: str | None


class FieldObject(BaseModel):
    """A custom field."""

    name: str
    value: str | None
    type: int = Field(description="0 text, 1 hidden, 2 boolean")


class PasswordHistoryObject(BaseModel):
    """A password the login used before."""

    lastUsedDate: str
    password: str


class SecureNoteObject(BaseModel):
    """The secure-note part of an item."""

    type: int = 0


class ItemObject(BaseModel):
    """A vault item (cipher)."""

    id: str
    organizationId: str | None = Field(description="null for items of the personal vault")
    collectionIds: list[str]
    folderId: str | None
    type: int = Field(description="1 login, 2 secure note, 3 card, 4 identity")
    reprompt: int = Field(description="1 when opening the item requires the master password")
    name: str
    notes: str | None
    favorite: bool
    login: LoginObject | None = None
    secureNote: SecureNoteObject | None = None
    card: CardInput | None = None
    identity: IdentityInput | None = None
    fields: list[FieldObject]
    edit: bool = Field(description="whether you may edit it (false in read-only collections)")
    viewPassword: bool = Field(description="whether you may see its password and TOTP")
    passwordHistory: list[PasswordHistoryObject] | None = None
    creationDate: str
    revisionDate: str
    deletedDate: str | None = Field(description="when it went to the trash; null outside the trash")


class ItemSummary(BaseModel):
    """A vault item as a list shows it; get_item returns everything it holds."""

    id: str
    organizationId: str | None
    collectionIds: list[str]
    folderId: str | None
    type: int = Field(description="1 login, 2 secure note, 3 card, 4 identity")
    reprompt: int
    name: str
    subtitle: str | None = Field(description="the username, a card's brand and last digits, or an identity's name")
    uris: list[str]
    hasTotp: bool
    favorite: bool
    edit: bool
    viewPassword: bool
    revisionDate: str
    deletedDate: str | None


class TotpObject(BaseModel):
    """The current verification code of a login's authenticator key."""

    itemId: str
    code: str
    period: int
    secondsRemaining: int


class FolderObject(BaseModel):
    """A personal folder."""

    id: str
    name: str


class PolicyObject(BaseModel):
    """An organization policy."""

    id: str
    type: int
    name: str
    enabled: bool
    data: dict[str, Any] | None
    appliesToYou: bool = Field(description="policies don't bind owners and admins")


class OrganizationObject(BaseModel):
    """An organization you belong to, with your role in it."""

    id: str
    name: str
    plan: str
    status: int = Field(description="your membership: 0 invited, 1 accepted, 2 confirmed")
    type: int = Field(description="your role: 0 owner, 1 admin, 2 user, 3 manager")
    enabled: bool
    seats: int
    occupiedSeats: int = Field(description="members that are not revoked, invited ones included")
    policies: list[PolicyObject]


class CollectionObject(BaseModel):
    """A collection of an organization, with your access to it."""

    id: str
    organizationId: str
    name: str
    externalId: str | None
    readOnly: bool
    hidePasswords: bool
    manage: bool


class CollectionAccessObject(BaseModel):
    """A member's access to a collection."""

    id: str
    readOnly: bool
    hidePasswords: bool
    manage: bool


class MemberObject(BaseModel):
    """A member of an organization (Public API)."""

    id: str
    organizationId: str
    userId: str | None
    name: str | None
    email: str
    type: int = Field(description="0 owner, 1 admin, 2 user, 3 manager")
    status: int = Field(description="-1 revoked, 0 invited, 1 accepted, 2 confirmed")
    twoFactorEnabled: bool
    collections: list[CollectionAccessObject]
    externalId: str | None


class SendTextObject(BaseModel):
    """The text of a text Send."""

    text: str
    hidden: bool


class SendObject(BaseModel):
    """A Bitwarden Send."""

    id: str
    accessId: str
    accessUrl: str
    name: str
    notes: str | None
    type: int = Field(description="0 text")
    text: SendTextObject
    maxAccessCount: int | None
    accessCount: int
    passwordSet: bool
    disabled: bool
    hideEmail: bool
    revisionDate: str
    deletionDate: str
    expirationDate: str | None
    status: str = Field(description="active, expired, max access count reached or disabled")


class GeneratedObject(BaseModel):
    """A generated password or passphrase (nothing is saved)."""

    data: str
    type: str = Field(description="password or passphrase")
    length: int = Field(description="characters, or words for a passphrase, after policies")
    policyInEffect: bool = Field(description="an organization's password generator policy raised the options")


class RepromptObject(BaseModel):
    """A passed master password re-prompt."""

    itemId: str
    itemName: str
    verifiedAt: str


# ---------------------------------------------------------------- conversions


def hidden_card(card: dict[str, Any]) -> dict[str, Any]:
    """A card with its number and code hidden."""
    return {**card, "number": None, "code": None}


def hidden_identity(identity: dict[str, Any]) -> dict[str, Any]:
    """An identity with its government numbers hidden."""
    return {**identity, "ssn": None, "passportNumber": None, "licenseNumber": None}


def item_object(row: dict[str, Any], access: Access, reveal: bool, history: bool = False) -> ItemObject:
    """An item as the API shows it. `reveal` false hides what re-prompt protects (password, TOTP, card number
    and code, identity numbers, hidden fields) when the user has not opened it; hidden-password collections always
    hide the password and TOTP."""
    secrets = reveal or not row["reprompt"]
    show_password = secrets and access.view_password
    login = None
    if row["type"] == 1:
        login = LoginObject(
            uris=[UriObject(**u) for u in row["login_uris"] or []],
            username=row["login_username"],
            password=row["login_password"] if show_password else None,
            totp=row["login_totp"] if show_password else None,
            passwordRevisionDate=row["password_revision_date"],
        )
    card = row["card"] if row["card"] is None or secrets else hidden_card(row["card"])
    identity = row["identity"] if row["identity"] is None or secrets else hidden_identity(row["identity"])
    fields = [FieldObject(**{**f, "value": f["value"] if secrets or f["type"] != 1 else None}) for f in row["fields"]]
    return ItemObject(
        id=row["id"],
        organizationId=row["organization_id"],
        collectionIds=row["collection_ids"],
        folderId=row["folder_id"],
        type=row["type"],
        reprompt=row["reprompt"],
        name=row["name"],
        notes=row["notes"],
        favorite=row["favorite"],
        login=login,
        secureNote=SecureNoteObject() if row["type"] == 2 else None,
        card=CardInput(**card) if card is not None else None,
        identity=IdentityInput(**identity) if identity is not None else None,
        fields=fields,
        edit=access.edit,
        viewPassword=access.view_password,
        passwordHistory=[PasswordHistoryObject(**h) for h in row["password_history"]]
        if history and show_password
        else None,
        creationDate=row["creation_date"],
        revisionDate=row["revision_date"],
        deletedDate=row["deleted_date"],
    )


def subtitle(row: dict[str, Any]) -> str | None:
    """What the vault list shows under an item's name."""
    if row["type"] == 1:
        return row["login_username"]
    if row["type"] == 3 and row["card"]:
        number = row["card"].get("number") or ""
        return ", ".join(p for p in (row["card"].get("brand"), f"*{number[-4:]}" if number else None) if p) or None
    if row["type"] == 4 and row["identity"]:
        return " ".join(p for p in (row["identity"].get("firstName"), row["identity"].get("lastName")) if p) or None
    return None


def item_summary(row: dict[str, Any], access: Access) -> ItemSummary:
    """A list entry for an item (no passwords, keys, card numbers or notes)."""
    return ItemSummary(
        id=row["id"],
        organizationId=row["organization_id"],
        collectionIds=row["collection_ids"],
        folderId=row["folder_id"],
        type=row["type"],
        reprompt=row["reprompt"],
        name=row["name"],
        subtitle=subtitle(row),
        uris=[u["uri"] for u in row["login_uris"] or []],
        hasTotp=bool(row["login_totp"]),
        favorite=row["favorite"],
        edit=access.edit,
        viewPassword=access.view_password,
        revisionDate=row["revision_date"],
        deletedDate=row["deleted_date"],
    )


def access_id(send_id: str) -> str:
    """The Send's access id: its GUID's bytes (in .NET order), base64url without padding."""
    return base64.urlsafe_b64encode(uuid.UUID(send_id).bytes_le).decode().rstrip("=")


def send_key(send_id: str) -> str:
    """The Send's URL key (stands in for the client-side encryption key)."""
    return base64.urlsafe_b64encode(hashlib.sha256(f"send-key:{send_id}".encode()).digest()[:16]).decode().rstrip("=")


def send_status(row: dict[str, Any], now: str) -> str:
    """Whether a recipient can open the Send now."""
    if row["disabled"]:
        return "disabled"
    if row["expiration_date"] is not None and row["expiration_date"] <= now:
        return "expired"
    if row["max_access_count"] is not None and row["access_count"] >= row["max_access_count"]:
        return "max access count reached"
    return "active"


def send_object(row: dict[str, Any], now: str) -> SendObject:
    """A Send as the API shows it, with the link to share."""
    return SendObject(
        id=row["id"],
        accessId=row["access_id"],
        accessUrl=f"{SEND_BASE_URL}{row['access_id']}/{row['key']}",
        name=row["name"],
        notes=row["notes"],
        type=row["type"],
        text=SendTextObject(text=row["text"], hidden=row["hidden"]),
        maxAccessCount=row["max_access_count"],
        accessCount=row["access_count"],
        passwordSet=row["password_hash"] is not None,
        disabled=row["disabled"],
        hideEmail=row["hide_email"],
        revisionDate=row["revision_date"],
        deletionDate=row["deletion_date"],
        expirationDate=row["expiration_date"],
        status=send_status(row, now),
    )


def member_object(row: dict[str, Any]) -> MemberObject:
    """A member as the Public API shows it."""
    return MemberObject(
        id=row["id"],
        organizationId=row["organization_id"],
        userId=row["user_id"],
        name=row["name"],
        email=row["email"],
        type=row["type"],
        status=row["status"],
        twoFactorEnabled=row["two_factor_enabled"],
        collections=[CollectionAccessObject(**c) for c in row["collections"]],
        externalId=row["external_id"],
    )


def policy_object(row: dict[str, Any], applies: bool) -> PolicyObject:
    """A policy with its name."""
    return PolicyObject(
        id=row["id"],
        type=row["type"],
        name=POLICY_NAMES.get(row["type"], "Custom"),
        enabled=row["enabled"],
        data=row["data"],
        appliesToYou=applies,
    )
