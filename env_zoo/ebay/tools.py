"""eBay buyer tools: the signed-in member, Browse search and item details, the Watchlist, proxy bidding, Best
Offers and counteroffers, Buy It Now checkout, purchase orders, returns and feedback, plus what only the buyer
does (signing in and granting access, confirming a payment in the eBay app)."""

from __future__ import annotations

from typing import Annotated, Any, Callable, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, PageSize, page_size
from envfactory_gym.values import minor_units

from .access import own_line_item, own_offer, own_order, own_session, signed_in
from .access import sign_in as grant_access
from .aftersale import open_return, record_feedback
from .auction import place_bid
from .browse import find_listings, sort_listings
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
from .offers import answer_counter, submit_offer
from .orders import choose_shipping, place_session, start_checkout
from .rules import check_quantity, check_ships_to, is_auction, listing, offer_status, require_active, usd
from .schema import best_offers, bids, items, purchase_orders, watchlist

ConditionGroup = Literal["NEW", "CERTIFIED_REFURBISHED", "SELLER_REFURBISHED", "USED", "FOR_PARTS_OR_NOT_WORKING"]
BuyingOption = Literal["FIXED_PRICE", "AUCTION", "BEST_OFFER"]
SortOrder = Literal["BEST_MATCH", "price", "-price", "newlyListed", "endingSoonest"]
OrderStatus = Literal["PENDING", "FULFILLMENT_IN_PROGRESS", "DELIVERED", "CANCELLED"]
OfferStatus = Literal["PENDING", "ACCEPTED", "DECLINED", "COUNTERED", "EXPIRED", "RETRACTED"]
RemorseReason = Literal["NO_LONGER_NEED_ITEM", "ORDERED_ACCIDENTALLY", "FOUND_BETTER_PRICE", "WRONG_SIZE"]
NotAsDescribedReason = Literal[
    "ARRIVED_DAMAGED", "DEFECTIVE_ITEM", "DIFFERENT_FROM_LISTING", "MISSING_PARTS", "FAKE_OR_COUNTERFEIT"
]
ItemId = Annotated[
    str,
    Field(pattern=r"^\s*v1\|\d{9,15}\|0\s*$"),
    ErrorText("Invalid item ID: use the RESTful ID, e.g. v1|226415973021|0."),
]
Dollars = Annotated[
    float, Field(gt=0), ErrorText("must be a positive amount in US dollars with at most two decimals, like 24.99.")
]
PriceFilter = Annotated[float, Field(ge=0), ErrorText("must be an amount in US dollars of at least 0.")]
Quantity = Annotated[int, Field(ge=1), ErrorText("quantity must be at least 1.")]
SellerMessage = Annotated[
    str, Field(max_length=250), ErrorText("The message to the seller can be at most 250 characters.")
]
FeedbackText = Annotated[str, Field(max_length=80, pattern=r"\S"), ErrorText("must be 1 to 80 characters.")]
Offset = Annotated[int, Field(ge=0), ErrorText("offset must be 0 or more.")]
SearchLimit = page_size(200)
MAX_WATCHLIST = 300


class LineItemInput(BaseModel):
    """An item to buy in a checkout."""

    item_id: ItemId = Field(description="The listing's item ID (v1|...|0).")
    quantity: Quantity = Field(1, description="How many units to buy.")


def _cents(value: float, name: str) -> int:
    """A dollar amount argument in cents (at most two decimals)."""
    return minor_units(value, "USD", name)


def _paged(
    rows: list[dict[str, Any]], limit: int, offset: int, convert: Callable[[dict[str, Any]], BaseModel]
) -> Page[Any]:
    """One page of rows, converted to API objects."""
    page = paginate(rows, limit, str(offset), max_page_size=200)
    return Page[Any](results=[convert(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more)


# ---------------------------------------------------------------- what only the buyer does


@tool(user_only=True)
def sign_in(db: Database, username: str) -> User:
    """(Buyer only) The buyer signs in to eBay and grants this application access to their account; the
    password never reaches the assistant.

    Args:
        username: The buyer's eBay username or email.
    """
    return user_object(grant_access(db, username))


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


@tool(read_only=True)
def search_items(
    db: Database,
    q: str | None = None,
    category_id: str | None = None,
    conditions: list[ConditionGroup] | None = None,
    buying_options: list[BuyingOption] | None = None,
    min_price: PriceFilter | None = None,
    max_price: PriceFilter | None = None,
    free_shipping: bool = False,
    sort: SortOrder = "BEST_MATCH",
    limit: SearchLimit = 50,
    offset: Offset = 0,
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
    low = None if min_price is None else round(min_price * 100)
    high = None if max_price is None else round(max_price * 100)
    found = find_listings(db, q, category_id, conditions, buying_options, low, high, free_shipping)
    return _paged(sort_listings(db, found, sort), limit, offset, lambda i: item_summary(db, i))


@tool(read_only=True)
def get_item(db: Database, item_id: ItemId) -> Item:
    """Get a listing's details: price or current bid and minimum next bid, condition, item specifics, quantity,
    shipping options with delivery estimates, where the seller ships, and the return policy.

    Args:
        item_id: The RESTful item ID, v1|<item number>|0.
    """
    return item_object(db, listing(db, item_id))


# ---------------------------------------------------------------- Watchlist


@tool(read_only=True)
def get_watchlist(db: Database, limit: PageSize = 25, offset: Offset = 0) -> Page[WatchedItem]:
    """List the items on the buyer's Watchlist, most recently added first, ended listings included.

    Args:
        limit: Items per page, 1 to 100.
        offset: Items to skip: the next_cursor of the previous page.
    """
    buyer = signed_in(db)
    entries = db.find(watchlist, username=buyer["username"], order_by=[watchlist.c.added.desc()])
    return _paged(entries, limit, offset, lambda e: watched_item(db, e))


@tool()
def add_to_watchlist(db: Database, item_id: ItemId) -> WatchedItem:
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
def remove_from_watchlist(db: Database, item_id: ItemId) -> WatchedItem:
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
def get_bidding(db: Database, item_id: ItemId) -> Bidding:
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
def place_proxy_bid(db: Database, item_id: ItemId, max_amount: Dollars) -> Bidding:
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
    updated = place_bid(db, item, buyer["username"], _cents(max_amount, "max_amount"))
    return bidding_object(db, updated, buyer["username"])


# ---------------------------------------------------------------- Best Offers


@tool(read_only=True)
def get_best_offers(db: Database, item_id: ItemId | None = None, status: OfferStatus | None = None) -> list[BestOffer]:
    """List the Best Offers the buyer has made, newest first, with the sellers' counteroffers.

    Args:
        item_id: Only offers on this listing.
        status: Only offers in this status (COUNTERED: a counteroffer waits for the buyer).
    """
    buyer = signed_in(db)
    on = listing(db, item_id)["item_id"] if item_id else None
    rows = db.find(best_offers, order_by=[best_offers.c.created.desc()], **given(buyer=buyer["username"], item_id=on))
    return [offer_object(db, r) for r in rows if status is None or offer_status(db, r) == status]


@tool()
def make_best_offer(
    db: Database, item_id: ItemId, price: Dollars, quantity: Quantity = 1, message: SellerMessage | None = None
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
    cents = _cents(price, "price")
    if cents >= item["price"]:
        raise InvalidRequest(f"Your offer must be below the Buy It Now price of {usd(item['price'])}.")
    return offer_object(db, submit_offer(db, buyer, item, cents, quantity, message))


@tool()
def respond_to_counter_offer(
    db: Database,
    best_offer_id: str,
    action: Literal["ACCEPT", "DECLINE", "COUNTER"],
    counter_price: Dollars | None = None,
    message: SellerMessage | None = None,
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
    offer = own_offer(db, buyer, best_offer_id)
    cents = None if counter_price is None else _cents(counter_price, "counter_price")
    return offer_object(db, answer_counter(db, buyer, offer, action, cents, message))


# ---------------------------------------------------------------- checkout


@tool()
def initiate_checkout_session(
    db: Database,
    line_items: Annotated[
        list[LineItemInput], Field(min_length=1, max_length=10), ErrorText("A checkout holds 1 to 10 line items.")
    ],
) -> CheckoutSession:
    """Start a Buy It Now checkout for up to 10 listings, shipped to the buyer's address with each listing's
    cheapest shipping service. Returns the shipping options, tax and total; place_order buys.

    Args:
        line_items: The items and quantities to buy.
    """
    buyer = signed_in(db)
    session = start_checkout(db, buyer, [(line.item_id, line.quantity) for line in line_items])
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
    session = own_session(db, signed_in(db), checkout_session_id)
    return checkout_object(db, choose_shipping(db, session, line_item_id, shipping_option_id))


@tool()
def place_order(db: Database, checkout_session_id: str) -> PurchaseOrder:
    """Place the order of a checkout session. The purchase order's payment stays PENDING until the buyer
    confirms it in the eBay app.

    Args:
        checkout_session_id: The checkout session to buy.
    """
    buyer = signed_in(db)
    return order_object(db, place_session(db, buyer, own_session(db, buyer, checkout_session_id)))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def get_orders(
    db: Database, status: OrderStatus | None = None, limit: PageSize = 25, offset: Offset = 0
) -> Page[PurchaseOrder]:
    """List the buyer's purchase orders, newest first, with line items, tracking, returns and feedback.

    Args:
        status: Only orders in this status.
        limit: Orders per page, 1 to 100.
        offset: Orders to skip: the next_cursor of the previous page.
    """
    buyer = signed_in(db)
    newest = [purchase_orders.c.creation_date.desc()]
    rows = db.find(purchase_orders, order_by=newest, **given(buyer=buyer["username"], purchase_order_status=status))
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
    quantity: Quantity = 1,
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
    line, _ = own_line_item(db, buyer, line_item_id)
    return return_object(open_return(db, buyer, line, reason, quantity, comments), line["item_id"])


# ---------------------------------------------------------------- feedback


@tool()
def leave_feedback(
    db: Database,
    line_item_id: str,
    comment_type: Literal["POSITIVE", "NEUTRAL", "NEGATIVE"],
    comment_text: FeedbackText,
) -> Feedback:
    """Leave feedback for the seller of a paid purchase, once per order line and within 60 days of the purchase.

    Args:
        line_item_id: The order line the feedback is about.
        comment_type: POSITIVE, NEUTRAL or NEGATIVE.
        comment_text: The comment, 1 to 80 characters.
    """
    buyer = signed_in(db)
    line, order = own_line_item(db, buyer, line_item_id)
    return feedback_object(db, record_feedback(db, buyer, line, order, comment_type, comment_text))
