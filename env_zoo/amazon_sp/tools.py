"""Amazon Selling Partner API tools as a signed-in seller sees them: Sellers (marketplace participations),
Catalog Items and Listings Restrictions, Listings Items (search, get, put, patch, delete), Orders v0 (orders,
order items, shipment confirmation, cancellation), FBA Inventory, Fulfillment Inbound v0 shipments, and the
seller's return requests and refunds; plus the seller's own sign-in."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, PermissionDenied, Unordered, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText

from . import fulfillment
from . import listings as submissions
from .access import marketplace, seller_id
from .errors import invalid
from .models import (
    CatalogResults,
    CreatedShipment,
    InventoryResults,
    Listing,
    ListingResults,
    OrderItems,
    OrderList,
    OrderResult,
    Participations,
    Refund,
    Restrictions,
    ReturnRequest,
    ReturnRequests,
    ShipmentConfirmation,
    ShipmentItems,
    ShipmentResult,
    Shipments,
    SignedIn,
    Submission,
)
from .objects import (
    currency_of,
    inventory_object,
    listing_object,
    listing_summary,
    money,
    order_item_object,
    order_object,
    order_objects,
    return_object,
    shipment_item_object,
    shipment_object,
)
from .rules import listing, order, statuses
from .schema import (
    catalog_items,
    inbound_items,
    inbound_shipments,
    inventory,
    listing_issues,
    listings,
    marketplaces,
    order_items,
    orders,
    participations,
    restrictions,
    returns,
    sellers,
    sessions,
)

MarketplaceId = Annotated[
    str,
    Field(pattern=r"^[A-Z0-9]{10,14}$", description="e.g. ATVPDKIKX0DER (US), A2EUQ1WTGCTBG2 (CA)"),
    ErrorText("400 InvalidInput: marketplaceIds must be an Amazon marketplace id such as ATVPDKIKX0DER"),
]
Sku = Annotated[str, Field(min_length=1, max_length=40), ErrorText("400 InvalidInput: sku must be 1 to 40 characters")]
Asin = Annotated[str, Field(pattern=r"^B0[A-Z0-9]{8}$"), ErrorText("400 InvalidInput: an ASIN looks like B07XJ8C8F5")]
OrderId = Annotated[
    str, Field(pattern=r"^\d{3}-\d{7}-\d{7}$"), ErrorText("400 InvalidInput: orderId must be in 3-7-7 format")
]
Price = Annotated[Decimal, Field(gt=0, le=100000, max_digits=8, decimal_places=2, description="e.g. 24.99")]
Units = Annotated[int, Field(ge=1, le=10000)]
Condition = Literal["new_new", "used_like_new", "used_very_good", "used_good", "used_acceptable"]
OrderStatus = Literal["Pending", "Unshipped", "PartiallyShipped", "Shipped", "Canceled"]
ShipmentStatus = Literal["WORKING", "SHIPPED", "RECEIVING", "CLOSED", "CANCELLED"]
ReturnStatus = Literal["PENDING_AUTHORIZATION", "AUTHORIZED", "DECLINED", "RECEIVED", "CLOSED"]
Carrier = Literal["USPS", "UPS", "FedEx", "DHL", "Canada Post", "OnTrac"]
CancelReason = Literal[
    "NoInventory", "ShippingAddressUndeliverable", "CustomerExchange", "BuyerCanceled", "GeneralAdjustment"
]
AdjustmentReason = Literal[
    "CustomerReturn",
    "GeneralAdjustment",
    "CouldNotShip",
    "DifferentItem",
    "PriceError",
    "ProductOutofStock",
    "CustomerAddressIncorrect",
    "CarrierCreditDecision",
    "Undeliverable",
    "RefusedDelivery",
    "Other",
]
DeclineReason = Literal["OUTSIDE_RETURN_WINDOW", "ITEM_NOT_SOLD_BY_SELLER", "NON_RETURNABLE_ITEM"]
AttributePath = Literal[
    "/attributes/item_name",
    "/attributes/brand",
    "/attributes/bullet_point",
    "/attributes/condition_type",
    "/attributes/purchasable_offer",
    "/attributes/fulfillment_availability",
]


class AttributeValue(BaseModel):
    """One value of an attribute: `value` for item_name, brand, bullet_point and condition_type; the prices for
    purchasable_offer; `quantity` for fulfillment_availability (merchant-fulfilled SKUs only)."""

    value: str | None = None
    our_price: Price | None = None
    minimum_seller_allowed_price: Price | None = None
    maximum_seller_allowed_price: Price | None = None
    quantity: Annotated[int, Field(ge=0, le=100000)] | None = None


class PatchOperation(BaseModel):
    """A JSON Patch operation on one attribute of the listing."""

    op: Literal["add", "replace", "delete"]
    path: AttributePath
    value: Annotated[list[AttributeValue], Field(max_length=5)] | None = None


class ListingAttributes(BaseModel):
    """The attributes of a whole listing: an offer on an existing ASIN (merchant_suggested_asin) or a new product
    (item_name and brand required)."""

    merchant_suggested_asin: Asin | None = None
    item_name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    brand: Annotated[str, Field(min_length=1, max_length=50)] | None = None
    bullet_points: Annotated[list[Annotated[str, Field(max_length=500)]], Field(max_length=5)] = Field(
        default_factory=list
    )
    condition_type: Condition = "new_new"
    our_price: Price
    minimum_seller_allowed_price: Price | None = None
    maximum_seller_allowed_price: Price | None = None
    fulfillment_channel_code: Literal["DEFAULT", "AMAZON_NA"] = "DEFAULT"
    quantity: Annotated[int, Field(ge=0, le=100000)] | None = Field(None, description="DEFAULT (MFN) SKUs only.")


class ShipmentOrderItem(BaseModel):
    orderItemId: Annotated[str, Field(pattern=r"^\d{14}$")]
    quantity: Units


class PackageDetail(BaseModel):
    """A package of an MFN order: its reference id (send the same one again to edit it), carrier and tracking."""

    packageReferenceId: Annotated[str, Field(pattern=r"^[1-9]\d{0,8}$", description="a positive number, e.g. 1")]
    carrierCode: Carrier
    trackingNumber: Annotated[str, Field(pattern=r"^[A-Z0-9]{8,34}$")]
    shipDate: IsoTimestamp
    orderItems: Annotated[list[ShipmentOrderItem], Field(min_length=1, max_length=20), Unordered]


class InboundItem(BaseModel):
    SellerSKU: Sku
    QuantityShipped: Units


InboundItems = Annotated[list[InboundItem], Field(min_length=1, max_length=50), Unordered]


# ---------------------------------------------------------------- the seller


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> SignedIn:
    """(User only) The seller signs in with their Seller Central login and authorises the assistant.

    Args:
        email: The Seller Central login email.
        password: Its password.
    """
    found = db.find(sellers, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("403 Unauthorized: The email or password is incorrect.")
    db.start_session(sessions, seller_id=found[0]["id"])
    return {"sellerId": found[0]["id"], "name": found[0]["name"]} | get_marketplace_participations(db)


@tool(read_only=True)
def get_marketplace_participations(db: Database) -> Participations:
    """The marketplaces the signed-in seller sells in (getMarketplaceParticipations): ids, currencies, store names
    and whether listings are suspended there."""
    rows = db.find(participations, seller_id=seller_id(db))
    return {
        "payload": [
            {
                "marketplace": {
                    "id": m["id"],
                    "name": m["name"],
                    "countryCode": m["country_code"],
                    "defaultCurrencyCode": m["currency"],
                },
                "participation": {"isParticipating": True, "hasSuspendedListings": p["has_suspended_listings"]},
                "storeName": p["store_name"],
            }
            for p in rows
            for m in [db.get(marketplaces, p["marketplace_id"])]
        ]
    }


# ---------------------------------------------------------------- catalog and restrictions


@tool(read_only=True)
def search_catalog_items(
    db: Database,
    marketplaceIds: MarketplaceId,
    keywords: str | None = None,
    identifiers: Annotated[list[str], Field(max_length=20)] | None = None,
    pageSize: Annotated[int, Field(ge=1, le=20)] = 10,
) -> CatalogResults:
    """Search the Amazon catalog (searchCatalogItems) by keywords in the title or brand, or by identifiers
    (ASINs or UPCs); give one of the two.

    Args:
        marketplaceIds: The marketplace to search.
        keywords: Words that must all appear in the item's title or brand.
        identifiers: ASINs or UPCs.
        pageSize: Items to return, 1 to 20.
    """
    marketplace(db, marketplaceIds)
    if identifiers:
        marks = ", ".join("?" for _ in identifiers)
        rows = db.select(catalog_items, f"asin IN ({marks}) OR upc IN ({marks})", [*identifiers, *identifiers])
    elif keywords and keywords.strip():
        words = keywords.lower().split()
        where = " AND ".join("lower(title || ' ' || brand) LIKE ?" for _ in words)
        rows = db.select(catalog_items, where, [f"%{w}%" for w in words])
    else:
        raise invalid("Either keywords or identifiers is required.")
    return {
        "numberOfResults": len(rows),
        "items": [
            {
                "asin": r["asin"],
                "summaries": [
                    {
                        "marketplaceId": marketplaceIds,
                        "itemName": r["title"],
                        "brand": r["brand"],
                        "color": r["color"],
                        "size": r["size"],
                    }
                ],
                "productTypes": [{"marketplaceId": marketplaceIds, "productType": r["product_type"]}],
                "identifiers": [{"identifierType": "UPC", "identifier": r["upc"]}],
            }
            for r in rows[:pageSize]
        ],
    }


@tool(read_only=True)
def get_listings_restrictions(
    db: Database, asin: Asin, marketplaceIds: MarketplaceId, conditionType: Condition = "new_new"
) -> Restrictions:
    """Whether the seller may list an ASIN in a condition (getListingsRestrictions): an empty list means it may.

    Args:
        asin: The catalog item.
        marketplaceIds: The marketplace.
        conditionType: The condition the seller would offer it in.
    """
    marketplace(db, marketplaceIds)
    db.find_one(catalog_items, asin=asin, not_found=f"404 NotFound: ASIN {asin} was not found in the Amazon catalog.")
    found = db.find(restrictions, asin=asin, marketplace_id=marketplaceIds, condition_type=conditionType)
    return {
        "restrictions": [
            {
                "marketplaceId": marketplaceIds,
                "conditionType": conditionType,
                "reasons": [{"message": r["message"], "reasonCode": r["reason_code"]}],
            }
            for r in found
        ]
    }


# ---------------------------------------------------------------- listings


@tool(read_only=True)
def search_listings_items(
    db: Database,
    marketplaceIds: MarketplaceId,
    keywords: str | None = None,
    identifiers: Annotated[list[str], Field(max_length=20)] | None = None,
    withStatus: Literal["BUYABLE", "DISCOVERABLE"] | None = None,
    withoutStatus: Literal["BUYABLE", "DISCOVERABLE"] | None = None,
    withIssueSeverity: Literal["ERROR", "WARNING"] | None = None,
    fulfillmentChannelCode: Literal["DEFAULT", "AMAZON_NA"] | None = None,
    pageSize: Annotated[int, Field(ge=1, le=20)] = 20,
    pageToken: str | None = None,
) -> ListingResults:
    """The signed-in seller's listings in a marketplace (searchListingsItems), 20 a page.

    Args:
        marketplaceIds: The marketplace.
        keywords: Words that must all appear in the item name or SKU.
        identifiers: Exact SKUs or ASINs.
        withStatus: Only listings with this status.
        withoutStatus: Only listings without this status.
        withIssueSeverity: Only listings with an issue of this severity.
        fulfillmentChannelCode: DEFAULT (merchant-fulfilled) or AMAZON_NA (FBA).
        pageSize: Listings a page, 1 to 20.
        pageToken: The nextToken of the previous page.
    """
    marketplace(db, marketplaceIds)
    where, params = ["seller_id = ? AND marketplace_id = ?"], [seller_id(db), marketplaceIds]
    for word in (keywords or "").lower().split():
        where.append("lower(coalesce(item_name, '') || ' ' || sku) LIKE ?")
        params.append(f"%{word}%")
    if identifiers:
        marks = ", ".join("?" for _ in identifiers)
        where.append(f"(sku IN ({marks}) OR asin IN ({marks}))")
        params += [*identifiers, *identifiers]
    if fulfillmentChannelCode:
        where.append("fulfillment_channel = ?")
        params.append(fulfillmentChannelCode)
    rows = db.select(listings, " AND ".join(where), params, order_by="sku")
    if withIssueSeverity:
        flagged = {i["listing_id"] for i in db.find(listing_issues, severity=withIssueSeverity)}
        rows = [r for r in rows if r["id"] in flagged]
    known = statuses(db, rows)
    if withStatus or withoutStatus:
        rows = [
            r
            for r in rows
            if (not withStatus or withStatus in known[r["id"]][0])
            and (not withoutStatus or withoutStatus not in known[r["id"]][0])
        ]
    page = paginate(rows, pageSize, pageToken, max_page_size=20)
    return {
        "numberOfResults": len(rows),
        "items": [listing_summary(db, r, known[r["id"]]) for r in page.results],
        "pagination": {"nextToken": page.next_cursor},
    }


@tool(read_only=True)
def get_listings_item(db: Database, sku: Sku, marketplaceIds: MarketplaceId) -> Listing:
    """A listing in full (getListingsItem): summaries and status, attributes (title, brand, bullets, offer with
    the allowed price range, MFN quantity), issues, offers and fulfillment availability.

    Args:
        sku: The seller's SKU.
        marketplaceIds: The marketplace.
    """
    marketplace(db, marketplaceIds)
    return listing_object(db, listing(db, sku, marketplaceIds))


@tool()
def put_listings_item(
    db: Database,
    sku: Sku,
    marketplaceIds: MarketplaceId,
    productType: Annotated[str, Field(pattern=r"^[A-Z_]{3,40}$", description="e.g. HOME, PET_SUPPLIES")],
    attributes: ListingAttributes,
    requirements: Literal["LISTING", "LISTING_OFFER_ONLY"] = "LISTING",
) -> Submission:
    """Create a listing for a SKU, or replace an existing one whole (putListingsItem). Offer-only listings on an
    existing ASIN take its title and brand; ASINs restricted for the seller and prices outside the allowed range
    are refused. The answer is ACCEPTED, or INVALID with its issues (nothing changes).

    Args:
        sku: The seller's SKU.
        marketplaceIds: The marketplace.
        productType: The Amazon product type.
        attributes: The listing's attributes.
        requirements: LISTING (product and offer) or LISTING_OFFER_ONLY (an offer on an existing ASIN).
    """
    marketplace(db, marketplaceIds)
    return submissions.put(db, sku, marketplaceIds, productType, requirements, attributes.model_dump(mode="json"))


@tool()
def patch_listings_item(
    db: Database,
    sku: Sku,
    marketplaceIds: MarketplaceId,
    patches: Annotated[list[PatchOperation], Field(min_length=1, max_length=10)],
    mode: Literal["VALIDATION_PREVIEW"] | None = None,
) -> Submission:
    """Change some attributes of a listing (patchListingsItem): title, brand, bullets, condition, the offer's
    price and allowed price range, or the MFN quantity. Fixing an attribute clears its issues. With mode
    VALIDATION_PREVIEW nothing is applied, only checked.

    Args:
        sku: The seller's SKU.
        marketplaceIds: The marketplace.
        patches: JSON Patch operations, applied together or not at all.
        mode: VALIDATION_PREVIEW to check without applying.
    """
    marketplace(db, marketplaceIds)
    row = listing(db, sku, marketplaceIds)
    return submissions.patch(db, row, [p.model_dump(mode="json") for p in patches], mode is not None)


@tool()
def delete_listings_item(db: Database, sku: Sku, marketplaceIds: MarketplaceId) -> Submission:
    """Delete a listing (deleteListingsItem). A SKU with units in Amazon's fulfillment network (fulfillable,
    inbound or reserved) cannot be deleted until they are removed.

    Args:
        sku: The seller's SKU.
        marketplaceIds: The marketplace.
    """
    marketplace(db, marketplaceIds)
    row = listing(db, sku, marketplaceIds)
    stock = db.find(inventory, seller_id=row["seller_id"], sku=sku, marketplace_id=marketplaceIds)
    if stock:
        units = sum(stock[0][k] for k in ("fulfillable", "inbound_working", "inbound_shipped", "reserved"))
        if units:
            return submissions.response(
                db,
                sku,
                [
                    submissions.issue(
                        "4000004",
                        f"SKU '{sku}' has {units} unit(s) in Amazon's fulfillment network; remove them before "
                        "deleting the listing.",
                        "fulfillment_availability",
                        "INVALID_ATTRIBUTE",
                    )
                ],
            )
        db.delete(inventory, stock[0]["id"])
    for old in db.find(listing_issues, listing_id=row["id"]):
        db.delete(listing_issues, old["id"])
    db.delete(listings, row["id"])
    return submissions.response(db, sku, [])


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def get_orders(
    db: Database,
    MarketplaceIds: MarketplaceId,
    CreatedAfter: IsoDate | None = None,
    CreatedBefore: IsoDate | None = None,
    OrderStatuses: Annotated[list[OrderStatus], Unordered] | None = None,
    FulfillmentChannels: Annotated[list[Literal["MFN", "AFN"]], Unordered] | None = None,
    AmazonOrderIds: Annotated[list[OrderId], Field(max_length=50)] | None = None,
    MaxResultsPerPage: Annotated[int, Field(ge=1, le=100)] = 100,
    NextToken: str | None = None,
) -> OrderList:
    """The signed-in seller's orders in a marketplace, newest first (getOrders).

    Args:
        MarketplaceIds: The marketplace.
        CreatedAfter: Orders bought on or after this date.
        CreatedBefore: Orders bought before this date.
        OrderStatuses: Only these statuses.
        FulfillmentChannels: MFN (seller-fulfilled) or AFN (fulfilled by Amazon).
        AmazonOrderIds: Only these orders.
        MaxResultsPerPage: 1 to 100.
        NextToken: The NextToken of the previous page.
    """
    marketplace(db, MarketplaceIds)
    where, params = ["seller_id = ? AND marketplace_id = ?"], [seller_id(db), MarketplaceIds]
    for column, values in (
        ("status", OrderStatuses),
        ("fulfillment_channel", FulfillmentChannels),
        ("id", AmazonOrderIds),
    ):
        if values:
            where.append(f"{column} IN ({', '.join('?' for _ in values)})")
            params += list(values)
    if CreatedAfter:
        where.append("purchase_date >= ?")
        params.append(CreatedAfter)
    if CreatedBefore:
        where.append("purchase_date < ?")
        params.append(CreatedBefore)
    rows = db.select(orders, " AND ".join(where), params, order_by="purchase_date DESC")
    page = paginate(rows, MaxResultsPerPage, NextToken)
    return {"payload": {"Orders": order_objects(db, page.results), "NextToken": page.next_cursor}}


@tool(read_only=True)
def get_order(db: Database, orderId: OrderId) -> OrderResult:
    """One order (getOrder): status, totals, buyer, ship-by date and confirmed packages.

    Args:
        orderId: The Amazon order id (3-7-7 digits).
    """
    return {"payload": order_object(db, order(db, orderId))}


@tool(read_only=True)
def get_order_items(db: Database, orderId: OrderId) -> OrderItems:
    """An order's items (getOrderItems): SKU, ASIN, quantities ordered, shipped and refunded, prices.

    Args:
        orderId: The Amazon order id.
    """
    row = order(db, orderId)
    currency = currency_of(db, row["marketplace_id"])
    items = db.find(order_items, order_id=orderId)
    return {"payload": {"AmazonOrderId": orderId, "OrderItems": [order_item_object(db, i, currency) for i in items]}}


@tool()
def confirm_shipment(
    db: Database, orderId: OrderId, marketplaceId: MarketplaceId, packageDetail: PackageDetail
) -> ShipmentConfirmation:
    """Confirm a shipped package of a merchant-fulfilled order (confirmShipment). Units must still be unshipped
    and the ship date between the purchase and now; confirming again with the same packageReferenceId edits that
    package's carrier, tracking and date.

    Args:
        orderId: The Amazon order id.
        marketplaceId: The order's marketplace.
        packageDetail: The package.
    """
    return fulfillment.confirm(db, orderId, marketplaceId, packageDetail.model_dump(mode="json"))


@tool()
def cancel_order(db: Database, orderId: OrderId, CancelReason: CancelReason) -> OrderResult:
    """Cancel a Pending or Unshipped merchant-fulfilled order (order acknowledgement with a cancellation); its
    units return to the SKUs' quantity. Shipped units are refunded instead.

    Args:
        orderId: The Amazon order id.
        CancelReason: Why the seller cancels.
    """
    return {"payload": order_object(db, fulfillment.cancel(db, orderId, CancelReason))}


# ---------------------------------------------------------------- FBA inventory and inbound


@tool(read_only=True)
def get_inventory_summaries(
    db: Database,
    marketplaceIds: MarketplaceId,
    sellerSkus: Annotated[list[Sku], Field(max_length=50)] | None = None,
    details: bool = False,
    nextToken: str | None = None,
) -> InventoryResults:
    """FBA inventory per SKU in a marketplace (getInventorySummaries), 50 a page; details=true breaks the total
    into fulfillable, inbound working/shipped/receiving, reserved and unfulfillable units.

    Args:
        marketplaceIds: The marketplace.
        sellerSkus: Only these SKUs (up to 50).
        details: Include the breakdown.
        nextToken: The nextToken of the previous page.
    """
    marketplace(db, marketplaceIds)
    where, params = "seller_id = ? AND marketplace_id = ?", [seller_id(db), marketplaceIds]
    if sellerSkus:
        where += f" AND sku IN ({', '.join('?' for _ in sellerSkus)})"
        params += list(sellerSkus)
    page = paginate(db.select(inventory, where, params, order_by="sku"), 50, nextToken)
    return {
        "granularity": {"granularityType": "Marketplace", "granularityId": marketplaceIds},
        "inventorySummaries": [inventory_object(db, r, details) for r in page.results],
        "pagination": {"nextToken": page.next_cursor},
    }


@tool(read_only=True)
def get_inbound_shipments(
    db: Database,
    MarketplaceId: MarketplaceId,
    ShipmentStatusList: Annotated[list[ShipmentStatus], Unordered] | None = None,
    ShipmentIdList: Annotated[list[str], Field(max_length=50)] | None = None,
) -> Shipments:
    """The seller's FBA inbound shipments in a marketplace (getShipments) by status or id.

    Args:
        MarketplaceId: The marketplace.
        ShipmentStatusList: Only these statuses.
        ShipmentIdList: Only these shipments.
    """
    marketplace(db, MarketplaceId)
    where, params = ["seller_id = ? AND marketplace_id = ?"], [seller_id(db), MarketplaceId]
    for column, values in (("status", ShipmentStatusList), ("id", ShipmentIdList)):
        if values:
            where.append(f"{column} IN ({', '.join('?' for _ in values)})")
            params += list(values)
    rows = db.select(inbound_shipments, " AND ".join(where), params, order_by="created_date DESC")
    return {"payload": {"ShipmentData": [shipment_object(r) for r in rows]}}


@tool(read_only=True)
def get_shipment_items(db: Database, ShipmentId: NonBlankText) -> ShipmentItems:
    """The SKUs of an inbound shipment with units shipped and received (getShipmentItemsByShipmentId).

    Args:
        ShipmentId: The shipment, e.g. FBA15K2M8Q1X.
    """
    fulfillment.shipment(db, ShipmentId)
    return {"payload": {"ItemData": [shipment_item_object(r) for r in db.find(inbound_items, shipment_id=ShipmentId)]}}


@tool()
def create_inbound_shipment(
    db: Database,
    MarketplaceId: MarketplaceId,
    ShipmentName: Annotated[str, Field(min_length=1, max_length=80)],
    InboundShipmentItems: InboundItems,
    LabelPrepPreference: Literal["SELLER_LABEL", "AMAZON_LABEL_ONLY", "AMAZON_LABEL_PREFERRED"] = "SELLER_LABEL",
) -> CreatedShipment:
    """Create an FBA inbound shipment in WORKING status (createInboundShipment): every SKU must be an FBA
    listing without ERROR issues; the units count as inbound working until the shipment ships.

    Args:
        MarketplaceId: The marketplace whose fulfillment centers receive it.
        ShipmentName: A name for the shipment.
        InboundShipmentItems: SKUs and units.
        LabelPrepPreference: Who labels the units.
    """
    marketplace(db, MarketplaceId)
    row = fulfillment.create_inbound(
        db, MarketplaceId, ShipmentName, LabelPrepPreference, [i.model_dump() for i in InboundShipmentItems]
    )
    return {"payload": {"ShipmentId": row["id"], "DestinationFulfillmentCenterId": row["destination"]}}


@tool()
def update_inbound_shipment(
    db: Database,
    ShipmentId: NonBlankText,
    ShipmentStatus: Literal["WORKING", "SHIPPED", "CANCELLED"],
    InboundShipmentItems: InboundItems | None = None,
) -> ShipmentResult:
    """Update an inbound shipment (updateInboundShipment): replace its items while WORKING, mark it SHIPPED
    (units move to inbound shipped), or CANCELLED from WORKING or SHIPPED (the inbound units go away).

    Args:
        ShipmentId: The shipment.
        ShipmentStatus: The status it should have.
        InboundShipmentItems: The complete new list of SKUs and units (WORKING only).
    """
    items = [i.model_dump() for i in InboundShipmentItems] if InboundShipmentItems is not None else None
    return {"payload": shipment_object(fulfillment.update_inbound(db, ShipmentId, ShipmentStatus, items))}


# ---------------------------------------------------------------- returns and refunds


@tool(read_only=True)
def list_return_requests(
    db: Database,
    marketplaceId: MarketplaceId,
    status: ReturnStatus | None = None,
    amazonOrderId: OrderId | None = None,
) -> ReturnRequests:
    """Buyers' return requests on the seller's merchant-fulfilled orders (Manage Returns), newest first.

    Args:
        marketplaceId: The marketplace.
        status: Only requests in this status.
        amazonOrderId: Only requests for this order.
    """
    marketplace(db, marketplaceId)
    where = "order_id IN (SELECT id FROM orders WHERE seller_id = ? AND marketplace_id = ?)"
    params: list[Any] = [seller_id(db), marketplaceId]
    if status:
        where += " AND status = ?"
        params.append(status)
    if amazonOrderId:
        where += " AND order_id = ?"
        params.append(amazonOrderId)
    rows = db.select(returns, where, params, order_by="request_date DESC")
    return {"returnRequests": [return_object(r) for r in rows]}


@tool()
def decide_return_request(
    db: Database,
    returnRequestId: NonBlankText,
    decision: Literal["AUTHORIZE", "DECLINE"],
    declineReason: DeclineReason | None = None,
) -> ReturnRequest:
    """Authorize a pending return request (an RMA id is issued) or decline it with a reason; requests made within
    30 days of the purchase cannot be declined.

    Args:
        returnRequestId: The return request.
        decision: AUTHORIZE or DECLINE.
        declineReason: Why (DECLINE only).
    """
    return return_object(fulfillment.decide_return(db, returnRequestId, decision, declineReason))


@tool()
def issue_refund(
    db: Database,
    orderId: OrderId,
    orderItemId: Annotated[str, Field(pattern=r"^\d{14}$")],
    quantity: Units,
    adjustmentReason: AdjustmentReason,
    returnRequestId: str | None = None,
) -> Refund:
    """Refund shipped units of an order item at their price (a payment adjustment). A CustomerReturn refund
    names the RECEIVED return request it settles (which then closes); unshipped items are canceled instead.

    Args:
        orderId: The Amazon order id.
        orderItemId: The item.
        quantity: Units to refund.
        adjustmentReason: Why.
        returnRequestId: The received return (CustomerReturn only).
    """
    made = fulfillment.refund(db, orderId, orderItemId, quantity, adjustmentReason, returnRequestId)
    currency = currency_of(db, order(db, orderId)["marketplace_id"])
    return {
        "adjustmentId": made["id"],
        "amazonOrderId": orderId,
        "orderItemId": orderItemId,
        "quantity": quantity,
        "amount": money(made["amount"], currency),
        "adjustmentReason": adjustmentReason,
    }
