"""Searching: creating an offer request (validating its slices and passengers, typing passengers by age, finding
and pricing the offers) and the rules of offers once found (expiry, passengers' loyalty accounts)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_date

from .rules import OFFER_LIFETIME, content_id, expired, invalid_state, iso, type_for_age, validation
from .schema import offer_requests, offers, orders
from .search import Reference, build_offers, itineraries

TYPE_RANK = {"adult": 0, "child": 1, "infant_without_seat": 2}


def _passengers(requested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    typed = []
    for i, p in enumerate(requested):
        if (p.get("type") is None) == (p.get("age") is None):
            raise validation(f"passengers[{i}]", "A passenger must have either a type or an age, not both.")
        loyalty = p.get("loyalty_programme_accounts") or []
        if loyalty and not (p.get("given_name") and p.get("family_name")):
            raise validation(
                f"passengers[{i}]", "given_name and family_name are required with loyalty programme accounts."
            )
        kind = "adult" if p.get("type") else type_for_age(p["age"])
        named = bool(loyalty)  # names only matter to airlines alongside a loyalty account
        typed.append(
            {
                "type": kind,
                "age": p.get("age"),
                "given_name": p.get("given_name") if named else None,
                "family_name": p.get("family_name") if named else None,
                "loyalty_programme_accounts": [
                    {"airline_iata_code": a["airline_iata_code"].upper(), "account_number": a["account_number"]}
                    for a in loyalty
                ],
            }
        )
    adults = sum(p["type"] == "adult" for p in typed)
    if adults == 0:
        raise validation("passengers", "At least one adult passenger is required.")
    if sum(p["type"] == "infant_without_seat" for p in typed) > adults:
        raise validation(
            "passengers",
            "Each infant_without_seat must travel with their own adult: there can't be more infants than adults.",
        )
    typed.sort(
        key=lambda p: (
            TYPE_RANK[p["type"]],
            -(p["age"] or 99),
            p["given_name"] or "",
            p["family_name"] or "",
            json.dumps(p["loyalty_programme_accounts"], sort_keys=True),
        )
    )
    return typed


def _slices(db: Database, ref: Reference, requested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    today = db.now().date()
    normalized, previous = [], None
    for i, s in enumerate(requested):
        origin, destination = s["origin"].strip().upper(), s["destination"].strip().upper()
        for field, code in (("origin", origin), ("destination", destination)):
            if not ref.place_codes(code):
                raise validation(f"slices[{i}].{field}", f"{code} is not a valid IATA airport or city code.")
        if set(ref.place_codes(origin)) & set(ref.place_codes(destination)):
            raise validation(f"slices[{i}]", "The origin and destination must be different.")
        day = parse_date(s["departure_date"], f"slices[{i}].departure_date")
        if day < today:
            raise validation(f"slices[{i}].departure_date", "The departure date must not be in the past.")
        if previous is not None and day < previous:
            raise validation(f"slices[{i}].departure_date", "Slices must be in chronological order.")
        previous = day
        normalized.append({"origin": origin, "destination": destination, "departure_date": day.isoformat()})
    return normalized


def create_offer_request(
    db: Database, slices: list[dict[str, Any]], passengers: list[dict[str, Any]], cabin_class: str, max_connections: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Search: the offer request and its offers. The same search on the same day returns the same offer request, its
    offers renewed (and those no longer available gone), unless one of its offers was booked (then it is a new offer
    request)."""
    ref = Reference(db)
    normal_slices = _slices(db, ref, slices)
    typed = _passengers(passengers)
    today = db.now().date()
    key = json.dumps(
        {"slices": normal_slices, "passengers": typed, "cabin_class": cabin_class, "max_connections": max_connections},
        sort_keys=True,
    )
    attempt = 0
    while True:
        request_id = content_id("orq", key, today.isoformat(), attempt)
        existing = db.find(offer_requests, id=request_id)
        if not existing or not db.find(orders, offer_request_id=request_id):
            break
        attempt += 1
    now = db.now()
    stamp, expires = iso(now), iso(now + OFFER_LIFETIME)
    if existing:
        request = existing[0]
    else:
        typed = [dict(p, id=content_id("pas", request_id, i)) for i, p in enumerate(typed)]
        request = db.insert(
            offer_requests,
            id=request_id,
            slices=normal_slices,
            passengers=typed,
            cabin_class=cabin_class,
            max_connections=max_connections,
            search_key=f"{today.isoformat()}|{key}",
            created_at=stamp,
        )
    seated = sum(p["type"] != "infant_without_seat" for p in request["passengers"])
    options = [
        itineraries(
            db,
            ref,
            ref.place_codes(s["origin"]),
            ref.place_codes(s["destination"]),
            date.fromisoformat(s["departure_date"]),
            max_connections,
            cabin_class,
            seated,
        )
        for s in normal_slices
    ]
    before = {o["id"]: o for o in db.find(offers, offer_request_id=request_id)}
    current = []
    for row in build_offers(db, ref, request, today, options):
        if row["id"] in before:
            current.append(db.update(offers, row["id"], expires_at=expires, updated_at=stamp))
        else:
            current.append(db.insert(offers, **row, expires_at=expires, created_at=stamp, updated_at=stamp))
    for gone in set(before) - {o["id"] for o in current}:
        db.delete(offers, gone)
    return request, current


def usable_offer(db: Database, offer: dict[str, Any]) -> None:
    """An offer can still be acted on: not expired."""
    if expired(db, offer["expires_at"]):
        raise invalid_state(
            "offer_expired", "The offer has expired. Create a new offer request to get up-to-date offers."
        )


def update_passenger(
    db: Database,
    offer: dict[str, Any],
    passenger_id: str,
    given_name: str,
    family_name: str,
    accounts: list[dict[str, str]],
) -> dict[str, Any]:
    """Set a passenger's name and loyalty programme accounts on one offer; only programmes the offer supports."""
    usable_offer(db, offer)
    found = [p for p in offer["passengers"] if p["id"] == passenger_id]
    if not found:
        raise validation("passenger_id", f"{passenger_id} is not a passenger of offer {offer['id']}.")
    for i, account in enumerate(accounts):
        if account["airline_iata_code"].upper() not in offer["supported_loyalty_programmes"]:
            raise validation(
                f"loyalty_programme_accounts[{i}].airline_iata_code",
                f"{account['airline_iata_code'].upper()} is not a loyalty programme supported by this "
                f"offer (supported: {', '.join(offer['supported_loyalty_programmes']) or 'none'}).",
            )
    updated = dict(
        found[0],
        given_name=given_name,
        family_name=family_name,
        loyalty_programme_accounts=[
            {"airline_iata_code": a["airline_iata_code"].upper(), "account_number": a["account_number"]}
            for a in accounts
        ],
    )
    passengers = [updated if p["id"] == passenger_id else p for p in offer["passengers"]]
    db.update(offers, offer["id"], passengers=passengers, updated_at=db.now_iso())
    return updated
