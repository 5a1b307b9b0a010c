"""Steam's store and account objects as tables: accounts (SteamID64, region, wallet, Steam Guard state) and the
signed-in session; apps (numeric appids, games and DLC) with regional prices; libraries with playtime; wishlists;
carts, purchases and their line items; gifts; friends and friend invites; item inventories and trade offers;
reviews; Steam Families with their slot cooldowns and invites. Money is in minor units of the account's currency;
times are ISO `YYYY-MM-DDTHH:MM:SSZ`; playtime is in minutes."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

families = Table(
    "families",
    metadata,
    Column("family_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("created_at", String, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("steamid", String, primary_key=True),  # SteamID64, "7656119..."
    Column("account_name", String, nullable=False, unique=True),  # the login name
    Column("persona_name", String, nullable=False),  # the public profile name
    Column("real_name", String, nullable=True),
    Column("country", String, nullable=False),  # US | DE | FR | GB | BR
    Column("currency", String, nullable=False),  # USD | EUR | GBP | BRL
    Column("wallet_balance", Integer, nullable=False),
    Column("saved_card", String, nullable=True),  # "Visa ending in 4242"
    Column("created_at", String, nullable=False),
    Column("limited", Boolean, nullable=False),  # a limited user account: has not spent 5.00 on Steam yet
    Column("steam_guard", String, nullable=False),  # none | email | mobile
    Column("authenticator_since", String, nullable=True),  # when the Mobile Authenticator was added
    Column("password_changed_at", String, nullable=True),
    Column(
        "trade_cooldown_until", String, nullable=True, info={"volatile": True}
    ),  # set when a held trade is cancelled
    Column("family_id", String, ForeignKey("families.family_id"), nullable=True),
    Column("family_role", String, nullable=True),  # adult | child
    Column("family_joined_at", String, nullable=True),  # the last time they joined or created a family
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

apps = Table(
    "apps",
    metadata,
    Column("appid", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # game | dlc
    Column("fullgame_appid", Integer, ForeignKey("apps.appid"), nullable=True),  # a DLC's base game
    Column("developer", String, nullable=False),
    Column("publisher", String, nullable=False),
    Column("release_date", String, nullable=False),
    Column("genres", JSON, nullable=False),
    Column("is_free", Boolean, nullable=False),
    Column("family_sharing", Boolean, nullable=False),  # may be shared with a Steam Family
    Column("review_score", Integer, nullable=False),  # percent of positive reviews
    Column("short_description", Text, nullable=False),
)

app_prices = Table(
    "app_prices",
    metadata,
    Column("id", String, primary_key=True),  # "<appid>-<currency>"
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("currency", String, nullable=False),
    Column("initial", Integer, nullable=False),
    Column("discount_percent", Integer, nullable=False),
    Index("ix_prices_app_currency", "appid", "currency"),
)

library = Table(
    "library",
    metadata,
    Column("id", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("acquired_at", String, nullable=False, info={"volatile": True}),
    Column("source", String, nullable=False),  # purchase | gift | free
    Column("playtime_forever", Integer, nullable=False),
    Column("playtime_2weeks", Integer, nullable=False),
    Column("last_played", String, nullable=True),
    Index("ix_library_owner", "steamid", "appid", unique=True),
)

wishlist = Table(
    "wishlist",
    metadata,
    Column("id", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("priority", Integer, nullable=False),  # 1 is the top of the list
    Column("added_at", String, nullable=False, info={"volatile": True}),
    Index("ix_wishlist_owner", "steamid", "appid", unique=True),
)

cart_items = Table(
    "cart_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("gift_to", String, ForeignKey("accounts.steamid"), nullable=True),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

purchases = Table(
    "purchases",
    metadata,
    Column("transid", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("payment_method", String, nullable=False),  # steam_wallet | card
    Column("currency", String, nullable=False),
    Column("total", Integer, nullable=False),
    Index("ix_purchases_owner", "steamid"),
)

purchase_items = Table(
    "purchase_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("transid", String, ForeignKey("purchases.transid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("price", Integer, nullable=False),
    Column("gift_to", String, ForeignKey("accounts.steamid"), nullable=True),
    Column("status", String, nullable=False),  # completed | refunded
    Column("refunded_to", String, nullable=True),  # steam_wallet | card
    Column("refunded_at", String, nullable=True, info={"volatile": True}),
)

gifts = Table(
    "gifts",
    metadata,
    Column("gift_id", String, primary_key=True),
    Column("line_id", String, ForeignKey("purchase_items.id"), nullable=True),
    Column("sender", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("recipient", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("status", String, nullable=False),  # pending | accepted | declined | revoked
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Column("message", String, nullable=True),
)

friends = Table(
    "friends",
    metadata,
    Column("id", String, primary_key=True),  # one row each way: "<steamid>:<friend>"
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("friend", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("friend_since", String, nullable=False, info={"volatile": True}),
    Index("ix_friends_owner", "steamid"),
)

friend_invites = Table(
    "friend_invites",
    metadata,
    Column("id", String, primary_key=True),
    Column("sender", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("recipient", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # pending | accepted | ignored
)

items = Table(
    "items",
    metadata,
    Column("assetid", String, primary_key=True),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("owner", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("name", String, nullable=False),  # market_hash_name
    Column("type", String, nullable=False),
    Column("tradable", Boolean, nullable=False),
    Column("in_offer", String, nullable=True),  # the trade offer holding it in escrow
    Index("ix_items_owner", "owner", "appid"),
)

trade_offers = Table(
    "trade_offers",
    metadata,
    Column("tradeofferid", String, primary_key=True),
    Column("sender", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("recipient", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("items_to_give", JSON, nullable=False),  # the sender's assetids
    Column("items_to_receive", JSON, nullable=False),  # the recipient's assetids
    Column("message", String, nullable=True),
    Column("state", String, nullable=False),  # Active | Accepted | Declined | Canceled | InEscrow | Expired
    Column("time_created", String, nullable=False, info={"volatile": True}),
    Column("time_updated", String, nullable=False, info={"volatile": True}),
    Column("expiration_time", String, nullable=False, info={"volatile": True}),
    Column("escrow_end_date", String, nullable=True, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("recommendationid", String, primary_key=True),
    Column("steamid", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("appid", Integer, ForeignKey("apps.appid"), nullable=False),
    Column("voted_up", Boolean, nullable=False),
    Column("review", Text, nullable=False),
    Column("playtime_at_review", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

family_slot_cooldowns = Table(
    "family_slot_cooldowns",
    metadata,
    Column("id", String, primary_key=True),
    Column("family_id", String, ForeignKey("families.family_id"), nullable=False),
    Column("former_member", String, nullable=False),
    Column("freed_at", String, nullable=False),
    Column("available_at", String, nullable=False),
)

family_invites = Table(
    "family_invites",
    metadata,
    Column("id", String, primary_key=True),
    Column("family_id", String, ForeignKey("families.family_id"), nullable=False),
    Column("invitee", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("role", String, nullable=False),  # adult | child
    Column("invited_by", String, ForeignKey("accounts.steamid"), nullable=False),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # pending | accepted | cancelled
)
