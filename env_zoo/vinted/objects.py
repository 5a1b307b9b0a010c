"""Vinted's API objects as output models (items, members, conversations, offers, orders, checkout summaries),
and how stored rows become them. Amounts are decimal strings in GBP."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, Page, paginate

from . import rules
from .schema import brands, favourites, feedback, issues, items, messages, offers, tracking_events

T = TypeVar("T")


def page_of(
    rows: list[dict[str, Any]], page_size: int, cursor: str | None, build: Callable[[dict[str, Any]], T]
) -> Page[T]:
    """One page of stored rows, only that page's rows turned into output objects."""
    page = paginate(rows, page_size, cursor)
    return Page[Any](results=[build(row) for row in page.results], next_cursor=page.next_cursor, has_more=page.has_more)


class Money(BaseModel):
    amount: str
    currency_code: str = rules.CURRENCY


def money(pence: int) -> Money:
    return Money(amount=rules.gbp(pence))


class ItemSummary(BaseModel):
    id: int
    title: str
    brand_title: str | None
    size_title: str | None
    status: str  # condition: new_with_tags, new_without_tags, very_good, good, satisfactory
    price: Money
    total_item_price: Money  # price with the Buyer Protection fee
    user_login: str
    item_state: str  # active | reserved | hidden | sold
    favourite_count: int


class Item(ItemSummary):
    description: str
    catalog: str
    color: str
    package_size: str
    user_id: int
    reserved_for_login: str | None
    is_favourite: bool
    created_at: str


def item_summary(db: Database, row: dict[str, Any]) -> ItemSummary:
    login = rules.member(db, row["user_id"])["login"]
    return ItemSummary(
        id=row["id"],
        title=row["title"],
        brand_title=rules.brand_title(db, row["brand_id"]),
        size_title=row["size"],
        status=row["condition"],
        price=money(row["price"]),
        total_item_price=money(row["price"] + rules.protection_fee(row["price"])),
        user_login=login,
        item_state=row["status"],
        favourite_count=row["favourite_count"],
    )


def item_object(db: Database, row: dict[str, Any], viewer_id: int) -> Item:
    reserved = rules.member(db, row["reserved_for"])["login"] if row["reserved_for"] else None
    liked = bool(db.find(favourites, user_id=viewer_id, item_id=row["id"]))
    return Item(
        **item_summary(db, row).model_dump(),
        description=row["description"],
        catalog=row["catalog"],
        color=row["color"],
        package_size=row["package_size"],
        user_id=row["user_id"],
        reserved_for_login=reserved,
        is_favourite=liked,
        created_at=row["created_at"],
    )


class FeedbackObject(BaseModel):
    rating: int
    comment: str
    from_login: str


class BundleDiscount(BaseModel):
    enabled: bool
    two_items: int
    three_items: int
    five_items: int


class Member(BaseModel):
    id: int
    login: str
    city: str
    feedback_reputation: float | None  # average stars, None without reviews
    feedback_count: int
    is_on_holiday: bool
    carriers: list[str]
    bundle_discount: BundleDiscount
    item_count: int  # items for sale in the wardrobe
    recent_feedback: list[FeedbackObject]


def bundle_object(row: dict[str, Any]) -> BundleDiscount:
    tiers = row["bundle_discount"] or {}
    return BundleDiscount(
        enabled=bool(tiers),
        two_items=tiers.get("2", 0),
        three_items=tiers.get("3", 0),
        five_items=tiers.get("5", 0),
    )


def member_object(db: Database, row: dict[str, Any]) -> Member:
    count = len(db.select(items, "user_id = ? AND status IN ('active', 'reserved')", (row["id"],)))
    recent = db.select(feedback, "to_user_id = ?", (row["id"],), order_by="id DESC", limit=5)
    return Member(
        id=row["id"],
        login=row["login"],
        city=row["city"],
        feedback_reputation=row["feedback_reputation"] / 10 if row["feedback_count"] else None,
        feedback_count=row["feedback_count"],
        is_on_holiday=row["is_on_holiday"],
        carriers=row["carriers"],
        bundle_discount=bundle_object(row),
        item_count=count,
        recent_feedback=[
            FeedbackObject(
                rating=f["rating"], comment=f["comment"], from_login=rules.member(db, f["from_user_id"])["login"]
            )
            for f in recent
        ],
    )


class Offer(BaseModel):
    id: int
    conversation_id: int
    item_ids: list[int]
    buyer_login: str
    seller_login: str
    offered_by_login: str
    price: Money
    original_price: Money
    status: str  # pending | accepted | declined | countered | used | cancelled
    created_at: str


def offer_object(db: Database, row: dict[str, Any]) -> Offer:
    return Offer(
        id=row["id"],
        conversation_id=row["conversation_id"],
        item_ids=row["item_ids"],
        buyer_login=rules.member(db, row["buyer_id"])["login"],
        seller_login=rules.member(db, row["seller_id"])["login"],
        offered_by_login=rules.member(db, row["offered_by"])["login"],
        price=money(row["price"]),
        original_price=money(row["original_price"]),
        status=row["status"],
        created_at=row["created_at"],
    )


class Message(BaseModel):
    id: int
    sender_login: str
    body: str
    created_at: str


class ConversationSummary(BaseModel):
    id: int
    item_id: int
    item_title: str
    opposite_user_login: str
    last_message: str | None
    updated_at: str


class Conversation(ConversationSummary):
    messages: list[Message]
    offers: list[Offer]


def conversation_summary(db: Database, row: dict[str, Any], viewer_id: int) -> ConversationSummary:
    other = row["seller_id"] if row["buyer_id"] == viewer_id else row["buyer_id"]
    last = db.select(messages, "conversation_id = ?", (row["id"],), order_by="id DESC", limit=1)
    return ConversationSummary(
        id=row["id"],
        item_id=row["item_id"],
        item_title=rules.item(db, row["item_id"])["title"],
        opposite_user_login=rules.member(db, other)["login"],
        last_message=last[0]["body"] if last else None,
        updated_at=row["updated_at"],
    )


def conversation_object(db: Database, row: dict[str, Any], viewer_id: int) -> Conversation:
    logins: dict[int, str] = {}

    def login(member_id: int) -> str:
        if member_id not in logins:
            logins[member_id] = rules.member(db, member_id)["login"]
        return logins[member_id]

    found = db.find(messages, conversation_id=row["id"], order_by=[messages.c.id])
    return Conversation(
        **conversation_summary(db, row, viewer_id).model_dump(),
        messages=[
            Message(id=m["id"], sender_login=login(m["sender_id"]), body=m["body"], created_at=m["created_at"])
            for m in found
        ],
        offers=[offer_object(db, o) for o in db.find(offers, conversation_id=row["id"], order_by=[offers.c.id])],
    )


class CheckoutSummary(BaseModel):
    item_ids: list[int]
    seller_login: str
    items_price: Money
    bundle_discount_percent: int
    discount: Money  # bundle discount, or the reduction an accepted offer gives
    accepted_offer_id: int | None
    item_total: Money  # what the items cost after the discount
    buyer_protection_fee: Money
    parcel_size: str
    carrier: str
    delivery_type: str
    shipping_fee: Money
    total: Money


class TrackingEvent(BaseModel):
    status: str
    location: str
    at: str


class Issue(BaseModel):
    id: int
    reason: str
    description: str
    status: str
    created_at: str


class OrderSummary(BaseModel):
    id: int
    title: str  # the item, or "N items" for a bundle
    buyer_login: str
    seller_login: str
    total: Money
    status: str
    paid_at: str


class Order(OrderSummary):
    item_ids: list[int]
    items_price: Money
    discount: Money
    buyer_protection_fee: Money
    shipping_fee: Money
    carrier: str
    delivery_type: str
    tracking_number: str | None
    ship_by: str
    shipped_at: str | None
    delivered_at: str | None
    issue_deadline: str | None  # when the 2-day window to report an issue closes
    tracking: list[TrackingEvent]
    issue: Issue | None


def order_title(db: Database, row: dict[str, Any]) -> str:
    if len(row["item_ids"]) > 1:
        return f"{len(row['item_ids'])} items"
    return rules.item(db, row["item_ids"][0])["title"]


def order_summary(db: Database, row: dict[str, Any]) -> OrderSummary:
    return OrderSummary(
        id=row["id"],
        title=order_title(db, row),
        buyer_login=rules.member(db, row["buyer_id"])["login"],
        seller_login=rules.member(db, row["seller_id"])["login"],
        total=money(row["total"]),
        status=rules.live_status(db, row),
        paid_at=row["paid_at"],
    )


def order_object(db: Database, row: dict[str, Any]) -> Order:
    events = db.find(tracking_events, order_id=row["id"], order_by=[tracking_events.c.id])
    found = db.find(issues, order_id=row["id"])
    deadline = None
    if row["delivered_at"]:
        deadline = (rules.delivered_at(row) + rules.ISSUE_WINDOW).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Order(
        **order_summary(db, row).model_dump(),
        item_ids=row["item_ids"],
        items_price=money(row["items_price"]),
        discount=money(row["discount"]),
        buyer_protection_fee=money(row["buyer_protection_fee"]),
        shipping_fee=money(row["shipping_fee"]),
        carrier=row["carrier"],
        delivery_type=row["delivery_type"],
        tracking_number=row["tracking_number"],
        ship_by=row["ship_by"],
        shipped_at=row["shipped_at"],
        delivered_at=row["delivered_at"],
        issue_deadline=deadline,
        tracking=[TrackingEvent(status=e["status"], location=e["location"], at=e["at"]) for e in events],
        issue=Issue(**{k: found[0][k] for k in Issue.model_fields}) if found else None,
    )


class FavouriteResult(BaseModel):
    item_id: int
    is_favourite: bool
    favourite_count: int


def brand_id_for(db: Database, title: str) -> int:
    """The brand with this title, added to the brand list when new (members may type any brand)."""
    found = db.select(brands, "lower(title) = ?", (title.strip().lower(),))
    if found:
        return found[0]["id"]
    return db.insert(brands, id=rules.next_id(db, brands, 1), title=title.strip())["id"]
