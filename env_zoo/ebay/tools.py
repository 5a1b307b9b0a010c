"""eBay buyer tools: the signed-in member, Browse search and item details, the Watchlist, proxy bidding, Best
Offers and counteroffers, Buy It Now checkout, purchase orders, returns and feedback, plus what only the buyer
does (signing in and granting access, confirming a payment in the eBay app)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .auction import place_bid
from .objects import (
    BestOffer,
    Bidding,
    CheckoutSession,
    Feedback,
    Item,
    ItemSummary,
    PurchaseOrder,
    Return,
    User,
    WatchedItem,
    bidding_object,
    checkout_object,
    feedback_object,
    item_object,
    item_summary,
    offer_object,
    order_object,
    return_object,
    user_object,
    watched_item,
)
from .orders import Purchase, create_order, option_by_id, options_of
from .rules import (
    OFFER_HOURS,
    check_offer_allowed,
    check_quantity,
    check_ships_to,
    effective_price,
    has_ended,
    is_auction,
    later,
    listing,
    moment,
    offer_status,
    own_line_item,
    own_order,
    require_active,
    seller_decision,
    signed_in,
    to_cents,
    today,
    usd,
)
from .schema import (
    auth_sessions,
    best_offers,
    bids,
    checkout_sessions,
    feedback,
    items,
    purchase_orders,
    returns,
    sellers,
    users,
    watchlist,
)

ConditionGroup = Literal["NEW", "CERTIFIED_REFURBISHED", "SELLER_REFURBISHED", "USED", "FOR_PARTS_OR_NOT_WORKING"]
CONDITION_GROUPS: dict[str, ConditionGroup] = {
    "1000": "NEW",
    "1500": "NEW",
    "2000": "CERTIFIED_REFURBISHED",
    "2010": "CERTIFIED_REFURBISHED",
    "2020": "CERTIFIED_REFURBISHED",
    "2030": "CERTIFIED_REFURBISHED",
    "2500": "SELLER_REFURBISHED",
    "2750": "USED",
    "3000": "USED",
    "4000": "USED",
    "5000": "USED",
    "6000": "USED",
    "7000": "FOR_PARTS_OR_NOT_WORKING",
}
BuyingOption = Literal["FIXED_PRICE", "AUCTION", "BEST_OFFER"]
SortOrder = Literal["BEST_MATCH", "price", "-price", "newlyListed", "endingSoonest"]
OrderStatus = Literal["PENDING", "FULFILLMENT_IN_PROGRESS", "DELIVERED", "CANCELLED"]
OfferStatus = Literal["PENDING", "ACCEPTED", "DECLINED", "COUNTERED", "EXPIRED", "RETRACTED"]
RemorseReason = Literal["NO_LONGER_NEED_ITEM", "ORDERED_ACCIDENTALLY", "FOUND_BETTER_PRICE", "WRONG_SIZE"]
NotAsDescribedReason = Literal[
    "ARRIVED_DAMAGED", "DEFECTIVE_ITEM", "DIFFERENT_FROM_LISTING", "MISSING_PARTS", "FAKE_OR_COUNTERFEIT"
]
REMORSE = set(RemorseReason.__args__)
NOT_AS_DESCRIBED_DAYS = 30  # eBay Money Back Guarantee
FEEDBACK_DAYS = 60
FEEDBACK_LENGTH = 80
MAX_WATCHLIST = 300
MAX_CHECKOUT_LINES = 10
MAX_MESSAGE = 250
STOP_WORDS = {"a", "an", "and", "the", "of", "with", "for", "in", "on"}


class LineItemInput(BaseModel):
    """An item to buy in a checkout."""

    item_id: str = Field(description="The listing's item ID (v1|...|0).")
    quantity: int = Field(1, description="How many units to buy.")


# ---------------------------------------------------------------- what only the buyer does


@tool(user_only=True)
def sign_in(db: Database, username: str) -> User:
    """(Buyer only) The buyer signs in to eBay and grants this application access to their account; the
    password never reaches the assistant.

    Args:
        username: The buyer's eBay username or email.
    """
    wanted = username.strip().casefold()
    found = [u for u in db.find(users) if wanted in (u["username"].casefold(), u["email"].casefold())]
    if not found:
        raise NotFound("We couldn't find an eBay account with that username or email.")
    if found[0]["status"] != "CONFIRMED":
        raise PermissionDenied("This eBay account is suspended and can't grant access.")
    db.conn.execute(auth_sessions.delete())
    db.insert(auth_sessions, id="current", username=found[0]["username"], granted_at=db.now_iso())
    return user_object(found[0])


@tool(user_only=True)
def confirm_payment(db: Database, purchase_order_id: str) -> PurchaseOrder:
    """(Buyer only, in the eBay app) The buyer confirms the payment of a purchase order with their saved payment
    method; the order is then PAID and goes to the seller to ship.

    Args:
        purchase_order_id: The order whose payment the app asks to confirm.
    """
    order = own_order(db, signed_in(db), purchase_order_id)
    if order["purchase_order_status"] == "CANCELLED":
        raise Conflict(f"Order {order['purchase_order_id']} was cancelled.")
    if order["payment_status"] == "PAID":
        raise Conflict(f"Order {order['purchase_order_id']} is already paid.")
    return order_object(
        db, db.update(purchase_orders, order["purchase_order_id"], payment_status="PAID", paid_date=db.now_iso())
    )


# ---------------------------------------------------------------- the member


@tool(read_only=True)
def get_user(db: Database) -> User:
    """Get the signed-in eBay member: username, name, contact details, shipping address and payment method."""
    return user_object(signed_in(db))


# ---------------------------------------------------------------- Browse


def _keywords(q: str | None) -> list[str]:
    """The words of a query that must match (eBay ignores words like "and", "the", "with")."""
    return [w for w in (q or "").casefold().replace("&", " ").split() if w not in STOP_WORDS]


def _matches(item: dict[str, Any], words: list[str]) -> bool:
    text = f"{item['title']} {item['brand'] or ''}".casefold()
    return all(word in text for word in words)


def _sort(db: Database, found: list[dict[str, Any]], sort: SortOrder) -> list[dict[str, Any]]:
    """Listings in eBay's sort order ("price" counts the cheapest shipping too); ties by item ID."""

    def with_shipping(item: dict[str, Any]) -> int:
        options = options_of(db, item["item_id"])
        return effective_price(item) + (options[0]["cost"] if options else 0)

    key, descending = {
        "BEST_MATCH": (lambda i: i["watch_count"], True),
        "price": (with_shipping, False),
        "-price": (with_shipping, True),
        "newlyListed": (lambda i: i["item_creation_date"], True),
        "endingSoonest": (lambda i: i["item_end_date"] or "9999", False),
    }[sort]
    return sorted(sorted(found, key=lambda i: i["item_id"]), key=key, reverse=descending)


def _paged(
    rows: list[dict[str, Any]],
    limit: int,
    offset: int,
    convert: Callable[[dict[str, Any]], BaseModel],
    max_page_size: int = 100,
) -> Page[Any]:
    """One page of rows, converted to API objects."""
    page = paginate(rows, limit, str(offset), max_page_size=max_page_size)
    return Page[Any](results=[convert(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more)


@tool(read_only=True)
def search_items(
    db: Database,
    q: str | None = None,
    category_id: str | None = None,
    conditions: list[ConditionGroup] | None = None,
    buying_options: list[BuyingOption] | None = None,
    min_price: float | None = None,
    max_price: float | None = None,
    free_shipping: bool = False,
    sort: SortOrder = "BEST_MATCH",
    limit: int = 50,
    offset: int = 0,
) -> Page[ItemSummary]:
    """Search active eBay listings by keywords and/or category, with eBay's filters (no keywords and no category:
    every active listing). Prices filter on the Buy It Now price, or the current bid of an auction.

    Args:
        q: Keywords; every word must appear in the title or brand.
        category_id: Only listings in this eBay category ID (e.g. 31388 Digital Cameras).
        conditions: Only these condition groups.
        buying_options: Only listings offering any of these: FIXED_PRICE (Buy It Now), AUCTION, BEST_OFFER.
        min_price: Lowest price in US dollars.
        max_price: Highest price in US dollars.
        free_shipping: Only listings with a free shipping option.
        sort: BEST_MATCH, price (price plus shipping, lowest first), -price, newlyListed or endingSoonest.
        limit: Results per page, 1 to 200.
        offset: Results to skip: the next_cursor of the previous page.
    """
    words = _keywords(q)
    low = None if min_price is None else round(min_price * 100)
    high = None if max_price is None else round(max_price * 100)
    found = []
    for item in db.find(items, listing_status="ACTIVE"):
        if has_ended(db, item) or not _matches(item, words):
            continue
        if category_id and item["category_id"] != category_id.strip():
            continue
        if conditions and CONDITION_GROUPS.get(item["condition_id"]) not in conditions:
            continue
        if buying_options and not set(buying_options) & set(item["buying_options"]):
            continue
        price = effective_price(item)
        if (low is not None and price < low) or (high is not None and price > high):
            continue
        if free_shipping and not any(o["cost"] == 0 for o in options_of(db, item["item_id"])):
            continue
        found.append(item)
    return _paged(_sort(db, found, sort), limit, offset, lambda i: item_summary(db, i), max_page_size=200)


@tool(read_only=True)
def get_item(db: Database, item_id: str) -> Item:
    """Get a listing's details: price or current bid and minimum next bid, condition, item specifics, quantity,
    shipping options with delivery estimates, where the seller ships, and the return policy.

    Args:
        item_id: The RESTful item ID, v1|<item number>|0.
    """
    return item_object(db, listing(db, item_id))


# ---------------------------------------------------------------- Watchlist


@tool(read_only=True)
def get_watchlist(db: Database, limit: int = 25, offset: int = 0) -> Page[WatchedItem]:
    """List the items on the buyer's Watchlist, most recently added first, ended listings included.

    Args:
        limit: Items per page, 1 to 100.
        offset: Items to skip: the next_cursor of the previous page.
    """
    buyer = signed_in(db)
    entries = db.find(watchlist, username=buyer["username"], order_by=[watchlist.c.added.desc()])
    return _paged(entries, limit, offset, lambda e: watched_item(db, e))


@tool()
def add_to_watchlist(db: Database, item_id: str) -> WatchedItem:
    """Add an active listing to the buyer's Watchlist (at most 300 items).

    Args:
        item_id: The listing's item ID.
    """
    buyer = signed_in(db)
    item = listing(db, item_id)
    require_active(db, item)
    mine = db.find(watchlist, username=buyer["username"])
    if any(e["item_id"] == item["item_id"] for e in mine):
        raise Conflict(f"'{item['title']}' is already on your Watchlist.")
    if len(mine) >= MAX_WATCHLIST:
        raise Conflict(f"Your Watchlist is full ({MAX_WATCHLIST} items); remove some items first.")
    entry = db.insert(
        watchlist,
        id=db.new_id(watchlist, "wl_", width=5),
        username=buyer["username"],
        item_id=item["item_id"],
        added=db.now_iso(),
    )
    db.update(items, item["item_id"], watch_count=item["watch_count"] + 1)
    return watched_item(db, entry)


@tool()
def remove_from_watchlist(db: Database, item_id: str) -> WatchedItem:
    """Remove an item from the buyer's Watchlist.

    Args:
        item_id: The listing's item ID.
    """
    buyer = signed_in(db)
    item = listing(db, item_id)
    found = db.find(watchlist, username=buyer["username"], item_id=item["item_id"])
    if not found:
        raise NotFound(f"'{item['title']}' isn't on your Watchlist.")
    shown = watched_item(db, found[0])
    db.delete(watchlist, found[0]["id"])
    db.update(items, item["item_id"], watch_count=max(item["watch_count"] - 1, 0))
    return shown


# ---------------------------------------------------------------- auctions


@tool(read_only=True)
def get_bidding(db: Database, item_id: str) -> Bidding:
    """Get the buyer's standing in an auction they have bid on: current price, their maximum bid, whether they
    are the high bidder, whether the reserve is met, and suggested next bids.

    Args:
        item_id: The auction's item ID.
    """
    buyer = signed_in(db)
    item = listing(db, item_id)
    if not db.find(bids, item_id=item["item_id"], bidder=buyer["username"]):
        raise NotFound("You haven't bid on this item; see get_item for its auction details.")
    return bidding_object(db, item, buyer["username"])


@tool()
def place_proxy_bid(db: Database, item_id: str, max_amount: float) -> Bidding:
    """Place a proxy bid: the most the buyer will pay. eBay bids for them one increment at a time, only as much
    as needed to stay ahead. A new bid must reach the current price plus one bid increment (the opening bid when
    there are no bids); a high bidder can only raise their maximum. A winning bid is a commitment to buy.

    Args:
        item_id: The auction's item ID.
        max_amount: The maximum bid in US dollars, e.g. 152.50.
    """
    buyer = signed_in(db)
    item = listing(db, item_id)
    if not is_auction(item):
        raise InvalidRequest(f"'{item['title']}' isn't an auction; buy it with checkout or make an offer.")
    require_active(db, item)
    check_ships_to(item, buyer["shipping_address"])
    updated = place_bid(db, item, buyer["username"], to_cents(max_amount, "max_amount"))
    return bidding_object(db, updated, buyer["username"])


# ---------------------------------------------------------------- Best Offers


def _buy(db: Database, buyer: dict[str, Any], item: dict[str, Any], quantity: int, price: int, kind: str) -> str:
    """An order for a negotiated sale, shipped with the listing's default (cheapest) service."""
    check_quantity(db, buyer, item, quantity)
    option = options_of(db, item["item_id"])[0]
    order = create_order(db, buyer, buyer["shipping_address"], [Purchase(item, quantity, price, option, kind)])
    return order["purchase_order_id"]


def _submit_offer(
    db: Database, buyer: dict[str, Any], item: dict[str, Any], price: int, quantity: int, message: str | None
) -> dict[str, Any]:
    """Send an offer to the seller, whose automatic rules may accept or decline it at once."""
    check_offer_allowed(db, buyer, item)
    if message is not None and len(message) > MAX_MESSAGE:
        raise InvalidRequest(f"The message to the seller can be at most {MAX_MESSAGE} characters.")
    status = seller_decision(item, price)
    order_id = _buy(db, buyer, item, quantity, price, "BEST_OFFER") if status == "ACCEPTED" else None
    return db.insert(
        best_offers,
        best_offer_id=db.new_id(best_offers, "50", width=8),
        item_id=item["item_id"],
        buyer=buyer["username"],
        price=price,
        quantity=quantity,
        message=message,
        status=status,
        counter_price=None,
        counter_message=None,
        purchase_order_id=order_id,
        created=db.now_iso(),
        expiration=later(db, OFFER_HOURS),
    )


@tool(read_only=True)
def get_best_offers(db: Database, item_id: str | None = None, status: OfferStatus | None = None) -> list[BestOffer]:
    """List the Best Offers the buyer has made, newest first, with the sellers' counteroffers.

    Args:
        item_id: Only offers on this listing.
        status: Only offers in this status (COUNTERED: a counteroffer waits for the buyer).
    """
    buyer = signed_in(db)
    equals = {"item_id": listing(db, item_id)["item_id"]} if item_id else {}
    rows = db.find(best_offers, buyer=buyer["username"], order_by=[best_offers.c.created.desc()], **equals)
    return [offer_object(db, r) for r in rows if status is None or offer_status(db, r) == status]


@tool()
def make_best_offer(
    db: Database, item_id: str, price: float, quantity: int = 1, message: str | None = None
) -> BestOffer:
    """Make a Best Offer on a fixed-price listing that accepts offers. The offer must be below the Buy It Now
    price; a buyer has one active offer per item and at most five offers per item. The seller may accept or
    decline at once, or answer within 48 hours. An accepted offer is a commitment to buy: it becomes an order to pay.

    Args:
        item_id: The listing's item ID.
        price: The offered price per unit in US dollars.
        quantity: Units wanted (multi-quantity listings).
        message: A note to the seller, at most 250 characters.
    """
    buyer = signed_in(db)
    item = listing(db, item_id)
    require_active(db, item)
    if "BEST_OFFER" not in item["buying_options"]:
        raise InvalidRequest(f"'{item['title']}' doesn't accept offers.")
    check_ships_to(item, buyer["shipping_address"])
    check_quantity(db, buyer, item, quantity)
    cents = to_cents(price, "price")
    if cents >= item["price"]:
        raise InvalidRequest(f"Your offer must be below the Buy It Now price of {usd(item['price'])}.")
    return offer_object(db, _submit_offer(db, buyer, item, cents, quantity, message))


@tool()
def respond_to_counter_offer(
    db: Database,
    best_offer_id: str,
    action: Literal["ACCEPT", "DECLINE", "COUNTER"],
    counter_price: float | None = None,
    message: str | None = None,
) -> BestOffer:
    """Answer a seller's counteroffer within its 48 hours: ACCEPT (a commitment to buy at that price: it becomes
    an order to pay), DECLINE, or COUNTER with a lower price (a new offer that counts towards the five allowed).

    Args:
        best_offer_id: The offer the seller countered.
        action: ACCEPT, DECLINE or COUNTER.
        counter_price: For COUNTER: your price per unit in US dollars, below the seller's counteroffer.
        message: For COUNTER: a note to the seller, at most 250 characters.
    """
    buyer = signed_in(db)
    found = db.find(best_offers, best_offer_id=best_offer_id.strip(), buyer=buyer["username"])
    if not found:
        raise NotFound(f"Best Offer {best_offer_id} was not found on your account.")
    offer = found[0]
    status = offer_status(db, offer)
    if status == "EXPIRED" and offer["status"] == "COUNTERED":
        raise Conflict(f"The seller's counteroffer expired at {offer['expiration']}.")
    if status != "COUNTERED":
        raise Conflict(f"There's no counteroffer to answer on this offer (it is {status}).")
    item = db.get(items, offer["item_id"], "Item")
    if action == "DECLINE":
        return offer_object(db, db.update(best_offers, offer["best_offer_id"], status="DECLINED"))
    require_active(db, item)
    if action == "ACCEPT":
        order_id = _buy(db, buyer, item, offer["quantity"], offer["counter_price"], "BEST_OFFER")
        return offer_object(
            db, db.update(best_offers, offer["best_offer_id"], status="ACCEPTED", purchase_order_id=order_id)
        )
    if counter_price is None:
        raise InvalidRequest("counter_price is required to counter.")
    cents = to_cents(counter_price, "counter_price")
    if cents >= offer["counter_price"]:
        raise InvalidRequest(
            f"Your counteroffer must be below the seller's {usd(offer['counter_price'])}; accept it instead."
        )
    db.update(best_offers, offer["best_offer_id"], status="DECLINED")
    return offer_object(db, _submit_offer(db, buyer, item, cents, offer["quantity"], message))


# ---------------------------------------------------------------- checkout


def _own_session(db: Database, buyer: dict[str, Any], checkout_session_id: str) -> dict[str, Any]:
    found = db.find(checkout_sessions, checkout_session_id=checkout_session_id.strip(), username=buyer["username"])
    if not found:
        raise NotFound(f"Checkout session {checkout_session_id} was not found.")
    if found[0]["status"] != "ACTIVE":
        raise Conflict(f"Checkout session {checkout_session_id} already placed order {found[0]['purchase_order_id']}.")
    return found[0]


def _buy_it_now(db: Database, buyer: dict[str, Any], item_id: str, quantity: int) -> dict[str, Any]:
    """A listing that can be bought now at its Buy It Now price, in this quantity, by this buyer."""
    item = listing(db, item_id)
    require_active(db, item)
    if "FIXED_PRICE" not in item["buying_options"]:
        raise Conflict(f"'{item['title']}' has no Buy It Now option (any longer): bid on it or make an offer.")
    check_ships_to(item, buyer["shipping_address"])
    check_quantity(db, buyer, item, quantity)
    return item


@tool()
def initiate_checkout_session(db: Database, line_items: list[LineItemInput]) -> CheckoutSession:
    """Start a Buy It Now checkout for up to 10 listings, shipped to the buyer's address with each listing's
    cheapest shipping service. Returns the shipping options, tax and total; place_order buys.

    Args:
        line_items: The items and quantities to buy.
    """
    buyer = signed_in(db)
    if not 1 <= len(line_items) <= MAX_CHECKOUT_LINES:
        raise InvalidRequest(f"A checkout holds 1 to {MAX_CHECKOUT_LINES} line items.")
    lines = []
    for index, wanted in enumerate(line_items, start=1):
        item = _buy_it_now(db, buyer, wanted.item_id, wanted.quantity)
        if any(line["itemId"] == item["item_id"] for line in lines):
            raise InvalidRequest(f"'{item['title']}' is listed twice; set its quantity instead.")
        lines.append(
            {
                "lineItemId": str(index),
                "itemId": item["item_id"],
                "quantity": wanted.quantity,
                "shippingOptionId": options_of(db, item["item_id"])[0]["shipping_service_code"],
            }
        )
    session = db.insert(
        checkout_sessions,
        checkout_session_id=db.new_id(checkout_sessions, "1000", width=8),
        username=buyer["username"],
        line_items=lines,
        shipping_address=buyer["shipping_address"],
        status="ACTIVE",
        purchase_order_id=None,
        created=db.now_iso(),
    )
    return checkout_object(db, session)


@tool()
def update_shipping_option(
    db: Database, checkout_session_id: str, line_item_id: str, shipping_option_id: str
) -> CheckoutSession:
    """Choose another shipping service for one line of a checkout session.

    Args:
        checkout_session_id: The checkout session.
        line_item_id: The line's lineItemId in the session.
        shipping_option_id: One of the line's shippingOptionId values (e.g. USPSPriority).
    """
    buyer = signed_in(db)
    session = _own_session(db, buyer, checkout_session_id)
    lines = [dict(line) for line in session["line_items"]]
    line = next((li for li in lines if li["lineItemId"] == line_item_id.strip()), None)
    if line is None:
        raise NotFound(f"Line item {line_item_id} is not in checkout session {checkout_session_id}.")
    item = db.get(items, line["itemId"], "Item")
    line["shippingOptionId"] = option_by_id(db, item, shipping_option_id)["shipping_service_code"]
    return checkout_object(db, db.update(checkout_sessions, session["checkout_session_id"], line_items=lines))


@tool()
def place_order(db: Database, checkout_session_id: str) -> PurchaseOrder:
    """Place the order of a checkout session. The purchase order's payment stays PENDING until the buyer
    confirms it in the eBay app.

    Args:
        checkout_session_id: The checkout session to buy.
    """
    buyer = signed_in(db)
    session = _own_session(db, buyer, checkout_session_id)
    purchases = []
    for line in session["line_items"]:
        item = _buy_it_now(db, buyer, line["itemId"], line["quantity"])
        option = option_by_id(db, item, line["shippingOptionId"])
        purchases.append(Purchase(item, line["quantity"], item["price"], option, "FIXED_PRICE"))
    order = create_order(db, buyer, session["shipping_address"], purchases)
    db.update(
        checkout_sessions,
        session["checkout_session_id"],
        status="ORDER_PLACED",
        purchase_order_id=order["purchase_order_id"],
    )
    return order_object(db, order)


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def get_orders(
    db: Database, status: OrderStatus | None = None, limit: int = 25, offset: int = 0
) -> Page[PurchaseOrder]:
    """List the buyer's purchase orders, newest first, with line items, tracking, returns and feedback.

    Args:
        status: Only orders in this status.
        limit: Orders per page, 1 to 100.
        offset: Orders to skip: the next_cursor of the previous page.
    """
    buyer = signed_in(db)
    equals = {"purchase_order_status": status} if status else {}
    rows = db.find(
        purchase_orders, buyer=buyer["username"], order_by=[purchase_orders.c.creation_date.desc()], **equals
    )
    return _paged(rows, limit, offset, lambda r: order_object(db, r))


@tool(read_only=True)
def get_order(db: Database, purchase_order_id: str) -> PurchaseOrder:
    """Get one purchase order: status, payment, pricing, line items with tracking, returns and feedback.

    Args:
        purchase_order_id: The order number, e.g. 25-13284-00042.
    """
    return order_object(db, own_order(db, signed_in(db), purchase_order_id))


# ---------------------------------------------------------------- returns


@tool()
def create_return(
    db: Database,
    line_item_id: str,
    reason: RemorseReason | NotAsDescribedReason,
    quantity: int = 1,
    comments: str | None = None,
) -> Return:
    """Open a return request for a delivered order line. Remorse reasons need a listing that accepts returns and
    must be opened within its return period after delivery; the buyer pays return shipping when the listing
    says so. Items not as described (damaged, defective, different, missing parts, fake) can be returned within
    30 days of delivery even without a return policy, with return shipping on the seller.

    Args:
        line_item_id: The order line to return.
        reason: Why the item goes back.
        quantity: Units to return.
        comments: Details for the seller.
    """
    buyer = signed_in(db)
    line, order = own_line_item(db, buyer, line_item_id)
    if line["fulfillment_status"] != "DELIVERED" or not line["delivered_date"]:
        raise Conflict("You can start a return once the item has been delivered.")
    if any(r["status"] != "CLOSED" for r in db.find(returns, line_item_id=line["line_item_id"])):
        raise Conflict(f"A return is already open for '{line['title']}'.")
    if not 1 <= quantity <= line["quantity"]:
        raise InvalidRequest(f"quantity must be between 1 and {line['quantity']}.")
    item = db.get(items, line["item_id"], "Item")
    remorse = reason in REMORSE
    if remorse and not item["returns_accepted"]:
        raise PermissionDenied(
            "The seller doesn't accept returns for this item. You can still return it if it isn't as described."
        )
    days = item["return_period_days"] if remorse else NOT_AS_DESCRIBED_DAYS
    deadline = moment(line["delivered_date"]).date() + timedelta(days=days)
    if today(db) > deadline:
        raise Conflict(f"The return window for '{line['title']}' closed on {deadline}.")
    refund = line["unit_price"] * quantity + (0 if remorse else line["shipping_cost"])
    seller = db.get(sellers, line["seller"], "Seller")
    row = db.insert(
        returns,
        return_id=db.new_id(returns, "52", width=8),
        line_item_id=line["line_item_id"],
        buyer=buyer["username"],
        seller=line["seller"],
        reason=reason,
        reason_type="REMORSE" if remorse else "SNAD",
        quantity=quantity,
        comments=comments,
        status="READY_FOR_SHIPPING" if seller["auto_accept_returns"] else "RETURN_REQUESTED",
        return_shipping_cost_payer=item["return_shipping_cost_payer"] if remorse else "SELLER",
        estimated_refund=refund,
        creation_date=db.now_iso(),
    )
    return return_object(row, line["item_id"])


# ---------------------------------------------------------------- feedback


@tool()
def leave_feedback(
    db: Database,
    line_item_id: str,
    comment_type: Literal["POSITIVE", "NEUTRAL", "NEGATIVE"],
    comment_text: str,
) -> Feedback:
    """Leave feedback for the seller of a paid purchase, once per order line and within 60 days of the purchase.

    Args:
        line_item_id: The order line the feedback is about.
        comment_type: POSITIVE, NEUTRAL or NEGATIVE.
        comment_text: The comment, 1 to 80 characters.
    """
    buyer = signed_in(db)
    line, order = own_line_item(db, buyer, line_item_id)
    if order["payment_status"] != "PAID":
        raise Conflict("You can leave feedback once the order is paid.")
    if db.find(feedback, line_item_id=line["line_item_id"]):
        raise Conflict(f"You've already left feedback for '{line['title']}'.")
    if today(db) > moment(order["creation_date"]).date() + timedelta(days=FEEDBACK_DAYS):
        raise Conflict(f"Feedback can only be left within {FEEDBACK_DAYS} days of the purchase.")
    text = comment_text.strip()
    if not 1 <= len(text) <= FEEDBACK_LENGTH:
        raise InvalidRequest(f"comment_text must be 1 to {FEEDBACK_LENGTH} characters.")
    seller = db.get(sellers, line["seller"], "Seller")
    counts = {"POSITIVE": ("positive_count", 1), "NEUTRAL": ("neutral_count", 0), "NEGATIVE": ("negative_count", -1)}
    column, score = counts[comment_type]
    db.update(
        sellers, seller["username"], **{column: seller[column] + 1}, feedback_score=seller["feedback_score"] + score
    )
    row = db.insert(
        feedback,
        feedback_id=db.new_id(feedback, "18", width=8),
        line_item_id=line["line_item_id"],
        item_id=line["item_id"],
        commenting_user=buyer["username"],
        seller=line["seller"],
        comment_type=comment_type,
        comment_text=text,
        creation_date=db.now_iso(),
    )
    return feedback_object(db, row)
