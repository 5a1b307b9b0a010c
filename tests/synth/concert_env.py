"""A small ticketing environment whose offers belong to one event each (for filling tests): an offer reserved
with another event's id is not found, and the error names only the offer."""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel
from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table

from envfactory_gym import Database, NotFound, tool
from envfactory_gym.spec import EnvironmentSpec

from ..helpers import module_spec

schema = MetaData()
events = Table(
    "events",
    schema,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
)
offers = Table(
    "offers",
    schema,
    Column("id", String, primary_key=True),
    Column("event_id", String, ForeignKey("events.id"), nullable=False),
    Column("price", Integer, nullable=False),
)
holds = Table(
    "holds",
    schema,
    Column("id", String, primary_key=True),
    Column("offer_id", String, ForeignKey("offers.id"), nullable=False),
)
SEED = {
    "events": [{"id": f"evt_{i:02d}", "name": f"Concert {i}", "city": "Lisbon"} for i in range(1, 9)],
    "offers": [{"id": f"ofr_{i:02d}", "event_id": f"evt_{i:02d}", "price": 40 + i} for i in range(1, 9)],
    "holds": [{"id": "hld_01", "offer_id": "ofr_01"}],
}


class Offer(BaseModel):
    """A price of an event."""

    offer_id: str
    price: int


class EventOffers(BaseModel):
    """An event and its offers."""

    event_id: str
    name: str
    offers: list[Offer]


class Event(BaseModel):
    """An event."""

    id: str
    name: str
    city: str


class Hold(BaseModel):
    """Tickets held at an offer."""

    id: str
    offer_id: str


@tool(read_only=True)
def search_events(db: Database, city: str) -> list[Event]:
    """Find the events of a city.

    Args:
        city: The city, e.g. Lisbon.
    """
    return [Event(**row) for row in db.find(events, city=city)]


@tool(read_only=True)
def get_event_offers(db: Database, event_id: str) -> EventOffers:
    """The offers (prices) of an event.

    Args:
        event_id: The event.
    """
    event = db.get(events, event_id, "Event")
    found = [Offer(offer_id=row["id"], price=row["price"]) for row in db.find(offers, event_id=event_id)]
    return EventOffers(event_id=event_id, name=event["name"], offers=found)


@tool()
def reserve_tickets(db: Database, event_id: str, offer_id: str) -> Hold:
    """Hold tickets of an event at one of its offers.

    Args:
        event_id: The event.
        offer_id: The offer of that event.
    """
    db.get(events, event_id, "Event")
    if not db.find(offers, id=offer_id, event_id=event_id):
        raise NotFound(f"Offer '{offer_id}' not found for this event")
    return Hold(**db.insert(holds, id=db.new_id(holds, "hld_", 2), offer_id=offer_id))


def concert_spec(folder: Path) -> EnvironmentSpec:
    """The ticketing environment with its seed snapshot written under `folder`."""
    return module_spec(sys.modules[__name__], folder, SEED, "Concerts", "events", "Hold concert tickets.")
