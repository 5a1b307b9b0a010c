"""Eventbrite's objects as tables: users (organizers belong to an organization, ticket buyers to none), the
sign-in session, organizations, venues, events, ticket classes, discounts, orders, attendees (one per ticket) and
refund requests. Ids are numeric strings as Eventbrite's are; money is integer cents in the event's currency;
times are UTC ISO 8601 (`2026-06-18T23:00:00Z`), an event also keeps its IANA time zone."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

organizations = Table(
    "organizations",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "421907335113"
    Column("name", String, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "1650243218875"
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("password", String, nullable=False),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=True),  # organizers only
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

venues = Table(
    "venues",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "93015541"
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("address_1", String, nullable=False),
    Column("city", String, nullable=False),
    Column("region", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("country", String, nullable=False),
    Column("capacity", Integer, nullable=True),
)

events = Table(
    "events",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "871240561203"
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("summary", Text, nullable=False),
    Column("category", String, nullable=False),  # Music | Business | Food & Drink | ...
    Column("venue_id", String, ForeignKey("venues.id"), nullable=True),
    Column("online_event", Boolean, nullable=False),
    Column("start_utc", String, nullable=False),
    Column("end_utc", String, nullable=False),
    Column("timezone", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("capacity", Integer, nullable=False),  # the event's total; ticket classes share it
    Column("refund_policy", String, nullable=False),  # no_refunds | 1_day | 7_days | 30_days
    Column("status", String, nullable=False),  # draft | live | canceled | completed (started/ended from the clock)
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_events_org", "organization_id"),
)

ticket_classes = Table(
    "ticket_classes",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "1905733412"
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("free", Boolean, nullable=False),
    Column("cost", Integer, nullable=False),  # cents; 0 when free
    Column("capacity", Integer, nullable=False),
    Column("quantity_sold", Integer, nullable=False),
    Column("minimum_quantity", Integer, nullable=False),
    Column("maximum_quantity", Integer, nullable=False),
    Column("sales_start", String, nullable=False),
    Column("sales_end", String, nullable=False),
    Column("hidden", Boolean, nullable=False),  # shown only to buyers with an access code
    Index("ix_ticket_classes_event", "event_id"),
)

discounts = Table(
    "discounts",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "611804229"
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=True),  # null: every event of the organization
    Column("ticket_class_ids", JSON, nullable=False),  # empty: every ticket class of the event
    Column("code", String, nullable=False),
    Column("type", String, nullable=False),  # coded | access | public
    Column("percent_off", Integer, nullable=True),  # whole percent
    Column("amount_off", Integer, nullable=True),  # cents per ticket
    Column("quantity_available", Integer, nullable=False),  # tickets it may be used on; 0 = unlimited
    Column("quantity_sold", Integer, nullable=False),
    Column("start_date", String, nullable=True),
    Column("end_date", String, nullable=True),
    Index("ix_discounts_org", "organization_id"),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "8100000123"
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),  # the buyer
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("status", String, nullable=False),  # placed | partially_refunded | refunded
    Column("base_price", Integer, nullable=False),  # cents, before the discount
    Column("discount_amount", Integer, nullable=False),
    Column("fee", Integer, nullable=False),  # Eventbrite's service fee, paid by the buyer
    Column("gross", Integer, nullable=False),  # what the buyer paid
    Column("refunded_amount", Integer, nullable=False),
    Column("discount_id", String, ForeignKey("discounts.id"), nullable=True),
    Column("placed_at", String, nullable=False, info={"volatile": True}),
    Index("ix_orders_event", "event_id"),
    Index("ix_orders_user", "user_id"),
)

attendees = Table(
    "attendees",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "12100000456"
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("ticket_class_id", String, ForeignKey("ticket_classes.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("cost", Integer, nullable=False),  # ticket price after the discount, cents
    Column("fee", Integer, nullable=False),
    Column("status", String, nullable=False),  # Attending | Checked In | Not Attending
    Column("refunded", Boolean, nullable=False),
    Index("ix_attendees_order", "order_id"),
    Index("ix_attendees_event", "event_id"),
)

refund_requests = Table(
    "refund_requests",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "5200000017"
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("attendee_ids", JSON, nullable=False),
    Column("reason", String, nullable=False),
    Column("message", Text, nullable=False, info={"volatile": True}),  # free text: not compared
    Column("status", String, nullable=False),  # pending | approved | declined
    Column("response_message", Text, nullable=True, info={"volatile": True}),  # free text: not compared
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Index("ix_refund_requests_event", "event_id"),
)
