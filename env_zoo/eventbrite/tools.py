"""Eventbrite tools for an organizer or a ticket buyer: sign in, find events, read an event with its ticket classes,
manage venues, events (draft -> live -> canceled), ticket classes and discount codes, buy tickets, read orders and
attendees, ask for refunds under the organizer's refund policy and answer those requests, and refund orders."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText, page_size, text
from envfactory_gym.values import iso_timestamp, minor_units, parse_timestamp

from . import access, rules
from .objects import (
    AttendeeObject,
    DiscountObject,
    EventObject,
    OrderObject,
    PublicDiscount,
    RefundRequestObject,
    TicketClassObject,
    UserObject,
    VenueObject,
    attendee_object,
    discount_object,
    event_object,
    order_object,
    refund_request_object,
    ticket_class_object,
    user_object,
    venue_object,
)
from .schema import attendees, discounts, events, orders, refund_requests, sessions, ticket_classes, users, venues

EventId = Annotated[str, Field(pattern=r"^\d{6,15}$"), ErrorText("ARGUMENTS_ERROR: event_id is numeric.")]
NumericId = Annotated[str, Field(pattern=r"^\d{6,15}$"), ErrorText("ARGUMENTS_ERROR: ids are numeric strings.")]
Money = Annotated[
    str, Field(pattern=r"^\d{1,5}(\.\d{1,2})?$"), ErrorText("ARGUMENTS_ERROR: amounts look like 25 or 25.00.")
]
LocalTime = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$"),
    ErrorText("ARGUMENTS_ERROR: times are local to the event, like 2026-07-18T19:00:00."),
]
Timezone = Literal["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"]
Category = Literal["Music", "Business", "Food & Drink", "Community", "Arts", "Science & Tech", "Health", "Sports"]
RefundPolicy = Literal["no_refunds", "1_day", "7_days", "30_days"]
RefundReason = Literal["event_canceled", "event_postponed", "cannot_attend", "duplicate_order", "other"]
Code = Annotated[
    str,
    Field(min_length=2, max_length=50, pattern=r"^[A-Za-z0-9\-_()/]+$"),
    ErrorText("ARGUMENTS_ERROR: a code has no spaces or special characters other than - _ ( ) /."),
]
Quantity = Annotated[int, Field(ge=1, le=100)]
PageSize = page_size(50)


class TicketRequest(BaseModel):
    """How many tickets of one ticket class to buy."""

    ticket_class_id: NumericId
    quantity: Quantity


class AttendeeInfo(BaseModel):
    """Who one ticket is for."""

    name: Annotated[str, Field(min_length=3, max_length=100, pattern=r"\S+ \S+")]
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")]


def _cents(value: str, currency: str, name: str) -> int:
    return minor_units(value, currency, name)


def _when(value: str, name: str) -> str:
    return iso_timestamp(parse_timestamp(value, name, example="2026-07-01T16:00:00Z"))


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> UserObject:
    """(User only) The person signs in to their Eventbrite account; the assistant then acts as them.

    Args:
        email: The account's email address.
        password: The account's password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("INVALID_AUTH: the email or password is incorrect.")
    db.start_session(sessions, user_id=found[0]["id"])
    return user_object(db, found[0])


@tool(read_only=True)
def get_me(db: Database) -> UserObject:
    """The signed-in user, with the organization they organize events for (none for a ticket buyer)."""
    return user_object(db, access.me(db))


# ---------------------------------------------------------------- events


@tool(read_only=True)
def search_events(
    db: Database,
    q: text(100) | None = None,
    city: text(60) | None = None,
    category: Category | None = None,
    start_date_from: IsoDate | None = None,
    start_date_to: IsoDate | None = None,
    page_size: PageSize = 20,
    continuation: str | None = None,
) -> Page[EventObject]:
    """Search published events of every organizer that have not ended, soonest first.

    Args:
        q: Words the name or summary must contain.
        city: The venue's city.
        category: Only this category.
        start_date_from: Starting on or after this date (UTC).
        start_date_to: Starting on or before this date (UTC).
        page_size: Events per page.
        continuation: next_cursor of the previous page.
    """
    access.me(db)
    where, params = ["status = 'live'", "end_utc > ?"], [iso_timestamp(db.now())]
    if category is not None:
        where.append("category = ?")
        params.append(category)
    if start_date_from is not None:
        where.append("start_utc >= ?")
        params.append(start_date_from)
    if start_date_to is not None:
        where.append("substr(start_utc, 1, 10) <= ?")
        params.append(start_date_to)
    if city is not None:
        where.append("venue_id IN (SELECT id FROM venues WHERE lower(city) = ?)")
        params.append(city.strip().lower())
    rows = db.select(events, " AND ".join(where), params, order_by="start_utc, id")
    if q is not None:
        words = q.lower().split()
        rows = [r for r in rows if all(w in (r["name"] + " " + r["summary"]).lower() for w in words)]
    return paginate([event_object(db, row) for row in rows], page_size, continuation)


@tool(read_only=True)
def list_organization_events(
    db: Database,
    status: Literal["draft", "live", "started", "ended", "completed", "canceled", "all"] = "all",
    name_filter: text(100) | None = None,
    order_by: Literal["start_asc", "start_desc"] = "start_asc",
    page_size: PageSize = 20,
    continuation: str | None = None,
) -> Page[EventObject]:
    """List the events of the signed-in organizer's organization (organizers only).

    Args:
        status: Only events in this status (started and ended are live events whose time has come).
        name_filter: Part of the event's name.
        order_by: By start time, ascending or descending.
        page_size: Events per page.
        continuation: next_cursor of the previous page.
    """
    org = access.organization_id(db)
    where, params = ["organization_id = ?"], [org]
    if name_filter is not None:
        where.append("lower(name) LIKE ?")
        params.append(f"%{name_filter.strip().lower()}%")
    order = "start_utc, id" if order_by == "start_asc" else "start_utc DESC, id"
    shown = [event_object(db, row) for row in db.select(events, " AND ".join(where), params, order_by=order)]
    if status != "all":
        shown = [event for event in shown if event.status == status]
    return paginate(shown, page_size, continuation)


@tool(read_only=True)
def get_event(db: Database, event_id: EventId) -> EventObject:
    """Retrieve an event with its venue, refund policy and ticket classes (hidden ones only for its organizer).

    Args:
        event_id: The event's id.
    """
    return _event_view(db, event_id)


def _event_view(db: Database, event_id: str) -> EventObject:
    row = access.event(db, event_id)
    shown = event_object(db, row, with_tickets=True)
    now = db.now()
    shown.public_discounts = [
        PublicDiscount(code=d["code"], percent_off=d["percent_off"], ends=d["end_date"])
        for d in db.find(discounts, event_id=row["id"], type="public", order_by=[discounts.c.id])
        if (d["end_date"] is None or now < rules.moment(d["end_date"])) and rules.uses_left(d) != 0
    ]
    if access.me(db)["organization_id"] != row["organization_id"] and shown.ticket_classes is not None:
        shown.ticket_classes = [c for c in shown.ticket_classes if not c.hidden]
    return shown


@tool()
def create_event(
    db: Database,
    name: text(140),
    start_local: LocalTime,
    end_local: LocalTime,
    timezone: Timezone,
    capacity: Annotated[int, Field(ge=1, le=100000)],
    category: Category,
    summary: text(500) | None = None,
    venue_id: NumericId | None = None,
    online_event: bool = False,
    currency: Literal["USD", "CAD"] = "USD",
    refund_policy: RefundPolicy = "7_days",
) -> EventObject:
    """Create a draft event for the signed-in organizer's organization; add ticket classes, then publish it.

    Args:
        name: The event's name.
        start_local: Start, local to the event's timezone.
        end_local: End, local to the event's timezone.
        timezone: The event's time zone.
        capacity: Most tickets sold across all ticket classes.
        category: The event's category.
        summary: A short description.
        venue_id: Where it happens (list_venues); omit for an online event.
        online_event: True for an online-only event (no venue).
        currency: The currency tickets are sold in.
        refund_policy: no_refunds, or refunds up to 1, 7 or 30 days before the start.
    """
    org = access.organization_id(db)
    start, end = _schedule(db, start_local, end_local, timezone)
    _check_place(db, org, venue_id, online_event)
    stored = db.insert(
        events,
        id=db.new_id(events, "8712", 8),
        organization_id=org,
        name=name.strip(),
        summary=(summary or "").strip(),
        category=category,
        venue_id=venue_id,
        online_event=online_event,
        start_utc=start,
        end_utc=end,
        timezone=timezone,
        currency=currency,
        capacity=capacity,
        refund_policy=refund_policy,
        status="draft",
        created=db.now_iso(),
    )
    return event_object(db, stored, with_tickets=True)


def _schedule(db: Database, start_local: str, end_local: str, timezone: str) -> tuple[str, str]:
    start = rules.local_to_utc(start_local, timezone, "start_local")
    end = rules.local_to_utc(end_local, timezone, "end_local")
    if end <= start:
        raise InvalidRequest("ARGUMENTS_ERROR: the event must end after it starts.")
    if rules.moment(start) <= db.now():
        raise InvalidRequest("ARGUMENTS_ERROR: the event's start must be in the future.")
    return start, end


def _check_place(db: Database, org: str, venue_id: str | None, online_event: bool) -> None:
    if venue_id is not None and online_event:
        raise InvalidRequest("VENUE_AND_ONLINE: You cannot both specify a venue and set online_event.")
    if venue_id is not None:
        venue = db.find_one(venues, not_found=f"NOT_FOUND: venue {venue_id} does not exist.", id=venue_id)
        if venue["organization_id"] != org:
            raise PermissionDenied(access.NOT_AUTHORIZED)


@tool()
def update_event(
    db: Database,
    event_id: EventId,
    name: text(140) | None = None,
    summary: text(500) | None = None,
    start_local: LocalTime | None = None,
    end_local: LocalTime | None = None,
    capacity: Annotated[int, Field(ge=1, le=100000)] | None = None,
    venue_id: NumericId | None = None,
    refund_policy: RefundPolicy | None = None,
) -> EventObject:
    """Change an event that has not ended or been canceled. Capacity can't drop below the tickets sold; once
    published, the refund policy may only become more flexible.

    Args:
        event_id: The event's id.
        name: New name.
        summary: New summary.
        start_local: New start, local to the event's timezone (give end_local with it when it moves).
        end_local: New end, local to the event's timezone.
        capacity: New total capacity.
        venue_id: Move it to this venue of the organization.
        refund_policy: New refund policy.
    """
    row = access.own_event(db, event_id)
    status = rules.event_status(db, row)
    if status in ("ended", "completed", "canceled"):
        raise Conflict(f"EVENT_NOT_EDITABLE: the event is {status}.")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if summary is not None:
        changes["summary"] = summary.strip()
    if start_local is not None or end_local is not None:
        zone = row["timezone"]
        start_local = start_local or rules.utc_to_local(row["start_utc"], zone)
        end_local = end_local or rules.utc_to_local(row["end_utc"], zone)
        changes["start_utc"], changes["end_utc"] = _schedule(db, start_local, end_local, zone)
    if capacity is not None:
        sold = rules.sold_in_event(db, row["id"])
        if capacity < sold:
            raise Conflict(f"CAPACITY_BELOW_SOLD: {sold} tickets are already sold.")
        changes["capacity"] = capacity
    if venue_id is not None:
        _check_place(db, row["organization_id"], venue_id, False)
        changes.update(venue_id=venue_id, online_event=False)
    if refund_policy is not None:
        if row["status"] != "draft" and not rules.more_flexible(row["refund_policy"], refund_policy):
            raise Conflict(
                "REFUND_POLICY_LOCKED: after an event is published its refund policy can only become more flexible."
            )
        changes["refund_policy"] = refund_policy
    if not changes:
        raise InvalidRequest("ARGUMENTS_ERROR: nothing to change.")
    return event_object(db, db.update(events, row["id"], **changes), with_tickets=True)


@tool()
def publish_event(db: Database, event_id: EventId) -> EventObject:
    """Publish a draft event so tickets go on sale: it needs at least one ticket class, a venue or online_event,
    and a start in the future.

    Args:
        event_id: The draft event's id.
    """
    row = access.own_event(db, event_id)
    if row["status"] != "draft":
        raise Conflict(f"ALREADY_PUBLISHED: the event is {rules.event_status(db, row)}, not a draft.")
    if not db.find(ticket_classes, event_id=row["id"]):
        raise Conflict("CANNOT_PUBLISH: the event has no ticket classes.")
    if row["venue_id"] is None and not row["online_event"]:
        raise Conflict("CANNOT_PUBLISH: the event needs a venue or must be an online event.")
    if rules.moment(row["start_utc"]) <= db.now():
        raise Conflict("CANNOT_PUBLISH: the event's start is in the past.")
    return event_object(db, db.update(events, row["id"], status="live"), with_tickets=True)


@tool()
def cancel_event(db: Database, event_id: EventId) -> EventObject:
    """Cancel an event. Every ticket sold must be refunded first (refund_order).

    Args:
        event_id: The event's id.
    """
    row = access.own_event(db, event_id)
    status = rules.event_status(db, row)
    if status == "canceled":
        raise Conflict("ALREADY_CANCELED: the event is already canceled.")
    if status in ("ended", "completed"):
        raise Conflict(f"CANNOT_CANCEL: the event has {status}.")
    left = db.select(attendees, "event_id = ? AND refunded = 0", (row["id"],))
    if left:
        count = len({a["order_id"] for a in left})
        raise Conflict(f"CANNOT_CANCEL: {count} orders still hold tickets; refund them first.")
    return event_object(db, db.update(events, row["id"], status="canceled"), with_tickets=True)


# ---------------------------------------------------------------- venues


@tool(read_only=True)
def list_venues(db: Database) -> list[VenueObject]:
    """The venues of the signed-in organizer's organization."""
    org = access.organization_id(db)
    return [venue_object(row) for row in db.find(venues, organization_id=org, order_by=[venues.c.name])]


@tool()
def create_venue(
    db: Database,
    name: text(100),
    address_1: text(120),
    city: text(60),
    region: Annotated[str, Field(pattern=r"^[A-Z]{2}$")],
    postal_code: Annotated[str, Field(pattern=r"^[0-9A-Z -]{3,10}$")],
    country: Literal["US", "CA"] = "US",
    capacity: Annotated[int, Field(ge=1, le=100000)] | None = None,
) -> VenueObject:
    """Add a venue to the signed-in organizer's organization.

    Args:
        name: The venue's name.
        address_1: Street address.
        city: City.
        region: State or province code, e.g. "IL".
        postal_code: Postal code.
        country: Country code.
        capacity: How many people it holds.
    """
    org = access.organization_id(db)
    stored = db.insert(
        venues,
        id=db.new_id(venues, "930", 5),
        organization_id=org,
        name=name.strip(),
        address_1=address_1.strip(),
        city=city.strip(),
        region=region,
        postal_code=postal_code,
        country=country,
        capacity=capacity,
    )
    return venue_object(stored)


# ---------------------------------------------------------------- ticket classes


@tool(read_only=True)
def list_ticket_classes(db: Database, event_id: EventId, access_code: Code | None = None) -> list[TicketClassObject]:
    """An event's ticket classes with price, fee, capacity, sold count, per-order limits, sales window and whether
    they are on sale now. Hidden classes show to the organizer, or to a buyer with an access code that unlocks them.

    Args:
        event_id: The event's id.
        access_code: An access code the buyer was given, to see the hidden tickets it unlocks.
    """
    shown = list(_event_view(db, event_id).ticket_classes or [])
    if access_code is None:
        return shown
    row = access.event(db, event_id)
    code = rules.discount_for(db, row, access_code)
    if code["type"] != "access":
        raise InvalidRequest(f"ARGUMENTS_ERROR: {code['code']} is a discount code, not an access code.")
    known = {c.id for c in shown}
    unlocked = db.find(ticket_classes, event_id=row["id"], hidden=True, order_by=[ticket_classes.c.id])
    extra = [ticket_class_object(db, row, c) for c in unlocked if c["id"] not in known and rules.covers(code, c["id"])]
    return shown + extra


@tool()
def create_ticket_class(
    db: Database,
    event_id: EventId,
    name: text(100),
    capacity: Annotated[int, Field(ge=1, le=100000)],
    free: bool = False,
    cost: Money | None = None,
    minimum_quantity: Annotated[int, Field(ge=1, le=100)] = 1,
    maximum_quantity: Annotated[int, Field(ge=1, le=100)] = 10,
    sales_start: IsoTimestamp | None = None,
    sales_end: IsoTimestamp | None = None,
    hidden: bool = False,
) -> TicketClassObject:
    """Add a ticket class to an event that has not ended or been canceled. Paid classes need a cost; sales run
    from sales_start (default today, 00:00 UTC) to sales_end (default the event's start), in UTC.

    Args:
        event_id: The event's id.
        name: The ticket's name, e.g. "General Admission".
        capacity: How many of this ticket can be sold.
        free: True for a free ticket (then no cost).
        cost: Price per ticket in the event's currency, e.g. "25.00".
        minimum_quantity: Fewest per order.
        maximum_quantity: Most per order.
        sales_start: When sales open, UTC, e.g. 2026-06-10T16:00:00Z.
        sales_end: When sales close, UTC; no later than the event's end.
        hidden: Sold only to buyers with an access code.
    """
    row = access.own_event(db, event_id)
    status = rules.event_status(db, row)
    if status in ("ended", "completed", "canceled"):
        raise Conflict(f"EVENT_NOT_EDITABLE: the event is {status}.")
    price = _price(row, free, cost)
    start = _when(sales_start, "sales_start") if sales_start else rules.today_start(db)
    end = _when(sales_end, "sales_end") if sales_end else row["start_utc"]
    _check_limits(row, minimum_quantity, maximum_quantity, start, end)
    stored = db.insert(
        ticket_classes,
        id=db.new_id(ticket_classes, "19057", 5),
        event_id=row["id"],
        name=name.strip(),
        free=free,
        cost=price,
        capacity=capacity,
        quantity_sold=0,
        minimum_quantity=minimum_quantity,
        maximum_quantity=maximum_quantity,
        sales_start=start,
        sales_end=end,
        hidden=hidden,
    )
    return ticket_class_object(db, row, stored)


def _price(event: dict[str, Any], free: bool, cost: str | None) -> int:
    if free and cost is not None:
        raise InvalidRequest("ARGUMENTS_ERROR: a free ticket has no cost.")
    if free:
        return 0
    if cost is None:
        raise InvalidRequest("ARGUMENTS_ERROR: a paid ticket needs a cost (or free=true).")
    cents = _cents(cost, event["currency"], "cost")
    if cents <= 0:
        raise InvalidRequest("ARGUMENTS_ERROR: a paid ticket's cost must be above zero.")
    return cents


def _check_limits(event: dict[str, Any], low: int, high: int, start: str, end: str) -> None:
    if low > high:
        raise InvalidRequest("ARGUMENTS_ERROR: minimum_quantity can't exceed maximum_quantity.")
    if end <= start:
        raise InvalidRequest("ARGUMENTS_ERROR: sales_end must be after sales_start.")
    if end > event["end_utc"]:
        raise InvalidRequest("ARGUMENTS_ERROR: sales can't end after the event ends.")


@tool()
def update_ticket_class(
    db: Database,
    ticket_class_id: NumericId,
    name: text(100) | None = None,
    cost: Money | None = None,
    capacity: Annotated[int, Field(ge=1, le=100000)] | None = None,
    minimum_quantity: Annotated[int, Field(ge=1, le=100)] | None = None,
    maximum_quantity: Annotated[int, Field(ge=1, le=100)] | None = None,
    sales_start: IsoTimestamp | None = None,
    sales_end: IsoTimestamp | None = None,
    hidden: bool | None = None,
) -> TicketClassObject:
    """Change a ticket class. The price can't change once tickets of it are sold, and capacity can't drop below
    the number sold.

    Args:
        ticket_class_id: The ticket class's id.
        name: New name.
        cost: New price (paid classes with nothing sold).
        capacity: New capacity.
        minimum_quantity: New fewest per order.
        maximum_quantity: New most per order.
        sales_start: New sales start, UTC.
        sales_end: New sales end, UTC.
        hidden: Hide or show it.
    """
    ticket = db.find_one(
        ticket_classes, not_found=f"NOT_FOUND: ticket class {ticket_class_id} does not exist.", id=ticket_class_id
    )
    row = access.own_event(db, ticket["event_id"])
    status = rules.event_status(db, row)
    if status in ("ended", "completed", "canceled"):
        raise Conflict(f"EVENT_NOT_EDITABLE: the event is {status}.")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if cost is not None:
        if ticket["free"]:
            raise InvalidRequest("ARGUMENTS_ERROR: a free ticket has no cost.")
        if ticket["quantity_sold"] > 0:
            raise Conflict("COST_LOCKED: the price can't change after tickets have been sold.")
        changes["cost"] = _price(row, False, cost)
    if capacity is not None:
        if capacity < ticket["quantity_sold"]:
            raise Conflict(f"CAPACITY_BELOW_SOLD: {ticket['quantity_sold']} tickets are already sold.")
        changes["capacity"] = capacity
    if hidden is not None:
        changes["hidden"] = hidden
    low = ticket["minimum_quantity"] if minimum_quantity is None else minimum_quantity
    high = ticket["maximum_quantity"] if maximum_quantity is None else maximum_quantity
    start = _when(sales_start, "sales_start") if sales_start else ticket["sales_start"]
    end = _when(sales_end, "sales_end") if sales_end else ticket["sales_end"]
    _check_limits(row, low, high, start, end)
    changes.update(minimum_quantity=low, maximum_quantity=high, sales_start=start, sales_end=end)
    if all(ticket[key] == value for key, value in changes.items()):
        raise InvalidRequest("ARGUMENTS_ERROR: nothing to change.")
    return ticket_class_object(db, row, db.update(ticket_classes, ticket["id"], **changes))


# ---------------------------------------------------------------- discounts


@tool(read_only=True)
def list_discounts(
    db: Database, event_id: EventId | None = None, code_filter: text(50) | None = None
) -> list[DiscountObject]:
    """The signed-in organizer's discounts and access codes, with how often each was used.

    Args:
        event_id: Only those usable on this event (including organization-wide ones).
        code_filter: Part of the code.
    """
    org = access.organization_id(db)
    found = db.find(discounts, organization_id=org, order_by=[discounts.c.id])
    if event_id is not None:
        access.own_event(db, event_id)
        found = [row for row in found if row["event_id"] in (None, event_id)]
    if code_filter is not None:
        found = [row for row in found if code_filter.strip().lower() in row["code"].lower()]
    return [discount_object(row) for row in found]


@tool()
def create_discount(
    db: Database,
    code: Code,
    type: Literal["coded", "access", "public"] = "coded",
    event_id: EventId | None = None,
    ticket_class_ids: list[NumericId] | None = None,
    percent_off: Annotated[int, Field(ge=1, le=100)] | None = None,
    amount_off: Money | None = None,
    quantity_available: Annotated[int, Field(ge=0, le=100000)] = 0,
    start_date: IsoTimestamp | None = None,
    end_date: IsoTimestamp | None = None,
) -> DiscountObject:
    """Create a discount code (coded), an access code that unlocks hidden tickets (access, with or without a
    discount) or a public discount shown on the event page (public, one event).

    Args:
        code: The code buyers type, unique in the organization.
        type: coded, access or public.
        event_id: Limit it to one event; omit for every event of the organization.
        ticket_class_ids: Limit it to these ticket classes of event_id.
        percent_off: Percentage off, 1-100 (not with amount_off).
        amount_off: Fixed amount off per ticket, e.g. "10.00" (not with percent_off).
        quantity_available: How many tickets it may be used on; 0 = unlimited.
        start_date: Usable from, UTC.
        end_date: Usable until, UTC.
    """
    org = access.organization_id(db)
    if percent_off is not None and amount_off is not None:
        raise InvalidRequest("ARGUMENTS_ERROR: give percent_off or amount_off, not both.")
    if type != "access" and percent_off is None and amount_off is None:
        raise InvalidRequest("ARGUMENTS_ERROR: a coded or public discount needs percent_off or amount_off.")
    if type == "public" and event_id is None:
        raise InvalidRequest("ARGUMENTS_ERROR: a public discount applies to one event; give event_id.")
    if ticket_class_ids and event_id is None:
        raise InvalidRequest("ARGUMENTS_ERROR: ticket_class_ids need event_id.")
    currency = "USD"
    if event_id is not None:
        row = access.own_event(db, event_id)
        currency = row["currency"]
        mine = {c["id"] for c in db.find(ticket_classes, event_id=row["id"])}
        stray = [key for key in ticket_class_ids or [] if key not in mine]
        if stray:
            raise InvalidRequest(f"ARGUMENTS_ERROR: ticket class {stray[0]} is not a ticket class of this event.")
    if any(row["code"].lower() == code.lower() for row in db.find(discounts, organization_id=org)):
        raise Conflict(f"DUPLICATE_CODE: the organization already has a discount {code}.")
    start = _when(start_date, "start_date") if start_date else None
    end = _when(end_date, "end_date") if end_date else None
    if start and end and end <= start:
        raise InvalidRequest("ARGUMENTS_ERROR: end_date must be after start_date.")
    stored = db.insert(
        discounts,
        id=db.new_id(discounts, "6118", 5),
        organization_id=org,
        event_id=event_id,
        ticket_class_ids=list(dict.fromkeys(ticket_class_ids or [])),
        code=code,
        type=type,
        percent_off=percent_off,
        amount_off=_cents(amount_off, currency, "amount_off") if amount_off is not None else None,
        quantity_available=quantity_available,
        quantity_sold=0,
        start_date=start,
        end_date=end,
    )
    return discount_object(stored, currency)


# ---------------------------------------------------------------- orders


@tool()
def place_order(
    db: Database,
    event_id: EventId,
    tickets: Annotated[list[TicketRequest], Field(min_length=1, max_length=5)],
    discount_code: Code | None = None,
    attendees_info: list[AttendeeInfo] | None = None,
) -> OrderObject:
    """Buy tickets to a live event as the signed-in user, paying with the card on their account. Each class must be
    on sale, within its per-order minimum and maximum and its capacity (and the event's); hidden classes need an
    access code; a discount code lowers the price of the classes it covers while its uses last.

    Args:
        event_id: The event's id.
        tickets: Ticket classes and how many of each.
        discount_code: A discount or access code.
        attendees_info: Name and email for each ticket, in order; omit to put every ticket in the buyer's name.
    """
    buyer = access.me(db)
    event = access.event(db, event_id)
    status = rules.event_status(db, event)
    if status != "live":
        raise Conflict(f"EVENT_NOT_ON_SALE: the event is {status}.")
    discount = rules.discount_for(db, event, discount_code) if discount_code else None
    wanted: dict[str, int] = {}
    for line in tickets:
        wanted[line.ticket_class_id] = wanted.get(line.ticket_class_id, 0) + line.quantity
    chosen = []
    for key, count in wanted.items():
        ticket = db.find_one(ticket_classes, not_found=f"NOT_FOUND: ticket class {key} does not exist.", id=key)
        if ticket["event_id"] != event["id"]:
            raise NotFound(f"NOT_FOUND: ticket class {key} does not exist for this event.")
        if ticket["hidden"] and not (discount and discount["type"] == "access" and rules.covers(discount, key)):
            raise NotFound(f"NOT_FOUND: ticket class {key} does not exist for this event.")
        state = rules.on_sale_status(db, event, ticket)
        if state in ("SALES_ENDED", "NOT_YET_ON_SALE"):
            raise Conflict(f"TICKETS_NOT_ON_SALE: {ticket['name']} is {state}.")
        if not ticket["minimum_quantity"] <= count <= ticket["maximum_quantity"]:
            low, high = ticket["minimum_quantity"], ticket["maximum_quantity"]
            raise InvalidRequest(f"QUANTITY_OUT_OF_RANGE: {ticket['name']} sells {low} to {high} per order.")
        left = ticket["capacity"] - ticket["quantity_sold"]
        if count > left:
            raise Conflict(f"SOLD_OUT: only {left} {ticket['name']} tickets are left.")
        chosen.append((ticket, count))
    total = sum(count for _, count in chosen)
    event_left = event["capacity"] - rules.sold_in_event(db, event["id"])
    if total > event_left:
        raise Conflict(f"SOLD_OUT: only {event_left} tickets are left for this event.")
    if attendees_info is not None and len(attendees_info) != total:
        raise InvalidRequest(f"ARGUMENTS_ERROR: attendees_info has {len(attendees_info)} entries for {total} tickets.")
    if discount is not None:
        covered = sum(count for ticket, count in chosen if rules.covers(discount, ticket["id"]))
        if covered == 0:
            raise InvalidRequest(f"DISCOUNT_NOT_APPLICABLE: {discount['code']} doesn't cover these tickets.")
        uses = rules.uses_left(discount)
        if uses is not None and covered > uses:
            raise Conflict(f"DISCOUNT_SOLD_OUT: {discount['code']} can be used on {uses} more tickets.")
    order_id = db.new_id(orders, "81", 8)
    db.insert(
        orders,
        id=order_id,
        event_id=event["id"],
        user_id=buyer["id"],
        name=buyer["name"],
        email=buyer["email"],
        status="placed",
        base_price=0,
        discount_amount=0,
        fee=0,
        gross=0,
        refunded_amount=0,
        discount_id=discount["id"] if discount else None,
        placed_at=db.now_iso(),
    )
    people = [(a.name.strip(), a.email) for a in attendees_info] if attendees_info else []
    base = cut = fees = 0
    n = 0
    for ticket, count in chosen:
        price = rules.discounted(discount, ticket)
        for _ in range(count):
            name, email = people[n] if people else (buyer["name"], buyer["email"])
            db.insert(
                attendees,
                id=db.new_id(attendees, "121", 8),
                order_id=order_id,
                event_id=event["id"],
                ticket_class_id=ticket["id"],
                name=name,
                email=email,
                cost=price,
                fee=rules.fee(price),
                status="Attending",
                refunded=False,
            )
            base, cut, fees, n = base + ticket["cost"], cut + ticket["cost"] - price, fees + rules.fee(price), n + 1
        db.update(ticket_classes, ticket["id"], quantity_sold=ticket["quantity_sold"] + count)
    if discount is not None:
        covered = sum(count for ticket, count in chosen if rules.covers(discount, ticket["id"]))
        db.update(discounts, discount["id"], quantity_sold=discount["quantity_sold"] + covered)
    stored = db.update(orders, order_id, base_price=base, discount_amount=cut, fee=fees, gross=base - cut + fees)
    return order_object(db, stored)


@tool(read_only=True)
def list_orders(
    db: Database,
    event_id: EventId | None = None,
    status: Literal["placed", "partially_refunded", "refunded"] | None = None,
    email: text(100) | None = None,
    page_size: PageSize = 20,
    continuation: str | None = None,
) -> Page[OrderObject]:
    """Orders, newest first: an organizer sees their organization's orders, a ticket buyer their own.

    Args:
        event_id: Only orders for this event.
        status: Only orders in this status.
        email: Part of the buyer's email or name.
        page_size: Orders per page.
        continuation: next_cursor of the previous page.
    """
    user = access.me(db)
    where, params = [], []
    if user["organization_id"] is None:
        where.append("user_id = ?")
        params.append(user["id"])
    else:
        where.append("event_id IN (SELECT id FROM events WHERE organization_id = ?)")
        params.append(user["organization_id"])
    if event_id is not None:
        where.append("event_id = ?")
        params.append(event_id)
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if email is not None:
        where.append("(lower(email) LIKE ? OR lower(name) LIKE ?)")
        params += [f"%{email.strip().lower()}%"] * 2
    found = paginate(db.select(orders, " AND ".join(where), params, order_by="id DESC"), page_size, continuation)
    return Page[OrderObject](
        results=[order_object(db, row) for row in found.results], next_cursor=found.next_cursor, has_more=found.has_more
    )


@tool(read_only=True)
def get_order(db: Database, order_id: NumericId) -> OrderObject:
    """Retrieve an order with its costs and attendees (its buyer or the event's organizer).

    Args:
        order_id: The order's id.
    """
    return order_object(db, access.order(db, order_id))


@tool(read_only=True)
def list_attendees(
    db: Database,
    event_id: EventId,
    status: Literal["Attending", "Checked In", "Not Attending"] | None = None,
    name: text(100) | None = None,
    page_size: PageSize = 50,
    continuation: str | None = None,
) -> Page[AttendeeObject]:
    """The attendees (one per ticket) of an event of the signed-in organizer.

    Args:
        event_id: The event's id.
        status: Only attendees in this status.
        name: Part of the attendee's name or email.
        page_size: Attendees per page.
        continuation: next_cursor of the previous page.
    """
    row = access.own_event(db, event_id)
    names = {c["id"]: c["name"] for c in db.find(ticket_classes, event_id=row["id"])}
    where, params = ["event_id = ?"], [row["id"]]
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if name is not None:
        where.append("(lower(name) LIKE ? OR lower(email) LIKE ?)")
        params += [f"%{name.strip().lower()}%"] * 2
    found = db.select(attendees, " AND ".join(where), params, order_by="id")
    shown = [attendee_object(a, names[a["ticket_class_id"]], row["currency"]) for a in found]
    return paginate(shown, page_size, continuation)


# ---------------------------------------------------------------- refunds


def _refund(db: Database, order: dict[str, Any], chosen: list[dict[str, Any]]) -> dict[str, Any]:
    amount = 0
    for attendee in chosen:
        db.update(attendees, attendee["id"], refunded=True, status="Not Attending")
        ticket = db.get(ticket_classes, attendee["ticket_class_id"], "Ticket class")
        db.update(ticket_classes, ticket["id"], quantity_sold=ticket["quantity_sold"] - 1)
        amount += attendee["cost"] + attendee["fee"]
    left = db.select(attendees, "order_id = ? AND refunded = 0", (order["id"],))
    status = "partially_refunded" if left else "refunded"
    return db.update(orders, order["id"], status=status, refunded_amount=order["refunded_amount"] + amount)


def _pick(db: Database, order: dict[str, Any], attendee_ids: list[str] | None) -> list[dict[str, Any]]:
    held = {a["id"]: a for a in db.find(attendees, order_id=order["id"]) if not a["refunded"]}
    if not held:
        raise Conflict(f"ALREADY_REFUNDED: order {order['id']} has no tickets left to refund.")
    if attendee_ids is None:
        return list(held.values())
    for key in attendee_ids:
        if key not in held:
            raise InvalidRequest(f"ARGUMENTS_ERROR: attendee {key} is not an unrefunded ticket of this order.")
    return [held[key] for key in dict.fromkeys(attendee_ids)]


@tool()
def request_refund(
    db: Database,
    order_id: NumericId,
    reason: RefundReason,
    message: text(1000),
    attendee_ids: Annotated[list[NumericId], Field(min_length=1)] | None = None,
) -> RefundRequestObject:
    """Ask the organizer to refund an order the signed-in buyer placed (all tickets, or some attendees). Allowed
    within the event's refund policy, or any time once the event is canceled; one open request per order.

    Args:
        order_id: The order's id.
        reason: Why: event_canceled, event_postponed, cannot_attend, duplicate_order or other.
        message: A note to the organizer.
        attendee_ids: Only these tickets; omit for the whole order.
    """
    order = access.order(db, order_id)
    if order["user_id"] != access.me(db)["id"]:
        raise PermissionDenied(access.NOT_AUTHORIZED)
    event = db.get(events, order["event_id"], "Event")
    if rules.event_status(db, event) in ("started", "ended", "completed"):
        raise Conflict("REFUND_NOT_ALLOWED: the event has already started.")
    rules.check_refund_request(db, event)
    chosen = _pick(db, order, attendee_ids)
    if db.find(refund_requests, order_id=order["id"], status="pending"):
        raise Conflict(f"REFUND_REQUEST_EXISTS: order {order['id']} already has a pending refund request.")
    stored = db.insert(
        refund_requests,
        id=db.new_id(refund_requests, "52", 8),
        order_id=order["id"],
        event_id=event["id"],
        attendee_ids=[a["id"] for a in chosen],
        reason=reason,
        message=message.strip(),
        status="pending",
        response_message=None,
        requested_at=db.now_iso(),
    )
    return refund_request_object(db, stored)


@tool(read_only=True)
def list_refund_requests(
    db: Database,
    event_id: EventId | None = None,
    status: Literal["pending", "approved", "declined"] | None = None,
) -> list[RefundRequestObject]:
    """Refund requests on the signed-in organizer's events (a buyer sees their own).

    Args:
        event_id: Only requests for this event.
        status: Only requests in this status.
    """
    user = access.me(db)
    if user["organization_id"] is None:
        where, params = ["order_id IN (SELECT id FROM orders WHERE user_id = ?)"], [user["id"]]
    else:
        where = ["event_id IN (SELECT id FROM events WHERE organization_id = ?)"]
        params = [user["organization_id"]]
    if event_id is not None:
        where.append("event_id = ?")
        params.append(event_id)
    if status is not None:
        where.append("status = ?")
        params.append(status)
    found = db.select(refund_requests, " AND ".join(where), params, order_by="id")
    return [refund_request_object(db, row) for row in found]


@tool()
def respond_refund_request(
    db: Database,
    refund_request_id: NumericId,
    action: Literal["approve", "decline"],
    message: text(1000) | None = None,
) -> RefundRequestObject:
    """Approve a pending refund request (refunding its tickets and their fees to the buyer) or decline it with a
    message to the buyer (organizers only).

    Args:
        refund_request_id: The request's id.
        action: approve or decline.
        message: A note to the buyer; required to decline.
    """
    found = db.find_one(
        refund_requests,
        not_found=f"NOT_FOUND: refund request {refund_request_id} does not exist.",
        id=refund_request_id,
    )
    access.own_event(db, found["event_id"])
    if found["status"] != "pending":
        raise Conflict(f"REFUND_REQUEST_CLOSED: the request was already {found['status']}.")
    if action == "decline":
        if message is None:
            raise InvalidRequest("ARGUMENTS_ERROR: declining a refund request needs a message to the buyer.")
        return refund_request_object(
            db, db.update(refund_requests, found["id"], status="declined", response_message=message.strip())
        )
    order = db.get(orders, found["order_id"], "Order")
    chosen = _pick(db, order, list(found["attendee_ids"]))
    _refund(db, order, chosen)
    stored = db.update(
        refund_requests, found["id"], status="approved", response_message=message.strip() if message else None
    )
    return refund_request_object(db, stored)


@tool()
def refund_order(
    db: Database, order_id: NumericId, attendee_ids: Annotated[list[NumericId], Field(min_length=1)] | None = None
) -> OrderObject:
    """Refund an order of the signed-in organizer's event, in full or for some attendees (organizers may refund
    outside their policy); the tickets go back on sale and pending refund requests for them are closed.

    Args:
        order_id: The order's id.
        attendee_ids: Only these tickets; omit for every ticket still held.
    """
    order = access.order(db, order_id)
    access.own_event(db, order["event_id"])
    chosen = _pick(db, order, attendee_ids)
    stored = _refund(db, order, chosen)
    for pending in db.find(refund_requests, order_id=order["id"], status="pending"):
        if set(pending["attendee_ids"]) <= {a["id"] for a in chosen}:
            db.update(refund_requests, pending["id"], status="approved")
    return order_object(db, stored)
