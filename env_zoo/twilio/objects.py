"""Twilio's REST resources as output models (snake_case fields, as the API's JSON has them; prices as signed
decimal strings in USD) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .rules import dollars

#: delivery error codes a message can carry, and their titles
DELIVERY_ERRORS = {
    30003: "Unreachable destination handset",
    30005: "Unknown destination handset",
    30006: "Landline or unreachable carrier",
    30007: "Message filtered by the carrier",
    30034: "US A2P 10DLC - Message from an Unregistered Number",
}


class Account(BaseModel):
    """An account: the main account or one of its subaccounts."""

    sid: str
    friendly_name: str
    status: str = Field(description="active, suspended or closed (closed is permanent)")
    type: str
    owner_account_sid: str | None = Field(description="the parent; equal to sid for the main account")
    date_created: str


class AccountList(BaseModel):
    """The accounts the credentials reach: the main account and its subaccounts."""

    accounts: list[Account]


class Balance(BaseModel):
    """The main account's balance, which its subaccounts draw on."""

    account_sid: str
    balance: str
    currency: str


class UsageRecord(BaseModel):
    """What one usage category came to over the requested days."""

    account_sid: str
    category: str
    start_date: str
    end_date: str
    count: int
    price: str
    price_unit: str


class UsageRecordList(BaseModel):
    """Usage per category."""

    usage_records: list[UsageRecord]


class Capabilities(BaseModel):
    """What a number can do."""

    sms: bool
    mms: bool
    voice: bool


class AvailablePhoneNumber(BaseModel):
    """A number that can be bought."""

    phone_number: str
    friendly_name: str
    iso_country: str
    type: str = Field(description="local, toll_free or mobile")
    locality: str | None
    region: str | None
    capabilities: Capabilities
    monthly_price: str


class AvailablePhoneNumberList(BaseModel):
    """Numbers matching the search."""

    available_phone_numbers: list[AvailablePhoneNumber]


class IncomingPhoneNumber(BaseModel):
    """A number the account owns."""

    sid: str
    account_sid: str
    phone_number: str
    friendly_name: str
    iso_country: str
    type: str = Field(description="local, toll_free or mobile")
    capabilities: Capabilities
    sms_url: str | None
    messaging_service_sid: str | None = Field(description="the Messaging Service whose sender pool holds it")
    date_created: str


class IncomingPhoneNumberList(BaseModel):
    """One page of the account's numbers."""

    incoming_phone_numbers: list[IncomingPhoneNumber]
    next_page_token: str | None = Field(description="pass as page_token for the next page; null on the last")


class Deleted(BaseModel):
    """The answer to a DELETE (204 No Content)."""

    sid: str
    deleted: bool


class Lookup(BaseModel):
    """Twilio Lookup's answer for a number (line type intelligence)."""

    phone_number: str
    valid: bool
    country_code: str
    line_type: str | None = Field(description="mobile, landline, nonFixedVoip or null when unknown")
    carrier_name: str | None
    caller_name: str | None


class Brand(BaseModel):
    """An A2P 10DLC brand registration."""

    sid: str
    account_sid: str
    business_name: str
    brand_type: str = Field(description="STANDARD, LOW_VOLUME_STANDARD or SOLE_PROPRIETOR")
    status: str = Field(description="PENDING, APPROVED or FAILED")
    failure_reason: str | None
    date_created: str


class BrandList(BaseModel):
    """The account's brand registrations."""

    brand_registrations: list[Brand]


class Campaign(BaseModel):
    """A US A2P 10DLC campaign (UsAppToPerson) registered on a Messaging Service."""

    sid: str
    messaging_service_sid: str
    brand_registration_sid: str
    us_app_to_person_usecase: str
    description: str
    message_samples: list[str]
    has_embedded_links: bool
    has_embedded_phone: bool
    campaign_status: str = Field(description="PENDING, IN_PROGRESS (being vetted), VERIFIED or FAILED")


class MessagingService(BaseModel):
    """A Messaging Service: a sender pool with shared settings and, for US long codes, an A2P campaign."""

    sid: str
    account_sid: str
    friendly_name: str
    usecase: str
    sticky_sender: bool
    inbound_request_url: str | None
    date_created: str


class MessagingServiceDetail(MessagingService):
    """A Messaging Service with its senders and its US A2P campaign."""

    phone_numbers: list[IncomingPhoneNumber]
    us_app_to_person: Campaign | None


class MessagingServiceList(BaseModel):
    """The account's Messaging Services."""

    services: list[MessagingService]


class Message(BaseModel):
    """A message sent or received."""

    sid: str
    account_sid: str
    direction: str = Field(description="inbound or outbound-api")
    from_: str | None = Field(alias="from", description="the sender (null while a scheduled message waits)")
    to: str
    messaging_service_sid: str | None
    body: str
    num_segments: int
    status: str = Field(
        description="scheduled, queued, sent, delivered, undelivered, failed, canceled (outbound) or received"
    )
    error_code: int | None
    error_message: str | None
    price: str | None
    price_unit: str
    date_created: str
    date_sent: str | None
    send_at: str | None

    model_config = {"populate_by_name": True, "serialize_by_alias": True}


class MessageList(BaseModel):
    """One page of messages, newest first."""

    messages: list[Message]
    next_page_token: str | None = Field(description="pass as page_token for the next page; null on the last")


def account_object(row: dict[str, Any]) -> Account:
    """An account row as Twilio shows it."""
    return Account(
        sid=row["sid"],
        friendly_name=row["friendly_name"],
        status=row["status"],
        type=row["type"],
        owner_account_sid=row["owner_account_sid"] or row["sid"],
        date_created=row["date_created"],
    )


def capabilities(row: dict[str, Any]) -> Capabilities:
    """A number's capabilities."""
    return Capabilities(sms=row["sms"], mms=row["mms"], voice=row["voice"])


def pretty(number: str) -> str:
    """How Twilio names a number by default: (206) 555-0142 in the NANP, the E.164 form elsewhere."""
    if number.startswith("+1") and len(number) == 12:
        return f"({number[2:5]}) {number[5:8]}-{number[8:]}"
    return number


def number_object(row: dict[str, Any]) -> IncomingPhoneNumber:
    """An owned number."""
    return IncomingPhoneNumber(
        sid=row["sid"],
        account_sid=row["account_sid"],
        phone_number=row["phone_number"],
        friendly_name=row["friendly_name"],
        iso_country=row["iso_country"],
        type=row["type"],
        capabilities=capabilities(row),
        sms_url=row["sms_url"],
        messaging_service_sid=row["messaging_service_sid"],
        date_created=row["date_created"],
    )


def brand_object(row: dict[str, Any]) -> Brand:
    """A brand registration."""
    return Brand(**{k: row[k] for k in Brand.model_fields})


def campaign_object(row: dict[str, Any]) -> Campaign:
    """A US A2P campaign."""
    return Campaign(**{k: row[k] for k in Campaign.model_fields})


def service_object(row: dict[str, Any]) -> MessagingService:
    """A Messaging Service."""
    return MessagingService(**{k: row[k] for k in MessagingService.model_fields})


def message_object(row: dict[str, Any]) -> Message:
    """A message row as Twilio shows it."""
    code = row["error_code"]
    return Message(
        sid=row["sid"],
        account_sid=row["account_sid"],
        direction=row["direction"],
        from_=row["from_number"] or None,
        to=row["to_number"],
        messaging_service_sid=row["messaging_service_sid"],
        body=row["body"],
        num_segments=row["num_segments"],
        status=row["status"],
        error_code=code,
        error_message=DELIVERY_ERRORS.get(code) if code else None,
        price=dollars(row["price"]),
        price_unit="USD",
        date_created=row["date_created"],
        date_sent=row["date_sent"],
        send_at=row["send_at"],
    )
