"""Ticketmaster's objects as tables: the Discovery catalogue (venues, attractions, events, presales), each event's
inventory (price levels and seats), and the fans' side (accounts, payment methods, holds, orders, tickets,
transfers and Verified Resale listings). Money is integer USD cents."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

# ---------------------------------------------------------------- Discovery catalogue

venues = Table(
    "venues",
    metadata,
    Column("id", String, primary_key=True),  # KovZpZA...
    Column("name", String, nullable=False),
    Column("address", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state_code", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("country_code", String, nullable=False),
    Column("timezone", String, nullable=False),  # IANA name, e.g. America/Los_Angeles
    Column("box_office_info", Text),
)

attractions = Table(
    "attractions",
    metadata,
    Column("id", String, primary_key=True),  # K8vZ91...
    Column("name", String, nullable=False),
    Column("segment", String, nullable=False),  # Music | Sports | Arts & Theatre
    Column("genre", String, nullable=False),
    Column("upcoming_events", Integer, nullable=False, default=0),
)

events = Table(
    "events",
    metadata,
    Column("id", String, primary_key=True),  # vvG1..., G5v..., Z7r9jZ1A...
    Column("name", String, nullable=False),
    Column("venue_id", String, ForeignKey("venues.id"), nullable=False),
    Column("attraction_ids", JSON, nullable=False),  # headliner first
    Column("segment", String, nullable=False),
    Column("genre", String, nullable=False),
    Column("local_date", String, nullable=False),  # YYYY-MM-DD at the venue
    Column("local_time", String, nullable=False),  # HH:MM:SS at the venue
    Column("start_datetime", String, nullable=False),  # UTC, ...Z
    Column("original_local_date", String),  # the date before a reschedule
    Column("status", String, nullable=False),  # onsale | offsale | cancelled | postponed | rescheduled
    Column("public_sale_start", String, nullable=False),  # UTC
    Column("public_sale_end", String, nullable=False),  # UTC
    Column("ticket_limit", Integer, nullable=False),  # tickets per account for the event
    Column("delivery_methods", JSON, nullable=False),  # subset of mobile, ticketfast, will_call, standard_mail
    Column("transfer_enabled", Boolean, nullable=False),
    Column("transfer_cutoff_hours", Integer),  # no transfers this many hours before the show; NULL: none
    Column("resale_enabled", Boolean, nullable=False),
    Column("resale_price_cap_pct", Integer),  # resale price at most this % of face value; NULL: uncapped
    Column("order_processing_fee", Integer, nullable=False),
    Column("refund_deadline", String),  # postponed/rescheduled: last day (venue date) to request a refund
    Column("please_note", Text),
)

presales = Table(
    "presales",
    metadata,
    Column("id", String, primary_key=True),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("start_datetime", String, nullable=False),  # UTC
    Column("end_datetime", String, nullable=False),  # UTC
    Column("code", String, nullable=False),  # the unlock code fans receive; never shown by the API
)

price_levels = Table(
    "price_levels",
    metadata,
    Column("id", String, primary_key=True),  # the standard offer id, 12 digits
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("name", String, nullable=False),  # Price Level 1 ...
    Column("offer_name", String, nullable=False),  # Standard Admission | Official Platinum | Lawn GA ...
    Column("face_value", Integer, nullable=False),
    Column("service_fee", Integer, nullable=False),  # per ticket
    Column("facility_fee", Integer, nullable=False),  # per ticket
)

seats = Table(
    "seats",
    metadata,
    Column("id", String, primary_key=True),  # <event>-<section>-<row>-<number>
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("section", String, nullable=False),
    Column("row", String, nullable=False),  # GA for general admission
    Column("number", Integer, nullable=False),
    Column("price_level_id", String, ForeignKey("price_levels.id"), nullable=False),
    Column("status", String, nullable=False),  # open | sold | unavailable
)

# ---------------------------------------------------------------- fans

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # acct_...
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String),
    Column("postal_code", String, nullable=False),
    Column("member_since", String, nullable=False),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),  # pm_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("brand", String, nullable=False),  # Visa | Mastercard | American Express | Discover
    Column("last4", String, nullable=False),
    Column("exp_month", Integer, nullable=False),
    Column("exp_year", Integer, nullable=False),
    Column("is_default", Boolean, nullable=False, default=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current"
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

listings = Table(
    "listings",
    metadata,
    Column("id", String, primary_key=True),  # RSL-...
    Column("seller_account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("ticket_ids", JSON, nullable=False),  # sold together, never split
    Column("price_per_ticket", Integer, nullable=False),  # what the seller asks
    Column("buyer_fee_per_ticket", Integer, nullable=False),
    Column("seller_fee_per_ticket", Integer, nullable=False),
    Column("status", String, nullable=False),  # active | sold | cancelled
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("sold_at", String, info={"volatile": True}),
)

holds = Table(
    "holds",
    metadata,
    Column("id", String, primary_key=True),  # the cart id, a UUID
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("offer_type", String, nullable=False),  # standard | resale
    Column("price_level_id", String, ForeignKey("price_levels.id")),
    Column("listing_id", String, ForeignKey("listings.id")),
    Column("seat_ids", JSON, nullable=False),
    Column("unit_price", Integer, nullable=False),
    Column("unit_fees", Integer, nullable=False),
    Column("status", String, nullable=False),  # active | released | purchased (expiry is read from expires_at)
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # 41-12345
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("offer_type", String, nullable=False),  # standard | resale
    Column("listing_id", String, ForeignKey("listings.id")),
    Column("quantity", Integer, nullable=False),
    Column("subtotal", Integer, nullable=False),  # ticket prices
    Column("ticket_fees", Integer, nullable=False),  # per-ticket fees, summed
    Column("order_processing_fee", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("delivery_method", String, nullable=False),
    Column("payment_method_id", String, ForeignKey("payment_methods.id"), nullable=False),
    Column("status", String, nullable=False),  # completed | refunded
    Column("refund_amount", Integer, nullable=False, default=0),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("refunded_at", String, info={"volatile": True}),
)

tickets = Table(
    "tickets",
    metadata,
    Column("id", String, primary_key=True),  # tkt_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),  # who holds it now
    Column("order_id", String, ForeignKey("orders.id")),  # NULL for tickets received by transfer
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("seat_id", String, ForeignKey("seats.id"), nullable=False),
    Column("face_value", Integer, nullable=False),
    Column("delivery_method", String, nullable=False),
    Column("origin", String, nullable=False),  # purchase | resale | transfer
    # active | transfer_pending | transferred | listed | resold | scanned | refunded
    Column("status", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", String, primary_key=True),  # TRF-...
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("sender_account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("recipient_email", String, nullable=False),
    Column("recipient_first_name", String, nullable=False),
    Column("recipient_last_name", String, nullable=False),
    Column("message", Text),
    Column("ticket_ids", JSON, nullable=False),  # the sender's tickets
    Column("accepted_ticket_ids", JSON),  # the recipient's new tickets
    Column("status", String, nullable=False),  # pending | accepted | cancelled
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("responded_at", String, info={"volatile": True}),
)
