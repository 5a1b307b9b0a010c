"""The typed request bodies DocuSign's endpoints take: template roles, documents, recipients and tabs, with every
bound in the type so the schema shows it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym.fields import ErrorText, NonBlankText, bounded, text

Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$", max_length=100),
    ErrorText("INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: The email address for the recipient is invalid."),
]
EnvelopeId = Annotated[
    str,
    Field(pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
    ErrorText("INVALID_REQUEST_PARAMETER: The envelopeId must be a GUID."),
]
TemplateId = Annotated[
    str,
    Field(pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
    ErrorText("TEMPLATE_ID_INVALID: Invalid template ID."),
]
RecipientId = Annotated[
    str, Field(pattern=r"^[1-9][0-9]{0,2}$", description='the envelope-local recipientId, e.g. "2"')
]
RoutingOrder = bounded(1, 20)
PersonName = Annotated[str, Field(min_length=1, max_length=100)]
RecipientType = Literal["signer", "carbonCopy", "certifiedDelivery"]
VoidedReason = Annotated[NonBlankText, Field(max_length=200)]
Days = bounded(0, 999)


class TemplateRoleInput(BaseModel):
    """Fills one role of a template with a person."""

    roleName: Annotated[str, Field(min_length=1, max_length=100)]
    name: PersonName
    email: Email


class DocumentInput(BaseModel):
    """A document to add to a new envelope."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    pages: bounded(1, 500)  # type: ignore[valid-type]


class RecipientInput(BaseModel):
    """A recipient to add to an envelope."""

    recipientType: RecipientType
    name: PersonName
    email: Email
    routingOrder: RoutingOrder  # type: ignore[valid-type]


class TabInput(BaseModel):
    """A field to place for a recipient: a signature, the signing date, or a text field (optionally pre-filled and
    locked so the signer can't change it)."""

    tabType: Literal["signHere", "dateSigned", "text"]
    tabLabel: Annotated[str, Field(min_length=1, max_length=100)]
    documentId: Annotated[str, Field(pattern=r"^[1-9][0-9]{0,2}$")]
    pageNumber: bounded(1, 500)  # type: ignore[valid-type]
    xPosition: bounded(0, 1000) = 0  # type: ignore[valid-type]
    yPosition: bounded(0, 1000) = 0  # type: ignore[valid-type]
    required: bool = True
    locked: bool = False
    value: text(500) | None = None  # type: ignore[valid-type]


class TextValue(BaseModel):
    """What the signer writes into one of their text fields."""

    tabLabel: Annotated[str, Field(min_length=1, max_length=100)]
    value: Annotated[str, Field(min_length=1, max_length=500)]
