"""Marriott Bonvoy as tables: properties (MARSHA codes) with their award category, room types and rate plans,
nights a room type is sold out; members with their points postings, Free Night Certificates and Suite Night
Awards; reservations paid in cash or points. Money is integer US cents; dates are ISO `YYYY-MM-DD` local to the
property."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

properties = Table(
    "properties",
    metadata,
    Column("code", String, primary_key=True),  # MARSHA code, e.g. "BOSCY"
    Column("name", String, nullable=False),
    Column("brand", String, nullable=False),
    Column("city", String, nullable=False),
    Column("country", String, nullable=False),
    Column("address", String, nullable=False),
    Column("category", Integer, nullable=False),  # award category 1-8
    Column("peak_months", JSON, nullable=False),  # months (1-12) priced at the peak award rate
    Column("off_peak_months", JSON, nullable=False),  # months priced at the off-peak award rate
    Column("cancel_days", Integer, nullable=False),  # free cancellation until 23:59 this many days before arrival
    Column("base_points_per_usd", Integer, nullable=False),  # 10, or 5 at extended-stay brands
    Column("status", String, nullable=False),  # OPEN | CLOSED (temporarily closed, not bookable)
    Index("ix_properties_city", "city"),
)

room_types = Table(
    "room_types",
    metadata,
    Column("id", String, primary_key=True),  # property code + "-" + room code, e.g. "BOSCY-GENK"
    Column("property_code", String, ForeignKey("properties.code"), nullable=False),
    Column("room_code", String, nullable=False),  # e.g. "GENK"
    Column("name", String, nullable=False),
    Column("kind", String, nullable=False),  # STANDARD | PREMIUM | SUITE
    Column("max_occupancy", Integer, nullable=False),
    Column("suite_night_eligible", Boolean, nullable=False),  # can be confirmed with Suite Night Awards
    Index("ix_room_types_property", "property_code"),
)

rates = Table(
    "rates",
    metadata,
    Column("id", String, primary_key=True),  # room type id + "-" + plan
    Column("room_type_id", String, ForeignKey("room_types.id"), nullable=False),
    Column("plan", String, nullable=False),  # FLEXIBLE | MEMBER | PREPAY | AAA | SENIOR
    Column("nightly", Integer, nullable=False),  # cents per night before taxes
    Index("ix_rates_room", "room_type_id"),
)

sold_out = Table(
    "sold_out",
    metadata,
    Column("id", String, primary_key=True),
    Column("room_type_id", String, ForeignKey("room_types.id"), nullable=False),
    Column("night", String, nullable=False),  # a night no room of this type is left
    Index("ix_sold_out_room", "room_type_id", "night"),
)

members = Table(
    "members",
    metadata,
    Column("member_number", String, primary_key=True),  # 9 digits
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("tier", String, nullable=False),  # MEMBER | SILVER | GOLD | PLATINUM | TITANIUM | AMBASSADOR
    Column("points", Integer, nullable=False),
    Column("nights_this_year", Integer, nullable=False),  # elite night credits in the calendar year
    Column("lifetime_nights", Integer, nullable=False),
    Column("enrolled_on", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

reservations = Table(
    "reservations",
    metadata,
    Column("confirmation_number", String, primary_key=True),  # 8 digits
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("property_code", String, ForeignKey("properties.code"), nullable=False),
    Column("room_type_id", String, ForeignKey("room_types.id"), nullable=False),
    Column("rate_plan", String, nullable=False),  # a cash plan, or REWARD for a free night award
    Column("arrival", String, nullable=False),
    Column("departure", String, nullable=False),
    Column("guests", Integer, nullable=False),
    Column("status", String, nullable=False),  # CONFIRMED | CANCELLED | COMPLETED
    Column("nightly", JSON, nullable=False),  # per night: cents (cash) or points (award)
    Column("cash_total", Integer, nullable=False),  # cents
    Column("points_total", Integer, nullable=False),  # points the award costs (after any free fifth night)
    Column("certificate_id", String, nullable=True),  # Free Night Certificate applied to the first night
    Column("top_up_points", Integer, nullable=False),  # points added to the certificate's cap
    Column("points_advance", Boolean, nullable=False),  # booked before the member had the points
    Column("points_due_by", String, nullable=True),  # Points Advance: pay by this date or it is cancelled
    Column("points_paid", Boolean, nullable=False),
    Column("upgrade_status", String, nullable=True),  # Suite Night Awards: REQUESTED | CONFIRMED | DECLINED
    Column("upgrade_room_type_id", String, nullable=True),
    Column("credited", Boolean, nullable=False),  # points and nights posted for a completed stay
    Column("special_requests", String, nullable=True),
    Column("penalty", Integer, nullable=False),  # cents (cash) or points forfeited on cancellation
    Column("booked_on", String, nullable=False),
    Column("cancelled_at", String, nullable=True, info={"volatile": True}),
    Index("ix_reservations_member", "member_number"),
)

postings = Table(
    "postings",
    metadata,
    Column("id", String, primary_key=True),  # "PST" + digits
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("posted_on", String, nullable=False),
    Column("type", String, nullable=False),  # STAY | ELITE_BONUS | AWARD | AWARD_REFUND | TRANSFER_OUT | ...
    Column("points", Integer, nullable=False),  # signed
    Column("nights", Integer, nullable=False),  # elite night credits posted with it
    Column("description", String, nullable=False),
    Column("confirmation_number", String, nullable=True),
    Column("counterparty", String, nullable=True),  # the other member of a transfer
    Index("ix_postings_member", "member_number"),
)

certificates = Table(
    "certificates",
    metadata,
    Column("id", String, primary_key=True),  # "FNC" + digits
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("source", String, nullable=False),  # e.g. "Marriott Bonvoy Boundless card anniversary"
    Column("cap", Integer, nullable=False),  # points value a night may cost: 35000 | 40000 | 50000 | 85000
    Column("expires_on", String, nullable=False),
    Column("status", String, nullable=False),  # AVAILABLE | USED | EXPIRED
    Column("confirmation_number", String, nullable=True),
    Index("ix_certificates_member", "member_number"),
)

suite_night_awards = Table(
    "suite_night_awards",
    metadata,
    Column("id", String, primary_key=True),  # "SNA" + digits
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("earned_on", String, nullable=False),
    Column("expires_on", String, nullable=False),  # December 31 of the year after they were earned
    Column("status", String, nullable=False),  # AVAILABLE | APPLIED | USED | EXPIRED
    Column("confirmation_number", String, nullable=True),
    Index("ix_sna_member", "member_number"),
)
