"""Rover's owner-side objects as tables: owners and their session, pets, saved cards; sitters with their services,
rates, blocked dates and reviews; meet & greets, booking requests (pending, accepted, booked, ...) and messages.
Money is integer cents (USD); dates are ISO `YYYY-MM-DD`, times `HH:MM` in the sitter's local time."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

owners = Table(
    "owners",
    metadata,
    Column("id", String, primary_key=True),  # "own_..."
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("city", String, nullable=False),
    Column("zip_code", String, nullable=False),
)

owner_sessions = Table(
    "owner_sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

pets = Table(
    "pets",
    metadata,
    Column("id", String, primary_key=True),  # "pet_..."
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("species", String, nullable=False),  # dog | cat
    Column("breed", String, nullable=False),
    Column("weight_lbs", Integer, nullable=False),
    Column("birth_date", String, nullable=False),
    Column("sex", String, nullable=False),  # male | female
    Column("spayed_neutered", Boolean, nullable=False),
    Column("microchipped", Boolean, nullable=False),
    Column("house_trained", Boolean, nullable=False),
    Column("friendly_with_dogs", Boolean, nullable=False),
    Column("friendly_with_cats", Boolean, nullable=False),
    Column("friendly_with_children", Boolean, nullable=False),
    Column("energy_level", String, nullable=False),  # low | moderate | high
    Column("care_instructions", Text, nullable=False),
    Column("medications", Text, nullable=False),
    Column("vet_name", String, nullable=False),
    Column("status", String, nullable=False),  # active | memorialized
    Index("ix_pets_owner", "owner_id"),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),  # "card_..."
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("brand", String, nullable=False),
    Column("last4", String, nullable=False),
    Column("exp_month", Integer, nullable=False),
    Column("exp_year", Integer, nullable=False),
    Column("is_default", Boolean, nullable=False),
)

sitters = Table(
    "sitters",
    metadata,
    Column("id", String, primary_key=True),  # profile slug, e.g. "jessica-m-ballard"
    Column("name", String, nullable=False),  # first name and last initial, "Jessica M."
    Column("city", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("zip_code", String, nullable=False),
    Column("headline", String, nullable=False),
    Column("bio", Text, nullable=False),
    Column("rating", Integer, nullable=True),  # hundredths of a star
    Column("review_count", Integer, nullable=False),
    Column("repeat_clients", Integer, nullable=False),
    Column("star_sitter", Boolean, nullable=False),
    Column("background_checked", Boolean, nullable=False),
    Column("cancellation_policy", String, nullable=False),  # flexible | moderate | strict
    Column("max_pets", Integer, nullable=False),  # pets per day across bookings
    Column("dog_sizes", JSON, nullable=False),  # ["small", "medium", "large", "giant"]
    Column("accepts_cats", Boolean, nullable=False),
    Column("accepts_puppies", Boolean, nullable=False),
    Column("status", String, nullable=False),  # active | away
    Index("ix_sitters_city", "city"),
)

services = Table(
    "services",
    metadata,
    Column("id", String, primary_key=True),  # sitter id + ":" + service type
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("service_type", String, nullable=False),  # boarding | house_sitting | drop_in | dog_walking | doggy_day_care
    Column("rate", Integer, nullable=False),  # cents per unit
    Column("additional_pet_rate", Integer, nullable=False),  # cents per unit for each pet after the first
    Column("holiday_rate", Integer, nullable=False),  # cents per unit when a booking touches a holiday
    Column("puppy_rate", Integer, nullable=True),  # cents per unit when a dog under one year comes
    Index("ix_services_sitter", "sitter_id"),
)

unavailable_dates = Table(
    "unavailable_dates",
    metadata,
    Column("id", String, primary_key=True),
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("date", String, nullable=False),
    Index("ix_unavailable_sitter_date", "sitter_id", "date"),
)

holidays = Table(
    "holidays",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
)

meet_greets = Table(
    "meet_greets",
    metadata,
    Column("id", String, primary_key=True),  # "mg_..."
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("pet_ids", JSON, nullable=False),
    Column("date", String, nullable=False),
    Column("time", String, nullable=False),
    Column("location", String, nullable=False),  # owner_home | sitter_home | public_place
    Column("note", Text, nullable=True),
    Column("status", String, nullable=False),  # requested | confirmed | completed | canceled
    Index("ix_meet_greets_owner", "owner_id"),
)

bookings = Table(
    "bookings",
    metadata,
    Column("id", String, primary_key=True),  # "bk_..."
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("service_type", String, nullable=False),
    Column("pet_ids", JSON, nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("visits_per_day", Integer, nullable=False),  # drop-ins and walks; 1 otherwise
    # pending | accepted | booked | completed | declined | expired | canceled
    Column("status", String, nullable=False),
    Column("cancellation_policy", String, nullable=False),  # the policy the request was made under
    Column("units", Integer, nullable=False),  # nights, days or visits
    Column("unit_price", Integer, nullable=False),  # cents per unit, all pets
    Column("subtotal", Integer, nullable=False),
    Column("service_fee", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("holiday_rate_applied", Boolean, nullable=False),
    Column("accepted_at", String, nullable=True),  # when the sitter selected Book it now
    Column("payment_method_id", String, ForeignKey("payment_methods.id"), nullable=True),
    Column("booked_at", String, nullable=True, info={"volatile": True}),
    Column("canceled_at", String, nullable=True, info={"volatile": True}),
    Column("cancel_reason", String, nullable=True),
    Column("refund", Integer, nullable=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_bookings_owner", "owner_id"),
    Index("ix_bookings_sitter", "sitter_id"),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),  # "rev_..."
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("booking_id", String, nullable=True),
    Column("author", String, nullable=False),
    Column("service_type", String, nullable=False),
    Column("rating", Integer, nullable=False),  # 1-5
    Column("text", Text, nullable=False),
    Column("tip", Integer, nullable=False),  # cents
    Column("created_date", String, nullable=False),
    Index("ix_reviews_sitter", "sitter_id"),
)

messages = Table(
    "messages",
    metadata,
    Column("id", String, primary_key=True),  # "msg_..."
    Column("owner_id", String, ForeignKey("owners.id"), nullable=False),
    Column("sitter_id", String, ForeignKey("sitters.id"), nullable=False),
    Column("sender", String, nullable=False),  # owner | sitter
    Column("text", Text, nullable=False),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Index("ix_messages_owner_sitter", "owner_id", "sitter_id"),
)
