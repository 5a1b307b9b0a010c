"""Duffel's flights objects as tables: reference data (airports, airlines, aircraft), the airlines' schedules and
seat inventory behind the offers, offer requests and offers, orders with their passengers, services and payments,
order change requests, change offers and changes, order cancellations, and Duffel Payments (payment intents and
refunds). Amounts are integers in the currency's minor unit; the API shows them as decimal strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

airports = Table(
    "airports",
    metadata,
    Column("iata_code", String, primary_key=True),  # LHR
    Column("id", String, nullable=False),  # arp_...
    Column("name", String, nullable=False),
    Column("city_name", String, nullable=False),
    Column("iata_city_code", String, nullable=False),  # LON (a city's code, or the airport's own)
    Column("iata_country_code", String, nullable=False),
    Column("icao_code", String, nullable=False),
    Column("time_zone", String, nullable=False),
    Column("utc_offset_minutes", Integer, nullable=False),  # during the summer season the seed covers
    Column("latitude", String, nullable=False),
    Column("longitude", String, nullable=False),
)

airlines = Table(
    "airlines",
    metadata,
    Column("iata_code", String, primary_key=True),  # BA
    Column("id", String, nullable=False),  # arl_...
    Column("name", String, nullable=False),
    Column("loyalty_programme_name", String),
    Column("low_cost", Boolean, nullable=False, default=False),  # sells economy only, instant payment only
    Column("ticket_prefix", String, nullable=False),  # the 3-digit airline code of its e-ticket numbers
    Column("conditions_of_carriage_url", String),
)

aircraft = Table(
    "aircraft",
    metadata,
    Column("id", String, primary_key=True),  # arc_...
    Column("iata_code", String, nullable=False),  # 32N
    Column("name", String, nullable=False),
    # [{"cabin_class", "first_row", "last_row", "seats": "ABC|DEF", "exit_rows": [..], "wing_rows": [a, b]}]
    Column("layout", JSON, nullable=False),
)

schedules = Table(
    "schedules",
    metadata,
    Column("id", String, primary_key=True),  # the marketing flight: "BA0117"
    Column("marketing_carrier", String, ForeignKey("airlines.iata_code"), nullable=False),
    Column("flight_number", String, nullable=False),
    Column("operating_carrier", String, ForeignKey("airlines.iata_code"), nullable=False),
    Column("operating_flight_number", String, nullable=False),
    Column("origin", String, ForeignKey("airports.iata_code"), nullable=False),
    Column("destination", String, ForeignKey("airports.iata_code"), nullable=False),
    Column("departure_time", String, nullable=False),  # local HH:MM
    Column("duration_minutes", Integer, nullable=False),
    Column("aircraft_id", String, ForeignKey("aircraft.id"), nullable=False),
    Column("origin_terminal", String),
    Column("destination_terminal", String),
    Column("days", String, nullable=False),  # ISO weekdays it operates: "1234567"
    Column("distance_km", Integer, nullable=False),
    Column("base_fare", Integer, nullable=False),  # economy, one adult, one way, in GBP pence
    Column("cabins", JSON, nullable=False),  # cabin classes this carrier sells on it
    Column("valid_from", String, nullable=False),
    Column("valid_to", String, nullable=False),
    Index("ix_schedules_route", "origin", "destination"),
)

# Seats still for sale on one dated flight, per cabin; a flight without a row has the default availability.
flight_loads = Table(
    "flight_loads",
    metadata,
    Column("id", String, primary_key=True),  # "<operating schedule id>/<local departure date>"
    Column("economy", Integer, nullable=False),
    Column("premium_economy", Integer, nullable=False),
    Column("business", Integer, nullable=False),
    Column("first", Integer, nullable=False),
)

offer_requests = Table(
    "offer_requests",
    metadata,
    Column("id", String, primary_key=True),  # orq_...
    Column("slices", JSON, nullable=False),  # [{"origin", "destination", "departure_date"}]
    Column("passengers", JSON, nullable=False),  # [{"id", "type", "age", "given_name", "family_name", loyalty}]
    Column("cabin_class", String, nullable=False),
    Column("max_connections", Integer, nullable=False),
    Column("search_key", String, nullable=False),  # the normalized request and the day it was made
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

offers = Table(
    "offers",
    metadata,
    Column("id", String, primary_key=True),  # off_...
    Column("offer_request_id", String, ForeignKey("offer_requests.id"), nullable=False),
    Column("owner", String, ForeignKey("airlines.iata_code"), nullable=False),
    Column("slices", JSON, nullable=False),  # slices with their segments, fare brand, conditions and price
    Column("passengers", JSON, nullable=False),
    Column("cabin_class", String, nullable=False),
    Column("base_amount", Integer, nullable=False),
    Column("tax_amount", Integer, nullable=False),
    Column("total_amount", Integer, nullable=False),
    Column("total_currency", String, nullable=False),
    Column("conditions", JSON, nullable=False),
    Column("requires_instant_payment", Boolean, nullable=False),
    Column("payment_required_by", String),
    Column("price_guarantee_expires_at", String),
    Column("identity_documents_required", Boolean, nullable=False),
    Column("allowed_identity_document_types", JSON, nullable=False),
    Column("supported_loyalty_programmes", JSON, nullable=False),
    Column("total_emissions_kg", Integer, nullable=False),
    Column("sort_duration", Integer, nullable=False),  # total minutes of its slices, for sort=total_duration
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Index("ix_offers_request", "offer_request_id"),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # ord_...
    Column("offer_id", String, ForeignKey("offers.id"), nullable=False),
    Column("offer_request_id", String, ForeignKey("offer_requests.id"), nullable=False),
    Column("booking_reference", String, nullable=False),
    Column("owner", String, ForeignKey("airlines.iata_code"), nullable=False),
    Column("type", String, nullable=False),  # instant | hold
    Column("cabin_class", String, nullable=False),
    Column("slices", JSON, nullable=False),
    Column("base_amount", Integer, nullable=False),
    Column("tax_amount", Integer, nullable=False),
    Column("services_amount", Integer, nullable=False, default=0),
    Column("total_amount", Integer, nullable=False),
    Column("total_currency", String, nullable=False),
    Column("conditions", JSON, nullable=False),
    Column("awaiting_payment", Boolean, nullable=False),
    Column("payment_required_by", String),
    Column("price_guarantee_expires_at", String),
    Column("documents", JSON, nullable=False),  # e-tickets, issued once paid
    Column("metadata", JSON, nullable=False),
    Column("cancelled", Boolean, nullable=False, default=False),
    Column("paid_at", String, info={"volatile": True}),
    Column("cancelled_at", String, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

order_passengers = Table(
    "order_passengers",
    metadata,
    Column("id", String, primary_key=True),  # pas_... (the offer's passenger id)
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("type", String, nullable=False),  # adult | child | infant_without_seat
    Column("title", String, nullable=False),
    Column("gender", String, nullable=False),
    Column("given_name", String, nullable=False),
    Column("family_name", String, nullable=False),
    Column("born_on", String, nullable=False),
    Column("email", String, nullable=False),
    Column("phone_number", String, nullable=False),
    Column("infant_passenger_id", String),
    Column("loyalty_programme_accounts", JSON, nullable=False),
    Column("identity_documents", JSON, nullable=False),
    Index("ix_order_passengers_order", "order_id"),
)

order_services = Table(
    "order_services",
    metadata,
    Column("id", String, primary_key=True),  # ser_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("type", String, nullable=False),  # baggage | seat
    Column("passenger_id", String, nullable=False),
    Column("slice_id", String, nullable=False),
    Column("segment_ids", JSON, nullable=False),
    Column("flight_keys", JSON, nullable=False),  # the dated flights it is on (seat occupancy)
    Column("designator", String),  # seats only
    Column("quantity", Integer, nullable=False),
    Column("total_amount", Integer, nullable=False),
    Column("total_currency", String, nullable=False),
    Column("metadata", JSON, nullable=False),
    Index("ix_order_services_order", "order_id"),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),  # pay_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("purpose", String, nullable=False),  # order | services | order_change
    Column("type", String, nullable=False),  # balance
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

order_change_requests = Table(
    "order_change_requests",
    metadata,
    Column("id", String, primary_key=True),  # ocr_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("slices", JSON, nullable=False),  # {"add": [...], "remove": [{"slice_id"}]}
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

order_change_offers = Table(
    "order_change_offers",
    metadata,
    Column("id", String, primary_key=True),  # oco_...
    Column("order_change_request_id", String, ForeignKey("order_change_requests.id"), nullable=False),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("slices", JSON, nullable=False),  # {"add": [order slices], "remove": [order slices]}
    Column("penalty_amount", Integer, nullable=False),
    Column("change_total_amount", Integer, nullable=False),
    Column("new_total_amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("refund_to", String),
    Column("sort_duration", Integer, nullable=False),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

order_changes = Table(
    "order_changes",
    metadata,
    Column("id", String, primary_key=True),  # oce_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("order_change_offer_id", String, ForeignKey("order_change_offers.id"), nullable=False),
    Column("confirmed", Boolean, nullable=False, default=False),
    Column("confirmed_at", String, info={"volatile": True}),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

order_cancellations = Table(
    "order_cancellations",
    metadata,
    Column("id", String, primary_key=True),  # ore_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("sequence", Integer, nullable=False),  # the n-th quote for this order; only the latest can be confirmed
    Column("refund_amount", Integer, nullable=False),
    Column("refund_currency", String, nullable=False),
    Column("refund_to", String, nullable=False),  # balance | awaiting_payment
    Column("confirmed", Boolean, nullable=False, default=False),
    Column("confirmed_at", String, info={"volatile": True}),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

payment_intents = Table(
    "payment_intents",
    metadata,
    Column("id", String, primary_key=True),  # pit_...
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    # requires_payment_method | requires_confirmation | succeeded
    Column("status", String, nullable=False),
    Column("card_network", String),
    Column("card_last_four_digits", String),
    Column("card_country_code", String),
    Column("fees_amount", Integer),
    Column("net_amount", Integer),
    Column("net_currency", String),
    Column("last_payment_error", String),
    Column("confirmed_at", String, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),  # ref_...
    Column("payment_intent_id", String, ForeignKey("payment_intents.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("net_amount", Integer, nullable=False),
    Column("net_currency", String, nullable=False),
    Column("status", String, nullable=False),  # succeeded | pending | failed
    Column("destination", String, nullable=False),  # original_form_of_payment
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
