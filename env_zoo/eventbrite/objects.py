"""Eventbrite's objects as output models (user, venue, event with its start and end in local and UTC time,
ticket class, discount, order with its costs and attendees, refund request) and how stored rows become them.
Amounts are plain decimal strings in the event's currency, e.g. "25.00"."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import attendees, discounts, events, organizations, ticket_classes, venues


class OrganizationObject(BaseModel):
    """An organization events are published under."""

    id: str
    name: str


class UserObject(BaseModel):
    """The signed-in Eventbrite user."""

    id: str
    name: str
    email: str
    role: str = Field(description="organizer (member of an organization) or attendee (ticket buyer)")
    organization: OrganizationObject | None


class AddressObject(BaseModel):
    """A venue's postal address."""

    address_1: str
    city: str
    region: str
    postal_code: str
    country: str


class VenueObject(BaseModel):
    """A place events happen."""

    id: str
    name: str
    address: AddressObject
    capacity: int | None


class DateTimeObject(BaseModel):
    """A moment as Eventbrite gives it: the event's time zone, the local wall time and UTC."""

    timezone: str
    local: str
    utc: str


class TicketClassObject(BaseModel):
    """A ticket type of an event."""

    id: str
    event_id: str
    name: str
    free: bool
    cost: str = Field(description="Price per ticket before fees, in the event's currency")
    fee: str = Field(description="Eventbrite's service fee per ticket, paid by the buyer")
    currency: str
    capacity: int
    quantity_sold: int
    minimum_quantity: int = Field(description="Fewest tickets of this class per order")
    maximum_quantity: int = Field(description="Most tickets of this class per order")
    sales_start: str
    sales_end: str
    hidden: bool = Field(description="Hidden tickets are sold only with an access code")
    on_sale_status: str = Field(description="AVAILABLE, SOLD_OUT, NOT_YET_ON_SALE or SALES_ENDED")


class PublicDiscount(BaseModel):
    """A discount shown on the event's page, which any buyer may apply."""

    code: str
    percent_off: int | None
    ends: str | None


class EventObject(BaseModel):
    """An event with its schedule, venue, capacity and refund policy."""

    id: str
    name: str
    summary: str
    category: str
    organization_id: str
    status: str = Field(description="draft, live, started, ended, completed or canceled")
    start: DateTimeObject
    end: DateTimeObject
    online_event: bool
    venue: VenueObject | None
    currency: str
    capacity: int
    tickets_sold: int
    refund_policy: str = Field(description="no_refunds, 1_day, 7_days or 30_days")
    refund_policy_text: str
    ticket_classes: list[TicketClassObject] | None = Field(default=None, description="Only from get_event")
    public_discounts: list[PublicDiscount] | None = Field(default=None, description="Only from get_event")


class DiscountObject(BaseModel):
    """A discount, access code or public discount of an organization."""

    id: str
    code: str
    type: str = Field(description="coded, access or public")
    event_id: str | None = Field(description="None: every event of the organization")
    ticket_class_ids: list[str] = Field(description="Empty: every ticket class of the event")
    percent_off: int | None
    amount_off: str | None
    quantity_available: int = Field(description="Tickets it may be used on; 0 = unlimited")
    quantity_sold: int
    start_date: str | None
    end_date: str | None


class AttendeeObject(BaseModel):
    """One ticket of an order and who holds it."""

    id: str
    order_id: str
    event_id: str
    ticket_class_id: str
    ticket_class_name: str
    name: str
    email: str
    cost: str
    fee: str
    status: str = Field(description="Attending, Checked In or Not Attending")
    refunded: bool


class CostsObject(BaseModel):
    """What an order cost."""

    currency: str
    base_price: str
    discount: str
    fee: str
    gross: str
    refunded: str


class OrderObject(BaseModel):
    """A ticket order with its attendees."""

    id: str
    event_id: str
    event_name: str
    name: str
    email: str
    status: str = Field(description="placed, partially_refunded or refunded")
    costs: CostsObject
    discount_code: str | None
    attendees: list[AttendeeObject]


class RefundRequestObject(BaseModel):
    """A buyer's request for a refund of some or all tickets of an order."""

    id: str
    order_id: str
    event_id: str
    attendee_ids: list[str]
    reason: str
    message: str
    status: str = Field(description="pending, approved or declined")
    response_message: str | None
    amount: str = Field(description="What approving it refunds, or refunded (tickets and their fees)")


def money(cents: int, currency: str) -> str:
    """Cents as a plain amount."""
    return format_amount(cents, currency)


def user_object(db: Database, row: dict[str, Any]) -> UserObject:
    org = None
    if row["organization_id"] is not None:
        found = db.get(organizations, row["organization_id"], "Organization")
        org = OrganizationObject(id=found["id"], name=found["name"])
    role = "organizer" if org is not None else "attendee"
    return UserObject(id=row["id"], name=row["name"], email=row["email"], role=role, organization=org)


def venue_object(row: dict[str, Any]) -> VenueObject:
    address = AddressObject(**{key: row[key] for key in AddressObject.model_fields})
    return VenueObject(id=row["id"], name=row["name"], address=address, capacity=row["capacity"])


def ticket_class_object(db: Database, event: dict[str, Any], row: dict[str, Any]) -> TicketClassObject:
    currency = event["currency"]
    return TicketClassObject(
        id=row["id"],
        event_id=row["event_id"],
        name=row["name"],
        free=row["free"],
        cost=money(row["cost"], currency),
        fee=money(rules.fee(row["cost"]), currency),
        currency=currency,
        capacity=row["capacity"],
        quantity_sold=row["quantity_sold"],
        minimum_quantity=row["minimum_quantity"],
        maximum_quantity=row["maximum_quantity"],
        sales_start=row["sales_start"],
        sales_end=row["sales_end"],
        hidden=row["hidden"],
        on_sale_status=rules.on_sale_status(db, event, row),
    )


def event_object(db: Database, row: dict[str, Any], with_tickets: bool = False) -> EventObject:
    venue = venue_object(db.get(venues, row["venue_id"], "Venue")) if row["venue_id"] else None
    classes = db.find(ticket_classes, event_id=row["id"], order_by=[ticket_classes.c.id])
    zone = row["timezone"]
    return EventObject(
        id=row["id"],
        name=row["name"],
        summary=row["summary"],
        category=row["category"],
        organization_id=row["organization_id"],
        status=rules.event_status(db, row),
        start=DateTimeObject(timezone=zone, local=rules.utc_to_local(row["start_utc"], zone), utc=row["start_utc"]),
        end=DateTimeObject(timezone=zone, local=rules.utc_to_local(row["end_utc"], zone), utc=row["end_utc"]),
        online_event=row["online_event"],
        venue=venue,
        currency=row["currency"],
        capacity=row["capacity"],
        tickets_sold=sum(c["quantity_sold"] for c in classes),
        refund_policy=row["refund_policy"],
        refund_policy_text=rules.POLICY_TEXT[row["refund_policy"]],
        ticket_classes=[ticket_class_object(db, row, c) for c in classes] if with_tickets else None,
    )


def discount_object(row: dict[str, Any], currency: str = "USD") -> DiscountObject:
    return DiscountObject(
        id=row["id"],
        code=row["code"],
        type=row["type"],
        event_id=row["event_id"],
        ticket_class_ids=list(row["ticket_class_ids"]),
        percent_off=row["percent_off"],
        amount_off=money(row["amount_off"], currency) if row["amount_off"] is not None else None,
        quantity_available=row["quantity_available"],
        quantity_sold=row["quantity_sold"],
        start_date=row["start_date"],
        end_date=row["end_date"],
    )


def attendee_object(row: dict[str, Any], class_name: str, currency: str) -> AttendeeObject:
    return AttendeeObject(
        id=row["id"],
        order_id=row["order_id"],
        event_id=row["event_id"],
        ticket_class_id=row["ticket_class_id"],
        ticket_class_name=class_name,
        name=row["name"],
        email=row["email"],
        cost=money(row["cost"], currency),
        fee=money(row["fee"], currency),
        status=row["status"],
        refunded=row["refunded"],
    )


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    event = db.get(events, row["event_id"], "Event")
    currency = event["currency"]
    names = {c["id"]: c["name"] for c in db.find(ticket_classes, event_id=row["event_id"])}
    tickets = db.find(attendees, order_id=row["id"], order_by=[attendees.c.id])
    code = db.get(discounts, row["discount_id"], "Discount")["code"] if row["discount_id"] else None
    return OrderObject(
        id=row["id"],
        event_id=row["event_id"],
        event_name=event["name"],
        name=row["name"],
        email=row["email"],
        status=row["status"],
        costs=CostsObject(
            currency=currency,
            base_price=money(row["base_price"], currency),
            discount=money(row["discount_amount"], currency),
            fee=money(row["fee"], currency),
            gross=money(row["gross"], currency),
            refunded=money(row["refunded_amount"], currency),
        ),
        discount_code=code,
        attendees=[attendee_object(a, names[a["ticket_class_id"]], currency) for a in tickets],
    )


def refund_request_object(db: Database, row: dict[str, Any]) -> RefundRequestObject:
    currency = db.get(events, row["event_id"], "Event")["currency"]
    chosen = [db.get(attendees, key, "Attendee") for key in row["attendee_ids"]]
    counted = chosen if row["status"] == "approved" else [a for a in chosen if not a["refunded"]]
    amount = sum(a["cost"] + a["fee"] for a in counted)
    return RefundRequestObject(
        id=row["id"],
        order_id=row["order_id"],
        event_id=row["event_id"],
        attendee_ids=list(row["attendee_ids"]),
        reason=row["reason"],
        message=row["message"],
        status=row["status"],
        response_message=row["response_message"],
        amount=money(amount, currency),
    )
