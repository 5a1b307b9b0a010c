"""The Uber rider app's objects as tables: riders and who is signed in, the locations the app's search finds,
the products offered in each city with their price details, surge periods, saved places, payment methods and
payment profiles (Personal, Business), upfront fares, ride requests (history and current) with their receipts,
and promotion codes. Money is integer cents in USD; times are ISO timestamps in UTC."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

riders = Table(
    "riders",
    metadata,
    Column("rider_id", String, primary_key=True),  # UUID
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("mobile_verified", Boolean, nullable=False),
    Column("rating", Float, nullable=False),  # the rider's own rating from drivers
    Column("promo_code", String, nullable=False),  # the rider's own invite code
    Column("uber_cash", Integer, nullable=False),  # cents of Uber Cash / promotion credit
    Column("outstanding_balance", Integer, nullable=False),  # cents owed from a failed charge
    Column("applied_promotions", JSON, nullable=False),  # promotion codes redeemed
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the rider signed in to the app
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

locations = Table(
    "locations",
    metadata,
    Column("location_id", String, primary_key=True),  # "loc_..."
    Column("name", String, nullable=False),
    Column("address", String, nullable=False),
    Column("city", String, nullable=False),  # the service city, or "" outside every one
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
    Index("ix_locations_city", "city"),
)

products = Table(
    "products",
    metadata,
    Column("product_id", String, primary_key=True),  # UUID
    Column("city", String, nullable=False),
    Column("display_name", String, nullable=False),  # UberX, Comfort, UberXL, Black, Black SUV, UberX Share, WAV
    Column("product_group", String, nullable=False),  # uberx | uberxl | uberblack | suv | rideshare | wav
    Column("description", String, nullable=False),
    Column("capacity", Integer, nullable=False),
    Column("shared", Boolean, nullable=False),
    Column("upfront_fare_enabled", Boolean, nullable=False),
    Column("cash_enabled", Boolean, nullable=False),
    Column("base", Integer, nullable=False),  # cents
    Column("minimum", Integer, nullable=False),
    Column("cost_per_minute", Integer, nullable=False),
    Column("cost_per_distance", Integer, nullable=False),  # cents per mile
    Column("booking_fee", Integer, nullable=False),
    Column("cancellation_fee", Integer, nullable=False),
    Column("eta_minutes", Integer, nullable=False),  # typical pickup ETA in this city
    Column("display_order", Integer, nullable=False),
    Index("ix_products_city", "city"),
)

surges = Table(
    "surges",
    metadata,
    Column("id", String, primary_key=True),
    Column("product_id", String, ForeignKey("products.product_id"), nullable=False),
    Column("multiplier", Float, nullable=False),
    Column("starts_at", String, nullable=False),
    Column("ends_at", String, nullable=False),
    Index("ix_surges_product", "product_id"),
)

places = Table(
    "places",
    metadata,
    Column("id", String, primary_key=True),  # rider_id + ":" + place_id
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("place_id", String, nullable=False),  # "home", "work" or a saved place's label slug
    Column("label", String, nullable=False),
    Column("address", String, nullable=False),
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
    Index("ix_places_rider", "rider_id"),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("payment_method_id", String, primary_key=True),  # UUID
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("type", String, nullable=False),  # visa | mastercard | american_express | paypal | apple_pay | ...
    Column("description", String, nullable=False),  # "***4242", "ga***@gmail.com"
    Column("expiration", String, nullable=True),  # cards: "YYYY-MM"
    Column("last_used", Boolean, nullable=False),
    Index("ix_payment_methods_rider", "rider_id"),
)

profiles = Table(
    "profiles",
    metadata,
    Column("profile_id", String, primary_key=True),  # UUID
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("name", String, nullable=False),  # "Personal", "Business", or the organization's name
    Column("type", String, nullable=False),  # personal | business
    Column("default_payment_method_id", String, nullable=True),
    Column("receipt_email", String, nullable=False),
    Column("organization", String, nullable=True),
    Column("allowed_products", JSON, nullable=True),  # business policy: product groups allowed (None: all)
    Column("expense_memo_required", Boolean, nullable=False),
    Index("ix_profiles_rider", "rider_id"),
)

fares = Table(
    "fares",
    metadata,
    Column("fare_id", String, primary_key=True),  # UUID
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("product_id", String, ForeignKey("products.product_id"), nullable=False),
    Column("start", JSON, nullable=False),  # {"address", "latitude", "longitude"}
    Column("end", JSON, nullable=False),
    Column("seat_count", Integer, nullable=False),
    Column("value", Integer, nullable=False),  # cents, the upfront fare
    Column("distance_miles", Float, nullable=False),
    Column("duration_minutes", Integer, nullable=False),
    Column("surge_multiplier", Float, nullable=False),
    Column("surge_confirmation_id", String, nullable=True),
    Column("surge_confirmed", Boolean, nullable=False),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("used", Boolean, nullable=False),
    Index("ix_fares_rider", "rider_id"),
)

requests = Table(
    "requests",
    metadata,
    Column("request_id", String, primary_key=True),  # UUID
    Column("rider_id", String, ForeignKey("riders.rider_id"), nullable=False),
    Column("product_id", String, ForeignKey("products.product_id"), nullable=False),
    Column("profile_id", String, nullable=False),
    Column("payment_method_id", String, nullable=False),
    Column("status", String, nullable=False),
    # processing | accepted | arriving | in_progress | completed | rider_canceled | driver_canceled |
    # no_drivers_available | scheduled
    Column("start", JSON, nullable=False),
    Column("end", JSON, nullable=False),
    Column("seat_count", Integer, nullable=False),
    Column("fare", Integer, nullable=False),  # cents, the upfront fare
    Column("surge_multiplier", Float, nullable=False),
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Column("scheduled_pickup", String, nullable=True),
    Column("accepted_at", String, nullable=True),
    Column("pickup_at", String, nullable=True),
    Column("dropoff_at", String, nullable=True),
    Column("canceled_at", String, nullable=True, info={"volatile": True}),
    Column("driver", JSON, nullable=True),  # {"name", "rating", "phone_number"}
    Column("vehicle", JSON, nullable=True),  # {"make", "model", "license_plate"}
    Column("distance_miles", Float, nullable=False),
    Column("duration_minutes", Integer, nullable=False),
    Column("charges", JSON, nullable=False),  # receipt lines [{"name", "amount"}] once charged
    Column("total_charged", Integer, nullable=True),
    Column("tip", Integer, nullable=False),
    Column("rating_given", Integer, nullable=True),
    Column("expense_memo", String, nullable=True),
    Index("ix_requests_rider", "rider_id", "requested_at"),
)

promotions = Table(
    "promotions",
    metadata,
    Column("code", String, primary_key=True),
    Column("description", String, nullable=False),
    Column("credit", Integer, nullable=False),  # cents of Uber Cash granted
    Column("city", String, nullable=True),  # only riders who ride in this city
    Column("first_ride_only", Boolean, nullable=False),
    Column("expires_at", String, nullable=False),
)
