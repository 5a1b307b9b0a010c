"""Twilio's REST API as the agent sees it with the main account's API key: the main account and its subaccounts,
balance and usage, phone numbers (search, buy, configure, move, release, Lookup), Messaging Services and their
sender pools, US A2P 10DLC brands and campaigns, and messages (send, schedule, list, fetch, cancel)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, page_size, text
from envfactory_gym.values import parse_timestamp

from . import a2p, messaging, numbers
from .access import account, active_account, campaign_of, main_account, message, number, service
from .errors import invalid, not_found, refused
from .objects import (
    Account,
    AccountList,
    AvailablePhoneNumber,
    AvailablePhoneNumberList,
    Balance,
    BrandList,
    Campaign,
    Deleted,
    IncomingPhoneNumber,
    IncomingPhoneNumberList,
    Lookup,
    Message,
    MessageList,
    MessagingService,
    MessagingServiceDetail,
    MessagingServiceList,
    UsageRecord,
    UsageRecordList,
    account_object,
    brand_object,
    campaign_object,
    capabilities,
    message_object,
    number_object,
    pretty,
    service_object,
)
from .rules import NUMBER_PRICE, country_of, dollars, new_sid
from .schema import (
    accounts,
    available_numbers,
    brands,
    campaigns,
    line_types,
    messages,
    messaging_services,
    phone_numbers,
)
from .usage import totals

AccountSid = Annotated[str, Field(pattern=r"^AC[0-9a-f]{32}$", description="an account SID (AC...)")]
NumberSid = Annotated[str, Field(pattern=r"^PN[0-9a-f]{32}$", description="a phone number SID (PN...)")]
ServiceSid = Annotated[str, Field(pattern=r"^MG[0-9a-f]{32}$", description="a Messaging Service SID (MG...)")]
MessageSid = Annotated[str, Field(pattern=r"^SM[0-9a-f]{32}$", description="a message SID (SM...)")]
BrandSid = Annotated[str, Field(pattern=r"^BN[0-9a-f]{32}$", description="a brand registration SID (BN...)")]
To = Annotated[
    str, Field(pattern=r"^\+[1-9]\d{6,14}$", description="E.164"), ErrorText("21211: Invalid 'To' Phone Number")
]
From = Annotated[
    str, Field(pattern=r"^\+[1-9]\d{6,14}$", description="E.164"), ErrorText("21212: Invalid 'From' Number")
]
E164 = Annotated[str, Field(pattern=r"^\+[1-9]\d{6,14}$", description="E.164, e.g. +12065550142")]
Body = Annotated[
    str,
    Field(min_length=1, max_length=1600, pattern=r"\S"),
    ErrorText("21602/21617: Message body is required and can't exceed 1600 characters"),
]
FriendlyName = text(64)
Url = Annotated[str, Field(pattern=r"^https://\S+$", max_length=255, description="an https URL")]
Sample = Annotated[str, Field(min_length=20, max_length=1024)]
NumberType = Literal["local", "toll_free", "mobile"]
Country = Literal["US", "CA", "GB"]
Usecase = Literal["notifications", "marketing", "verification", "discussion", "poll", "undeclared"]
A2PUsecase = Literal[
    "MARKETING",
    "ACCOUNT_NOTIFICATION",
    "2FA",
    "CUSTOMER_CARE",
    "DELIVERY_NOTIFICATION",
    "MIXED",
    "LOW_VOLUME",
    "SOLE_PROPRIETOR",
]
UsageCategory = Literal[
    "sms-outbound",
    "sms-inbound",
    "phonenumbers-local",
    "phonenumbers-tollfree",
    "phonenumbers-mobile",
    "a2p-10dlc-registrationfees",
]


# ---------------------------------------------------------------- accounts, balance, usage


@tool(read_only=True)
def list_accounts(
    db: Database, friendly_name: str | None = None, status: Literal["active", "suspended", "closed"] | None = None
) -> AccountList:
    """List the main account and its subaccounts (GET /2010-04-01/Accounts.json).

    Args:
        friendly_name: Only accounts whose friendly name is exactly this.
        status: Only accounts in this status.
    """
    rows = db.select(accounts, order_by="owner_account_sid IS NOT NULL, date_created")
    return AccountList(
        accounts=[
            account_object(r)
            for r in rows
            if (friendly_name is None or r["friendly_name"] == friendly_name)
            and (status is None or r["status"] == status)
        ]
    )


@tool()
def create_subaccount(db: Database, friendly_name: FriendlyName) -> Account:
    """Create a subaccount of the main account (POST /Accounts.json); it bills to the main account's balance.

    Args:
        friendly_name: The subaccount's name.
    """
    now = db.now_iso()
    row = db.insert(
        accounts,
        sid=new_sid(db, accounts, "AC"),
        friendly_name=friendly_name,
        status="active",
        type="Full",
        owner_account_sid=main_account(db)["sid"],
        balance=None,
        date_created=now,
        date_updated=now,
    )
    return account_object(row)


@tool()
def update_account(
    db: Database,
    account_sid: AccountSid,
    friendly_name: FriendlyName | None = None,
    status: Literal["active", "suspended", "closed"] | None = None,
) -> Account:
    """Rename a subaccount, suspend or reactivate it, or close it (POST /Accounts/{Sid}.json). Closing is
    permanent: the subaccount's numbers are released and its scheduled messages canceled. The main account's
    status can't be changed through the API.

    Args:
        account_sid: The account's SID.
        friendly_name: A new name.
        status: active, suspended or closed.
    """
    row = account(db, account_sid)
    if status is not None and status != row["status"]:
        if row["owner_account_sid"] is None:
            raise refused("20008: The main account's status can't be changed through the API")
        if row["status"] == "closed":
            raise refused(f"Account {account_sid} is closed; a closed account can't be reopened")
        if status == "closed":
            for owned in db.find(phone_numbers, account_sid=account_sid):
                db.delete(phone_numbers, owned["sid"])
            for waiting in db.find(messages, account_sid=account_sid, status="scheduled"):
                db.update(messages, waiting["sid"], status="canceled", date_updated=db.now_iso())
    changes = {k: v for k, v in {"friendly_name": friendly_name, "status": status}.items() if v is not None}
    return account_object(db.update(accounts, account_sid, **changes, date_updated=db.now_iso()))


@tool(read_only=True)
def get_balance(db: Database) -> Balance:
    """The main account's balance, which every subaccount draws on (GET /Accounts/{Sid}/Balance.json)."""
    main = main_account(db)
    return Balance(account_sid=main["sid"], balance=dollars(main["balance"]) or "0.0000", currency="USD")


@tool(read_only=True)
def list_usage_records(
    db: Database,
    account_sid: AccountSid,
    start_date: IsoDate,
    end_date: IsoDate,
    category: UsageCategory | None = None,
) -> UsageRecordList:
    """What an account used and spent per category over a range of days (GET /Accounts/{Sid}/Usage/Records.json).

    Args:
        account_sid: The account's SID.
        start_date: First day, YYYY-MM-DD.
        end_date: Last day (inclusive), YYYY-MM-DD.
        category: Only this usage category.
    """
    account(db, account_sid)
    if end_date < start_date:
        raise invalid(20001, "end_date must not be before start_date")
    return UsageRecordList(
        usage_records=[
            UsageRecord(
                account_sid=account_sid,
                category=t["category"],
                start_date=start_date,
                end_date=end_date,
                count=t["count"],
                price=dollars(t["price"]) or "0.0000",
                price_unit="USD",
            )
            for t in totals(db, account_sid, start_date, end_date, category)
        ]
    )


# ---------------------------------------------------------------- phone numbers


@tool(read_only=True)
def search_available_phone_numbers(
    db: Database,
    iso_country: Country,
    type: NumberType = "local",
    area_code: Annotated[str, Field(pattern=r"^\d{3}$")] | None = None,
    contains: Annotated[str, Field(pattern=r"^[0-9*]{2,10}$")] | None = None,
    sms_enabled: bool | None = None,
    mms_enabled: bool | None = None,
    page_size: page_size(50) = 20,
) -> AvailablePhoneNumberList:
    """Find numbers to buy (GET /Accounts/{Sid}/AvailablePhoneNumbers/{Country}/{Type}.json).

    Args:
        iso_country: The country: US, CA or GB.
        type: local, toll_free or mobile.
        area_code: A 3-digit NANP area code.
        contains: Digits the number must contain (* matches any one digit).
        sms_enabled: Only numbers that can (true) or can't (false) send SMS.
        mms_enabled: Only numbers that can (true) or can't (false) send MMS.
        page_size: How many to return, 1 to 50.
    """
    where, params = ["iso_country = ?", "type = ?"], [iso_country, type]
    if area_code is not None:
        where.append("substr(phone_number, 3, 3) = ?")
        params.append(area_code)
    if contains is not None:
        where.append("phone_number LIKE ?")
        params.append("%" + contains.replace("*", "_") + "%")
    for column, wanted in (("sms", sms_enabled), ("mms", mms_enabled)):
        if wanted is not None:
            where.append(f"{column} = ?")
            params.append(1 if wanted else 0)
    rows = db.select(available_numbers, " AND ".join(where), params, order_by="phone_number", limit=page_size)
    return AvailablePhoneNumberList(
        available_phone_numbers=[
            AvailablePhoneNumber(
                phone_number=r["phone_number"],
                friendly_name=pretty(r["phone_number"]),
                iso_country=r["iso_country"],
                type=r["type"],
                locality=r["locality"],
                region=r["region"],
                capabilities=capabilities(r),
                monthly_price=dollars(NUMBER_PRICE[r["type"]]) or "0.0000",
            )
            for r in rows
        ]
    )


@tool()
def buy_phone_number(
    db: Database, account_sid: AccountSid, phone_number: E164, friendly_name: FriendlyName | None = None
) -> IncomingPhoneNumber:
    """Buy an available number for an account (POST /Accounts/{Sid}/IncomingPhoneNumbers.json); its first month
    (local $1.15, toll-free $2.15, mobile $1.00) comes off the main balance. Suspended or closed accounts can't buy.

    Args:
        account_sid: The account that will own the number.
        phone_number: The number to buy, as search_available_phone_numbers gave it.
        friendly_name: A name for it (defaults to the formatted number).
    """
    return number_object(numbers.buy(db, account_sid, phone_number, friendly_name))


@tool(read_only=True)
def list_incoming_phone_numbers(
    db: Database,
    account_sid: AccountSid,
    phone_number: Annotated[str, Field(pattern=r"^\+?\d{2,15}$")] | None = None,
    friendly_name: str | None = None,
    page_size: page_size(100) = 50,
    page_token: str | None = None,
) -> IncomingPhoneNumberList:
    """List an account's numbers (GET /Accounts/{Sid}/IncomingPhoneNumbers.json).

    Args:
        account_sid: The account's SID.
        phone_number: Only numbers containing these digits.
        friendly_name: Only numbers whose friendly name contains this text (case-insensitive).
        page_size: Numbers per page, 1 to 100.
        page_token: The next_page_token of the previous page.
    """
    account(db, account_sid)
    where, params = ["account_sid = ?"], [account_sid]
    if phone_number is not None:
        where.append("phone_number LIKE ?")
        params.append(f"%{phone_number}%")
    if friendly_name is not None:
        where.append("lower(friendly_name) LIKE ?")
        params.append(f"%{friendly_name.lower()}%")
    rows = db.select(phone_numbers, " AND ".join(where), params, order_by="phone_number")
    page = paginate(rows, page_size, page_token)
    return IncomingPhoneNumberList(
        incoming_phone_numbers=[number_object(r) for r in page.results], next_page_token=page.next_cursor
    )


@tool()
def update_incoming_phone_number(
    db: Database,
    phone_number_sid: NumberSid,
    friendly_name: FriendlyName | None = None,
    sms_url: Url | None = None,
    account_sid: AccountSid | None = None,
) -> IncomingPhoneNumber:
    """Rename a number, point its incoming SMS webhook somewhere, or move it to another account of the project
    (POST /IncomingPhoneNumbers/{Sid}.json with AccountSid). A number in a Messaging Service's sender pool must
    leave the pool before it moves; the target account must be active.

    Args:
        phone_number_sid: The number's SID.
        friendly_name: A new name.
        sms_url: The URL Twilio calls when the number receives an SMS (ignored while it is in a service).
        account_sid: The account to move the number to.
    """
    row = number(db, phone_number_sid)
    if account_sid is not None and account_sid != row["account_sid"]:
        numbers.move(db, row, account_sid)
    changes = {k: v for k, v in {"friendly_name": friendly_name, "sms_url": sms_url}.items() if v is not None}
    if changes:
        db.update(phone_numbers, phone_number_sid, **changes)
    return number_object(db.get(phone_numbers, phone_number_sid))


@tool()
def release_phone_number(db: Database, phone_number_sid: NumberSid) -> Deleted:
    """Release a number (DELETE /IncomingPhoneNumbers/{Sid}.json): it leaves its sender pool and the account for
    good; this can't be undone.

    Args:
        phone_number_sid: The number's SID.
    """
    number(db, phone_number_sid)
    db.delete(phone_numbers, phone_number_sid)
    return Deleted(sid=phone_number_sid, deleted=True)


@tool(read_only=True)
def lookup_phone_number(db: Database, phone_number: E164) -> Lookup:
    """Twilio Lookup with line type intelligence (GET /v2/PhoneNumbers/{Number}?Fields=line_type_intelligence):
    whether a number is mobile, landline or VoIP, and its carrier. Landlines can't receive SMS.

    Args:
        phone_number: The number, E.164.
    """
    found = db.find(line_types, phone_number=phone_number)
    line = found[0] if found else None
    country = country_of(phone_number)
    return Lookup(
        phone_number=phone_number,
        valid=country != "ZZ",
        country_code=country,
        line_type=line["line_type"] if line else None,
        carrier_name=line["carrier_name"] if line else None,
        caller_name=line["caller_name"] if line else None,
    )


# ---------------------------------------------------------------- Messaging Services and A2P 10DLC


@tool(read_only=True)
def list_messaging_services(db: Database, account_sid: AccountSid) -> MessagingServiceList:
    """List an account's Messaging Services (GET https://messaging.twilio.com/v1/Services).

    Args:
        account_sid: The account's SID.
    """
    account(db, account_sid)
    rows = db.find(messaging_services, account_sid=account_sid, order_by=[messaging_services.c.date_created])
    return MessagingServiceList(services=[service_object(r) for r in rows])


@tool(read_only=True)
def get_messaging_service(db: Database, service_sid: ServiceSid) -> MessagingServiceDetail:
    """One Messaging Service with its sender pool and its US A2P 10DLC campaign (GET /v1/Services/{Sid}, its
    PhoneNumbers and Compliance/Usa2p).

    Args:
        service_sid: The service's SID.
    """
    row = service(db, service_sid)
    pool = db.find(phone_numbers, messaging_service_sid=service_sid, order_by=[phone_numbers.c.phone_number])
    campaign = campaign_of(db, service_sid)
    return MessagingServiceDetail(
        **service_object(row).model_dump(),
        phone_numbers=[number_object(n) for n in pool],
        us_app_to_person=campaign_object(campaign) if campaign else None,
    )


@tool()
def create_messaging_service(
    db: Database,
    account_sid: AccountSid,
    friendly_name: FriendlyName,
    usecase: Usecase = "undeclared",
    sticky_sender: bool = True,
    inbound_request_url: Url | None = None,
) -> MessagingService:
    """Create a Messaging Service on an account (POST /v1/Services). Add senders to its pool afterwards.

    Args:
        account_sid: The account that owns it.
        friendly_name: Its name.
        usecase: notifications, marketing, verification, discussion, poll or undeclared.
        sticky_sender: Keep texting each recipient from the same pool number.
        inbound_request_url: Where Twilio posts messages the pool's numbers receive.
    """
    active_account(db, account_sid)
    row = db.insert(
        messaging_services,
        sid=new_sid(db, messaging_services, "MG"),
        account_sid=account_sid,
        friendly_name=friendly_name,
        usecase=usecase,
        sticky_sender=sticky_sender,
        inbound_request_url=inbound_request_url,
        date_created=db.now_iso(),
    )
    return service_object(row)


@tool()
def add_phone_number_to_service(
    db: Database, service_sid: ServiceSid, phone_number_sid: NumberSid
) -> IncomingPhoneNumber:
    """Add one of the service account's SMS numbers to the sender pool (POST /v1/Services/{Sid}/PhoneNumbers). A
    number belongs to one service at a time; a sole proprietor campaign allows one number.

    Args:
        service_sid: The service's SID.
        phone_number_sid: The number's SID.
    """
    return number_object(numbers.add_to_pool(db, service_sid, phone_number_sid))


@tool()
def remove_phone_number_from_service(
    db: Database, service_sid: ServiceSid, phone_number_sid: NumberSid
) -> IncomingPhoneNumber:
    """Take a number out of a sender pool (DELETE /v1/Services/{Sid}/PhoneNumbers/{PhoneNumberSid}); the number
    stays on the account.

    Args:
        service_sid: The service's SID.
        phone_number_sid: The number's SID.
    """
    return number_object(numbers.remove_from_pool(db, service_sid, phone_number_sid))


@tool(read_only=True)
def list_brand_registrations(db: Database, account_sid: AccountSid) -> BrandList:
    """An account's A2P 10DLC brand registrations and their status (GET /v1/a2p/BrandRegistrations).

    Args:
        account_sid: The account's SID.
    """
    account(db, account_sid)
    rows = db.find(brands, account_sid=account_sid, order_by=[brands.c.date_created])
    return BrandList(brand_registrations=[brand_object(r) for r in rows])


@tool()
def create_us_app_to_person_campaign(
    db: Database,
    service_sid: ServiceSid,
    brand_registration_sid: BrandSid,
    us_app_to_person_usecase: A2PUsecase,
    description: Annotated[str, Field(min_length=40, max_length=4096)],
    message_samples: Annotated[list[Sample], Field(min_length=2, max_length=5)],
    has_embedded_links: bool,
    has_embedded_phone: bool,
) -> Campaign:
    """Register a US A2P 10DLC campaign on a Messaging Service (POST /v1/Services/{Sid}/Compliance/Usa2p). The
    brand must be APPROVED and of the service's account; one campaign per service; use cases depend on the brand
    type (SOLE_PROPRIETOR brands only SOLE_PROPRIETOR; LOW_VOLUME_STANDARD only LOW_VOLUME or MIXED). The
    campaign starts IN_PROGRESS while carriers vet it, and a $15.00 vetting fee is charged.

    Args:
        service_sid: The service's SID.
        brand_registration_sid: The approved brand (BN...).
        us_app_to_person_usecase: The campaign's use case.
        description: What the campaign sends and to whom, 40 to 4096 characters.
        message_samples: 2 to 5 sample messages, each 20 to 1024 characters.
        has_embedded_links: Whether messages carry links.
        has_embedded_phone: Whether messages carry phone numbers.
    """
    fields = {
        "us_app_to_person_usecase": us_app_to_person_usecase,
        "description": description,
        "message_samples": message_samples,
        "has_embedded_links": has_embedded_links,
        "has_embedded_phone": has_embedded_phone,
    }
    return campaign_object(a2p.register(db, service_sid, brand_registration_sid, fields))


@tool()
def delete_us_app_to_person_campaign(db: Database, service_sid: ServiceSid) -> Deleted:
    """Delete a service's US A2P campaign (DELETE /v1/Services/{Sid}/Compliance/Usa2p/{Sid}); its US long-code
    traffic fails with 30034 until a new campaign is VERIFIED. The vetting fee is not refunded.

    Args:
        service_sid: The service's SID.
    """
    service(db, service_sid)
    campaign = campaign_of(db, service_sid)
    if campaign is None:
        raise not_found("UsAppToPerson", f"on Messaging Service {service_sid}")
    db.delete(campaigns, campaign["sid"])
    return Deleted(sid=campaign["sid"], deleted=True)


# ---------------------------------------------------------------- messages


@tool()
def send_message(
    db: Database,
    account_sid: AccountSid,
    to: To,
    body: Body,
    from_: From | None = None,
    messaging_service_sid: ServiceSid | None = None,
    send_at: IsoTimestamp | None = None,
) -> Message:
    """Send an SMS, or schedule it (POST /Accounts/{Sid}/Messages.json). Give a From number of the account or a
    Messaging Service (which picks a sender from its pool). Refused with 21610 when the recipient texted STOP to
    that sender (for a service: to any of its numbers), 21606 for a From the account can't send from, 21408 for
    an unsupported country. Scheduling needs a Messaging Service and a send_at 15 minutes to 35 days ahead; the
    message waits as `scheduled`. In this sandbox the carrier answers at once: `sent`, or `failed` with 30034 when
    a US local number texts a +1 number without a VERIFIED A2P campaign on its service (not charged), or
    `undelivered` with 30006 for a landline. Each segment (160 GSM-7 / 70 UCS-2 characters, 153 / 67 in a longer
    message) costs $0.0079 to the US and Canada, $0.0463 to the UK.

    Args:
        account_sid: The account that sends.
        to: The recipient, E.164.
        body: The text, up to 1600 characters.
        from_: A number of the account to send from, E.164.
        messaging_service_sid: A Messaging Service of the account to send through.
        send_at: When to send a scheduled message, ISO 8601 with zone.
    """
    when = parse_timestamp(send_at, "send_at") if send_at is not None else None
    return message_object(messaging.send(db, account_sid, to, body, from_, messaging_service_sid, when))


@tool(read_only=True)
def list_messages(
    db: Database,
    account_sid: AccountSid,
    to: E164 | None = None,
    from_: E164 | None = None,
    date_sent_after: IsoDate | None = None,
    date_sent_before: IsoDate | None = None,
    page_size: page_size(100) = 50,
    page_token: str | None = None,
) -> MessageList:
    """An account's messages, newest first, inbound and outbound (GET /Accounts/{Sid}/Messages.json). Scheduled
    messages count by their creation date.

    Args:
        account_sid: The account's SID.
        to: Only messages to this number.
        from_: Only messages from this number.
        date_sent_after: Only messages sent on or after this day, YYYY-MM-DD.
        date_sent_before: Only messages sent before this day, YYYY-MM-DD.
        page_size: Messages per page, 1 to 100.
        page_token: The next_page_token of the previous page.
    """
    account(db, account_sid)
    where, params = ["account_sid = ?"], [account_sid]
    for clause, value in (
        ("to_number = ?", to),
        ("from_number = ?", from_),
        ("substr(coalesce(date_sent, date_created), 1, 10) >= ?", date_sent_after),
        ("substr(coalesce(date_sent, date_created), 1, 10) < ?", date_sent_before),
    ):
        if value is not None:
            where.append(clause)
            params.append(value)
    rows = db.select(messages, " AND ".join(where), params, order_by="date_created DESC")
    page = paginate(rows, page_size, page_token)
    return MessageList(messages=[message_object(r) for r in page.results], next_page_token=page.next_cursor)


@tool(read_only=True)
def get_message(db: Database, message_sid: MessageSid) -> Message:
    """One message with its status, error code and price (GET /Messages/{Sid}.json).

    Args:
        message_sid: The message's SID.
    """
    return message_object(message(db, message_sid))


@tool()
def cancel_scheduled_message(db: Database, message_sid: MessageSid) -> Message:
    """Cancel a scheduled message before it goes out (POST /Messages/{Sid}.json with Status=canceled). Only
    messages still `scheduled` can be canceled.

    Args:
        message_sid: The message's SID.
    """
    row = message(db, message_sid)
    if row["status"] != "scheduled":
        raise refused(f"Message {message_sid} is {row['status']}; only a scheduled message can be canceled")
    return message_object(db.update(messages, message_sid, status="canceled", date_updated=db.now_iso()))
