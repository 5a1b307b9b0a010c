"""The nested request objects of the Vault Management and Public APIs, as tool input models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

UriMatch = Literal[0, 1, 2, 3, 4, 5]
CardBrand = Literal[
    "Visa", "Mastercard", "Amex", "Discover", "Diners Club", "JCB", "Maestro", "UnionPay", "RuPay", "Other"
]


class UriInput(BaseModel):
    """A website or app URI of a login."""

    uri: str = Field(description="e.g. https://github.com or androidapp://com.spotify.music")
    match: UriMatch | None = Field(
        None,
        description="0 base domain, 1 host, 2 starts with, 3 exact, 4 regular expression, 5 never; "
        "null uses the default (base domain)",
    )


class LoginInput(BaseModel):
    """The login part of a login item (type 1)."""

    username: str | None = None
    password: str | None = None
    totp: str | None = Field(None, description="authenticator key: a base32 secret or an otpauth:// URI")
    uris: list[UriInput] = Field(default_factory=list)


class CardInput(BaseModel):
    """The card part of a card item (type 3)."""

    cardholderName: str | None = None
    brand: CardBrand | None = None
    number: str | None = Field(
        None, pattern=r"^[\d -]+$", description="the card number, 12 to 19 digits (spaces and dashes allowed)"
    )
    expMonth: str | None = Field(None, pattern=r"^(0?[1-9]|1[0-2])$", description="1 to 12")
    expYear: str | None = Field(None, pattern=r"^\d{4}$", description="four digits, e.g. 2028")
    code: str | None = Field(None, pattern=r"^\d{3,4}$", description="security code (CVV), 3 or 4 digits")


class IdentityInput(BaseModel):
    """The identity part of an identity item (type 4)."""

    title: Literal["Mr", "Mrs", "Ms", "Mx", "Dr"] | None = None
    firstName: str | None = None
    middleName: str | None = None
    lastName: str | None = None
    address1: str | None = None
    address2: str | None = None
    city: str | None = None
    state: str | None = None
    postalCode: str | None = None
    country: str | None = None
    company: str | None = None
    email: str | None = None
    phone: str | None = None
    ssn: str | None = None
    username: str | None = None
    passportNumber: str | None = None
    licenseNumber: str | None = None


class FieldInput(BaseModel):
    """A custom field of an item."""

    name: str
    value: str | None = None
    type: Literal[0, 1, 2] = Field(0, description="0 text, 1 hidden, 2 boolean ('true'/'false')")


class CollectionAccess(BaseModel):
    """A member's access to one collection of the organization."""

    id: str = Field(description="the collection's ID")
    readOnly: bool = Field(False, description="can view items but not edit them")
    hidePasswords: bool = Field(False, description="can't see passwords or TOTP keys of the items")
    manage: bool = Field(False, description="can manage the collection itself")
