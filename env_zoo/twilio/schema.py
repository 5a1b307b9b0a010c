"""Twilio's resources as tables. SIDs are Twilio's: two letters naming the kind and 32 hex digits (accounts AC,
phone numbers PN, Messaging Services MG, messages SM, A2P brand registrations BN, US A2P campaigns QE). Money is
kept in ten-thousandths of a US dollar (Twilio prices SMS to four decimals: 79 is $0.0079). Times are ISO 8601 UTC."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("sid", String, primary_key=True),
    Column("friendly_name", String, nullable=False),
    Column("status", String, nullable=False),  # active | suspended | closed
    Column("type", String, nullable=False),  # Full | Trial
    Column("owner_account_sid", String, ForeignKey("accounts.sid")),  # the parent; null for the main account
    Column("balance", Integer),  # the main account's balance (subaccounts bill to it); null on subaccounts
    Column("date_created", String, nullable=False, info={"volatile": True}),
    Column("date_updated", String, nullable=False, info={"volatile": True}),
)

available_numbers = Table(
    "available_numbers",
    metadata,
    Column("phone_number", String, primary_key=True),  # E.164
    Column("iso_country", String, nullable=False),  # US | CA | GB
    Column("type", String, nullable=False),  # local | toll_free | mobile
    Column("locality", String),
    Column("region", String),
    Column("sms", Boolean, nullable=False),
    Column("mms", Boolean, nullable=False),
    Column("voice", Boolean, nullable=False),
)

messaging_services = Table(
    "messaging_services",
    metadata,
    Column("sid", String, primary_key=True),
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    Column("friendly_name", String, nullable=False),
    # notifications | marketing | verification | discussion | poll | undeclared
    Column("usecase", String, nullable=False),
    Column("sticky_sender", Boolean, nullable=False),
    Column("inbound_request_url", String),
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

phone_numbers = Table(
    "phone_numbers",
    metadata,
    Column("sid", String, primary_key=True),
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    Column("phone_number", String, nullable=False, unique=True),  # E.164
    Column("friendly_name", String, nullable=False),
    Column("iso_country", String, nullable=False),
    Column("type", String, nullable=False),  # local | toll_free | mobile
    Column("sms", Boolean, nullable=False),
    Column("mms", Boolean, nullable=False),
    Column("voice", Boolean, nullable=False),
    Column("sms_url", String),
    Column("messaging_service_sid", String, ForeignKey("messaging_services.sid")),  # its sender pool, if any
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

brands = Table(
    "brands",
    metadata,
    Column("sid", String, primary_key=True),
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    Column("business_name", String, nullable=False),
    Column("brand_type", String, nullable=False),  # STANDARD | LOW_VOLUME_STANDARD | SOLE_PROPRIETOR
    Column("status", String, nullable=False),  # PENDING | APPROVED | FAILED
    Column("failure_reason", String),
    Column("date_created", String, nullable=False),
)

campaigns = Table(
    "campaigns",
    metadata,
    Column("sid", String, primary_key=True),
    Column("messaging_service_sid", String, ForeignKey("messaging_services.sid"), nullable=False, unique=True),
    Column("brand_registration_sid", String, ForeignKey("brands.sid"), nullable=False),
    Column("us_app_to_person_usecase", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("message_samples", JSON, nullable=False),
    Column("has_embedded_links", Boolean, nullable=False),
    Column("has_embedded_phone", Boolean, nullable=False),
    Column("campaign_status", String, nullable=False),  # PENDING | IN_PROGRESS | VERIFIED | FAILED
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

messages = Table(
    "messages",
    metadata,
    Column("sid", String, primary_key=True),
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    Column("direction", String, nullable=False),  # inbound | outbound-api
    Column("from_number", String),  # null while a scheduled message waits for its sender
    Column("to_number", String, nullable=False),
    Column("messaging_service_sid", String, ForeignKey("messaging_services.sid")),
    Column("body", Text, nullable=False),
    Column("num_segments", Integer, nullable=False),
    # outbound: scheduled | queued | sent | delivered | undelivered | failed | canceled; inbound: received
    Column("status", String, nullable=False),
    Column("error_code", Integer),
    Column("price", Integer),  # negative: what the message cost; null until sent
    Column("date_created", String, nullable=False, info={"volatile": True}),
    Column("date_sent", String, info={"volatile": True}),
    Column("send_at", String),  # scheduled messages: when Twilio sends it
    Column("date_updated", String, nullable=False, info={"volatile": True}),
)

opt_outs = Table(
    "opt_outs",
    metadata,
    Column("id", String, primary_key=True),  # "<sender>|<recipient>"
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    Column("sender", String, nullable=False),  # a Messaging Service SID, or a phone number outside any service
    Column("recipient", String, nullable=False),
    Column("keyword", String, nullable=False),  # the word they texted: STOP, UNSUBSCRIBE, ...
    Column("date_created", String, nullable=False),
)

line_types = Table(
    "line_types",
    metadata,
    Column("phone_number", String, primary_key=True),  # what Twilio Lookup knows about a number
    Column("line_type", String, nullable=False),  # mobile | landline | nonFixedVoip
    Column("carrier_name", String, nullable=False),
    Column("caller_name", String),
)

usage_records = Table(
    "usage_records",
    metadata,
    Column("id", String, primary_key=True),  # "<account>|<category>|<day>"
    Column("account_sid", String, ForeignKey("accounts.sid"), nullable=False),
    # sms-outbound | sms-inbound | phonenumbers-local | phonenumbers-tollfree | phonenumbers-mobile
    # | a2p-10dlc-registrationfees
    Column("category", String, nullable=False),
    Column("day", String, nullable=False),  # YYYY-MM-DD
    Column("count", Integer, nullable=False),
    Column("price", Integer, nullable=False),
)
