"""Square's objects as tables: locations, the catalog (categories, items, item variations, modifier lists and
modifiers), customers and their cards on file, orders, payments, refunds and the loyalty program (reward tiers,
accounts, rewards, events). Money is an integer in the currency's minor unit, as in the API."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

locations = Table(
    "locations",
    metadata,
    Column("id", String, primary_key=True),  # L88917AVBK2S5
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
    Column("address_line_1", String, nullable=False),
    Column("locality", String, nullable=False),
    Column("administrative_district_level_1", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("timezone", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("phone_number", String),
)

categories = Table(
    "categories",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("version", Integer, nullable=False),
)

modifier_lists = Table(
    "modifier_lists",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("selection_type", String, nullable=False),  # SINGLE | MULTIPLE
    Column("version", Integer, nullable=False),
)

modifiers = Table(
    "modifiers",
    metadata,
    Column("id", String, primary_key=True),
    Column("modifier_list_id", String, ForeignKey("modifier_lists.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("price_amount", Integer, nullable=False),
    Column("ordinal", Integer, nullable=False),
    Column("version", Integer, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("description", Text),
    Column("category_id", String, ForeignKey("categories.id")),
    Column("modifier_list_ids", JSON, nullable=False),  # modifier lists enabled on the item
    Column("product_type", String, nullable=False),  # REGULAR | FOOD_AND_BEV
    Column("is_archived", Boolean, nullable=False, default=False),
    Column("present_at_location_ids", JSON),  # None: every location
    Column("version", Integer, nullable=False),
)

variations = Table(
    "variations",
    metadata,
    Column("id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("sku", String),
    Column("ordinal", Integer, nullable=False),
    Column("pricing_type", String, nullable=False),  # FIXED_PRICING | VARIABLE_PRICING
    Column("price_amount", Integer),  # None for VARIABLE_PRICING
    Column("currency", String, nullable=False),
    Column("version", Integer, nullable=False),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

customers = Table(
    "customers",
    metadata,
    Column("id", String, primary_key=True),  # 26 characters, e.g. JDKYHBWT1D4F8MFH63DBMEN8Y4
    Column("given_name", String),
    Column("family_name", String),
    Column("company_name", String),
    Column("email_address", String),
    Column("phone_number", String),
    Column("reference_id", String),
    Column("note", Text),
    Column("birthday", String),
    Column("creation_source", String, nullable=False),  # DIRECTORY | THIRD_PARTY | LOYALTY | ...
    Column("version", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

cards = Table(
    "cards",
    metadata,
    Column("id", String, primary_key=True),  # ccof:...
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("card_brand", String, nullable=False),  # VISA | MASTERCARD | AMERICAN_EXPRESS | DISCOVER
    Column("last_4", String, nullable=False),
    Column("exp_month", Integer, nullable=False),
    Column("exp_year", Integer, nullable=False),
    Column("cardholder_name", String),
    Column("card_type", String, nullable=False),  # CREDIT | DEBIT
    Column("enabled", Boolean, nullable=False, default=True),
    # How the issuer answers a charge (hidden from the API): None approves, else a Square decline code.
    Column("decline_code", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("customer_id", String, ForeignKey("customers.id")),
    Column("reference_id", String),
    Column("source_name", String, nullable=False),
    Column("state", String, nullable=False),  # OPEN | COMPLETED | CANCELED
    Column("version", Integer, nullable=False),
    # [{uid, catalog_object_id, name, variation_name, quantity, base_price_amount, modifiers: [...], note}]
    Column("line_items", JSON, nullable=False),
    Column("discounts", JSON, nullable=False),  # [{uid, name, amount, reward_id}]
    Column("fulfillments", JSON, nullable=False),  # [{uid, type, state, recipient, pickup_at, note}]
    Column("tender_payment_ids", JSON, nullable=False),  # the payments that paid the order
    Column("currency", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("closed_at", String, info={"volatile": True}),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("order_id", String, ForeignKey("orders.id")),
    Column("customer_id", String, ForeignKey("customers.id")),
    Column("amount", Integer, nullable=False),
    Column("tip_amount", Integer, nullable=False, default=0),
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # APPROVED | PENDING | COMPLETED | CANCELED | FAILED
    Column("source_type", String, nullable=False),  # CARD | CASH | EXTERNAL
    Column("card_id", String, ForeignKey("cards.id")),
    Column("card_brand", String),
    Column("last_4", String),
    Column("delay_action", String),  # CANCEL | COMPLETE (for APPROVED payments)
    Column("delayed_until", String, info={"volatile": True}),
    Column("note", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("reference_id", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),  # <payment id>_<suffix>
    Column("payment_id", String, ForeignKey("payments.id"), nullable=False),
    Column("order_id", String, ForeignKey("orders.id")),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # PENDING | COMPLETED | REJECTED | FAILED
    Column("reason", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

loyalty_programs = Table(
    "loyalty_programs",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
    Column("points_one", String, nullable=False),  # terminology
    Column("points_other", String, nullable=False),
    Column("accrual_spend_amount", Integer, nullable=False),  # one point per this many cents spent
    Column("excluded_category_ids", JSON, nullable=False),
    Column("location_ids", JSON, nullable=False),
)

reward_tiers = Table(
    "reward_tiers",
    metadata,
    Column("id", String, primary_key=True),
    Column("program_id", String, ForeignKey("loyalty_programs.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("points", Integer, nullable=False),
    Column("discount_type", String, nullable=False),  # FIXED_AMOUNT | FIXED_PERCENTAGE
    Column("amount", Integer),  # FIXED_AMOUNT, in cents
    Column("percentage", String),  # FIXED_PERCENTAGE, e.g. "15"
    Column("max_discount_amount", Integer),
)

loyalty_accounts = Table(
    "loyalty_accounts",
    metadata,
    Column("id", String, primary_key=True),  # a UUID
    Column("program_id", String, ForeignKey("loyalty_programs.id"), nullable=False),
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("phone_number", String, nullable=False),  # the account's mapping
    Column("balance", Integer, nullable=False),
    Column("lifetime_points", Integer, nullable=False),
    Column("enrolled_at", String, nullable=False),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

loyalty_rewards = Table(
    "loyalty_rewards",
    metadata,
    Column("id", String, primary_key=True),  # a UUID
    Column("loyalty_account_id", String, ForeignKey("loyalty_accounts.id"), nullable=False),
    Column("reward_tier_id", String, ForeignKey("reward_tiers.id"), nullable=False),
    Column("order_id", String, ForeignKey("orders.id")),
    Column("status", String, nullable=False),  # ISSUED | REDEEMED | DELETED
    Column("points", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("redeemed_at", String, info={"volatile": True}),
)

loyalty_events = Table(
    "loyalty_events",
    metadata,
    Column("id", String, primary_key=True),
    Column("loyalty_account_id", String, ForeignKey("loyalty_accounts.id"), nullable=False),
    Column("type", String, nullable=False),  # ACCUMULATE_POINTS | CREATE_REWARD | DELETE_REWARD | REDEEM_REWARD
    Column("points", Integer, nullable=False),  # signed
    Column("order_id", String, ForeignKey("orders.id")),
    Column("reward_id", String, ForeignKey("loyalty_rewards.id")),
    Column("location_id", String, ForeignKey("locations.id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
