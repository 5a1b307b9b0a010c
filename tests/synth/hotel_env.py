"""A small hotel-booking environment for graph and sampling tests: search, book, cancel, list, clear."""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel
from sqlalchemy import Column, ForeignKey, MetaData, String, Table

from envfactory_gym import Database, NotFound, tool
from envfactory_gym.spec import EnvironmentSpec

from ..helpers import module_spec

schema = MetaData()
hotels = Table(
    "hotels",
    schema,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
)
bookings = Table(
    "bookings",
    schema,
    Column("id", String, primary_key=True),
    Column("hotel_id", String, ForeignKey("hotels.id"), nullable=False),
    Column("guest_name", String, nullable=False),
    Column("check_in", String, nullable=False),
)
SEED = {
    "hotels": [
        {"id": "htl_01", "name": "Harbour Inn", "city": "Lisbon"},
        {"id": "htl_02", "name": "Old Town Suites", "city": "Lisbon"},
        {"id": "htl_03", "name": "Canal House", "city": "Amsterdam"},
    ],
    "bookings": [{"id": "bkg_01", "hotel_id": "htl_03", "guest_name": "Ana Silva", "check_in": "2025-02-01"}],
}


class Hotel(BaseModel):
    """A hotel."""

    id: str
    name: str
    city: str


class Booking(BaseModel):
    """A hotel booking."""

    id: str
    hotel_id: str
    guest_name: str
    check_in: str


class Cleared(BaseModel):
    """How many bookings were removed."""

    removed: int


@tool(read_only=True)
def search_hotels(db: Database, city: str) -> list[Hotel]:
    """Find the hotels of a city.

    Args:
        city: The city, e.g. Lisbon.
    """
    return [Hotel(**row) for row in db.find(hotels, city=city)]


@tool()
def book_hotel(db: Database, hotel_id: str, guest_name: str, check_in: str) -> Booking:
    """Book a room.

    Args:
        hotel_id: The hotel to book.
        guest_name: Full name of the guest.
        check_in: Arrival date, YYYY-MM-DD.
    """
    db.get(hotels, hotel_id, "Hotel")
    return Booking(
        **db.insert(
            bookings, id=db.new_id(bookings, "bkg_", 2), hotel_id=hotel_id, guest_name=guest_name, check_in=check_in
        )
    )


@tool()
def cancel_booking(db: Database, booking_id: str) -> Booking:
    """Cancel a booking.

    Args:
        booking_id: The booking to cancel.
    """
    return Booking(**db.delete(bookings, booking_id))


@tool(read_only=True)
def list_bookings(db: Database) -> list[Booking]:
    """List every booking."""
    return [Booking(**row) for row in db.find(bookings)]


@tool()
def clear_bookings(db: Database) -> Cleared:
    """Delete every booking."""
    rows = db.find(bookings)
    if not rows:
        raise NotFound("There are no bookings")
    for row in rows:
        db.delete(bookings, row["id"])
    return Cleared(removed=len(rows))


def hotel_spec(folder: Path) -> EnvironmentSpec:
    """The hotel environment with its seed snapshot written under `folder`."""
    return module_spec(sys.modules[__name__], folder, SEED, "Hotels", "travel", "Book hotel rooms.")
