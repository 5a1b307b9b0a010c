"""Steam tools for a signed-in customer: search the store and read app pages with regional prices, read libraries
with playtime, keep a prioritised wishlist, fill the cart and check out with the Steam Wallet or a saved card,
read purchase history and request refunds, send and answer gifts, manage friends, trade items, write reviews and
invite people to a Steam Family, plus what only the person does (signing in)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, Page, PermissionDenied, Unordered, paginate, tool
from envfactory_gym.fields import ErrorText, NonBlankText, bounded, page_size
from envfactory_gym.values import minor_units

from . import access, social, store, trading
from .objects import (
    AppDetails,
    AppSummary,
    CartLine,
    CartObject,
    FamilyInvite,
    FamilyObject,
    FriendList,
    GiftObject,
    Inventory,
    OwnedGames,
    PurchaseObject,
    RefundObject,
    ReviewObject,
    SessionObject,
    TradeOfferObject,
    TradeOffers,
    Wishlist,
    WishlistItem,
    app_details,
    app_name,
    app_price,
    app_summary,
    family_invite_object,
    family_object,
    friend_object,
    gift_object,
    invite_object,
    item_object,
    money,
    offer_object,
    owned_games,
    person,
    purchase_object,
    review_object,
)
from .rules import TRADE_HOLD, final_price, invite_block, needs_hold, stamp, trade_block
from .schema import (
    app_prices,
    apps,
    cart_items,
    family_invites,
    friend_invites,
    friends,
    gifts,
    items,
    purchases,
    reviews,
    trade_offers,
    wishlist,
)

Country = Literal["US", "DE", "FR", "GB", "BR"]
CURRENCY = {"US": "USD", "DE": "EUR", "FR": "EUR", "GB": "GBP", "BR": "BRL"}
AppId = Annotated[int, Field(ge=1), ErrorText("must be a Steam appid, a positive number.")]
SteamId = Annotated[str, Field(pattern=r"^7656119\d{10}$"), ErrorText("must be a 17-digit SteamID64 (7656119...).")]
FriendCode = Annotated[str, Field(pattern=r"^\d{1,10}$"), ErrorText("must be a friend code of up to 10 digits.")]
AssetIds = Annotated[list[Annotated[str, Field(pattern=r"^\d+$")]], Field(max_length=20), Unordered]
Genre = Literal["Action", "Adventure", "RPG", "Strategy", "Simulation", "Indie", "Casual", "Sports", "Racing", "Puzzle"]
MaxPrice = Annotated[float, Field(gt=0, le=2000)]
ReviewText = Annotated[
    str, Field(min_length=1, max_length=8000, pattern=r"\S"), ErrorText("must be 1 to 8000 characters.")
]
Message = Annotated[str, Field(max_length=128), ErrorText("must be at most 128 characters.")]
PageSize = page_size(50)


# ---------------------------------------------------------------- what only the person does


@tool(user_only=True)
def sign_in(db: Database, account_name: NonBlankText) -> SessionObject:
    """(User only) The person signs in to Steam with their account name; the password and Steam Guard code never
    reach the assistant.

    Args:
        account_name: The Steam account (login) name, not the profile name.
    """
    user = access.sign_in(db, account_name)
    return SessionObject(
        steamid=user["steamid"],
        persona_name=user["persona_name"],
        country=user["country"],
        currency=user["currency"],
        wallet_balance=money(user["wallet_balance"], user["currency"]),
    )


# ---------------------------------------------------------------- store


@tool(read_only=True)
def search_store(
    db: Database,
    term: str | None = None,
    genre: Genre | None = None,
    type: Literal["game", "dlc"] | None = None,
    max_price: MaxPrice | None = None,
    specials_only: bool = False,
    cc: Country | None = None,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[AppSummary]:
    """Search the Steam store by name, best reviewed first, with prices in the region's currency (the signed-in
    account's country unless cc is given; the US when nobody is signed in).

    Args:
        term: Words in the app's name.
        genre: Only apps of this genre.
        type: Only games or only DLC.
        max_price: Highest price after discount, in the region's currency.
        specials_only: Only apps on sale now.
        cc: Country code whose prices to show.
        page_size: Results per page.
        cursor: next_cursor of the previous page.
    """
    steamid = access.signed_in_id(db)
    currency = CURRENCY[cc] if cc else access.account(db, steamid)["currency"] if steamid else "USD"
    where, params = ["1 = 1"], []
    if term:
        where.append("name LIKE ?")
        params.append(f"%{term.strip()}%")
    if type:
        where.append("type = ?")
        params.append(type)
    rows = db.select(apps, " AND ".join(where), params, order_by="review_score DESC, name")
    prices = {p["appid"]: p for p in db.find(app_prices, currency=currency)}
    limit = None if max_price is None else minor_units(max_price, currency, "max_price")
    found = [
        app_summary(row, prices.get(row["appid"]))
        for row in rows
        if (genre is None or genre in row["genres"])
        and (not specials_only or (row["appid"] in prices and prices[row["appid"]]["discount_percent"] > 0))
        and (limit is None or row["is_free"] or (row["appid"] in prices and final_price(prices[row["appid"]]) <= limit))
    ]
    return paginate(found, page_size, cursor)


@tool(read_only=True)
def get_app_details(db: Database, appid: AppId, cc: Country | None = None) -> AppDetails:
    """An app's store page: type, base game or DLC, developer, release date, genres, price_overview in the region's
    currency, whether it can be shared with a Steam Family, and (signed in) whether you own or wishlisted it.

    Args:
        appid: The app's appid.
        cc: Country code whose price to show (default: your own country, or the US).
    """
    row = access.app(db, appid)
    steamid = access.signed_in_id(db)
    currency = CURRENCY[cc] if cc else access.account(db, steamid)["currency"] if steamid else "USD"
    owned = None if steamid is None else access.owned(db, steamid, appid) is not None
    wished = None if steamid is None else bool(db.find(wishlist, steamid=steamid, appid=appid))
    return app_details(db, row, currency, owned, wished)


# ---------------------------------------------------------------- library and wishlist


@tool(read_only=True)
def get_owned_games(db: Database, steamid: SteamId | None = None) -> OwnedGames:
    """The games and DLC in a library with playtime in minutes (playtime_forever, playtime_2weeks) and when each
    was last played; your own library, or a friend's.

    Args:
        steamid: A friend's SteamID64; leave out for your own library.
    """
    user = access.me(db)
    return owned_games(db, access.friend(db, user, steamid or user["steamid"])["steamid"])


@tool(read_only=True)
def get_wishlist(db: Database, steamid: SteamId | None = None) -> Wishlist:
    """A wishlist in priority order with current prices in your currency; your own, or a friend's.

    Args:
        steamid: A friend's SteamID64; leave out for your own wishlist.
    """
    user = access.me(db)
    owner = access.friend(db, user, steamid or user["steamid"])
    rows = db.select(wishlist, "steamid = ?", (owner["steamid"],), order_by="priority")
    return Wishlist(
        steamid=owner["steamid"],
        items=[
            WishlistItem(
                appid=r["appid"],
                name=app_name(db, r["appid"]),
                priority=r["priority"],
                added_at=r["added_at"],
                price_overview=app_price(db, r["appid"], user["currency"]),
            )
            for r in rows
        ],
    )


@tool()
def add_to_wishlist(db: Database, appid: AppId) -> Wishlist:
    """Add an app to the bottom of your wishlist. Apps you own can't be wishlisted.

    Args:
        appid: The app's appid.
    """
    user = access.me(db)
    app = access.app(db, appid)
    if access.owned(db, user["steamid"], appid):
        raise Conflict(f"{app['name']} is already in your library.")
    if db.find(wishlist, steamid=user["steamid"], appid=appid):
        raise Conflict(f"{app['name']} is already on your wishlist.")
    size = len(db.find(wishlist, steamid=user["steamid"]))
    db.insert(
        wishlist,
        id=db.new_id(wishlist, "wish_", 5),
        steamid=user["steamid"],
        appid=appid,
        priority=size + 1,
        added_at=db.now_iso(),
    )
    return get_wishlist(db)


@tool()
def remove_from_wishlist(db: Database, appid: AppId) -> Wishlist:
    """Take an app off your wishlist; the apps below it move up.

    Args:
        appid: The app's appid.
    """
    user = access.me(db)
    row = db.find_one(
        wishlist, not_found=f"Appid {appid} is not on your wishlist.", steamid=user["steamid"], appid=appid
    )
    store.unwish(db, row)
    return get_wishlist(db)


@tool()
def set_wishlist_priority(db: Database, appid: AppId, priority: bounded(1, 100)) -> Wishlist:  # type: ignore[valid-type]
    """Move an app on your wishlist to a rank (1 is the top); the others shift to make room.

    Args:
        appid: The app's appid.
        priority: Its new rank, at most the number of apps on the wishlist.
    """
    user = access.me(db)
    row = db.find_one(
        wishlist, not_found=f"Appid {appid} is not on your wishlist.", steamid=user["steamid"], appid=appid
    )
    rows = db.select(wishlist, "steamid = ?", (user["steamid"],), order_by="priority")
    if priority > len(rows):
        raise Conflict(f"Your wishlist has {len(rows)} apps; priority must be 1 to {len(rows)}.")
    order = [r for r in rows if r["id"] != row["id"]]
    order.insert(priority - 1, row)
    for rank, entry in enumerate(order, start=1):
        if entry["priority"] != rank:
            db.update(wishlist, entry["id"], priority=rank)
    return get_wishlist(db)


# ---------------------------------------------------------------- cart and purchases


@tool(read_only=True)
def get_cart(db: Database) -> CartObject:
    """Your shopping cart with current prices, the subtotal and your Steam Wallet balance."""
    user = access.me(db)
    rows = db.select(cart_items, "steamid = ?", (user["steamid"],), order_by="added_at")
    lines = [
        CartLine(
            appid=r["appid"],
            name=app_name(db, r["appid"]),
            price=money(store.cart_price(db, r["appid"], user["currency"]), user["currency"]),
            gift_to=person(db, r["gift_to"]),
        )
        for r in rows
    ]
    subtotal = sum(store.cart_price(db, r["appid"], user["currency"]) for r in rows)
    return CartObject(
        currency=user["currency"],
        items=lines,
        subtotal=money(subtotal, user["currency"]),
        wallet_balance=money(user["wallet_balance"], user["currency"]),
    )


@tool()
def add_to_cart(db: Database, appid: AppId, gift_to: SteamId | None = None) -> CartObject:
    """Add an app to your cart, for yourself or as a gift for a friend. You can't buy what you (or the friend)
    already own, DLC needs its base game, and gifts go only to friends in a region with your currency.

    Args:
        appid: The app's appid.
        gift_to: The friend's SteamID64 when buying it as a gift.
    """
    store.add_to_cart(db, access.me(db), appid, gift_to)
    return get_cart(db)


@tool()
def checkout(
    db: Database, payment_method: Literal["steam_wallet", "card"], gift_message: Message | None = None
) -> PurchaseObject:
    """Buy everything in the cart with your Steam Wallet (it must cover the total) or your saved card. Your own
    apps go straight to your library (and off your wishlist); gifts wait for the friend to accept them.

    Args:
        payment_method: steam_wallet or the saved card.
        gift_message: A note sent with any gifts in the cart.
    """
    user = access.me(db)
    return purchase_object(db, store.checkout(db, user, payment_method, gift_message))


@tool(read_only=True)
def get_purchase_history(db: Database, page_size: PageSize = 10, cursor: str | None = None) -> Page[PurchaseObject]:
    """Your purchases, newest first, with each app's price, gift recipient and refund status.

    Args:
        page_size: Purchases per page.
        cursor: next_cursor of the previous page.
    """
    user = access.me(db)
    rows = db.select(purchases, "steamid = ?", (user["steamid"],), order_by="created_at DESC")
    page = paginate(rows, page_size, cursor)
    return Page[PurchaseObject](
        results=[purchase_object(db, r["transid"]) for r in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool()
def request_refund(
    db: Database,
    transid: NonBlankText,
    appid: AppId,
    refund_to: store.RefundTo = "original_payment_method",
) -> RefundObject:
    """Refund one app of a purchase. Steam refunds it when the request comes within 14 days of purchase and the
    app was played for under 2 hours; gifts only while the friend hasn't accepted them. The app leaves your
    library. Money goes back to how you paid, or to your Steam Wallet if you ask.

    Args:
        transid: The purchase's transid from the purchase history.
        appid: The app to refund.
        refund_to: original_payment_method (a wallet purchase always goes back to the wallet) or steam_wallet.
    """
    user = access.me(db)
    line = store.refund(db, user, transid, appid, refund_to)
    balance = access.me(db)["wallet_balance"]
    return RefundObject(
        transid=transid,
        appid=appid,
        name=app_name(db, appid),
        amount=money(line["price"], user["currency"]),
        currency=user["currency"],
        refunded_to=line["refunded_to"],
        wallet_balance=money(balance, user["currency"]),
    )


# ---------------------------------------------------------------- gifts


@tool(read_only=True)
def list_gifts(
    db: Database, status: Literal["pending", "accepted", "declined", "revoked"] | None = None
) -> list[GiftObject]:
    """Gifts you sent and gifts sent to you, newest first.

    Args:
        status: Only gifts in this status.
    """
    user = access.me(db)
    where = "(sender = ? OR recipient = ?)" + (" AND status = ?" if status else "")
    params = (user["steamid"], user["steamid"], *([status] if status else []))
    rows = db.select(gifts, where, params, order_by="sent_at DESC")
    return [gift_object(db, g) for g in rows]


@tool()
def respond_to_gift(db: Database, gift_id: NonBlankText, action: Literal["accept", "decline"]) -> GiftObject:
    """Accept a gift sent to you (it joins your library) or decline it (the sender is refunded).

    Args:
        gift_id: The gift's id from list_gifts.
        action: accept or decline.
    """
    store.answer_gift(db, access.me(db), gift_id, action)
    return gift_object(db, db.get(gifts, gift_id, "Gift"))


# ---------------------------------------------------------------- friends


@tool(read_only=True)
def get_friend_list(db: Database) -> FriendList:
    """Your friends (profile name, friend code, country, friends since), pending friend invites both ways, and
    why you can't send invites yet, if you can't."""
    user = access.me(db)
    mine = db.select(friends, "steamid = ?", (user["steamid"],), order_by="friend_since")
    incoming = db.find(friend_invites, recipient=user["steamid"], status="pending")
    outgoing = db.find(friend_invites, sender=user["steamid"], status="pending")
    return FriendList(
        friends=[friend_object(db, r) for r in mine],
        incoming_invites=[invite_object(db, r["sender"], r["sent_at"]) for r in incoming],
        outgoing_invites=[invite_object(db, r["recipient"], r["sent_at"]) for r in outgoing],
        invite_restriction=invite_block(user),
    )


@tool()
def send_friend_request(db: Database, friend_code: FriendCode) -> FriendList:
    """Send a friend invite to the account with this friend code. Limited accounts (under 5.00 spent on Steam)
    can't send invites.

    Args:
        friend_code: The person's Steam friend code.
    """
    social.invite_friend(db, access.me(db), friend_code)
    return get_friend_list(db)


@tool()
def respond_to_friend_request(db: Database, steamid: SteamId, action: Literal["accept", "ignore"]) -> FriendList:
    """Accept or ignore a pending friend invite.

    Args:
        steamid: The SteamID64 of the person who sent the invite.
        action: accept or ignore.
    """
    social.answer_invite(db, access.me(db), steamid, action)
    return get_friend_list(db)


# ---------------------------------------------------------------- items and trading


@tool(read_only=True)
def get_inventory(db: Database, appid: Literal[440, 570, 730], steamid: SteamId | None = None) -> Inventory:
    """A game's item inventory (Team Fortress 2 = 440, Dota 2 = 570, Counter-Strike 2 = 730): yours or a
    friend's. Items held in a trade aren't listed.

    Args:
        appid: The game whose items to list.
        steamid: A friend's SteamID64; leave out for your own inventory.
    """
    user = access.me(db)
    owner = access.friend(db, user, steamid or user["steamid"])
    rows = db.find(items, owner=owner["steamid"], appid=appid, in_offer=None)
    return Inventory(steamid=owner["steamid"], appid=appid, items=[item_object(r) for r in rows])


@tool(read_only=True)
def get_trade_offers(db: Database, active_only: bool = True) -> TradeOffers:
    """Trade offers you sent and received, newest first, with their items from your side, state, expiry and any
    hold's end (escrow_end_date); also whether your account may trade now and how many days items you give would
    be held.

    Args:
        active_only: Only Active offers and trades in a hold.
    """
    user = access.me(db)
    where = "(sender = ? OR recipient = ?)" + (" AND state IN ('Active', 'InEscrow')" if active_only else "")
    rows = db.select(trade_offers, where, (user["steamid"], user["steamid"]), order_by="time_created DESC")
    return TradeOffers(
        trade_offers=[offer_object(db, o, user["steamid"]) for o in rows],
        trade_restriction=trade_block(user, db.now()),
        items_you_give_held_days=TRADE_HOLD.days if needs_hold(user, db.now()) else 0,
    )


@tool()
def send_trade_offer(
    db: Database,
    partner: SteamId,
    items_to_give: AssetIds,
    items_to_receive: AssetIds,
    message: Message | None = None,
) -> TradeOfferObject:
    """Offer a friend a trade of items. Limited accounts, accounts whose password changed in the past 5 days and
    accounts on a trading cooldown can't trade; only tradable items not held in another trade can go.

    Args:
        partner: The friend's SteamID64.
        items_to_give: assetids from your inventory.
        items_to_receive: assetids from the friend's inventory.
        message: A note with the offer.
    """
    user = access.me(db)
    offer_id = trading.send_offer(db, user, partner, items_to_give, items_to_receive, message)
    return offer_object(db, db.get(trade_offers, offer_id, "Trade offer"), user["steamid"])


@tool()
def respond_to_trade_offer(
    db: Database, tradeofferid: NonBlankText, action: Literal["accept", "decline", "cancel"]
) -> TradeOfferObject:
    """Accept or decline an offer you received (offers expire 14 days after they're sent), or cancel one you
    sent. Items leaving an account that hasn't had
    the Steam Guard Mobile Authenticator for 7 days are held for 15 days (state InEscrow); cancelling a held trade
    returns the items and puts your account on a 7-day trading cooldown.

    Args:
        tradeofferid: The offer's id.
        action: accept, decline or cancel.
    """
    user = access.me(db)
    offer = access.own_offer(db, user, tradeofferid)
    if action == "cancel":
        trading.cancel(db, user, offer)
    elif offer["recipient"] != user["steamid"]:
        raise PermissionDenied("Only the recipient can accept or decline an offer; cancel your own offers instead.")
    elif offer["state"] != "Active":
        raise Conflict(f"Trade offer {tradeofferid} is {offer['state']} and can no longer be answered.")
    elif offer["expiration_time"] <= stamp(db.now()):
        raise Conflict(f"Trade offer {tradeofferid} expired at {offer['expiration_time']}.")
    elif action == "accept":
        trading.accept(db, user, offer)
    else:
        trading.decline(db, user, offer)
    return offer_object(db, db.get(trade_offers, tradeofferid, "Trade offer"), user["steamid"])


# ---------------------------------------------------------------- reviews


@tool()
def write_review(db: Database, appid: AppId, voted_up: bool, review: ReviewText) -> ReviewObject:
    """Write or rewrite your review of an app in your library (one review per app; a second call updates it).

    Args:
        appid: The app's appid.
        voted_up: True to recommend it, False not to.
        review: The review text.
    """
    user = access.me(db)
    entry = access.owned(db, user["steamid"], appid)
    if entry is None:
        raise PermissionDenied(f"You must own {access.app(db, appid)['name']} on Steam to review it.")
    now = db.now_iso()
    found = db.find(reviews, steamid=user["steamid"], appid=appid)
    values = dict(voted_up=voted_up, review=review, playtime_at_review=entry["playtime_forever"], updated_at=now)
    if found:
        row = db.update(reviews, found[0]["recommendationid"], **values)
    else:
        key = db.new_id(reviews, "1660", 8)
        row = db.insert(reviews, recommendationid=key, steamid=user["steamid"], appid=appid, created_at=now, **values)
    return review_object(db, row)


# ---------------------------------------------------------------- Steam Families


@tool(read_only=True)
def get_family(db: Database) -> FamilyObject:
    """Your Steam Family: members and roles, pending invites, slots still in their one-year cooldown, free slots
    (six in all) and the shared library with who owns each app."""
    user = access.me(db)
    return family_object(db, social.family_of(db, user))


@tool()
def invite_to_family(db: Database, steamid: SteamId, role: Literal["adult", "child"]) -> FamilyInvite:
    """Invite a friend to your Steam Family (adults only). A family has six slots, counting pending invites and
    the slots of members who left in the past year; the invitee must live in the family's country, not be in a
    family, and not have joined one in the past year.

    Args:
        steamid: The friend's SteamID64.
        role: adult or child.
    """
    invite_id = social.invite_to_family(db, access.me(db), steamid, role)
    return family_invite_object(db, db.get(family_invites, invite_id, "Family invite"))
