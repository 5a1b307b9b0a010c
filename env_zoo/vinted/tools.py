"""Vinted tools for a signed-in member: search the catalogue, read items and members, favourites, the inbox and
its messages, offers and counter-offers, bundle checkout with the Buyer Protection fee, orders as buyer or
seller (shipping labels, tracking, cancelling, the 2-day issue window, confirming), and the member's own
wardrobe (uploading and editing items, bundle discounts). Signing in is the member's own step."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonBlankText, page_size, text
from envfactory_gym.values import minor_units

from . import access, rules, trade
from .objects import (
    CheckoutSummary,
    Conversation,
    ConversationSummary,
    FavouriteResult,
    Item,
    ItemSummary,
    Member,
    Message,
    Offer,
    Order,
    OrderSummary,
    brand_id_for,
    conversation_object,
    conversation_summary,
    item_object,
    item_summary,
    member_object,
    offer_object,
    order_object,
    order_summary,
    page_of,
)
from .schema import conversations, favourites, items, members, orders

ItemId = Annotated[int, Field(ge=1, le=99999999999), ErrorText("Invalid item id.")]
ItemIds = Annotated[list[ItemId], Field(min_length=1, max_length=20), ErrorText("Give 1 to 20 item ids.")]
Amount = Annotated[
    str, Field(pattern=r"^\d{1,5}(\.\d{1,2})?$"), ErrorText('Give the amount in pounds, e.g. "12" or "12.50".')
]
Price = Annotated[
    str,
    Field(pattern=r"^([1-9]\d{0,4}|0\.\d{1,2}|[1-9]\d{0,4}\.\d{1,2})$"),
    ErrorText('Give the price in pounds, e.g. "12" or "12.50".'),
]
Condition = Literal["new_with_tags", "new_without_tags", "very_good", "good", "satisfactory"]
Carrier = Literal["Evri", "InPost", "Royal Mail", "Yodel"]
DeliveryType = Literal["pickup_point", "home"]
PackageSize = Literal["small", "medium", "large"]
Percent = Annotated[int, Field(ge=0, le=50), ErrorText("A bundle discount is 0 to 50 percent.")]
Body = Annotated[
    str, Field(min_length=1, max_length=2000, pattern=r"\S"), ErrorText("Write a message (up to 2000 characters).")
]
PageSize = page_size(50)


def pence(amount: str) -> int:
    return minor_units(amount, rules.CURRENCY)


@tool(user_only=True)
def sign_in(db: Database, login: str) -> Member:
    """(Member only) The member logs in to Vinted with their username or email; the password never reaches the
    assistant.

    Args:
        login: The member's Vinted username or email.
    """
    return member_object(db, access.sign_in(db, login))


# ---------------------------------------------------------------- catalogue


@tool(read_only=True)
def search_items(
    db: Database,
    search_text: text(100) | None = None,
    brand: text(60) | None = None,
    size: text(30) | None = None,
    status: Condition | None = None,
    price_from: Amount | None = None,
    price_to: Amount | None = None,
    catalog: text(60) | None = None,
    user_login: text(40) | None = None,
    item_state: Literal["active", "reserved", "hidden", "sold"] | None = None,
    order: Literal["relevance", "price_low_to_high", "price_high_to_low", "newest_first"] = "relevance",
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[ItemSummary]:
    """Search the catalogue for items for sale (active or reserved; members on holiday are hidden). With your own
    login in user_login you see your whole wardrobe, hidden and sold items too.

    Args:
        search_text: Words the title or description must contain.
        brand: The brand's name, e.g. "Levi's".
        size: The size label, e.g. "UK 10 / M" or "UK 7" (matched from the start).
        status: The item's condition.
        price_from: Lowest price in pounds.
        price_to: Highest price in pounds.
        catalog: Part of the category path, e.g. "Coats & jackets".
        user_login: Only this member's wardrobe.
        item_state: Only items in this state (for your own wardrobe; others show active and reserved only).
        order: relevance (most favourited first), price_low_to_high, price_high_to_low or newest_first.
        page_size: Items per page.
        cursor: next_cursor of the previous page.
    """
    viewer = access.me(db)
    where, params = [], []
    owner = rules.member_by_login(db, user_login) if user_login is not None else None
    if owner is not None:
        where.append("user_id = ?")
        params.append(owner["id"])
    if owner is None or owner["id"] != viewer["id"]:
        where.append("status IN ('active', 'reserved')")
        where.append("user_id IN (SELECT id FROM members WHERE is_on_holiday = 0)")
    if item_state is not None:
        where.append("status = ?")
        params.append(item_state)
    if brand is not None:
        where.append("brand_id IN (SELECT id FROM brands WHERE lower(title) = ?)")
        params.append(brand.strip().lower())
    if size is not None:
        where.append("lower(size) LIKE ?")
        params.append(size.strip().lower() + "%")
    if status is not None:
        where.append("condition = ?")
        params.append(status)
    if price_from is not None:
        where.append("price >= ?")
        params.append(pence(price_from))
    if price_to is not None:
        where.append("price <= ?")
        params.append(pence(price_to))
    if catalog is not None:
        where.append("lower(catalog) LIKE ?")
        params.append(f"%{catalog.strip().lower()}%")
    for word in (search_text or "").lower().split():
        where.append("(lower(title) LIKE ? OR lower(description) LIKE ?)")
        params += [f"%{word}%", f"%{word}%"]
    sort = {
        "relevance": "favourite_count DESC, id",
        "price_low_to_high": "price, id",
        "price_high_to_low": "price DESC, id",
        "newest_first": "created_at DESC, id",
    }[order]
    reach = (int(cursor) if cursor and cursor.isdigit() else 0) + page_size + 1  # rows up to the end of this page
    found = db.select(items, " AND ".join(where), params, order_by=sort, limit=reach)
    return page_of(found, page_size, cursor, lambda row: item_summary(db, row))


@tool(read_only=True)
def get_item(db: Database, item_id: ItemId) -> Item:
    """Retrieve an item's listing: description, brand, size, condition, price and the total with Buyer
    Protection, parcel size, whether it is reserved, and whether you favourited it.

    Args:
        item_id: The item's id.
    """
    viewer = access.me(db)
    row = rules.item(db, item_id)
    if row["status"] == "hidden" and row["user_id"] != viewer["id"]:
        raise NotFound(f"Item {item_id} not found.")
    return item_object(db, row, viewer["id"])


@tool(read_only=True)
def get_member(db: Database, login: text(40) | None = None) -> Member:
    """A member's profile: rating and reviews, city, holiday mode, the carriers they ship with and their bundle
    discounts. Without a login, your own profile.

    Args:
        login: The member's username.
    """
    viewer = access.me(db)
    return member_object(db, viewer if login is None else rules.member_by_login(db, login))


# ---------------------------------------------------------------- favourites


@tool(read_only=True)
def list_favourites(db: Database, page_size: PageSize = 20, cursor: str | None = None) -> Page[ItemSummary]:
    """The items you marked as favourites, newest first.

    Args:
        page_size: Items per page.
        cursor: next_cursor of the previous page.
    """
    viewer = access.me(db)
    found = db.select(
        items,
        "id IN (SELECT item_id FROM favourites WHERE user_id = ?)",
        (viewer["id"],),
    )
    order = {f["item_id"]: f["id"] for f in db.find(favourites, user_id=viewer["id"])}
    found.sort(key=lambda row: -order[row["id"]])
    return page_of(found, page_size, cursor, lambda row: item_summary(db, row))


@tool()
def toggle_favourite(db: Database, item_id: ItemId) -> FavouriteResult:
    """Add an item to your favourites, or take it off if it is already there.

    Args:
        item_id: The item's id.
    """
    viewer = access.me(db)
    row = rules.item(db, item_id)
    if row["user_id"] == viewer["id"]:
        raise Conflict("You can't favourite your own item.")
    found = db.find(favourites, user_id=viewer["id"], item_id=item_id)
    if found:
        db.delete(favourites, found[0]["id"])
        row = db.update(items, item_id, favourite_count=max(row["favourite_count"] - 1, 0))
    else:
        db.insert(
            favourites,
            id=rules.next_id(db, favourites, 1),
            user_id=viewer["id"],
            item_id=item_id,
            created_at=db.now_iso(),
        )
        row = db.update(items, item_id, favourite_count=row["favourite_count"] + 1)
    return FavouriteResult(item_id=item_id, is_favourite=not found, favourite_count=row["favourite_count"])


# ---------------------------------------------------------------- inbox


@tool(read_only=True)
def list_inbox(db: Database, page_size: PageSize = 20, cursor: str | None = None) -> Page[ConversationSummary]:
    """Your conversations with other members, most recently active first, with each one's item and last message.

    Args:
        page_size: Conversations per page.
        cursor: next_cursor of the previous page.
    """
    viewer = access.me(db)
    found = db.select(
        conversations,
        "buyer_id = ? OR seller_id = ?",
        (viewer["id"], viewer["id"]),
        order_by="updated_at DESC, id DESC",
    )
    return page_of(found, page_size, cursor, lambda row: conversation_summary(db, row, viewer["id"]))


@tool(read_only=True)
def get_conversation(db: Database, conversation_id: int) -> Conversation:
    """A conversation's messages and the offers made in it, oldest first.

    Args:
        conversation_id: The conversation's id, from list_inbox.
    """
    viewer = access.me(db)
    return conversation_object(db, access.own_conversation(db, viewer, conversation_id), viewer["id"])


@tool()
def send_message(
    db: Database, body: Body, conversation_id: int | None = None, item_id: ItemId | None = None
) -> Message:
    """Send a message in a conversation, or ask an item's seller something (opens the conversation about it).

    Args:
        body: The message text.
        conversation_id: An existing conversation to reply in.
        item_id: The item to ask its seller about, when there is no conversation yet.
    """
    viewer = access.me(db)
    if (conversation_id is None) == (item_id is None):
        raise InvalidRequest("Give either conversation_id or item_id.")
    if conversation_id is not None:
        conversation = access.own_conversation(db, viewer, conversation_id)
    else:
        row = rules.item(db, item_id)
        if row["user_id"] == viewer["id"]:
            raise Conflict("You can't message yourself about your own item.")
        conversation = trade.conversation_for(db, viewer, row)
    stored = trade.post(db, conversation, viewer["id"], body.strip())
    return Message(id=stored["id"], sender_login=viewer["login"], body=stored["body"], created_at=stored["created_at"])


# ---------------------------------------------------------------- offers


@tool()
def make_offer(db: Database, item_ids: ItemIds, price: Price) -> Offer:
    """Offer the seller a lower price for one item, or for a bundle of several items from the same wardrobe (the
    price is for all of them). It must be below the price (after any bundle discount); the seller accepts,
    declines or counters, and an accepted offer's price applies when you buy exactly those items.

    Args:
        item_ids: The item, or the items of the bundle, all from one seller.
        price: Your offer in pounds for all the items together.
    """
    return offer_object(db, trade.make_offer(db, access.me(db), item_ids, pence(price)))


@tool()
def respond_to_offer(
    db: Database,
    offer_id: int,
    action: Literal["accept", "decline", "counter"],
    price: Price | None = None,
) -> Offer:
    """Answer a pending offer the other member made: accept it, decline it, or (as the seller) counter with a
    price between their offer and yours. A buyer answers a counter-offer by accepting or declining it.

    Args:
        offer_id: The offer's id, from get_conversation.
        action: accept, decline or counter.
        price: The counter-offer in pounds (counter only).
    """
    viewer = access.me(db)
    offer = access.own_offer(db, viewer, offer_id)
    answered = trade.answer_offer(db, viewer, offer, action, None if price is None else pence(price))
    return offer_object(db, answered)


# ---------------------------------------------------------------- buying


@tool(read_only=True)
def get_checkout_summary(
    db: Database, item_ids: ItemIds, carrier: Carrier, delivery_type: DeliveryType = "pickup_point"
) -> CheckoutSummary:
    """Price what buying these items together would cost: the items, the bundle discount or your accepted offer,
    the Buyer Protection fee (70p plus 5% of the items' price), and shipping by the seller's carrier.

    Args:
        item_ids: The items, all from one seller.
        carrier: A carrier the seller ships with (see get_member).
        delivery_type: pickup_point (a ParcelShop or locker) or home.
    """
    return trade.checkout(db, access.me(db), item_ids, carrier, delivery_type)[0]


@tool()
def buy_items(db: Database, item_ids: ItemIds, carrier: Carrier, delivery_type: DeliveryType = "pickup_point") -> Order:
    """Buy now: pay for one item, or a bundle from one seller, with your saved card. Uses your accepted offer for
    exactly these items if there is one, else the seller's bundle discount; the seller then has 5 working days to
    send it.

    Args:
        item_ids: The items, all from one seller.
        carrier: A carrier the seller ships with.
        delivery_type: pickup_point (a ParcelShop or locker) or home.
    """
    return order_object(db, trade.place_order(db, access.me(db), item_ids, carrier, delivery_type))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    type: Literal["purchased", "sold"] = "purchased",
    status: Literal["paid", "label_created", "shipped", "delivered", "completed", "issue_reported", "cancelled"]
    | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """Your orders, newest first: what you bought or what you sold.

    Args:
        type: purchased or sold.
        status: Only orders in this status.
        page_size: Orders per page.
        cursor: next_cursor of the previous page.
    """
    viewer = access.me(db)
    role = "buyer_id" if type == "purchased" else "seller_id"
    found = db.select(orders, f"{role} = ?", (viewer["id"],), order_by="paid_at DESC, id DESC")
    shown = [row for row in found if status is None or rules.live_status(db, row) == status]
    return page_of(shown, page_size, cursor, lambda row: order_summary(db, row))


@tool(read_only=True)
def get_order(db: Database, order_id: int) -> Order:
    """An order's items, price breakdown, carrier, tracking number and events, deadlines and any reported issue.

    Args:
        order_id: The order's id, from list_orders.
    """
    viewer = access.me(db)
    return order_object(db, access.own_order(db, viewer, order_id))


@tool()
def create_shipping_label(db: Database, order_id: int) -> Order:
    """(Seller) Generate the prepaid shipping label for a paid order; its tracking number then follows the parcel.

    Args:
        order_id: The order you sold.
    """
    viewer = access.me(db)
    order = access.own_order(db, viewer, order_id)
    access.as_seller(viewer, order)
    return order_object(db, trade.create_label(db, order))


@tool()
def cancel_order(
    db: Database,
    order_id: int,
    reason: Literal["item_unavailable", "buyer_request", "not_sent_in_time", "other"],
) -> Order:
    """Cancel an order that hasn't been sent; the buyer is refunded in full and the items go back on sale. The
    seller can cancel until the parcel is sent; the buyer only once the 5 working days to send it have passed.

    Args:
        order_id: The order.
        reason: item_unavailable, buyer_request, not_sent_in_time or other.
    """
    viewer = access.me(db)
    order = access.own_order(db, viewer, order_id)
    return order_object(db, trade.cancel(db, viewer, order, reason))


@tool()
def report_issue(
    db: Database,
    order_id: int,
    reason: Literal["not_as_described", "damaged", "missing_items", "counterfeit"],
    description: NonBlankText,
) -> Order:
    """(Buyer) Report a problem with a delivered order within 2 days of delivery; payment to the seller is put on
    hold until it is resolved.

    Args:
        order_id: The order you bought.
        reason: not_as_described, damaged, missing_items or counterfeit.
        description: What is wrong.
    """
    viewer = access.me(db)
    order = access.own_order(db, viewer, order_id)
    access.as_buyer(viewer, order)
    return order_object(db, trade.report(db, order, reason, description.strip()))


@tool()
def confirm_order(
    db: Database,
    order_id: int,
    rating: Annotated[int, Field(ge=1, le=5)] | None = None,
    comment: text(500) | None = None,
) -> Order:
    """(Buyer) Everything is OK: complete a delivered order and release the payment to the seller, optionally
    leaving the seller a review.

    Args:
        order_id: The order you bought.
        rating: Stars for the seller, 1-5.
        comment: The review text.
    """
    viewer = access.me(db)
    order = access.own_order(db, viewer, order_id)
    access.as_buyer(viewer, order)
    return order_object(db, trade.complete(db, order, rating, comment))


# ---------------------------------------------------------------- wardrobe


@tool()
def upload_item(
    db: Database,
    title: text(100),
    description: text(2000),
    catalog: text(80),
    condition: Condition,
    price: Price,
    color: text(30),
    package_size: PackageSize,
    brand: text(60) | None = None,
    size: text(30) | None = None,
) -> Item:
    """List a new item for sale in your wardrobe.

    Args:
        title: The listing title.
        description: The description.
        catalog: The category path, e.g. "Women > Coats & jackets".
        condition: new_with_tags, new_without_tags, very_good, good or satisfactory.
        price: The price in pounds.
        color: The main colour.
        package_size: small, medium or large.
        brand: The brand.
        size: The size label, e.g. "UK 10 / M".
    """
    viewer = access.me(db)
    stored = db.insert(
        items,
        id=rules.next_id(db, items, 4900000000),
        user_id=viewer["id"],
        title=title.strip(),
        description=description.strip(),
        catalog=catalog.strip(),
        brand_id=None if brand is None else brand_id_for(db, brand),
        size=size,
        condition=condition,
        color=color.strip(),
        price=pence(price),
        package_size=package_size,
        status="active",
        reserved_for=None,
        favourite_count=0,
        created_at=db.now_iso(),
    )
    return item_object(db, stored, viewer["id"])


@tool()
def edit_item(
    db: Database,
    item_id: ItemId,
    price: Price | None = None,
    title: text(100) | None = None,
    description: text(2000) | None = None,
    condition: Condition | None = None,
    package_size: PackageSize | None = None,
    visibility: Literal["active", "hidden"] | None = None,
    reserved_for_login: text(40) | None = None,
    unreserve: bool = False,
) -> Item:
    """Edit one of your items that isn't sold: price, title, description, condition, parcel size, hide or show
    it, or mark it reserved for one member (only they can then buy it).

    Args:
        item_id: Your item's id.
        price: The new price in pounds.
        title: The new title.
        description: The new description.
        condition: The new condition.
        package_size: The new parcel size.
        visibility: active to show the item, hidden to hide it.
        reserved_for_login: Reserve the item for this member.
        unreserve: Take the reservation off.
    """
    viewer = access.me(db)
    row = rules.item(db, item_id)
    if row["user_id"] != viewer["id"]:
        raise PermissionDenied("You can only edit your own items.")
    if row["status"] == "sold":
        raise Conflict("A sold item can't be edited.")
    changes = given(
        title=title, description=description, condition=condition, package_size=package_size, status=visibility
    )
    if price is not None:
        changes["price"] = pence(price)
    if reserved_for_login is not None:
        if unreserve:
            raise InvalidRequest("Either reserve the item or take the reservation off, not both.")
        buyer = rules.member_by_login(db, reserved_for_login)
        if buyer["id"] == viewer["id"]:
            raise InvalidRequest("You can't reserve an item for yourself.")
        changes.update(status="reserved", reserved_for=buyer["id"])
    elif unreserve:
        if row["status"] != "reserved":
            raise Conflict("The item isn't reserved.")
        changes.update(status=visibility or "active", reserved_for=None)
    elif visibility is not None:
        changes["reserved_for"] = None
    if not changes:
        raise InvalidRequest("Nothing to change.")
    return item_object(db, db.update(items, item_id, **changes), viewer["id"])


@tool()
def set_bundle_discounts(
    db: Database, enabled: bool, two_items: Percent = 0, three_items: Percent = 0, five_items: Percent = 0
) -> Member:
    """Turn bundle discounts on your wardrobe on or off, and set the percent off for bundles of 2, 3 and 5 or more
    items (a bigger bundle never gets a smaller discount).

    Args:
        enabled: Whether buyers get bundle discounts.
        two_items: Percent off bundles of 2 items.
        three_items: Percent off bundles of 3 or 4 items.
        five_items: Percent off bundles of 5 or more items.
    """
    viewer = access.me(db)
    if enabled:
        rules.check_tiers(two_items, three_items, five_items)
        tiers = {"2": two_items, "3": three_items, "5": five_items}
    else:
        tiers = None
    return member_object(db, db.update(members, viewer["id"], bundle_discount=tiers))
