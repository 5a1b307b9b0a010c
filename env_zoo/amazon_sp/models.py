"""The typed shapes of what the tools return (SP-API field names), so the schema shows them: money, listings and
their issues, submissions, orders and order items, FBA inventory, inbound shipments, return requests, refunds."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Money(BaseModel):
    CurrencyCode: str
    Amount: str


class Marketplace(BaseModel):
    id: str
    name: str
    countryCode: str
    defaultCurrencyCode: str


class Participation(BaseModel):
    marketplace: Marketplace
    participation: dict[str, bool]
    storeName: str


class Participations(BaseModel):
    payload: list[Participation]


class SignedIn(Participations):
    sellerId: str
    name: str


class CatalogSummary(BaseModel):
    marketplaceId: str
    itemName: str
    brand: str
    color: str
    size: str


class CatalogItem(BaseModel):
    asin: str
    summaries: list[CatalogSummary]
    productTypes: list[dict[str, str]]
    identifiers: list[dict[str, str]]


class CatalogResults(BaseModel):
    numberOfResults: int
    items: list[CatalogItem]


class RestrictionReason(BaseModel):
    message: str
    reasonCode: str


class Restriction(BaseModel):
    marketplaceId: str
    conditionType: str
    reasons: list[RestrictionReason]


class Restrictions(BaseModel):
    restrictions: list[Restriction]


class Issue(BaseModel):
    code: str
    message: str
    severity: str
    attributeNames: list[str]
    categories: list[str]


class ListingSummaryEntry(BaseModel):
    marketplaceId: str
    asin: str
    productType: str
    conditionType: str
    status: list[str]
    itemName: str | None
    createdDate: str
    lastUpdatedDate: str


class Offer(BaseModel):
    marketplaceId: str
    offerType: str
    price: Money


class ListingSummary(BaseModel):
    sku: str
    summaries: list[ListingSummaryEntry]
    offers: list[Offer]
    fulfillmentChannelCode: str
    issueCount: dict[str, int]


class Listing(ListingSummary):
    attributes: dict[str, Any]
    issues: list[Issue]
    fulfillmentAvailability: list[dict[str, Any]]


class Pagination(BaseModel):
    nextToken: str | None


class ListingResults(BaseModel):
    numberOfResults: int
    items: list[ListingSummary]
    pagination: Pagination


class Submission(BaseModel):
    sku: str
    status: str
    submissionId: str
    issues: list[Issue]


class Package(BaseModel):
    packageReferenceId: str
    carrierCode: str
    trackingNumber: str
    shipDate: str


class Order(BaseModel):
    AmazonOrderId: str
    PurchaseDate: str
    LastUpdateDate: str
    OrderStatus: str
    FulfillmentChannel: str
    ShipServiceLevel: str
    OrderTotal: Money
    NumberOfItemsShipped: int
    NumberOfItemsUnshipped: int
    MarketplaceId: str
    LatestShipDate: str
    IsPrime: bool
    IsBuyerRequestedCancel: bool
    BuyerInfo: dict[str, str]
    ShippingAddress: dict[str, str]
    CancelReason: str | None
    Packages: list[Package]


class OrdersPayload(BaseModel):
    Orders: list[Order]
    NextToken: str | None


class OrderList(BaseModel):
    payload: OrdersPayload


class OrderResult(BaseModel):
    payload: Order


class OrderItem(BaseModel):
    OrderItemId: str
    ASIN: str
    SellerSKU: str
    Title: str
    QuantityOrdered: int
    QuantityShipped: int
    QuantityRefunded: int
    ItemPrice: Money
    ShippingPrice: Money


class OrderItemsPayload(BaseModel):
    AmazonOrderId: str
    OrderItems: list[OrderItem]


class OrderItems(BaseModel):
    payload: OrderItemsPayload


class ShipmentConfirmation(BaseModel):
    AmazonOrderId: str
    packageReferenceId: str
    OrderStatus: str
    edited: bool


class InventorySummary(BaseModel):
    asin: str
    fnSku: str
    sellerSku: str
    condition: str
    lastUpdatedTime: str
    totalQuantity: int
    inventoryDetails: dict[str, Any] | None = None


class InventoryResults(BaseModel):
    granularity: dict[str, str]
    inventorySummaries: list[InventorySummary]
    pagination: Pagination


class Shipment(BaseModel):
    ShipmentId: str
    ShipmentName: str
    DestinationFulfillmentCenterId: str
    ShipmentStatus: str
    LabelPrepType: str
    MarketplaceId: str
    CreatedDate: str


class ShipmentData(BaseModel):
    ShipmentData: list[Shipment]


class Shipments(BaseModel):
    payload: ShipmentData


class ShipmentResult(BaseModel):
    payload: Shipment


class ShipmentItem(BaseModel):
    ShipmentId: str
    SellerSKU: str
    FulfillmentNetworkSKU: str
    QuantityShipped: int
    QuantityReceived: int


class ItemData(BaseModel):
    ItemData: list[ShipmentItem]


class ShipmentItems(BaseModel):
    payload: ItemData


class CreatedShipmentPayload(BaseModel):
    ShipmentId: str
    DestinationFulfillmentCenterId: str


class CreatedShipment(BaseModel):
    payload: CreatedShipmentPayload


class ReturnRequest(BaseModel):
    returnRequestId: str
    amazonOrderId: str
    orderItemId: str
    quantity: int
    returnReason: str
    buyerComment: str
    status: str
    requestDate: str
    declineReason: str | None
    rmaId: str | None


class ReturnRequests(BaseModel):
    returnRequests: list[ReturnRequest]


class Refund(BaseModel):
    adjustmentId: str
    amazonOrderId: str
    orderItemId: str
    quantity: int
    amount: Money
    adjustmentReason: str
