"""Amadeus Self-Service objects: argument types and request objects the tools take, the API's response objects
(field names as in its JSON) and how stored rows and resolved offers become them.

Builders assemble plain dicts and validate the whole response once (`Model.model_validate`), which is much cheaper
than constructing every nested model in Python.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, Mapping, Sequence

from pydantic import BaseModel, Field

from envfactory_gym import Unordered
from envfactory_gym.fields import ErrorText, IsoDate, bounded

from .offers import Leg, Offer, Route, flight_name, span
from .rules import CURRENCY, SeatPlan, TravelerType, amount, fare_rules, iso_duration, phone_parts

# ---------------------------------------------------------------- argument types (their limits reach the schema)

Cabin = Literal["ECONOMY", "PREMIUM_ECONOMY", "BUSINESS", "FIRST"]
OrderStatus = Literal["HELD", "TICKETED", "CANCELLED"]
Gender = Literal["MALE", "FEMALE"]
TicketingOption = Literal["CONFIRM", "DELAY_TO_CANCEL"]
Keyword = Annotated[str, Field(pattern=r"\S", description="text that is not blank"), ErrorText("must not be empty")]
LocationCode = Annotated[
    str,
    Field(pattern=r"^\s*[A-Za-z]{3}\s*$", description="a 3-letter IATA airport or city code"),
    ErrorText("INVALID FORMAT: a 3-letter IATA airport or city code, such as BER or LON"),
]
AirlineCode = Annotated[
    str,
    Field(pattern=r"^\s*[A-Za-z0-9]{2}\s*$", description="a 2-character IATA airline code"),
    ErrorText("INVALID FORMAT: 2-character IATA airline codes, such as LH"),
]
AirlineCodes = Annotated[
    list[AirlineCode], Unordered, ErrorText("INVALID FORMAT: 2-character IATA airline codes, such as LH")
]
RecordLocator = Annotated[
    str,
    Field(pattern=r"^\s*[A-Za-z0-9]{6}\s*$", description="a 6-character PNR reference"),
    ErrorText("INVALID FORMAT: a record locator has 6 letters and digits, such as NBREY6"),
]
Position = Annotated[
    str,
    Field(pattern=r"^[1-9][0-9]*$", description='a position in the order: "1", "2"...'),
    ErrorText('INVALID FORMAT: a position such as "1" or "2"'),
]
SeatNumber = Annotated[
    str,
    Field(pattern=r"^\s*[0-9]{1,2}[A-Za-z]\s*$", description="row and letter, e.g. 14C"),
    ErrorText("INVALID FORMAT: a seat is a row and a letter, such as 14C"),
]
Day = Annotated[IsoDate, ErrorText("INVALID FORMAT: a date as YYYY-MM-DD")]
PersonName = Annotated[
    str,
    Field(pattern=r"\S", max_length=60, description="a name as on the passport"),
    ErrorText("a name as on the passport: not empty, at most 60 characters"),
]
EmailAddress = Annotated[
    str,
    Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$", description="an e-mail address"),
    ErrorText("not a valid e-mail address"),
]
PhoneNumber = Annotated[
    str,
    Field(
        pattern=r"^[\s\-().]*(?:\+|0[\s\-().]*0)(?:[\s\-().]*[0-9]){7,15}[\s\-().]*$",
        description="an international number: + (or 00), then 7 to 15 digits; "
        "spaces, dashes, dots and brackets allowed",
    ),
    ErrorText("must be an international number with country code, e.g. +49 151 23456789"),
]
LoyaltyNumber = Annotated[
    str, Field(pattern=r"^(?: *[A-Za-z0-9]){6,20} *$", description="6 to 20 letters and digits (spaces ignored)")
]
Adults = bounded(1, 9)
Children = bounded(0, 8)
Infants = bounded(0, 9)
ResultCount = bounded(1, 250)
PricePerTraveler = bounded(1, None)


class LoyaltyProgramInput(BaseModel):
    """A frequent flyer account to save on a profile."""

    program_owner: AirlineCode = Field(
        description="IATA code of the airline running the program, e.g. LH for Miles & More"
    )
    id: LoyaltyNumber = Field(description="the membership number")


class OrderTravelerInput(BaseModel):
    """A traveler to book, from the saved profiles."""

    traveler_profile_id: str = Field(description="id of the traveler's saved profile")
    loyalty_program_owner: AirlineCode | None = Field(
        None, description="program owner of one of the traveler's saved loyalty programs, to credit the flights to"
    )


# ---------------------------------------------------------------- response objects


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


# ---------------------------------------------------------------- builders


def location_object(row: Mapping[str, Any]) -> dict[str, Any]:
    """A locations row as Airport & City Search returns it."""
    return {
        "subType": row["sub_type"],
        "name": row["name"],
        "detailedName": row["detailed_name"],
        "id": row["id"],
        "iataCode": row["iata_code"],
        "address": {
            "cityName": row["city_name"],
            "cityCode": row["city_code"],
            "countryName": row["country_name"],
            "countryCode": row["country_code"],
        },
        "geoCode": {"latitude": row["latitude"], "longitude": row["longitude"]},
        "timeZoneOffset": row["time_zone_offset"],
        "travelersScore": row["traveler_score"],
    }


def _endpoints(leg: Leg) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        {"iataCode": leg["departure_iata"], "terminal": leg["departure_terminal"], "at": leg["departure_at"]},
        {"iataCode": leg["arrival_iata"], "terminal": leg["arrival_terminal"], "at": leg["arrival_at"]},
    )


def segment_object(leg: Leg, segment_id: str) -> dict[str, Any]:
    """A flight as a segment of an offer (what does not depend on its position is worked out once per leg)."""
    flight = leg.get("segment")
    if flight is None:
        departure, arrival = _endpoints(leg)
        flight = leg["segment"] = {
            "departure": departure,
            "arrival": arrival,
            "carrierCode": leg["carrier_code"],
            "number": leg["number"],
            "aircraft": {"code": leg["aircraft_code"]},
            "duration": iso_duration(span(leg, leg)),
        }
    return {"id": segment_id, **flight}


def _itineraries(offer: Offer) -> list[dict[str, Any]]:
    result, counter = [], 0
    for itinerary in offer.itineraries:
        segments = []
        for leg in itinerary:
            counter += 1
            segments.append(segment_object(leg, str(counter)))
        result.append({"duration": iso_duration(span(itinerary[0], itinerary[-1])), "segments": segments})
    return result


def flight_offer(offer: Offer, prices: Sequence[tuple[int, int]], last_ticketing: date) -> dict[str, Any]:
    """A flight-offer for a party whose travelers pay `prices` ((base, total) in cents each)."""
    fare = offer.fare
    base, total = sum(p[0] for p in prices), sum(p[1] for p in prices)
    return {
        "id": offer.id,
        "oneWay": len(offer.itineraries) == 1,
        "lastTicketingDate": last_ticketing.isoformat(),
        "numberOfBookableSeats": min(9, offer.seats_left()),
        "itineraries": _itineraries(offer),
        "price": {"currency": CURRENCY, "total": amount(total), "base": amount(base), "grandTotal": amount(total)},
        "validatingAirlineCodes": [fare["carrier_code"]],
        "fare": {
            "cabin": fare["cabin"],
            "brandedFare": fare["branded_fare"],
            "brandedFareLabel": fare["branded_fare_label"],
            "includedCheckedBags": {"quantity": fare["included_checked_bags"]},
            "refundable": fare["refundable"],
            "changeable": fare["changeable"],
        },
    }


def priced_offer(
    offer: Offer, types: Sequence[TravelerType], prices: Sequence[tuple[int, int]], last_ticketing: date
) -> dict[str, Any]:
    """A flight-offer confirmed for a party: each traveler's price and fare per segment, and the fare rules."""
    fare = offer.fare
    details = {
        bags: [
            {
                "segmentId": str(n),
                "cabin": fare["cabin"],
                "fareBasis": fare["fare_basis"],
                "brandedFare": fare["branded_fare"],
                "brandedFareLabel": fare["branded_fare_label"],
                "bookingClass": fare["booking_class"],
                "includedCheckedBags": {"quantity": bags},
            }
            for n in range(1, len(offer.segments) + 1)
        ]
        for bags in {0 if t == "HELD_INFANT" else fare["included_checked_bags"] for t in types}
    }
    pricings = [
        {
            "travelerId": str(index),
            "travelerType": kind,
            "price": {"currency": CURRENCY, "total": amount(total), "base": amount(base)},
            "fareDetailsBySegment": details[0 if kind == "HELD_INFANT" else fare["included_checked_bags"]],
        }
        for index, (kind, (base, total)) in enumerate(zip(types, prices), start=1)
    ]
    return {**flight_offer(offer, prices, last_ticketing), "travelerPricings": pricings, "fareRules": fare_rules(fare)}


def order_object(
    order: Mapping[str, Any],
    offer: Offer,
    prices: Sequence[tuple[int, int]],
    last_ticketing: date,
    payment_rows: Sequence[Mapping[str, Any]],
) -> FlightOrder:
    """A flight_orders row with its resolved offer and payments, as Flight Order Management returns it."""
    segment_ids = offer.segment_ids()
    types = [t["travelerType"] for t in order["travelers"]]
    return FlightOrder.model_validate(
        {
            "id": order["id"],
            "status": order["status"],
            "associatedRecords": [
                {
                    "reference": order["record_locator"],
                    "creationDate": order["created_at"],
                    "flightOfferId": order["flight_offer_id"],
                }
            ],
            "flightOffers": [priced_offer(offer, types, prices, last_ticketing)],
            "travelers": [
                {
                    "id": t["id"],
                    "profileId": t["profileId"],
                    "travelerType": t["travelerType"],
                    "associatedAdultId": t["associatedAdultId"],
                    "name": {"firstName": t["firstName"], "lastName": t["lastName"]},
                    "dateOfBirth": t["dateOfBirth"],
                    "loyaltyPrograms": [t["loyaltyProgram"]] if t["loyaltyProgram"] else [],
                }
                for t in order["travelers"]
            ],
            "ticketingAgreement": {
                "option": order["ticketing_option"],
                "dateTime": f"{order['last_ticketing_date']}T23:59:00" if order["last_ticketing_date"] else None,
            },
            "seatAssignments": [
                {"segmentId": segment_ids[s["flightId"]], "travelerId": s["travelerId"], "number": s["number"]}
                for s in order["seats"]
                if s["flightId"] in segment_ids
            ],
            "payments": [
                {"id": p["id"], "type": p["type"], "amount": amount(p["amount"]), "currency": p["currency"]}
                for p in payment_rows
            ],
        }
    )


def order_summary(order: Mapping[str, Any], route: Route) -> dict[str, Any]:
    """A flight_orders row in short, as listed."""
    return {
        "id": order["id"],
        "recordLocator": order["record_locator"],
        "status": order["status"],
        "itineraries": [
            {
                "origin": i[0]["departure_iata"],
                "destination": i[-1]["arrival_iata"],
                "departureAt": i[0]["departure_at"],
                "flights": [flight_name(leg) for leg in i],
            }
            for i in route.itineraries
        ],
        "travelers": [f"{t['firstName']} {t['lastName']}" for t in order["travelers"]],
        "cabin": route.cabin,
        "brandedFare": route.branded_fare,
        "grandTotal": amount(order["grand_total"]),
        "currency": order["currency"],
        "ticketingOption": order["ticketing_option"],
    }


def seat_map(
    leg: Leg, segment_id: str, cabin: str, plan: SeatPlan, taken: Mapping[str, Any], only_available: bool
) -> dict[str, Any]:
    """SeatMap Display of one segment: the booked cabin's seats, occupied ones left out if asked."""
    rows, exits, seats = [], set(), []
    for number, (seat_cabin, row, codes) in plan.items():
        if seat_cabin != cabin:
            continue
        rows.append(row)
        if "E" in codes:
            exits.add(row)
        occupied = number in taken
        if not (only_available and occupied):
            seats.append(
                {
                    "number": number,
                    "characteristicsCodes": list(codes),
                    "seatAvailabilityStatus": "OCCUPIED" if occupied else "AVAILABLE",
                }
            )
    segment = segment_object(leg, segment_id)
    return {
        "segmentId": segment_id,
        "carrierCode": segment["carrierCode"],
        "number": segment["number"],
        "departure": segment["departure"],
        "arrival": segment["arrival"],
        "aircraft": segment["aircraft"],
        "cabin": cabin,
        "decks": [
            {
                "deckConfiguration": {"startSeatRow": min(rows), "endSeatRow": max(rows), "exitRowsX": sorted(exits)},
                "seats": seats,
            }
        ],
    }


def profile_object(row: Mapping[str, Any]) -> TravelerProfile:
    """A travelers row as a saved traveler profile."""
    phones = []
    if row["phone"]:
        code, number = phone_parts(row["phone"])
        phones.append({"countryCallingCode": code, "number": number})
    return TravelerProfile.model_validate(
        {
            "id": row["id"],
            "name": {"firstName": row["first_name"], "lastName": row["last_name"]},
            "dateOfBirth": row["date_of_birth"],
            "gender": row["gender"],
            "contact": {"emailAddress": row["email"], "phones": phones},
            "loyaltyPrograms": row["loyalty_programs"],
        }
    )
