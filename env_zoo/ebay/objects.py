"""eBay's API objects as output models (field names as in the Browse, Offer, Order and Post-Order APIs), and how
stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .auction import minimum_bid, reserve_met, suggested_bids
from .orders import options_of, shipping_cost
from .rules import delivery_window, dollars, has_ended, is_auction, offer_status, sales_tax
from .schema import bids, feedback, items, line_items, returns, sellers


class Amount(BaseModel):
    """Money as eBay writes it."""

    value: str = Field(description="decimal string, e.g. 24.99")
    currency: str = "USD"


def amount(cents: int | None) -> Amount | None:
    """Cents as an Amount (None stays None)."""
    return None if cents is None else Amount(value=dollars(cents))


class SellerSummary(BaseModel):
    """The seller of a listing."""

    username: str
    feedbackScore: int
    feedbackPercentage: str = Field(description="positive feedback over the last 12 months, e.g. 99.6")
    topRated: bool


class ItemLocation(BaseModel):
    """Where the item ships from."""

    city: str
    stateOrProvince: str | None = None
    postalCode: str | None = None
    country: str


class ShippingOption(BaseModel):
    """A shipping service a listing offers, with its estimated delivery window if bought today."""

    shippingOptionId: str = Field(description="pass this to checkout to choose the service")
    shippingServiceCode: str
    shippingCarrierCode: str
    type: str
    shippingCost: Amount
    additionalShippingCostPerUnit: Amount
    minEstimatedDeliveryDate: str
    maxEstimatedDeliveryDate: str


class ReturnPeriod(BaseModel):
    """How long the buyer has to start a return after delivery."""

    value: int
    unit: str = "CALENDAR_DAY"


class ReturnTerms(BaseModel):
    """The listing's return policy."""

    returnsAccepted: bool
    returnPeriod: ReturnPeriod | None
    returnShippingCostPayer: str | None = Field(description="BUYER or SELLER, for remorse returns")


class ItemSummary(BaseModel):
    """A listing as search results show it."""

    itemId: str
    legacyItemId: str
    title: str
    categoryId: str
    condition: str
    conditionId: str
    buyingOptions: list[str] = Field(description="FIXED_PRICE (Buy It Now), AUCTION, BEST_OFFER")
    price: Amount | None = Field(description="the Buy It Now price, when the listing has one")
    currentBidPrice: Amount | None = Field(description="auctions: the current high bid (or the opening bid)")
    bidCount: int | None
    itemEndDate: str | None
    shippingCost: Amount | None = Field(description="the cheapest shipping option")
    seller: SellerSummary
    itemLocation: ItemLocation


class Aspect(BaseModel):
    """An item specific (Brand, Model, Size, ...)."""

    name: str
    value: str


class Item(ItemSummary):
    """A listing's full details."""

    subtitle: str | None
    categoryPath: str
    conditionDescription: str | None
    brand: str | None
    localizedAspects: list[Aspect]
    description: str
    listingStatus: str = Field(description="ACTIVE or ENDED")
    itemCreationDate: str
    estimatedAvailableQuantity: int
    estimatedSoldQuantity: int
    quantityLimitPerBuyer: int | None
    minimumPriceToBid: Amount | None
    reservePriceMet: bool | None = Field(description="auctions with a reserve: whether the high bid meets it")
    uniqueBidderCount: int | None
    watchCount: int
    shippingOptions: list[ShippingOption]
    shipToLocations: dict[str, list[str]] = Field(description="regionIncluded / regionExcluded")
    handlingTimeDays: int
    returnTerms: ReturnTerms


class ProxyBid(BaseModel):
    """The buyer's maximum bid."""

    proxyBidId: str
    maxAmount: Amount


class Bidding(BaseModel):
    """The buyer's standing in an auction they bid on."""

    itemId: str
    auctionStatus: str = Field(description="ACTIVE or ENDED; ENDED with highBidder true means the buyer won")
    auctionEndDate: str
    bidCount: int
    currentPrice: Amount
    currentProxyBid: ProxyBid
    highBidder: bool
    reservePriceMet: bool | None
    suggestedBidAmounts: list[Amount]


class CounterOffer(BaseModel):
    """The seller's counteroffer."""

    price: Amount
    message: str | None


class BestOffer(BaseModel):
    """An offer the buyer made on a Best Offer listing."""

    bestOfferId: str
    itemId: str
    title: str
    price: Amount
    quantity: int
    message: str | None
    status: str = Field(description="PENDING, ACCEPTED, DECLINED, COUNTERED (answer the seller), EXPIRED or RETRACTED")
    counterOffer: CounterOffer | None
    expirationTime: str = Field(description="when a pending offer or a counteroffer lapses (48 hours)")
    purchaseOrderId: str | None = Field(description="the order an accepted offer became; pay it in the app")
    creationDate: str


class WatchedItem(BaseModel):
    """A listing on the buyer's Watchlist."""

    itemId: str
    title: str
    buyingOptions: list[str]
    price: Amount | None
    currentBidPrice: Amount | None
    bidCount: int | None
    itemEndDate: str | None
    listingStatus: str
    seller: str
    addedDate: str


class CheckoutShippingOption(BaseModel):
    """A shipping service selectable for one line of a checkout."""

    shippingOptionId: str
    shippingCarrierCode: str
    type: str
    shippingCost: Amount = Field(description="for this line's quantity")
    minEstimatedDeliveryDate: str
    maxEstimatedDeliveryDate: str
    selected: bool


class CheckoutLineItem(BaseModel):
    """One item in a checkout session."""

    lineItemId: str
    itemId: str
    title: str
    seller: str
    quantity: int
    baseUnitPrice: Amount
    netPrice: Amount
    shippingOptions: list[CheckoutShippingOption]


class PricingSummary(BaseModel):
    """The money of a checkout or an order."""

    priceSubtotal: Amount
    deliveryCost: Amount
    tax: Amount
    total: Amount


class CheckoutSession(BaseModel):
    """A Buy It Now checkout: items, shipping choices and the price to pay."""

    checkoutSessionId: str
    status: str = Field(description="ACTIVE, or ORDER_PLACED once placeOrder has run")
    lineItems: list[CheckoutLineItem]
    pricingSummary: PricingSummary
    shippingAddress: dict[str, Any]
    purchaseOrderId: str | None


class ShipmentTracking(BaseModel):
    """How a line item travels."""

    shippingCarrierCode: str
    shipmentTrackingNumber: str
    shippedDate: str
    actualDeliveryDate: str | None


class OrderLineItem(BaseModel):
    """One item of a purchase order, with its shipment, return and feedback."""

    lineItemId: str
    itemId: str
    title: str
    seller: str
    quantity: int
    unitPrice: Amount
    purchaseType: str = Field(description="FIXED_PRICE, BEST_OFFER or AUCTION")
    shippingServiceCode: str
    shippingCost: Amount
    lineItemFulfillmentStatus: str = Field(description="NOT_STARTED, IN_TRANSIT or DELIVERED")
    shipmentTracking: ShipmentTracking | None
    minEstimatedDeliveryDate: str | None
    maxEstimatedDeliveryDate: str | None
    returnId: str | None
    returnStatus: str | None
    feedbackLeft: bool


class PurchaseOrder(BaseModel):
    """A purchase order."""

    purchaseOrderId: str
    purchaseOrderCreationDate: str
    purchaseOrderStatus: str = Field(description="PENDING, FULFILLMENT_IN_PROGRESS, DELIVERED or CANCELLED")
    purchaseOrderPaymentStatus: str = Field(description="PENDING (confirm in the eBay app), PAID or FAILED")
    paymentMethod: str
    pricingSummary: PricingSummary
    refundedAmount: Amount
    shippingAddress: dict[str, Any]
    lineItems: list[OrderLineItem]


class Return(BaseModel):
    """A return request."""

    returnId: str
    lineItemId: str
    itemId: str
    seller: str
    reason: str
    reasonType: str = Field(description="REMORSE or SNAD (significantly not as described)")
    returnQuantity: int
    comments: str | None
    status: str = Field(description="RETURN_REQUESTED (seller to respond) or READY_FOR_SHIPPING (label issued), ...")
    returnShippingCostPayer: str
    estimatedRefundAmount: Amount
    creationDate: str


class Feedback(BaseModel):
    """Feedback the buyer left for a seller."""

    feedbackId: str
    lineItemId: str
    itemId: str
    seller: str
    commentType: str
    commentText: str
    creationDate: str
    sellerFeedbackScore: int


class IndividualAccount(BaseModel):
    """The member's personal details."""

    firstName: str
    lastName: str
    email: str
    primaryPhone: str | None


class User(BaseModel):
    """The signed-in eBay member."""

    userId: str
    username: str
    accountType: str = "INDIVIDUAL"
    registrationMarketplaceId: str = "EBAY_US"
    status: str
    registrationDate: str
    feedbackScore: int
    individualAccount: IndividualAccount
    shippingAddress: dict[str, Any]
    paymentMethod: str


# ---------------------------------------------------------------- rows -> objects


def seller_summary(db: Database, username: str) -> SellerSummary:
    """A seller with feedback score and 12-month positive percentage."""
    row = db.get(sellers, username, "Seller")
    rated = row["positive_count"] + row["negative_count"]
    percent = f"{100 * row['positive_count'] / rated:.1f}" if rated else "100.0"
    return SellerSummary(
        username=username, feedbackScore=row["feedback_score"], feedbackPercentage=percent, topRated=row["top_rated"]
    )


def _auction_price(item: dict[str, Any]) -> Amount | None:
    if not is_auction(item):
        return None
    return amount(item["current_price"] if item["bid_count"] else item["start_price"])


def summary_fields(db: Database, item: dict[str, Any]) -> dict[str, Any]:
    """The fields search results and details share."""
    options = options_of(db, item["item_id"])
    return dict(
        itemId=item["item_id"],
        legacyItemId=item["legacy_item_id"],
        title=item["title"],
        categoryId=item["category_id"],
        condition=item["condition"],
        conditionId=item["condition_id"],
        buyingOptions=item["buying_options"],
        price=amount(item["price"]) if "FIXED_PRICE" in item["buying_options"] else None,
        currentBidPrice=_auction_price(item),
        bidCount=item["bid_count"] if is_auction(item) else None,
        itemEndDate=item["item_end_date"],
        shippingCost=amount(options[0]["cost"]) if options else None,
        seller=seller_summary(db, item["seller"]),
        itemLocation=ItemLocation(**item["item_location"]),
    )


def item_summary(db: Database, item: dict[str, Any]) -> ItemSummary:
    """A listing as a search result."""
    return ItemSummary(**summary_fields(db, item))


def shipping_option(db: Database, item: dict[str, Any], option: dict[str, Any]) -> ShippingOption:
    """A listing's shipping option with today's delivery estimate."""
    earliest, latest = delivery_window(db, item, option)
    return ShippingOption(
        shippingOptionId=option["shipping_service_code"],
        shippingServiceCode=option["shipping_service_code"],
        shippingCarrierCode=option["carrier"],
        type=option["type"],
        shippingCost=amount(option["cost"]),
        additionalShippingCostPerUnit=amount(option["additional_unit_cost"]),
        minEstimatedDeliveryDate=earliest,
        maxEstimatedDeliveryDate=latest,
    )


def item_object(db: Database, item: dict[str, Any]) -> Item:
    """A listing's full details (hidden reserve, offer thresholds and the high bidder stay hidden)."""
    auction = is_auction(item)
    ended = has_ended(db, item)
    bidders = {b["bidder"] for b in db.find(bids, item_id=item["item_id"])}
    period = item["return_period_days"]
    return Item(
        **summary_fields(db, item),
        subtitle=item["subtitle"],
        categoryPath=item["category_path"],
        conditionDescription=item["condition_description"],
        brand=item["brand"],
        localizedAspects=[Aspect(name=k, value=str(v)) for k, v in item["aspects"].items()],
        description=item["description"],
        listingStatus="ENDED" if ended else "ACTIVE",
        itemCreationDate=item["item_creation_date"],
        estimatedAvailableQuantity=item["quantity"],
        estimatedSoldQuantity=item["quantity_sold"],
        quantityLimitPerBuyer=item["quantity_limit_per_buyer"],
        minimumPriceToBid=amount(minimum_bid(item)) if auction and not ended else None,
        reservePriceMet=reserve_met(item) if auction else None,
        uniqueBidderCount=len(bidders) if auction else None,
        watchCount=item["watch_count"],
        shippingOptions=[shipping_option(db, item, o) for o in options_of(db, item["item_id"])],
        shipToLocations=item["ship_to_locations"],
        handlingTimeDays=item["handling_time_days"],
        returnTerms=ReturnTerms(
            returnsAccepted=item["returns_accepted"],
            returnPeriod=ReturnPeriod(value=period) if item["returns_accepted"] and period else None,
            returnShippingCostPayer=item["return_shipping_cost_payer"] if item["returns_accepted"] else None,
        ),
    )


def bidding_object(db: Database, item: dict[str, Any], bidder: str) -> Bidding:
    """The buyer's standing in an auction (they must have bid)."""
    mine = db.find(bids, item_id=item["item_id"], bidder=bidder, order_by=[bids.c.max_amount.desc()])[0]
    ended = has_ended(db, item)
    return Bidding(
        itemId=item["item_id"],
        auctionStatus="ENDED" if ended else "ACTIVE",
        auctionEndDate=item["item_end_date"],
        bidCount=item["bid_count"],
        currentPrice=amount(item["current_price"]),
        currentProxyBid=ProxyBid(proxyBidId=mine["proxy_bid_id"], maxAmount=amount(mine["max_amount"])),
        highBidder=item["high_bidder"] == bidder,
        reservePriceMet=reserve_met(item),
        suggestedBidAmounts=[] if ended else [amount(c) for c in suggested_bids(item)],
    )


def offer_object(db: Database, offer: dict[str, Any]) -> BestOffer:
    """A Best Offer with its effective status."""
    item = db.get(items, offer["item_id"], "Item")
    counter = None
    if offer["counter_price"] is not None:
        counter = CounterOffer(price=amount(offer["counter_price"]), message=offer["counter_message"])
    return BestOffer(
        bestOfferId=offer["best_offer_id"],
        itemId=offer["item_id"],
        title=item["title"],
        price=amount(offer["price"]),
        quantity=offer["quantity"],
        message=offer["message"],
        status=offer_status(db, offer),
        counterOffer=counter,
        expirationTime=offer["expiration"],
        purchaseOrderId=offer["purchase_order_id"],
        creationDate=offer["created"],
    )


def watched_item(db: Database, entry: dict[str, Any]) -> WatchedItem:
    """A Watchlist entry with the listing's current state."""
    item = db.get(items, entry["item_id"], "Item")
    return WatchedItem(
        itemId=item["item_id"],
        title=item["title"],
        buyingOptions=item["buying_options"],
        price=amount(item["price"]) if "FIXED_PRICE" in item["buying_options"] else None,
        currentBidPrice=_auction_price(item),
        bidCount=item["bid_count"] if is_auction(item) else None,
        itemEndDate=item["item_end_date"],
        listingStatus="ENDED" if has_ended(db, item) else "ACTIVE",
        seller=item["seller"],
        addedDate=entry["added"],
    )


def pricing(subtotal: int, delivery: int, tax: int) -> PricingSummary:
    """A pricing summary from cents."""
    return PricingSummary(
        priceSubtotal=amount(subtotal),
        deliveryCost=amount(delivery),
        tax=amount(tax),
        total=amount(subtotal + delivery + tax),
    )


def line_object(db: Database, line: dict[str, Any]) -> OrderLineItem:
    """An order line with tracking, its latest return and whether feedback was left."""
    tracking = None
    if line["tracking_number"]:
        tracking = ShipmentTracking(
            shippingCarrierCode=line["shipping_carrier"],
            shipmentTrackingNumber=line["tracking_number"],
            shippedDate=line["shipped_date"],
            actualDeliveryDate=line["delivered_date"],
        )
    opened = db.find(returns, line_item_id=line["line_item_id"], order_by=[returns.c.creation_date.desc()])
    return OrderLineItem(
        lineItemId=line["line_item_id"],
        itemId=line["item_id"],
        title=line["title"],
        seller=line["seller"],
        quantity=line["quantity"],
        unitPrice=amount(line["unit_price"]),
        purchaseType=line["purchase_type"],
        shippingServiceCode=line["shipping_service_code"],
        shippingCost=amount(line["shipping_cost"]),
        lineItemFulfillmentStatus=line["fulfillment_status"],
        shipmentTracking=tracking,
        minEstimatedDeliveryDate=line["min_estimated_delivery_date"],
        maxEstimatedDeliveryDate=line["max_estimated_delivery_date"],
        returnId=opened[0]["return_id"] if opened else None,
        returnStatus=opened[0]["status"] if opened else None,
        feedbackLeft=bool(db.find(feedback, line_item_id=line["line_item_id"])),
    )


def order_object(db: Database, order: dict[str, Any]) -> PurchaseOrder:
    """A purchase order with its line items."""
    lines = db.find(line_items, purchase_order_id=order["purchase_order_id"])
    return PurchaseOrder(
        purchaseOrderId=order["purchase_order_id"],
        purchaseOrderCreationDate=order["creation_date"],
        purchaseOrderStatus=order["purchase_order_status"],
        purchaseOrderPaymentStatus=order["payment_status"],
        paymentMethod=order["payment_method"],
        pricingSummary=pricing(order["price_subtotal"], order["delivery_cost"], order["tax"]),
        refundedAmount=amount(order["refunded_amount"]),
        shippingAddress=order["shipping_address"],
        lineItems=[line_object(db, li) for li in lines],
    )


def return_object(row: dict[str, Any], item_id: str) -> Return:
    """A return request."""
    return Return(
        returnId=row["return_id"],
        lineItemId=row["line_item_id"],
        itemId=item_id,
        seller=row["seller"],
        reason=row["reason"],
        reasonType=row["reason_type"],
        returnQuantity=row["quantity"],
        comments=row["comments"],
        status=row["status"],
        returnShippingCostPayer=row["return_shipping_cost_payer"],
        estimatedRefundAmount=amount(row["estimated_refund"]),
        creationDate=row["creation_date"],
    )


def feedback_object(db: Database, row: dict[str, Any]) -> Feedback:
    """Feedback with the seller's new score."""
    return Feedback(
        feedbackId=row["feedback_id"],
        lineItemId=row["line_item_id"],
        itemId=row["item_id"],
        seller=row["seller"],
        commentType=row["comment_type"],
        commentText=row["comment_text"],
        creationDate=row["creation_date"],
        sellerFeedbackScore=db.get(sellers, row["seller"], "Seller")["feedback_score"],
    )


def user_object(user: dict[str, Any]) -> User:
    """The signed-in member."""
    return User(
        userId=user["user_id"],
        username=user["username"],
        status=user["status"],
        registrationDate=user["registration_date"],
        feedbackScore=user["feedback_score"],
        individualAccount=IndividualAccount(
            firstName=user["first_name"], lastName=user["last_name"], email=user["email"], primaryPhone=user["phone"]
        ),
        shippingAddress=user["shipping_address"],
        paymentMethod=user["payment_method"],
    )


def checkout_object(db: Database, session: dict[str, Any]) -> CheckoutSession:
    """A checkout session priced now: Buy It Now prices, the chosen shipping services and sales tax."""
    lines, subtotal, delivery = [], 0, 0
    for line in session["line_items"]:
        item = db.get(items, line["itemId"], "Item")
        options = []
        for option in options_of(db, item["item_id"]):
            earliest, latest = delivery_window(db, item, option)
            chosen = option["shipping_service_code"] == line["shippingOptionId"]
            cost = shipping_cost(option, line["quantity"])
            delivery += cost if chosen else 0
            options.append(
                CheckoutShippingOption(
                    shippingOptionId=option["shipping_service_code"],
                    shippingCarrierCode=option["carrier"],
                    type=option["type"],
                    shippingCost=amount(cost),
                    minEstimatedDeliveryDate=earliest,
                    maxEstimatedDeliveryDate=latest,
                    selected=chosen,
                )
            )
        subtotal += item["price"] * line["quantity"]
        lines.append(
            CheckoutLineItem(
                lineItemId=line["lineItemId"],
                itemId=item["item_id"],
                title=item["title"],
                seller=item["seller"],
                quantity=line["quantity"],
                baseUnitPrice=amount(item["price"]),
                netPrice=amount(item["price"] * line["quantity"]),
                shippingOptions=options,
            )
        )
    tax = sales_tax(session["shipping_address"], subtotal + delivery)
    return CheckoutSession(
        checkoutSessionId=session["checkout_session_id"],
        status=session["status"],
        lineItems=lines,
        pricingSummary=pricing(subtotal, delivery, tax),
        shippingAddress=session["shipping_address"],
        purchaseOrderId=session["purchase_order_id"],
    )
