"""A small travel-wallet environment whose tools refuse inputs that do not relate as they should (for filling
tests): a stay's departure must come after its arrival, a new promo code must be one no promo has, and a
wallet's address must be on a network its currency supports (the error lists them)."""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel
from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table

from envfactory_gym import Conflict, Database, InvalidRequest, tool
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
stays = Table(
    "stays",
    schema,
    Column("id", String, primary_key=True),
    Column("hotel_id", String, ForeignKey("hotels.id"), nullable=False),
    Column("arrival", String, nullable=False),
    Column("departure", String, nullable=False),
)
promos = Table("promos", schema, Column("code", String, primary_key=True), Column("percent", Integer, nullable=False))
wallets = Table("wallets", schema, Column("id", String, primary_key=True), Column("currency", String, nullable=False))
addresses = Table(
    "addresses",
    schema,
    Column("id", String, primary_key=True),
    Column("wallet_id", String, ForeignKey("wallets.id"), nullable=False),
    Column("network", String, nullable=False),
)
NETWORKS = {"ADA": ["cardano"], "ETH": ["ethereum", "base"], "SOL": ["solana"]}
SEED = {
    "hotels": [{"id": "htl_01", "name": "Harbour Inn", "city": "Lisbon"}],
    "stays": [{"id": "sty_01", "hotel_id": "htl_01", "arrival": "2025-01-02", "departure": "2025-01-05"}],
    "promos": [{"code": c, "percent": 10} for c in ("spring10", "summer15", "autumn20", "winter25")],
    "wallets": [{"id": "wal_01", "currency": "ADA"}, {"id": "wal_02", "currency": "ETH"}],
    "addresses": [  # none on the ADA wallet's one network yet
        {"id": "adr_01", "wallet_id": "wal_02", "network": "ethereum"},
        {"id": "adr_02", "wallet_id": "wal_02", "network": "base"},
    ],
}


class Hotel(BaseModel):
    """A hotel."""

    id: str
    name: str
    city: str


class Stay(BaseModel):
    """A booked stay."""

    id: str
    hotel_id: str
    arrival: str
    departure: str


class Promo(BaseModel):
    """A promo code."""

    code: str
    percent: int


class Wallet(BaseModel):
    """A wallet of one currency."""

    id: str
    currency: str


class Address(BaseModel):
    """A receiving address of a wallet."""

    id: str
    wallet_id: str


@tool(read_only=True)
def search_hotels(db: Database, city: str) -> list[Hotel]:
    """Find the hotels of a city.

    Args:
        city: The city, e.g. Lisbon.
    """
    return [Hotel(**row) for row in db.find(hotels, city=city)]


@tool()
def book_stay(db: Database, hotel_id: str, arrival: str, departure: str) -> Stay:
    """Book a stay.

    Args:
        hotel_id: The hotel to stay at.
        arrival: The day of arrival, YYYY-MM-DD.
        departure: The day of departure, YYYY-MM-DD.
    """
    db.get(hotels, hotel_id, "Hotel")
    if departure <= arrival:
        raise InvalidRequest("The departure date must be after the arrival date.")
    row = db.insert(stays, id=db.new_id(stays, "sty_", 2), hotel_id=hotel_id, arrival=arrival, departure=departure)
    return Stay(**row)


@tool()
def create_promo(db: Database, code: str, percent: int) -> Promo:
    """Create a promo code.

    Args:
        code: The new code customers type.
        percent: The discount in percent.
    """
    if db.find(promos, code=code):
        raise Conflict("The promo code already exists")
    return Promo(**db.insert(promos, code=code, percent=percent))


@tool(read_only=True)
def list_wallets(db: Database) -> list[Wallet]:
    """List the wallets."""
    return [Wallet(**row) for row in db.find(wallets)]


@tool()
def create_address(db: Database, wallet_id: str, network: str, memo: str | None = None) -> Address:
    """Create a receiving address of a wallet.

    Args:
        wallet_id: The wallet.
        network: The network to receive on.
        memo: A memo senders add (stellar only).
    """
    currency = db.get(wallets, wallet_id, "Wallet")["currency"]
    if memo is not None and network != "stellar":
        raise InvalidRequest(f"Memo: {network} addresses take no memo")
    if network not in NETWORKS[currency]:
        supported = ", ".join(NETWORKS[currency])
        raise InvalidRequest(f"{currency} can't be sent or received on {network}. Supported networks: {supported}")
    row = db.insert(addresses, id=db.new_id(addresses, "adr_", 2), wallet_id=wallet_id, network=network)
    return Address(id=row["id"], wallet_id=wallet_id)


def stay_spec(folder: Path) -> EnvironmentSpec:
    """The travel-wallet environment with its seed snapshot written under `folder`."""
    return module_spec(sys.modules[__name__], folder, SEED, "Stays", "travel", "Book stays, promos and wallets.")
