"""Amadeus Self-Service flight tools: locations, offers search and pricing, orders, seat maps and traveler profiles."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, tool

from .schema import aircraft, airlines, fare_families, flight_orders, flights, locations, payments, travelers

Cabin = Literal["ECONOMY", "PREMIUM_ECONOMY", "BUSINESS", "FIRST"]
OrderStatus = Literal["HELD", "TICKETED", "CANCELLED"]
TYPE_FACTOR = {"ADULT": 1.0, "CHILD": 0.75, "HELD_INFANT": 0.1}
TYPE_RANK = {"ADULT": 0, "CHILD": 1, "HELD_INFANT": 2}
MIN_CONNECTION = timedelta(minutes=60)
MAX_CONNECTION = timedelta(hours=6)
HOLD_DAYS = 3
CONNECTION_FACTOR = 0.75
CURRENCY = "EUR"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
_PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_CALLING_CODES = sorted(
    ["1", "7", "30", "31", "32", "33", "34", "36", "39", "41", "43", "44", "45", "46", "47", "48", "49", "90",
     "351", "353", "358", "420", "971"], key=len, reverse=True,
)


# ---------------------------------------------------------------- output models

class GeoCode(BaseModel):
    """Coordinates of a location."""

    latitude: float
    longitude: float


class Address(BaseModel):
    """City and country of a location."""

    cityName: str
    cityCode: str
    countryName: str
    countryCode: str


class Location(BaseModel):
    """An airport or city, as Airport & City Search returns it."""

    type: Literal["location"] = "location"
    subType: str
    name: str
    detailedName: str
    id: str
    iataCode: str
    address: Address
    geoCode: GeoCode
    timeZoneOffset: str
    travelersScore: int = Field(description="analytics.travelers.score: how popular the location is, 0-100")


class FlightEndPoint(BaseModel):
    """Departure or arrival of a segment, in the airport's local time."""

    iataCode: str
    terminal: str | None = None
    at: str


class AircraftRef(BaseModel):
    """Aircraft type of a segment."""

    code: str


class Segment(BaseModel):
    """One flight of an itinerary."""

    id: str
    departure: FlightEndPoint
    arrival: FlightEndPoint
    carrierCode: str
    number: str
    aircraft: AircraftRef
    duration: str
    numberOfStops: int = 0


class Itinerary(BaseModel):
    """One direction of a trip: its segments and total duration (connections included)."""

    duration: str
    segments: list[Segment]


class Price(BaseModel):
    """Price of an offer for all its travelers."""

    currency: str
    total: str
    base: str
    grandTotal: str


class BaggageAllowance(BaseModel):
    """Checked bags included in the fare."""

    quantity: int


class FareSummary(BaseModel):
    """The branded fare of an offer and its conditions."""

    cabin: str
    brandedFare: str
    brandedFareLabel: str
    includedCheckedBags: BaggageAllowance
    refundable: bool
    changeable: bool


class FlightOffer(BaseModel):
    """A flight-offer: itineraries, branded fare and total price for the searched travelers."""

    type: Literal["flight-offer"] = "flight-offer"
    id: str
    source: Literal["GDS"] = "GDS"
    oneWay: bool
    lastTicketingDate: str
    numberOfBookableSeats: int
    itineraries: list[Itinerary]
    price: Price
    validatingAirlineCodes: list[str]
    fare: FareSummary


class TravelerPrice(BaseModel):
    """Price of one traveler."""

    currency: str
    total: str
    base: str


class FareDetailsBySegment(BaseModel):
    """The fare a traveler flies on one segment."""

    segmentId: str
    cabin: str
    fareBasis: str
    brandedFare: str
    brandedFareLabel: str
    bookingClass: str = Field(description="booking class (RBD), 'class' in the Amadeus API")
    includedCheckedBags: BaggageAllowance


class TravelerPricing(BaseModel):
    """Price and fare details of one traveler of an offer."""

    travelerId: str
    fareOption: Literal["STANDARD"] = "STANDARD"
    travelerType: str
    price: TravelerPrice
    fareDetailsBySegment: list[FareDetailsBySegment]


class FareRule(BaseModel):
    """A fare rule: REFUNDS or EXCHANGE, the penalty per traveler, or notApplicable when not allowed at all."""

    category: Literal["REFUNDS", "EXCHANGE"]
    maxPenaltyAmount: str | None
    notApplicable: bool


class PricedFlightOffer(FlightOffer):
    """A flight-offer confirmed by Flight Offers Price, with per-traveler pricing and fare rules."""

    travelerPricings: list[TravelerPricing]
    fareRules: list[FareRule]


class SearchMeta(BaseModel):
    """How many offers matched (before `max_results`)."""

    count: int


class FlightOffersSearchResponse(BaseModel):
    """Flight Offers Search result: offers cheapest first, and names of the carriers and aircraft in them."""

    meta: SearchMeta
    data: list[FlightOffer]
    carriers: dict[str, str] = Field(description="dictionaries.carriers: airline code -> name")
    aircraft: dict[str, str] = Field(description="dictionaries.aircraft: aircraft code -> name")


class TravelerRequirement(BaseModel):
    """What a booking needs from one traveler."""

    travelerId: str
    travelerType: str
    dateOfBirthRequired: bool
    contactRequired: bool


class FlightOfferPricing(BaseModel):
    """Flight Offers Price result."""

    type: Literal["flight-offers-pricing"] = "flight-offers-pricing"
    flightOffers: list[PricedFlightOffer]
    travelerRequirements: list[TravelerRequirement]


class Name(BaseModel):
    """A traveler's name as on the passport, upper case."""

    firstName: str
    lastName: str


class Phone(BaseModel):
    """A phone number."""

    deviceType: Literal["MOBILE"] = "MOBILE"
    countryCallingCode: str
    number: str


class Contact(BaseModel):
    """A traveler's contact details."""

    emailAddress: str | None
    phones: list[Phone]


class LoyaltyProgram(BaseModel):
    """A frequent flyer account."""

    programOwner: str
    id: str


class TravelerProfile(BaseModel):
    """A saved traveler profile of the company account."""

    id: str
    name: Name
    dateOfBirth: str | None
    gender: str | None
    contact: Contact
    loyaltyPrograms: list[LoyaltyProgram]


class LoyaltyProgramInput(BaseModel):
    """A frequent flyer account to save on a profile."""

    program_owner: str = Field(description="IATA code of the airline running the program, e.g. LH for Miles & More")
    id: str = Field(description="the membership number")


class OrderTravelerInput(BaseModel):
    """A traveler to book, from the saved profiles."""

    traveler_profile_id: str = Field(description="id of the traveler's saved profile")
    loyalty_program_owner: str | None = Field(
        None, description="program owner of one of the traveler's saved loyalty programs, to credit the flights to"
    )


class OrderTraveler(BaseModel):
    """A traveler of a flight-order; `id` is the order's traveler id used by seats."""

    id: str
    profileId: str
    travelerType: str
    associatedAdultId: str | None
    name: Name
    dateOfBirth: str
    loyaltyPrograms: list[LoyaltyProgram]


class AssociatedRecord(BaseModel):
    """The PNR that holds the order."""

    reference: str
    creationDate: str
    originSystemCode: Literal["GDS"] = "GDS"
    flightOfferId: str


class TicketingAgreement(BaseModel):
    """CONFIRM (ticketed on booking) or DELAY_TO_CANCEL (held until `dateTime`, then cancelled)."""

    option: str
    dateTime: str | None


class SeatAssignment(BaseModel):
    """A seat assigned to a traveler on a segment."""

    segmentId: str
    travelerId: str
    number: str


class PaymentRecord(BaseModel):
    """Money charged to or refunded on the company card for this order."""

    id: str
    type: str
    amount: str
    currency: str


class FlightOrder(BaseModel):
    """A flight-order, as Flight Create Orders and Flight Order Management return it."""

    type: Literal["flight-order"] = "flight-order"
    id: str
    status: str
    associatedRecords: list[AssociatedRecord]
    flightOffers: list[PricedFlightOffer]
    travelers: list[OrderTraveler]
    ticketingAgreement: TicketingAgreement
    seatAssignments: list[SeatAssignment]
    payments: list[PaymentRecord]


class OrderItinerary(BaseModel):
    """One direction of a booked trip, in short."""

    origin: str
    destination: str
    departureAt: str
    flights: list[str]


class FlightOrderSummary(BaseModel):
    """A flight-order in short, as listed."""

    id: str
    recordLocator: str
    status: str
    itineraries: list[OrderItinerary]
    travelers: list[str]
    cabin: str
    brandedFare: str
    grandTotal: str
    currency: str
    ticketingOption: str


class CancellationResult(BaseModel):
    """What cancelling an order did."""

    flightOrderId: str
    recordLocator: str
    status: str
    cancellationFee: str
    refundAmount: str
    currency: str


class ChangeResult(BaseModel):
    """What changing an order's flights cost, and the order afterwards."""

    changeFee: str
    fareDifference: str
    currency: str
    flightOrder: FlightOrder


class SeatMapSeat(BaseModel):
    """A seat of a seat map. characteristicsCodes: W window, A aisle, 9 center, E exit row, L leg space, K bulkhead."""

    number: str
    characteristicsCodes: list[str]
    seatAvailabilityStatus: Literal["AVAILABLE", "OCCUPIED"]


class DeckConfiguration(BaseModel):
    """Rows of the deck shown and its exit rows."""

    startSeatRow: int
    endSeatRow: int
    exitRowsX: list[int]


class Deck(BaseModel):
    """A deck of the aircraft (the booked cabin only)."""

    deckType: Literal["MAIN"] = "MAIN"
    deckConfiguration: DeckConfiguration
    seats: list[SeatMapSeat]


class SeatMap(BaseModel):
    """SeatMap Display result for one segment."""

    type: Literal["seatmap"] = "seatmap"
    segmentId: str
    carrierCode: str
    number: str
    departure: FlightEndPoint
    arrival: FlightEndPoint
    aircraft: AircraftRef
    cabin: str
    decks: list[Deck]


class ReleasedOrder(BaseModel):
    """A held order that was cancelled."""

    flightOrderId: str
    recordLocator: str


# ---------------------------------------------------------------- time, money and names

def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _offset(text: str) -> timedelta:
    sign = -1 if text.startswith("-") else 1
    hours, minutes = text.lstrip("+-").split(":")
    return sign * timedelta(hours=int(hours), minutes=int(minutes))


def _iso_duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"PT{hours}H{minutes}M" if minutes else f"PT{hours}H"


def _parse_date(value: str, field: str) -> date:
    if not _DATE.match(value):
        raise InvalidRequest(f"INVALID FORMAT: {field} must be a date as YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidRequest(f"INVALID DATE: {field} {value} does not exist") from None


def _age(dob: str, on: date) -> int:
    born = date.fromisoformat(dob)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def _traveler_type(dob: str, on: date) -> str:
    age = _age(dob, on)
    return "HELD_INFANT" if age < 2 else "CHILD" if age < 12 else "ADULT"


def _record_locator(number: int) -> str:
    """The PNR of the n-th order: a fixed bijective scramble of n into six characters."""
    value = (number * 387420489 + 16777619) % (32 ** 6)
    chars = []
    for _ in range(6):
        value, digit = divmod(value, 32)
        chars.append(_PNR_ALPHABET[digit])
    return "".join(reversed(chars))


def _split_phone(e164: str) -> Phone:
    digits = e164.lstrip("+")
    code = next((c for c in _CALLING_CODES if digits.startswith(c)), digits[:2])
    return Phone(countryCallingCode=code, number=digits[len(code):])


def _normalize_phone(raw: str) -> str:
    cleaned = re.sub(r"[\s\-().]", "", raw)
    if cleaned.startswith("00"):
        cleaned = "+" + cleaned[2:]
    if not re.fullmatch(r"\+\d{7,15}", cleaned):
        raise InvalidRequest("phone must be an international number with country code, e.g. +49 151 23456789")
    return cleaned


def _normalize_name(value: str, field: str) -> str:
    name = " ".join(value.split()).upper()
    if not name:
        raise InvalidRequest(f"{field} must not be empty")
    return name


def _normalize_email(value: str) -> str:
    email = value.strip().lower()
    if not _EMAIL.match(email):
        raise InvalidRequest(f"{value!r} is not a valid e-mail address")
    return email


# ---------------------------------------------------------------- locations and flights

def _airport(db: Database, iata: str) -> dict[str, Any]:
    return db.get(locations, f"A{iata}", "Airport")


def _airports_for(db: Database, code: str) -> list[str]:
    """Airports served by an IATA airport or city code (LON: LHR, LGW, LCY)."""
    code = code.strip().upper()
    rows = db.find(locations, (locations.c.iata_code == code) | (locations.c.city_code == code), sub_type="AIRPORT")
    if not rows:
        raise NotFound(f"LOCATION NOT FOUND: no airport or city with IATA code {code!r}")
    return [r["iata_code"] for r in rows]


def _utc(db: Database, iata: str, local: str) -> datetime:
    offset = _offset(_airport(db, iata)["time_zone_offset"])
    return datetime.fromisoformat(local).replace(tzinfo=timezone.utc) - offset


def _departed(db: Database, flight: dict[str, Any]) -> bool:
    return _utc(db, flight["departure_iata"], flight["departure_at"]) <= db.now()


def _today(db: Database) -> date:
    return db.now().date()


@dataclass(frozen=True)
class Offer:
    """A parsed flight-offer id: its itineraries (lists of flight rows) and branded fare."""

    id: str
    itineraries: list[list[dict[str, Any]]]
    fare: dict[str, Any]

    @property
    def segments(self) -> list[dict[str, Any]]:
        """Every flight of the offer, in order (segment ids are their 1-based positions)."""
        return [f for itinerary in self.itineraries for f in itinerary]

    @property
    def cabin(self) -> str:
        """The booked cabin."""
        return self.fare["cabin"]

    @property
    def departure_date(self) -> date:
        """Local date of the first departure."""
        return date.fromisoformat(self.segments[0]["departure_at"][:10])


def _connects(first: dict[str, Any], second: dict[str, Any]) -> bool:
    if first["arrival_iata"] != second["departure_iata"] or first["carrier_code"] != second["carrier_code"]:
        return False
    gap = datetime.fromisoformat(second["departure_at"]) - datetime.fromisoformat(first["arrival_at"])
    return MIN_CONNECTION <= gap <= MAX_CONNECTION


def _offer_id(itineraries: list[list[dict[str, Any]]], brand: str) -> str:
    return "~".join("+".join(f["id"] for f in itinerary) for itinerary in itineraries) + "/" + brand


def _parse_offer(db: Database, offer_id: str) -> Offer:
    """Resolve a flight-offer id (`<flight>+<flight>~<flight>/<brandedFare>`) or raise NotFound."""
    missing = NotFound(f"Flight offer '{offer_id}' not found: search flight offers again")
    if offer_id.count("/") != 1:
        raise missing
    flights_part, brand = offer_id.split("/")
    itineraries = []
    for part in flights_part.split("~"):
        rows = db.find(flights, flights.c.id.in_(part.split("+")))
        by_id = {r["id"]: r for r in rows}
        if not part or len(by_id) != len(part.split("+")):
            raise missing
        itineraries.append([by_id[i] for i in part.split("+")])
    if len(itineraries) > 2 or any(
        not _connects(a, b) for itinerary in itineraries for a, b in zip(itinerary, itinerary[1:])
    ):
        raise missing
    carriers = {f["carrier_code"] for itinerary in itineraries for f in itinerary}
    fare_id = f"{carriers.pop()}-{brand}"
    fare = db.conn.execute(fare_families.select().where(fare_families.c.id == fare_id)).mappings().first()
    if carriers or fare is None:
        raise missing
    offer = Offer(offer_id, itineraries, dict(fare))
    if any(offer.cabin not in f["base_fares"] for f in offer.segments):
        raise missing
    return offer


def _seats_left(offer: Offer) -> int:
    return min(f["seats_left"][offer.cabin] for f in offer.segments)


def _traveler_price(db: Database, offer: Offer, traveler_type: str) -> tuple[int, int]:
    """(base, total) in cents of one traveler of this type: fare per segment (connecting segments at a discount)
    plus departure charges."""
    base = taxes = 0
    for itinerary in offer.itineraries:
        factor = offer.fare["price_factor"] * TYPE_FACTOR[traveler_type]
        if len(itinerary) > 1:
            factor *= CONNECTION_FACTOR
        for flight in itinerary:
            base += round(flight["base_fares"][offer.cabin] * 100 * factor)
            if traveler_type != "HELD_INFANT":
                taxes += (_airport(db, flight["departure_iata"])["passenger_charge"] or 0) * 100
    return base, base + taxes


def _last_ticketing_date(db: Database, offer: Offer) -> date:
    return max(_today(db), min(_today(db) + timedelta(days=HOLD_DAYS), offer.departure_date - timedelta(days=1)))


def _span(db: Database, first: dict[str, Any], last: dict[str, Any]) -> timedelta:
    """Elapsed time from the departure of `first` to the arrival of `last`."""
    return _utc(db, last["arrival_iata"], last["arrival_at"]) - _utc(db, first["departure_iata"], first["departure_at"])


def _segment(db: Database, flight: dict[str, Any], segment_id: str) -> Segment:
    return Segment(
        id=segment_id,
        departure=FlightEndPoint(iataCode=flight["departure_iata"], terminal=flight["departure_terminal"],
                                 at=flight["departure_at"]),
        arrival=FlightEndPoint(iataCode=flight["arrival_iata"], terminal=flight["arrival_terminal"],
                               at=flight["arrival_at"]),
        carrierCode=flight["carrier_code"], number=flight["number"], aircraft=AircraftRef(code=flight["aircraft_code"]),
        duration=_iso_duration(_span(db, flight, flight)),
    )


def _itinerary_models(db: Database, offer: Offer) -> list[Itinerary]:
    result, counter = [], 0
    for itinerary in offer.itineraries:
        segments = []
        for flight in itinerary:
            counter += 1
            segments.append(_segment(db, flight, str(counter)))
        result.append(Itinerary(duration=_iso_duration(_span(db, itinerary[0], itinerary[-1])), segments=segments))
    return result


def _fare_summary(fare: dict[str, Any]) -> FareSummary:
    return FareSummary(
        cabin=fare["cabin"], brandedFare=fare["branded_fare"], brandedFareLabel=fare["branded_fare_label"],
        includedCheckedBags=BaggageAllowance(quantity=fare["included_checked_bags"]),
        refundable=fare["refundable"], changeable=fare["changeable"],
    )


def _flight_offer(db: Database, offer: Offer, types: list[str]) -> FlightOffer:
    prices = [_traveler_price(db, offer, t) for t in types]
    base, total = sum(p[0] for p in prices), sum(p[1] for p in prices)
    return FlightOffer(
        id=offer.id, oneWay=len(offer.itineraries) == 1,
        lastTicketingDate=_last_ticketing_date(db, offer).isoformat(),
        numberOfBookableSeats=min(9, _seats_left(offer)), itineraries=_itinerary_models(db, offer),
        price=Price(currency=CURRENCY, total=_money(total), base=_money(base), grandTotal=_money(total)),
        validatingAirlineCodes=[offer.fare["carrier_code"]], fare=_fare_summary(offer.fare),
    )


def _priced_offer(db: Database, offer: Offer, types: list[str]) -> PricedFlightOffer:
    fare = offer.fare
    pricings = []
    for index, traveler_type in enumerate(types, start=1):
        base, total = _traveler_price(db, offer, traveler_type)
        pricings.append(TravelerPricing(
            travelerId=str(index), travelerType=traveler_type,
            price=TravelerPrice(currency=CURRENCY, total=_money(total), base=_money(base)),
            fareDetailsBySegment=[
                FareDetailsBySegment(
                    segmentId=str(n), cabin=fare["cabin"], fareBasis=fare["fare_basis"],
                    brandedFare=fare["branded_fare"], brandedFareLabel=fare["branded_fare_label"],
                    bookingClass=fare["booking_class"],
                    includedCheckedBags=BaggageAllowance(quantity=0 if traveler_type == "HELD_INFANT"
                                                         else fare["included_checked_bags"]),
                )
                for n in range(1, len(offer.segments) + 1)
            ],
        ))
    rules = [
        FareRule(category="REFUNDS", notApplicable=not fare["refundable"],
                 maxPenaltyAmount=_money(fare["cancellation_fee"] * 100) if fare["refundable"] else None),
        FareRule(category="EXCHANGE", notApplicable=not fare["changeable"],
                 maxPenaltyAmount=_money(fare["change_fee"] * 100) if fare["changeable"] else None),
    ]
    summary = _flight_offer(db, offer, types)
    return PricedFlightOffer(**summary.model_dump(), travelerPricings=pricings, fareRules=rules)


def _search_itineraries(
    db: Database, origins: list[str], destinations: list[str], day: str, carriers: set[str], non_stop: bool
) -> list[list[dict[str, Any]]]:
    """Direct flights and one-stop connections on the same carrier, departing on the local date `day`."""
    found = []
    firsts = db.find(flights, flights.c.departure_iata.in_(origins), flights.c.departure_at.like(f"{day}T%"),
                     order_by=[flights.c.departure_at])
    for first in firsts:
        if carriers and first["carrier_code"] not in carriers:
            continue
        if first["arrival_iata"] in destinations:
            found.append([first])
        elif not non_stop and first["arrival_iata"] not in origins:
            arrived = datetime.fromisoformat(first["arrival_at"])
            seconds = db.find(
                flights, flights.c.arrival_iata.in_(destinations),
                flights.c.departure_at >= (arrived + MIN_CONNECTION).isoformat(),
                flights.c.departure_at <= (arrived + MAX_CONNECTION).isoformat(),
                departure_iata=first["arrival_iata"], carrier_code=first["carrier_code"],
                order_by=[flights.c.departure_at],
            )
            found.extend([first, second] for second in seconds)
    return found


# ---------------------------------------------------------------- orders

def _order(db: Database, flight_order_id: str) -> dict[str, Any]:
    return db.get(flight_orders, flight_order_id, "Flight order")


def _order_types(order: dict[str, Any]) -> list[str]:
    return [t["travelerType"] for t in order["travelers"]]


def _segment_ids(offer: Offer) -> dict[str, str]:
    return {f["id"]: str(n) for n, f in enumerate(offer.segments, start=1)}


def _order_model(db: Database, order: dict[str, Any]) -> FlightOrder:
    offer = _parse_offer(db, order["flight_offer_id"])
    segment_ids = _segment_ids(offer)
    ticketing_time = f"{order['last_ticketing_date']}T23:59:00" if order["last_ticketing_date"] else None
    return FlightOrder(
        id=order["id"], status=order["status"],
        associatedRecords=[AssociatedRecord(reference=order["record_locator"], creationDate=order["created_at"],
                                            flightOfferId=order["flight_offer_id"])],
        flightOffers=[_priced_offer(db, offer, _order_types(order))],
        travelers=[
            OrderTraveler(
                id=t["id"], profileId=t["profileId"], travelerType=t["travelerType"],
                associatedAdultId=t["associatedAdultId"], name=Name(firstName=t["firstName"], lastName=t["lastName"]),
                dateOfBirth=t["dateOfBirth"],
                loyaltyPrograms=[LoyaltyProgram(**t["loyaltyProgram"])] if t["loyaltyProgram"] else [],
            )
            for t in order["travelers"]
        ],
        ticketingAgreement=TicketingAgreement(option=order["ticketing_option"], dateTime=ticketing_time),
        seatAssignments=[
            SeatAssignment(segmentId=segment_ids[s["flightId"]], travelerId=s["travelerId"], number=s["number"])
            for s in order["seats"] if s["flightId"] in segment_ids
        ],
        payments=[
            PaymentRecord(id=p["id"], type=p["type"], amount=_money(p["amount"]), currency=p["currency"])
            for p in db.find(payments, flight_order_id=order["id"])
        ],
    )


def _seated(types: list[str]) -> int:
    return sum(1 for t in types if t != "HELD_INFANT")


def _take_seats(db: Database, offer: Offer, count: int) -> None:
    for flight in offer.segments:
        row = db.get(flights, flight["id"], "Flight")
        left = row["seats_left"][offer.cabin]
        if left < count:
            raise Conflict(
                f"SEGMENT SELL FAILURE: {left} seat(s) left in {offer.cabin} on {row['carrier_code']}{row['number']} "
                f"of {row['departure_at'][:10]}, {count} needed"
            )
        db.update(flights, row["id"], seats_left={**row["seats_left"], offer.cabin: left - count})


def _release_seats(db: Database, offer: Offer, count: int) -> None:
    for flight in offer.segments:
        row = db.get(flights, flight["id"], "Flight")
        left = row["seats_left"][offer.cabin]
        db.update(flights, row["id"], seats_left={**row["seats_left"], offer.cabin: left + count})


def _pay(db: Database, order_id: str, kind: str, cents: int) -> None:
    if cents > 0:
        db.insert(payments, id=db.new_id(payments, "PAY", 5), flight_order_id=order_id, type=kind, amount=cents,
                  currency=CURRENCY, created_at=db.now_iso())


def _require_not_departed(db: Database, offer: Offer, action: str) -> None:
    for flight in offer.segments:
        if _departed(db, flight):
            raise Conflict(
                f"Cannot {action}: {flight['carrier_code']}{flight['number']} of {flight['departure_at'][:10]} "
                "has already departed"
            )


def _credit(airline: dict[str, Any], owner: dict[str, Any]) -> bool:
    """Whether miles flown on `airline` can be credited to `owner`'s program (same airline or same alliance)."""
    same_alliance = airline["alliance"] is not None and airline["alliance"] == owner["alliance"]
    return airline["code"] == owner["code"] or same_alliance


# ---------------------------------------------------------------- seat maps

def _seat_plan(layout: dict[str, Any]) -> dict[str, tuple[str, int, list[str]]]:
    """seat number -> (cabin, row, characteristics codes) for an aircraft layout."""
    plan: dict[str, tuple[str, int, list[str]]] = {}
    exits = set(layout.get("exitRows", []))
    for section in layout["cabins"]:
        blocks = section["columns"].split()
        first_row, last_row = section["rows"]
        for row in range(first_row, last_row + 1):
            for b, block in enumerate(blocks):
                for i, letter in enumerate(block):
                    codes = []
                    if (b == 0 and i == 0) or (b == len(blocks) - 1 and i == len(block) - 1):
                        codes.append("W")
                    if (i == len(block) - 1 and b < len(blocks) - 1) or (i == 0 and b > 0):
                        codes.append("A")
                    if not codes:
                        codes.append("9")
                    if row in exits:
                        codes += ["E", "L"]
                    if row == first_row:
                        codes.append("K")
                    plan[f"{row}{letter}"] = (section["cabin"], row, codes)
    return plan


def _taken_seats(db: Database, flight: dict[str, Any]) -> dict[str, tuple[str, str] | None]:
    """Occupied seat -> (order id, traveler id) for this account's assignments, None for other passengers."""
    taken: dict[str, tuple[str, str] | None] = {seat: None for seat in flight["occupied_seats"]}
    for order in db.find(flight_orders, flight_orders.c.status != "CANCELLED"):
        for seat in order["seats"]:
            if seat["flightId"] == flight["id"]:
                taken[seat["number"]] = (order["id"], seat["travelerId"])
    return taken


def _seat_map(db: Database, flight: dict[str, Any], segment_id: str, cabin: str, only_available: bool) -> SeatMap:
    plan = _seat_plan(db.get(aircraft, flight["aircraft_code"], "Aircraft")["layout"])
    taken = _taken_seats(db, flight)
    rows = [row for c, row, _ in plan.values() if c == cabin]
    seats = []
    for number, (seat_cabin, _, codes) in plan.items():
        status = "OCCUPIED" if number in taken else "AVAILABLE"
        if seat_cabin == cabin and not (only_available and status == "OCCUPIED"):
            seats.append(SeatMapSeat(number=number, characteristicsCodes=codes, seatAvailabilityStatus=status))
    segment = _segment(db, flight, segment_id)
    exits = sorted({row for c, row, codes in plan.values() if c == cabin and "E" in codes})
    return SeatMap(
        segmentId=segment_id, carrierCode=segment.carrierCode, number=segment.number, departure=segment.departure,
        arrival=segment.arrival, aircraft=segment.aircraft, cabin=cabin,
        decks=[Deck(deckConfiguration=DeckConfiguration(startSeatRow=min(rows), endSeatRow=max(rows), exitRowsX=exits),
                    seats=seats)],
    )


# ---------------------------------------------------------------- profiles

def _profile(db: Database, traveler_profile_id: str) -> dict[str, Any]:
    return db.get(travelers, traveler_profile_id, "Traveler profile")


def _profile_model(row: dict[str, Any]) -> TravelerProfile:
    return TravelerProfile(
        id=row["id"], name=Name(firstName=row["first_name"], lastName=row["last_name"]),
        dateOfBirth=row["date_of_birth"], gender=row["gender"],
        contact=Contact(emailAddress=row["email"], phones=[_split_phone(row["phone"])] if row["phone"] else []),
        loyaltyPrograms=[LoyaltyProgram(**p) for p in row["loyalty_programs"]],
    )


def _valid_dob(value: str, today: date) -> str:
    if _parse_date(value, "dateOfBirth") > today:
        raise InvalidRequest("dateOfBirth cannot be in the future")
    return value


# ---------------------------------------------------------------- tools

@tool(read_only=True)
def search_airports(db: Database, keyword: str, sub_type: Literal["AIRPORT", "CITY"] | None = None) -> list[Location]:
    """Airport & City Search: find airports and cities by IATA code or by (part of) their name or city name.

    A city code (LON, NYC, PAR, MIL...) stands for all of its airports in flight searches.

    Args:
        keyword: An IATA code or text to look for, e.g. "MUC", "london", "Newark".
        sub_type: Only airports or only cities; both when left out.
    """
    needle = keyword.strip().casefold()
    if not needle:
        raise InvalidRequest("keyword must not be empty")
    rows = db.find(locations) if sub_type is None else db.find(locations, sub_type=sub_type)
    matches = [
        r for r in rows
        if r["iata_code"].casefold() == needle
        or any(needle in r[k].casefold() for k in ("name", "detailed_name", "city_name"))
    ]
    matches.sort(key=lambda r: (r["iata_code"].casefold() != needle, -r["traveler_score"], r["id"]))
    return [
        Location(
            subType=r["sub_type"], name=r["name"], detailedName=r["detailed_name"], id=r["id"], iataCode=r["iata_code"],
            address=Address(cityName=r["city_name"], cityCode=r["city_code"], countryName=r["country_name"],
                            countryCode=r["country_code"]),
            geoCode=GeoCode(latitude=r["latitude"], longitude=r["longitude"]), timeZoneOffset=r["time_zone_offset"],
            travelersScore=r["traveler_score"],
        )
        for r in matches
    ]


@tool(read_only=True)
def search_flight_offers(
    db: Database,
    origin_location_code: str,
    destination_location_code: str,
    departure_date: str,
    return_date: str | None = None,
    adults: int = 1,
    children: int = 0,
    infants: int = 0,
    travel_class: Cabin | None = None,
    included_airline_codes: list[str] | None = None,
    non_stop: bool = False,
    max_price: int | None = None,
    max_results: int = 10,
) -> FlightOffersSearchResponse:
    """Flight Offers Search: bookable offers (direct flights and one-stop connections on one airline) for a trip,
    one offer per itinerary and branded fare, cheapest first. Only offers with enough seats for the party are
    returned; numberOfBookableSeats is capped at 9.

    Args:
        origin_location_code: IATA code of the departure airport or city, e.g. "BER" or "LON".
        destination_location_code: IATA code of the arrival airport or city.
        departure_date: Local departure date of the outbound flight, YYYY-MM-DD.
        return_date: Local departure date of the return flight for a round trip, YYYY-MM-DD.
        adults: Travelers aged 12 or more, 1 to 9.
        children: Travelers aged 2 to 11 (they get a seat).
        infants: Travelers under 2, on an adult's lap; at most one per adult.
        travel_class: Only this cabin; every cabin when left out.
        included_airline_codes: Only these airlines (IATA codes).
        non_stop: Only direct flights.
        max_price: Maximum price per traveler in EUR (whole number).
        max_results: Offers to return, 1 to 250.
    """
    if not 1 <= max_results <= 250:
        raise InvalidRequest("max_results must be between 1 and 250")
    if not 1 <= adults <= 9 or children < 0 or infants < 0 or adults + children > 9:
        raise InvalidRequest("adults must be 1 to 9, and adults plus children at most 9")
    if infants > adults:
        raise InvalidRequest("each infant must travel on the lap of an adult: infants cannot exceed adults")
    outbound_day = _parse_date(departure_date, "departureDate")
    if outbound_day < _today(db):
        raise InvalidRequest(f"INVALID DATE: departureDate {departure_date} is in the past")
    if return_date is not None and _parse_date(return_date, "returnDate") < outbound_day:
        raise InvalidRequest("returnDate must not be before departureDate")
    origins = _airports_for(db, origin_location_code)
    destinations = _airports_for(db, destination_location_code)
    if set(origins) & set(destinations):
        raise InvalidRequest("origin and destination must differ")
    carriers = {c.strip().upper() for c in included_airline_codes or []}
    outbound = _search_itineraries(db, origins, destinations, departure_date, carriers, non_stop)
    combos = [[o] for o in outbound]
    if return_date is not None:
        inbound = _search_itineraries(db, destinations, origins, return_date, carriers, non_stop)
        combos = [[o, i] for o in outbound for i in inbound if o[0]["carrier_code"] == i[0]["carrier_code"]]
    types = ["ADULT"] * adults + ["CHILD"] * children + ["HELD_INFANT"] * infants
    families = db.find(fare_families, order_by=[fare_families.c.price_factor])
    candidates: list[tuple[int, str, Offer]] = []
    for itineraries in combos:
        first = itineraries[0][0]
        if _departed(db, first):
            continue
        for fare in families:
            if fare["carrier_code"] != first["carrier_code"] or (travel_class and fare["cabin"] != travel_class):
                continue
            offer = Offer(_offer_id(itineraries, fare["branded_fare"]), itineraries, fare)
            if any(offer.cabin not in f["base_fares"] for f in offer.segments):
                continue
            if _seats_left(offer) < adults + children:
                continue
            total = sum(_traveler_price(db, offer, t)[1] for t in types)
            if max_price is not None and total > max_price * 100 * len(types):
                continue
            candidates.append((total, first["departure_at"], offer))
    candidates.sort(key=lambda c: (c[0], c[1], c[2].id))
    offers = [_flight_offer(db, offer, types) for _, _, offer in candidates[:max_results]]
    codes = {s.carrierCode for o in offers for i in o.itineraries for s in i.segments}
    planes = {s.aircraft.code for o in offers for i in o.itineraries for s in i.segments}
    return FlightOffersSearchResponse(
        meta=SearchMeta(count=len(candidates)), data=offers,
        carriers={r["code"]: r["business_name"] for r in db.find(airlines, airlines.c.code.in_(codes))},
        aircraft={r["code"]: r["name"] for r in db.find(aircraft, aircraft.c.code.in_(planes))},
    )


@tool(read_only=True)
def price_flight_offer(
    db: Database, flight_offer_id: str, adults: int = 1, children: int = 0, infants: int = 0
) -> FlightOfferPricing:
    """Flight Offers Price: confirm an offer's availability and final price for the party, with each traveler's
    pricing, fare details per segment, the refund and exchange rules and what the booking will require.

    Args:
        flight_offer_id: The offer's id, as returned by search_flight_offers.
        adults: Travelers aged 12 or more.
        children: Travelers aged 2 to 11.
        infants: Travelers under 2, on an adult's lap.
    """
    if not 1 <= adults <= 9 or children < 0 or infants < 0 or adults + children > 9 or infants > adults:
        raise InvalidRequest("1 to 9 adults, adults plus children at most 9, and at most one infant per adult")
    offer = _parse_offer(db, flight_offer_id)
    _require_not_departed(db, offer, "price this offer")
    left = _seats_left(offer)
    if left < adults + children:
        raise Conflict(f"NO FARE AVAILABLE: only {left} seat(s) left in {offer.cabin} for this offer")
    types = ["ADULT"] * adults + ["CHILD"] * children + ["HELD_INFANT"] * infants
    return FlightOfferPricing(
        flightOffers=[_priced_offer(db, offer, types)],
        travelerRequirements=[
            TravelerRequirement(travelerId=str(i), travelerType=t, dateOfBirthRequired=True,
                                contactRequired=t == "ADULT")
            for i, t in enumerate(types, start=1)
        ],
    )


@tool(read_only=True)
def list_traveler_profiles(db: Database, name: str | None = None) -> list[TravelerProfile]:
    """List the company's saved traveler profiles (name, date of birth, contact, loyalty programs).

    Args:
        name: Only profiles whose first or last name contains this text (case-insensitive).
    """
    rows = db.find(travelers, order_by=[travelers.c.last_name, travelers.c.first_name])
    if name:
        words = name.upper().split()
        rows = [r for r in rows if all(w in f"{r['first_name']} {r['last_name']}" for w in words)]
    return [_profile_model(r) for r in rows]


@tool()
def create_traveler_profile(
    db: Database,
    first_name: str,
    last_name: str,
    date_of_birth: str | None = None,
    gender: Literal["MALE", "FEMALE"] | None = None,
    email: str | None = None,
    phone: str | None = None,
) -> TravelerProfile:
    """Save a new traveler profile. Names are stored in upper case, as on the passport.

    Args:
        first_name: First (given) name as on the passport.
        last_name: Last name as on the passport.
        date_of_birth: YYYY-MM-DD.
        gender: MALE or FEMALE.
        email: Contact e-mail address.
        phone: Mobile number with country code, e.g. "+44 7700 900123".
    """
    first, last = _normalize_name(first_name, "first_name"), _normalize_name(last_name, "last_name")
    if db.find(travelers, first_name=first, last_name=last):
        raise Conflict(f"A traveler profile for {first} {last} already exists")
    row = db.insert(
        travelers, id=db.new_id(travelers, "TRV"), first_name=first, last_name=last,
        date_of_birth=_valid_dob(date_of_birth, _today(db)) if date_of_birth else None, gender=gender,
        email=_normalize_email(email) if email else None, phone=_normalize_phone(phone) if phone else None,
        loyalty_programs=[],
    )
    return _profile_model(row)


@tool()
def update_traveler_profile(
    db: Database,
    traveler_profile_id: str,
    date_of_birth: str | None = None,
    gender: Literal["MALE", "FEMALE"] | None = None,
    email: str | None = None,
    phone: str | None = None,
    loyalty_program: LoyaltyProgramInput | None = None,
) -> TravelerProfile:
    """Complete or correct a saved traveler profile; unset arguments stay as they are. A loyalty program replaces
    the traveler's saved number for the same program owner.

    Args:
        traveler_profile_id: The profile to update, as listed by list_traveler_profiles.
        date_of_birth: YYYY-MM-DD.
        gender: MALE or FEMALE.
        email: Contact e-mail address.
        phone: Mobile number with country code, e.g. "+44 7700 900123".
        loyalty_program: A frequent flyer account to add: its program owner airline and membership number.
    """
    row = _profile(db, traveler_profile_id)
    changes: dict[str, Any] = {}
    if date_of_birth is not None:
        changes["date_of_birth"] = _valid_dob(date_of_birth, _today(db))
    if gender is not None:
        changes["gender"] = gender
    if email is not None:
        changes["email"] = _normalize_email(email)
    if phone is not None:
        changes["phone"] = _normalize_phone(phone)
    if loyalty_program is not None:
        owner = loyalty_program.program_owner.strip().upper()
        airline = db.conn.execute(airlines.select().where(airlines.c.code == owner)).mappings().first()
        if airline is None or airline["loyalty_program"] is None:
            raise InvalidRequest(f"{owner} does not run a frequent flyer program")
        number = loyalty_program.id.replace(" ", "").upper()
        if not re.fullmatch(r"[A-Z0-9]{6,20}", number):
            raise InvalidRequest("a loyalty number has 6 to 20 letters and digits")
        kept = [p for p in row["loyalty_programs"] if p["programOwner"] != owner]
        changes["loyalty_programs"] = sorted(kept + [{"programOwner": owner, "id": number}],
                                             key=lambda p: p["programOwner"])
    if not changes:
        raise InvalidRequest("Nothing to update")
    return _profile_model(db.update(travelers, traveler_profile_id, **changes))


@tool()
def create_flight_order(
    db: Database,
    flight_offer_id: str,
    travelers: list[OrderTravelerInput],
    ticketing_option: Literal["CONFIRM", "DELAY_TO_CANCEL"] = "CONFIRM",
) -> FlightOrder:
    """Flight Create Orders: book an offer for saved travelers. Each traveler needs a date of birth and each adult
    an e-mail or phone; traveler types (ADULT 12+, CHILD 2-11, HELD_INFANT under 2) follow the age on the day of
    departure and set the price. Travelers get order ids "1", "2"... (adults, then children, then infants;
    each infant rides with an adult). CONFIRM tickets at once on the company card; DELAY_TO_CANCEL holds the seats
    unpaid until the last ticketing date, when the traveler approves the payment in the app.

    Args:
        flight_offer_id: The offer to book, as returned by search_flight_offers or price_flight_offer.
        travelers: The travelers, by saved profile, each optionally crediting one of their loyalty programs.
        ticketing_option: CONFIRM to ticket now, DELAY_TO_CANCEL to hold.
    """
    offer = _parse_offer(db, flight_offer_id)
    _require_not_departed(db, offer, "book this offer")
    ids = [t.traveler_profile_id for t in travelers]
    if not 1 <= len(ids) <= 9 or len(set(ids)) != len(ids):
        raise InvalidRequest("Give 1 to 9 different travelers")
    carrier = db.get(airlines, offer.fare["carrier_code"], "Airline")
    booked = []
    for item in travelers:
        profile = _profile(db, item.traveler_profile_id)
        who = f"{profile['first_name']} {profile['last_name']}"
        if not profile["date_of_birth"]:
            raise InvalidRequest(f"Traveler {who}: dateOfBirth is required; add it to the profile first")
        traveler_type = _traveler_type(profile["date_of_birth"], offer.departure_date)
        if traveler_type == "ADULT" and not (profile["email"] or profile["phone"]):
            raise InvalidRequest(f"Traveler {who}: an adult traveler needs a contact e-mail or phone")
        loyalty = None
        if item.loyalty_program_owner:
            owner_code = item.loyalty_program_owner.strip().upper()
            loyalty = next((p for p in profile["loyalty_programs"] if p["programOwner"] == owner_code), None)
            if loyalty is None:
                raise InvalidRequest(f"Traveler {who} has no saved {owner_code} loyalty program")
            owner = db.get(airlines, owner_code, "Airline")
            if not _credit(carrier, owner):
                raise InvalidRequest(
                    f"{owner['loyalty_program']} ({owner_code}, {owner['alliance'] or 'no alliance'}) cannot be "
                    f"credited on {carrier['business_name']} flights ({carrier['alliance'] or 'no alliance'})"
                )
        booked.append((TYPE_RANK[traveler_type], profile["id"], traveler_type, profile, loyalty))
    booked.sort(key=lambda b: (b[0], b[1]))
    types = [b[2] for b in booked]
    if "ADULT" not in types:
        raise InvalidRequest("At least one adult (12+) must travel: minors cannot be booked alone")
    adults = [str(n) for n, t in enumerate(types, start=1) if t == "ADULT"]
    if types.count("HELD_INFANT") > len(adults):
        raise InvalidRequest("Each infant must travel on the lap of a different adult")
    order_travelers, infants_seen = [], 0
    for n, (_, _, traveler_type, profile, loyalty) in enumerate(booked, start=1):
        adult = None
        if traveler_type == "HELD_INFANT":
            adult, infants_seen = adults[infants_seen], infants_seen + 1
        order_travelers.append({
            "id": str(n), "profileId": profile["id"], "travelerType": traveler_type, "associatedAdultId": adult,
            "firstName": profile["first_name"], "lastName": profile["last_name"],
            "dateOfBirth": profile["date_of_birth"], "loyaltyProgram": loyalty,
        })
    last_ticketing = None
    if ticketing_option == "DELAY_TO_CANCEL":
        deadline = min(_today(db) + timedelta(days=HOLD_DAYS), offer.departure_date - timedelta(days=1))
        if deadline < _today(db):
            raise InvalidRequest("Flights departing within a day cannot be held: book them with CONFIRM")
        last_ticketing = deadline.isoformat()
    _take_seats(db, offer, _seated(types))
    prices = [_traveler_price(db, offer, t) for t in types]
    order_id = db.new_id(flight_orders, "FO", 6)
    order = db.insert(
        flight_orders, id=order_id, record_locator=_record_locator(int(order_id[2:])),
        status="TICKETED" if ticketing_option == "CONFIRM" else "HELD", flight_offer_id=offer.id,
        travelers=order_travelers, seats=[], base_total=sum(p[0] for p in prices),
        grand_total=sum(p[1] for p in prices), currency=CURRENCY, ticketing_option=ticketing_option,
        last_ticketing_date=last_ticketing, created_at=db.now_iso(),
    )
    if ticketing_option == "CONFIRM":
        _pay(db, order_id, "CHARGE", order["grand_total"])
    return _order_model(db, order)


@tool(read_only=True)
def list_flight_orders(
    db: Database,
    status: OrderStatus | None = None,
    record_locator: str | None = None,
    traveler_name: str | None = None,
) -> list[FlightOrderSummary]:
    """List the company's flight orders in short, by first departure.

    Args:
        status: Only orders in this status.
        record_locator: Only the order with this PNR reference (from the confirmation e-mail).
        traveler_name: Only orders with a traveler whose name contains this text.
    """
    summaries = []
    for order in db.find(flight_orders):
        names = [f"{t['firstName']} {t['lastName']}" for t in order["travelers"]]
        if status and order["status"] != status:
            continue
        if record_locator and order["record_locator"] != record_locator.strip().upper():
            continue
        if traveler_name and not any(all(w in n for w in traveler_name.upper().split()) for n in names):
            continue
        offer = _parse_offer(db, order["flight_offer_id"])
        summaries.append(FlightOrderSummary(
            id=order["id"], recordLocator=order["record_locator"], status=order["status"],
            itineraries=[
                OrderItinerary(origin=i[0]["departure_iata"], destination=i[-1]["arrival_iata"],
                               departureAt=i[0]["departure_at"],
                               flights=[f"{f['carrier_code']}{f['number']}" for f in i])
                for i in offer.itineraries
            ],
            travelers=names, cabin=offer.cabin, brandedFare=offer.fare["branded_fare"],
            grandTotal=_money(order["grand_total"]), currency=order["currency"],
            ticketingOption=order["ticketing_option"],
        ))
    summaries.sort(key=lambda s: (s.itineraries[0].departureAt, s.id))
    return summaries


@tool(read_only=True)
def get_flight_order(db: Database, flight_order_id: str) -> FlightOrder:
    """Flight Order Management: retrieve an order with its flights, travelers, seats, ticketing and payments.

    Args:
        flight_order_id: The order's id, as listed by list_flight_orders.
    """
    return _order_model(db, _order(db, flight_order_id))


@tool()
def cancel_flight_order(db: Database, flight_order_id: str) -> CancellationResult:
    """Flight Order Management: cancel an order before its first flight and give its seats back. A held order is
    cancelled free; a ticketed order is refunded by its fare rules: basic fares are non-refundable, other fares
    refund the ticket price minus the cancellation fee per seated traveler.

    Args:
        flight_order_id: The order to cancel.
    """
    order = _order(db, flight_order_id)
    if order["status"] == "CANCELLED":
        raise Conflict(f"Flight order {order['record_locator']} is already cancelled")
    offer = _parse_offer(db, order["flight_offer_id"])
    _require_not_departed(db, offer, "cancel the order")
    types = _order_types(order)
    fee = refund = 0
    if order["status"] == "TICKETED" and offer.fare["refundable"]:
        fee = min(order["grand_total"], offer.fare["cancellation_fee"] * 100 * _seated(types))
        refund = order["grand_total"] - fee
    _release_seats(db, offer, _seated(types))
    db.update(flight_orders, order["id"], status="CANCELLED", seats=[])
    _pay(db, order["id"], "REFUND", refund)
    return CancellationResult(
        flightOrderId=order["id"], recordLocator=order["record_locator"], status="CANCELLED",
        cancellationFee=_money(fee), refundAmount=_money(refund), currency=order["currency"],
    )


@tool()
def change_flight_order(db: Database, flight_order_id: str, new_flight_offer_id: str) -> ChangeResult:
    """Move a ticketed order to other flights on the same route, same airline and same branded fare. Basic fares
    cannot be changed; standard fares pay the change fee per seated traveler; flexible fares change free. A higher
    new price is charged as a fare difference (a lower one is not refunded). Seats on flights that are kept stay.

    Args:
        flight_order_id: The order to change.
        new_flight_offer_id: The offer with the new flights, as returned by search_flight_offers.
    """
    order = _order(db, flight_order_id)
    if order["status"] != "TICKETED":
        raise Conflict(
            f"Flight order {order['record_locator']} is {order['status']}: only ticketed orders can be changed"
            + (" (cancel the hold and book the new flights instead)" if order["status"] == "HELD" else "")
        )
    old = _parse_offer(db, order["flight_offer_id"])
    new = _parse_offer(db, new_flight_offer_id)
    if not old.fare["changeable"]:
        raise Conflict(f"Fare {old.fare['branded_fare_label']} is non-changeable: it can only be cancelled")
    if new.fare["id"] != old.fare["id"]:
        raise InvalidRequest(
            f"A change keeps the booked fare ({old.fare['branded_fare_label']}); search offers with that fare"
        )
    if [(i[0]["departure_iata"], i[-1]["arrival_iata"]) for i in old.itineraries] != [
        (i[0]["departure_iata"], i[-1]["arrival_iata"]) for i in new.itineraries
    ]:
        raise InvalidRequest("A change must keep the same origin and destination airports for every itinerary")
    if new.id == old.id:
        raise InvalidRequest("The new offer has the same flights as the order")
    _require_not_departed(db, old, "change the order")
    _require_not_departed(db, new, "book the new flights")
    types = _order_types(order)
    _release_seats(db, old, _seated(types))
    _take_seats(db, new, _seated(types))
    prices = [_traveler_price(db, new, t) for t in types]
    new_total = sum(p[1] for p in prices)
    fee = new.fare["change_fee"] * 100 * _seated(types)
    difference = max(0, new_total - order["grand_total"])
    kept = {f["id"] for f in new.segments}
    updated = db.update(
        flight_orders, order["id"], flight_offer_id=new.id, base_total=sum(p[0] for p in prices),
        grand_total=new_total, seats=[s for s in order["seats"] if s["flightId"] in kept],
    )
    _pay(db, order["id"], "CHANGE_FEE", fee)
    _pay(db, order["id"], "FARE_DIFFERENCE", difference)
    return ChangeResult(changeFee=_money(fee), fareDifference=_money(difference), currency=CURRENCY,
                        flightOrder=_order_model(db, updated))


@tool(read_only=True)
def get_seatmap(
    db: Database,
    flight_order_id: str | None = None,
    flight_offer_id: str | None = None,
    segment_id: str | None = None,
    only_available: bool = True,
) -> list[SeatMap]:
    """SeatMap Display: the seats of the booked cabin on each segment of an order (or of an offer), with their
    characteristics and availability. Give exactly one of flight_order_id or flight_offer_id.

    Args:
        flight_order_id: The order whose flights to show.
        flight_offer_id: An offer whose flights to show, before booking.
        segment_id: Only this segment ("1", "2"...); every segment when left out.
        only_available: Leave occupied seats out.
    """
    if (flight_order_id is None) == (flight_offer_id is None):
        raise InvalidRequest("Give exactly one of flight_order_id or flight_offer_id")
    offer_id = _order(db, flight_order_id)["flight_offer_id"] if flight_order_id else flight_offer_id
    offer = _parse_offer(db, offer_id)  # type: ignore[arg-type]
    segments = list(enumerate(offer.segments, start=1))
    if segment_id is not None:
        segments = [(n, f) for n, f in segments if str(n) == segment_id]
        if not segments:
            raise NotFound(f"Segment '{segment_id}' not found: this trip has segments 1 to {len(offer.segments)}")
    return [_seat_map(db, flight, str(n), offer.cabin, only_available) for n, flight in segments]


@tool()
def assign_seat(db: Database, flight_order_id: str, segment_id: str, traveler_id: str, seat_number: str) -> FlightOrder:
    """Assign (or move) a traveler's seat on one segment of an order. The seat must be free and in the booked
    cabin; infants have no seat of their own; exit-row seats are not for travelers under 18 or adults holding an
    infant.

    Args:
        flight_order_id: The order.
        segment_id: The segment ("1", "2"...) as in the order's itineraries.
        traveler_id: The order's traveler id ("1", "2"...) as in the order's travelers.
        seat_number: The seat, e.g. "14C".
    """
    order = _order(db, flight_order_id)
    if order["status"] == "CANCELLED":
        raise Conflict(f"Flight order {order['record_locator']} is cancelled")
    offer = _parse_offer(db, order["flight_offer_id"])
    flight = next((f for n, f in enumerate(offer.segments, start=1) if str(n) == segment_id), None)
    if flight is None:
        raise NotFound(f"Segment '{segment_id}' not found: this order has segments 1 to {len(offer.segments)}")
    traveler = next((t for t in order["travelers"] if t["id"] == traveler_id), None)
    if traveler is None:
        raise NotFound(f"Traveler '{traveler_id}' not found in order {order['record_locator']}")
    if _departed(db, flight):
        raise Conflict(f"{flight['carrier_code']}{flight['number']} has already departed")
    who = f"{traveler['firstName']} {traveler['lastName']}"
    if traveler["travelerType"] == "HELD_INFANT":
        raise InvalidRequest(f"{who} is an infant travelling on an adult's lap and gets no seat")
    number = seat_number.strip().upper()
    plan = _seat_plan(db.get(aircraft, flight["aircraft_code"], "Aircraft")["layout"])
    if number not in plan:
        raise NotFound(f"Seat {number} does not exist on this {flight['aircraft_code']} aircraft")
    cabin, _, codes = plan[number]
    if cabin != offer.cabin:
        raise InvalidRequest(f"Seat {number} is in {cabin}; this booking is in {offer.cabin}")
    holder = _taken_seats(db, flight).get(number, False)
    if holder is not False:
        mine = holder == (order["id"], traveler_id)
        raise Conflict(f"Seat {number} is {'already assigned to ' + who if mine else 'occupied'}")
    if "E" in codes:
        departure = date.fromisoformat(flight["departure_at"][:10])
        if _age(traveler["dateOfBirth"], departure) < 18:
            raise InvalidRequest(f"Seat {number} is in an exit row: not for travelers under 18 ({who})")
        if any(t["associatedAdultId"] == traveler_id for t in order["travelers"]):
            raise InvalidRequest(f"Seat {number} is in an exit row: not for a traveler holding an infant ({who})")
    seats = [s for s in order["seats"] if not (s["flightId"] == flight["id"] and s["travelerId"] == traveler_id)]
    seats.append({"flightId": flight["id"], "travelerId": traveler_id, "number": number})
    order_by_segment = _segment_ids(offer)
    seats.sort(key=lambda s: (int(order_by_segment.get(s["flightId"], "0")), s["travelerId"]))
    return _order_model(db, db.update(flight_orders, order["id"], seats=seats))


@tool()
def cancel_all_held_orders(db: Database) -> list[ReleasedOrder]:
    """Cancel every order on hold (DELAY_TO_CANCEL, not yet paid) and give their seats back. Ticketed orders are
    not touched."""
    held = db.find(flight_orders, status="HELD")
    if not held:
        raise Conflict("No flight orders are on hold")
    for order in held:
        _release_seats(db, _parse_offer(db, order["flight_offer_id"]), _seated(_order_types(order)))
        db.update(flight_orders, order["id"], status="CANCELLED", seats=[])
    return [ReleasedOrder(flightOrderId=o["id"], recordLocator=o["record_locator"]) for o in held]


@tool(user_only=True)
def approve_payment(db: Database, record_locator: str) -> FlightOrder:
    """(User only, in the travel app) Approve the card payment of an order on hold: it is charged and ticketed.

    Args:
        record_locator: The PNR reference of the held order, from the confirmation e-mail.
    """
    matches = db.find(flight_orders, record_locator=record_locator.strip().upper())
    if not matches:
        raise NotFound(f"No flight order with record locator {record_locator!r}")
    order = matches[0]
    if order["status"] != "HELD":
        raise Conflict(f"Flight order {order['record_locator']} is {order['status']}, not on hold")
    if order["last_ticketing_date"] and _today(db).isoformat() > order["last_ticketing_date"]:
        raise Conflict(f"The hold on {order['record_locator']} lapsed on {order['last_ticketing_date']}")
    updated = db.update(flight_orders, order["id"], status="TICKETED")
    _pay(db, order["id"], "CHARGE", order["grand_total"])
    return _order_model(db, updated)
