"""Steam's objects as output models (app details with price_overview, owned games, wishlist, cart, purchases,
gifts, friends, inventory items, trade offers, reviews, Steam Families) and how stored rows become them.
Amounts are plain strings in the account's currency, like "29.99"."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from .rules import FAMILY_SLOTS, final_price, stamp
from .schema import (
    accounts,
    app_prices,
    apps,
    family_invites,
    family_slot_cooldowns,
    gifts,
    items,
    library,
    purchase_items,
    purchases,
)

STEAMID_BASE = 76561197960265728
OfferState = Literal["Active", "Accepted", "Declined", "Canceled", "InEscrow", "Expired"]


def friend_code(steamid: str) -> str:
    """The short friend code Steam shows for a SteamID64."""
    return str(int(steamid) - STEAMID_BASE)


class PriceOverview(BaseModel):
    """An app's price in one currency."""

    currency: str
    initial: str
    final: str
    discount_percent: int


class AppRef(BaseModel):
    """An app named by its appid."""

    appid: int
    name: str


class PersonRef(BaseModel):
    """An account named by its SteamID64 and profile name."""

    steamid: str
    persona_name: str


class SessionObject(BaseModel):
    """The account signed in to Steam."""

    steamid: str
    persona_name: str
    country: str
    currency: str
    wallet_balance: str


class AppSummary(BaseModel):
    """An app in store search results."""

    appid: int
    name: str
    type: Literal["game", "dlc"]
    genres: list[str]
    is_free: bool
    review_score: int
    price_overview: PriceOverview | None


class AppDetails(AppSummary):
    """An app's store page."""

    fullgame: AppRef | None
    dlc: list[AppRef]
    developer: str
    publisher: str
    release_date: str
    family_sharing: bool
    short_description: str
    owned: bool | None
    on_wishlist: bool | None


class OwnedGame(BaseModel):
    """An app in a library, with playtime in minutes."""

    appid: int
    name: str
    playtime_forever: int
    playtime_2weeks: int
    rtime_last_played: str | None
    acquired_at: str
    source: Literal["purchase", "gift", "free"]


class OwnedGames(BaseModel):
    """A library."""

    steamid: str
    game_count: int
    games: list[OwnedGame]


class WishlistItem(BaseModel):
    """An app on a wishlist; priority 1 is the top."""

    appid: int
    name: str
    priority: int
    added_at: str
    price_overview: PriceOverview | None


class Wishlist(BaseModel):
    """A wishlist in priority order."""

    steamid: str
    items: list[WishlistItem]


class CartLine(BaseModel):
    """An app in the cart, for the account itself or as a gift."""

    appid: int
    name: str
    price: str
    gift_to: PersonRef | None


class CartObject(BaseModel):
    """The shopping cart."""

    currency: str
    items: list[CartLine]
    subtotal: str
    wallet_balance: str


class PurchaseLine(BaseModel):
    """One app of a purchase."""

    appid: int
    name: str
    price: str
    gift_to: PersonRef | None
    gift_status: str | None
    status: Literal["completed", "refunded"]
    refunded_to: str | None


class PurchaseObject(BaseModel):
    """A Steam purchase (a transaction)."""

    transid: str
    created_at: str
    payment_method: Literal["steam_wallet", "card"]
    currency: str
    total: str
    items: list[PurchaseLine]


class RefundObject(BaseModel):
    """A refund that was issued."""

    transid: str
    appid: int
    name: str
    amount: str
    currency: str
    refunded_to: Literal["steam_wallet", "card"]
    wallet_balance: str


class GiftObject(BaseModel):
    """A gift sent or received."""

    gift_id: str
    appid: int
    name: str
    sender: PersonRef
    recipient: PersonRef
    status: Literal["pending", "accepted", "declined", "revoked"]
    sent_at: str
    message: str | None


class FriendObject(BaseModel):
    """A friend on the friends list."""

    steamid: str
    persona_name: str
    real_name: str | None
    friend_code: str
    country: str
    friend_since: str


class InviteObject(BaseModel):
    """A pending friend invite."""

    steamid: str
    persona_name: str
    friend_code: str
    sent_at: str


class FriendList(BaseModel):
    """Friends, pending invites both ways, and why you may not send invites, if you may not."""

    friends: list[FriendObject]
    incoming_invites: list[InviteObject]
    outgoing_invites: list[InviteObject]
    invite_restriction: str | None


class ItemObject(BaseModel):
    """An item in an inventory."""

    assetid: str
    appid: int
    name: str
    type: str
    tradable: bool


class Inventory(BaseModel):
    """An account's items of one app, leaving out those held in a trade."""

    steamid: str
    appid: int
    items: list[ItemObject]


class TradeOfferObject(BaseModel):
    """A trade offer seen from the signed-in account."""

    tradeofferid: str
    partner: PersonRef
    is_our_offer: bool
    items_to_give: list[ItemObject]
    items_to_receive: list[ItemObject]
    message: str | None
    trade_offer_state: OfferState
    time_created: str
    expiration_time: str
    escrow_end_date: str | None


class TradeOffers(BaseModel):
    """Trade offers, with whether you may trade now and whether items you give would be held."""

    trade_offers: list[TradeOfferObject]
    trade_restriction: str | None
    items_you_give_held_days: int


class ReviewObject(BaseModel):
    """A review of an app."""

    recommendationid: str
    appid: int
    name: str
    voted_up: bool
    review: str
    playtime_at_review: int
    created_at: str
    updated_at: str


class FamilyMember(BaseModel):
    """A member of a Steam Family."""

    steamid: str
    persona_name: str
    role: Literal["adult", "child"]
    joined_at: str


class FamilyInvite(BaseModel):
    """An invite to a Steam Family."""

    invite_id: str
    invitee: PersonRef
    role: Literal["adult", "child"]
    sent_at: str
    status: Literal["pending", "accepted", "cancelled"]


class SharedApp(BaseModel):
    """An app the family shares, with the members who own a copy."""

    appid: int
    name: str
    owners: list[str]


class FamilyObject(BaseModel):
    """A Steam Family: members, pending invites, slots in cooldown, free slots and the shared library."""

    family_id: str
    name: str
    members: list[FamilyMember]
    pending_invites: list[FamilyInvite]
    slots_in_cooldown_until: list[str]
    free_slots: int
    shared_library: list[SharedApp]


def money(minor: int, currency: str) -> str:
    """Minor units as a plain amount."""
    return format_amount(minor, currency)


def price_overview(price: dict[str, Any] | None) -> PriceOverview | None:
    """A price row as Steam's price_overview."""
    if price is None:
        return None
    return PriceOverview(
        currency=price["currency"],
        initial=money(price["initial"], price["currency"]),
        final=money(final_price(price), price["currency"]),
        discount_percent=price["discount_percent"],
    )


def app_price(db: Database, appid: int, currency: str) -> PriceOverview | None:
    """An app's price_overview in a currency."""
    found = db.find(app_prices, appid=appid, currency=currency)
    return price_overview(found[0] if found else None)


def app_name(db: Database, appid: int) -> str:
    """An app's name."""
    return str(db.get(apps, appid, "App")["name"])


def person(db: Database, steamid: str | None) -> PersonRef | None:
    """An account reference, None for no account."""
    if steamid is None:
        return None
    return PersonRef(steamid=steamid, persona_name=db.get(accounts, steamid, "Account")["persona_name"])


def app_summary(row: dict[str, Any], price: dict[str, Any] | None) -> AppSummary:
    """An app row and its price as a search result."""
    return AppSummary(
        appid=row["appid"],
        name=row["name"],
        type=row["type"],
        genres=row["genres"],
        is_free=row["is_free"],
        review_score=row["review_score"],
        price_overview=price_overview(price),
    )


def app_details(
    db: Database, row: dict[str, Any], currency: str, owned: bool | None, wished: bool | None
) -> AppDetails:
    """An app's store page in a currency; `owned` and `wished` only when someone is signed in."""
    base = db.get(apps, row["fullgame_appid"], "App") if row["fullgame_appid"] else None
    dlc = db.find(apps, fullgame_appid=row["appid"])
    summary = app_summary(row, (db.find(app_prices, appid=row["appid"], currency=currency) or [None])[0])
    return AppDetails(
        **summary.model_dump(),
        fullgame=AppRef(appid=base["appid"], name=base["name"]) if base else None,
        dlc=[AppRef(appid=d["appid"], name=d["name"]) for d in dlc],
        developer=row["developer"],
        publisher=row["publisher"],
        release_date=row["release_date"],
        family_sharing=row["family_sharing"],
        short_description=row["short_description"],
        owned=owned,
        on_wishlist=wished,
    )


def owned_games(db: Database, steamid: str) -> OwnedGames:
    """A library, by name."""
    games = [
        OwnedGame(
            appid=row["appid"],
            name=app_name(db, row["appid"]),
            playtime_forever=row["playtime_forever"],
            playtime_2weeks=row["playtime_2weeks"],
            rtime_last_played=row["last_played"],
            acquired_at=row["acquired_at"],
            source=row["source"],
        )
        for row in db.find(library, steamid=steamid)
    ]
    games.sort(key=lambda game: game.name)
    return OwnedGames(steamid=steamid, game_count=len(games), games=games)


def item_object(row: dict[str, Any]) -> ItemObject:
    """An item row."""
    return ItemObject(
        assetid=row["assetid"], appid=row["appid"], name=row["name"], type=row["type"], tradable=row["tradable"]
    )


def offer_object(db: Database, row: dict[str, Any], steamid: str) -> TradeOfferObject:
    """A trade offer as the account `steamid` sees it (give/receive from its side)."""
    ours = row["sender"] == steamid
    give, receive = (
        (row["items_to_give"], row["items_to_receive"]) if ours else (row["items_to_receive"], row["items_to_give"])
    )
    partner = person(db, row["recipient"] if ours else row["sender"])
    assert partner is not None
    return TradeOfferObject(
        tradeofferid=row["tradeofferid"],
        partner=partner,
        is_our_offer=ours,
        items_to_give=[item_object(db.get(items, a, "Item")) for a in give],
        items_to_receive=[item_object(db.get(items, a, "Item")) for a in receive],
        message=row["message"],
        trade_offer_state=row["state"],
        time_created=row["time_created"],
        expiration_time=row["expiration_time"],
        escrow_end_date=row["escrow_end_date"],
    )


def review_object(db: Database, row: dict[str, Any]) -> ReviewObject:
    """A review row."""
    return ReviewObject(
        recommendationid=row["recommendationid"],
        appid=row["appid"],
        name=app_name(db, row["appid"]),
        voted_up=row["voted_up"],
        review=row["review"],
        playtime_at_review=row["playtime_at_review"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def gift_object(db: Database, row: dict[str, Any]) -> GiftObject:
    """A gift row."""
    sender, recipient = person(db, row["sender"]), person(db, row["recipient"])
    assert sender is not None and recipient is not None
    return GiftObject(
        gift_id=row["gift_id"],
        appid=row["appid"],
        name=app_name(db, row["appid"]),
        sender=sender,
        recipient=recipient,
        status=row["status"],
        sent_at=row["sent_at"],
        message=row["message"],
    )


def friend_object(db: Database, row: dict[str, Any]) -> FriendObject:
    """A friends-list row."""
    other = db.get(accounts, row["friend"], "Account")
    return FriendObject(
        steamid=other["steamid"],
        persona_name=other["persona_name"],
        real_name=other["real_name"],
        friend_code=friend_code(other["steamid"]),
        country=other["country"],
        friend_since=row["friend_since"],
    )


def invite_object(db: Database, steamid: str, sent_at: str) -> InviteObject:
    """A friend invite, named by the other side."""
    other = db.get(accounts, steamid, "Account")
    return InviteObject(
        steamid=steamid, persona_name=other["persona_name"], friend_code=friend_code(steamid), sent_at=sent_at
    )


def family_object(db: Database, family: dict[str, Any]) -> FamilyObject:
    """A family with its members, invites, cooldowns, free slots and shared library."""
    now = stamp(db.now())
    members = db.find(accounts, family_id=family["family_id"])
    pending = db.find(family_invites, family_id=family["family_id"], status="pending")
    cooling = [
        row["available_at"]
        for row in db.find(family_slot_cooldowns, family_id=family["family_id"])
        if row["available_at"] > now
    ]
    owners: dict[int, list[str]] = {}
    for member in members:
        for entry in db.find(library, steamid=member["steamid"]):
            owners.setdefault(entry["appid"], []).append(member["persona_name"])
    shared = []
    for appid, names in sorted(owners.items()):
        app = db.get(apps, appid, "App")
        if app["family_sharing"] and not app["is_free"]:
            shared.append(SharedApp(appid=appid, name=app["name"], owners=names))
    return FamilyObject(
        family_id=family["family_id"],
        name=family["name"],
        members=[
            FamilyMember(
                steamid=m["steamid"],
                persona_name=m["persona_name"],
                role=m["family_role"],
                joined_at=m["family_joined_at"],
            )
            for m in members
        ],
        pending_invites=[family_invite_object(db, row) for row in pending],
        slots_in_cooldown_until=sorted(cooling),
        free_slots=max(0, FAMILY_SLOTS - len(members) - len(pending) - len(cooling)),
        shared_library=shared,
    )


def family_invite_object(db: Database, row: dict[str, Any]) -> FamilyInvite:
    """A family invite row."""
    invitee = person(db, row["invitee"])
    assert invitee is not None
    return FamilyInvite(
        invite_id=row["id"], invitee=invitee, role=row["role"], sent_at=row["sent_at"], status=row["status"]
    )


def purchase_lines(db: Database, transid: str) -> list[dict[str, Any]]:
    """A purchase's lines with the gift each became, if any."""
    lines = db.find(purchase_items, transid=transid)
    for line in lines:
        gift = db.find(gifts, line_id=line["id"])
        line["gift_status"] = gift[0]["status"] if gift else None
    return lines


def purchase_object(db: Database, transid: str) -> PurchaseObject:
    """A purchase with its lines."""
    row = db.get(purchases, transid, "Purchase")
    return PurchaseObject(
        transid=transid,
        created_at=row["created_at"],
        payment_method=row["payment_method"],
        currency=row["currency"],
        total=money(row["total"], row["currency"]),
        items=[
            PurchaseLine(
                appid=line["appid"],
                name=app_name(db, line["appid"]),
                price=money(line["price"], row["currency"]),
                gift_to=person(db, line["gift_to"]),
                gift_status=line["gift_status"],
                status=line["status"],
                refunded_to=line["refunded_to"],
            )
            for line in purchase_lines(db, transid)
        ],
    )
