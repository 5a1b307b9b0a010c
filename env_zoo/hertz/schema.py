"""Hertz's objects as tables: locations, vehicle classes, fleet and rates, one-way routes, extras, Gold Plus Rewards
members and their points, reservations and rental agreements. Money is integer cents (USD); pickup and return
times are the location's local time, as in Hertz's OTA vehicle messages."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

locations = Table(
    "locations",
    metadata,
    Column("location_id", String, primary_key=True),  # Hertz OAG location code, e.g. LAXT15
    Column("name", String, nullable=False),
    Column("location_type", String, nullable=False),  # airport | neighborhood
    Column("airport_code", String),  # IATA code of airport locations
    Column("address", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("country", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("utc_offset", String, nullable=False),  # "-07:00" (daylight time)
    Column("open_24_hours", Boolean, nullable=False),
    Column("hours", JSON, nullable=False),  # {"mon": "07:00-18:00" | "closed", ...}
    Column("after_hours_return", Boolean, nullable=False),  # key drop when closed
    Column("min_renter_age", Integer, nullable=False),  # 20, or 18 where state law (NY, MI) requires
    Column("young_renter_fee_per_day", Integer, nullable=False),  # cents, renters under 25
    Column("concession_fee_pct", Float, nullable=False),  # airport concession fee recovery, percent
    Column("facility_charge_per_day", Integer, nullable=False),  # airport customer facility charge, cents
    Column("vehicle_license_fee_per_day", Integer, nullable=False),  # vehicle licensing cost recovery, cents
    Column("sales_tax_pct", Float, nullable=False),
)

vehicle_classes = Table(
    "vehicle_classes",
    metadata,
    Column("sipp_code", String, primary_key=True),  # ACRISS/SIPP code, e.g. CCAR
    Column("class_code", String, nullable=False),  # Hertz car class letter, e.g. B
    Column("name", String, nullable=False),  # Compact
    Column("example_model", String, nullable=False),  # Nissan Versa or similar
    Column("category", String, nullable=False),  # car | suv | van | convertible
    Column("collection", String),  # Prestige Collection | Adrenaline Collection | Electric Vehicles
    Column("passengers", Integer, nullable=False),
    Column("large_bags", Integer, nullable=False),
    Column("small_bags", Integer, nullable=False),
    Column("transmission", String, nullable=False),
    Column("fuel", String, nullable=False),  # gasoline | hybrid | electric
    Column("min_age", Integer),  # a class minimum above the location's (25); null: the location's minimum
    Column("points_per_day", Integer, nullable=False),  # Gold Plus Rewards redemption
)

fleet = Table(
    "fleet",
    metadata,
    Column("fleet_id", String, primary_key=True),  # LAXT15-CCAR
    Column("location_id", String, ForeignKey("locations.location_id"), nullable=False),
    Column("sipp_code", String, ForeignKey("vehicle_classes.sipp_code"), nullable=False),
    Column("units", Integer, nullable=False),  # cars of the class this location can rent at once
    Column("daily_rate", Integer, nullable=False),  # Pay Later rate per 24-hour day, cents
)

one_way_routes = Table(
    "one_way_routes",
    metadata,
    Column("route_id", String, primary_key=True),  # LAXT15>SFOT15
    Column("pickup_location_id", String, ForeignKey("locations.location_id"), nullable=False),
    Column("return_location_id", String, ForeignKey("locations.location_id"), nullable=False),
    Column("drop_fee", Integer, nullable=False),  # cents
)

extras = Table(
    "extras",
    metadata,
    Column("code", String, primary_key=True),  # LDW, LIS, PAI, PERS, NAV, SXM, CSI, CST, BST, SKR
    Column("name", String, nullable=False),
    Column("category", String, nullable=False),  # protection | equipment
    Column("description", String, nullable=False),
    Column("price_per_day", Integer, nullable=False),  # cents
    Column("max_charge_per_rental", Integer),  # cents per unit, cap on the daily price
    Column("max_quantity", Integer, nullable=False),
    Column("available_at", JSON),  # location ids offering it; null: every location
)

members = Table(
    "members",
    metadata,
    Column("member_number", String, primary_key=True),  # Gold Plus Rewards member number
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=False),
    Column("date_of_birth", String, nullable=False),  # YYYY-MM-DD
    Column("tier", String, nullable=False),  # Gold | Five Star | President's Circle
    Column("points_balance", Integer, nullable=False),
    Column("enrolled_on", String, nullable=False),
    Column("partner_member_number", String),  # spouse / domestic partner (a member number; linked both ways)
    Column("license_number", String, nullable=False),
    Column("license_state", String, nullable=False),
    Column("license_country", String, nullable=False),
    Column("license_expiration", String, nullable=False),  # YYYY-MM-DD
    Column("preferred_sipp_code", String, ForeignKey("vehicle_classes.sipp_code")),
    Column("rentals_ytd", Integer, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String, primary_key=True),  # "current": the member signed in on hertz.com
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

reservations = Table(
    "reservations",
    metadata,
    Column("confirmation_number", String, primary_key=True),
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("status", String, nullable=False),  # confirmed | on_rent | completed | cancelled | no_show
    Column("pickup_location_id", String, ForeignKey("locations.location_id"), nullable=False),
    Column("pickup_datetime", String, nullable=False),  # local YYYY-MM-DDTHH:MM
    Column("return_location_id", String, ForeignKey("locations.location_id"), nullable=False),
    Column("return_datetime", String, nullable=False),
    Column("sipp_code", String, ForeignKey("vehicle_classes.sipp_code"), nullable=False),
    Column("payment_type", String, nullable=False),  # pay_later | pay_now | points
    Column("driver_age", Integer, nullable=False),  # at pickup
    Column("rental_days", Integer, nullable=False),
    Column("rate_per_day", Integer, nullable=False),  # cents (Pay Now rates are discounted)
    Column("extras", JSON, nullable=False),  # [{"code", "quantity"}]
    Column("additional_drivers", JSON, nullable=False),  # [{"first_name", "last_name", "date_of_birth", ...}]
    Column("base_charge", Integer, nullable=False),
    Column("extras_charge", Integer, nullable=False),
    Column("young_renter_charge", Integer, nullable=False),
    Column("additional_driver_charge", Integer, nullable=False),
    Column("drop_fee", Integer, nullable=False),
    Column("taxes_and_fees", Integer, nullable=False),
    Column("estimated_total", Integer, nullable=False),
    Column("prepaid_amount", Integer, nullable=False),  # charged at booking (Pay Now)
    Column("points_redeemed", Integer, nullable=False),
    Column("cancellation_fee", Integer, nullable=False),
    Column("refund_amount", Integer, nullable=False),
    Column("flight_number", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("cancelled_at", String, info={"volatile": True}),
)

rental_agreements = Table(
    "rental_agreements",
    metadata,
    Column("agreement_number", String, primary_key=True),
    Column("confirmation_number", String, ForeignKey("reservations.confirmation_number"), nullable=False),
    Column("status", String, nullable=False),  # open | closed
    Column("vehicle", String, nullable=False),
    Column("license_number", String, nullable=False),
    Column("license_state", String, nullable=False),
    Column("opened_at", String, nullable=False, info={"volatile": True}),
    Column("closed_at", String, info={"volatile": True}),
)

points_activity = Table(
    "points_activity",
    metadata,
    Column("activity_id", String, primary_key=True),
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    # rental | redemption | redemption_refund | transfer_out | transfer_in | bonus | expiration | adjustment
    Column("activity_type", String, nullable=False),
    Column("points", Integer, nullable=False),  # signed
    Column("confirmation_number", String, ForeignKey("reservations.confirmation_number")),
    Column("description", String, nullable=False),
    Column("posted_at", String, nullable=False, info={"volatile": True}),
)
