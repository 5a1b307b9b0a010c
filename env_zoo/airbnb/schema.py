"""Airbnb's guest-side objects as tables: hosts and their listings with calendar blocks; guests, their payment
methods and signed-in session; reservations with their payments; message threads; wishlists; reviews.
Money is integer cents (USD); dates are ISO `YYYY-MM-DD`, a stay's check-out date is exclusive."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

hosts = Table(
    "hosts",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("is_superhost", Boolean, nullable=False),
    Column("joined", String, nullable=False),  # YYYY-MM
    Column("response_time", String, nullable=False),  # "within an hour" | "within a few hours" | "within a day"
    Column("verified_guests_only", Boolean, nullable=False),  # declines requests from unverified guests
)

listings = Table(
    "listings",
    metadata,
    Column("id", String, primary_key=True),  # numeric, like "53928417"
    Column("host_id", String, ForeignKey("hosts.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("city", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("property_type", String, nullable=False),  # Apartment | House | Loft | Cabin | Villa | Guesthouse ...
    Column("room_type", String, nullable=False),  # entire_home | private_room | shared_room | hotel_room
    Column("max_guests", Integer, nullable=False),  # adults + children; infants don't count
    Column("bedrooms", Integer, nullable=False),
    Column("beds", Integer, nullable=False),
    Column("baths", Integer, nullable=False),
    Column("amenities", JSON, nullable=False),
    Column("pets_allowed", Boolean, nullable=False),
    Column("smoking_allowed", Boolean, nullable=False),
    Column("events_allowed", Boolean, nullable=False),
    Column("quiet_hours", String, nullable=True),  # "22:00-08:00"
    Column("instant_book", Boolean, nullable=False),
    Column("min_nights", Integer, nullable=False),
    Column("max_nights", Integer, nullable=False),
    Column("nightly_price", Integer, nullable=False),  # cents
    Column("cleaning_fee", Integer, nullable=False),  # cents, once per stay
    Column("guests_included", Integer, nullable=False),
    Column("extra_guest_fee", Integer, nullable=False),  # cents per night for each guest above guests_included
    Column("weekly_discount", Integer, nullable=False),  # percent off the nights for 7+ nights
    Column("monthly_discount", Integer, nullable=False),  # percent off the nights for 28+ nights
    Column("tax_rate", Integer, nullable=False),  # occupancy tax, basis points of nights + fees
    Column("cancellation_policy", String, nullable=False),  # flexible | moderate | firm | strict
    Column("rating", Integer, nullable=True),  # hundredths of a star, e.g. 487 = 4.87
    Column("review_count", Integer, nullable=False),
    Column("description", Text, nullable=False),
    Index("ix_listings_city", "city"),
)

calendar_blocks = Table(
    "calendar_blocks",
    metadata,
    Column("id", String, primary_key=True),
    Column("listing_id", String, ForeignKey("listings.id"), nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),  # exclusive
    Index("ix_blocks_listing", "listing_id"),
)

guests = Table(
    "guests",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("identity_verified", Boolean, nullable=False),
    Column("joined", String, nullable=False),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),
    Column("guest_id", String, ForeignKey("guests.id"), nullable=False),
    Column("kind", String, nullable=False),  # card | paypal
    Column("brand", String, nullable=False),  # Visa | Mastercard | Amex | PayPal
    Column("last4", String, nullable=True),
    Column("exp_month", Integer, nullable=True),
    Column("exp_year", Integer, nullable=True),
    Column("is_default", Boolean, nullable=False),
)

guest_sessions = Table(
    "guest_sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("guest_id", String, ForeignKey("guests.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

reservations = Table(
    "reservations",
    metadata,
    Column("code", String, primary_key=True),  # confirmation code, like "HMQ4X82KZT"
    Column("listing_id", String, ForeignKey("listings.id"), nullable=False),
    Column("guest_id", String, ForeignKey("guests.id"), nullable=False),
    Column("check_in", String, nullable=False),
    Column("check_out", String, nullable=False),
    Column("adults", Integer, nullable=False),
    Column("children", Integer, nullable=False),
    Column("infants", Integer, nullable=False),
    Column("pets", Integer, nullable=False),
    # pending (request awaiting the host) | accepted (awaiting the guest's payment) | confirmed | declined
    # | cancelled | completed
    Column("status", String, nullable=False),
    Column("booked_at", String, nullable=False, info={"volatile": True}),  # set from the clock at booking
    Column("payment_method_id", String, ForeignKey("payment_methods.id"), nullable=False),
    Column("nights_total", Integer, nullable=False),  # cents, after discounts, extra guests included
    Column("cleaning_fee", Integer, nullable=False),
    Column("service_fee", Integer, nullable=False),
    Column("taxes", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("paid", Integer, nullable=False),  # cents charged so far, net of refunds
    Column("message_to_host", Text, nullable=False, default=""),
    Column("cancelled_at", String, nullable=True, info={"volatile": True}),
    Column("refund", Integer, nullable=True),  # cents refunded at cancellation
    Index("ix_reservations_listing", "listing_id", "status"),
    Index("ix_reservations_guest", "guest_id"),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("reservation_code", String, ForeignKey("reservations.code"), nullable=False),
    Column("kind", String, nullable=False),  # charge | refund
    Column("amount", Integer, nullable=False),  # cents
    Column("reason", String, nullable=False),  # booking | alteration | cancellation
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

messages = Table(
    "messages",
    metadata,
    Column("id", String, primary_key=True),
    Column("listing_id", String, ForeignKey("listings.id"), nullable=False),
    Column("guest_id", String, ForeignKey("guests.id"), nullable=False),
    Column("sender", String, nullable=False),  # guest | host
    Column("text", Text, nullable=False),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Index("ix_messages_thread", "guest_id", "listing_id"),
)

wishlists = Table(
    "wishlists",
    metadata,
    Column("id", String, primary_key=True),
    Column("guest_id", String, ForeignKey("guests.id"), nullable=False),
    Column("name", String, nullable=False),
)

wishlist_items = Table(
    "wishlist_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("wishlist_id", String, ForeignKey("wishlists.id"), nullable=False),
    Column("listing_id", String, ForeignKey("listings.id"), nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),
    Column("listing_id", String, ForeignKey("listings.id"), nullable=False),
    Column("reservation_code", String, ForeignKey("reservations.code"), nullable=True),
    Column("author", String, nullable=False),  # first name shown on the listing
    Column("guest_id", String, ForeignKey("guests.id"), nullable=True),  # set for reviews by seeded guests
    Column("rating", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),  # the day it was posted
    Index("ix_reviews_listing", "listing_id"),
)
