"""Rover tools for a signed-in pet owner: keep pet profiles, find sitters and read their profiles, availability,
reviews and prices, schedule meet & greets, send, change, book and cancel booking requests, review sitters after
a stay, and message them."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text

from . import access, rules
from .objects import (
    AvailabilityDay,
    BookingObject,
    CancellationQuote,
    MeetGreetObject,
    MessageObject,
    PaymentMethodObject,
    PetObject,
    PriceQuote,
    ReviewObject,
    SessionObject,
    SitterProfile,
    SitterSummary,
    booking_object,
    meet_greet_object,
    pet_object,
    sitter_profile,
    usd,
)
from .schema import bookings, meet_greets, messages, payment_methods, pets, reviews, services, sitters

ServiceType = Literal["boarding", "house_sitting", "drop_in", "dog_walking", "doggy_day_care"]
PetIds = Annotated[list[str], Field(min_length=1, max_length=6), ErrorText("Choose at least one pet.")]
Visits = Annotated[int, Field(ge=1, le=5), ErrorText("Visits per day must be 1 to 5.")]
Weight = Annotated[int, Field(ge=1, le=250), ErrorText("Weight must be between 1 and 250 lbs.")]
Time = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$"), ErrorText("Time must be HH:MM.")]
Stars = Annotated[int, Field(ge=1, le=5), ErrorText("Choose a star rating from 1 to 5.")]
Tip = Annotated[int, Field(ge=0, le=500), ErrorText("Tips can be $0 to $500.")]
CancelReason = Literal["plans_changed", "found_other_care", "pet_health", "sitter_not_a_fit", "booked_by_mistake"]
PageSize = page_size(50)


# ---------------------------------------------------------------- what only the owner does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The owner signs in to Rover; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    owner = access.sign_in(db, email)
    return SessionObject(owner_id=owner["id"], name=owner["name"], city=owner["city"])


# ---------------------------------------------------------------- pets


@tool(read_only=True)
def list_pets(db: Database) -> list[PetObject]:
    """List the signed-in owner's pet profiles (memorialized ones included)."""
    owner = access.signed_in(db)
    return [pet_object(row) for row in db.find(pets, owner_id=owner["id"], order_by=[pets.c.name])]


@tool()
def add_pet(
    db: Database,
    name: text(40),
    species: Literal["dog", "cat"],
    breed: text(60),
    weight_lbs: Weight,
    birth_date: IsoDate,
    sex: Literal["male", "female"],
    spayed_neutered: bool = False,
    microchipped: bool = False,
    house_trained: bool = True,
    friendly_with_dogs: bool = True,
    friendly_with_cats: bool = False,
    friendly_with_children: bool = True,
    energy_level: Literal["low", "moderate", "high"] = "moderate",
    care_instructions: text(1000, 0) = "",
    medications: text(500, 0) = "",
    vet_name: text(100, 0) = "",
) -> PetObject:
    """Add a pet profile to the owner's account.

    Args:
        name: The pet's name.
        species: dog or cat.
        breed: Breed or mix, e.g. "Labrador mix".
        weight_lbs: Weight in pounds (decides a dog's size).
        birth_date: Birth date (or best guess).
        sex: male or female.
        spayed_neutered: Spayed or neutered.
        microchipped: Microchipped.
        house_trained: House-trained.
        friendly_with_dogs: Friendly with other dogs.
        friendly_with_cats: Friendly with cats.
        friendly_with_children: Friendly with children.
        energy_level: low, moderate or high.
        care_instructions: Feeding, potty and other care notes for the sitter.
        medications: Medications and how to give them.
        vet_name: The pet's veterinary clinic.
    """
    owner = access.signed_in(db)
    rules.day(birth_date, "birth_date")
    if rules.day(birth_date, "birth_date") > db.now().date():
        raise InvalidRequest("Birth date can't be in the future.")
    taken = [
        p for p in db.find(pets, owner_id=owner["id"], status="active") if p["name"].lower() == name.strip().lower()
    ]
    if taken:
        raise Conflict(f"You already have a pet named {taken[0]['name']}.")
    row = db.insert(
        pets,
        id=f"pet_{20900 + db.next_number('pet_numbers')}",
        owner_id=owner["id"],
        name=name.strip(),
        species=species,
        breed=breed.strip(),
        weight_lbs=weight_lbs,
        birth_date=birth_date,
        sex=sex,
        spayed_neutered=spayed_neutered,
        microchipped=microchipped,
        house_trained=house_trained,
        friendly_with_dogs=friendly_with_dogs,
        friendly_with_cats=friendly_with_cats,
        friendly_with_children=friendly_with_children,
        energy_level=energy_level,
        care_instructions=care_instructions,
        medications=medications,
        vet_name=vet_name,
        status="active",
    )
    return pet_object(row)


@tool()
def update_pet(
    db: Database,
    pet_id: NonBlankText,
    weight_lbs: Weight | None = None,
    care_instructions: text(1000, 0) | None = None,
    medications: text(500, 0) | None = None,
    vet_name: text(100, 0) | None = None,
    spayed_neutered: bool | None = None,
    microchipped: bool | None = None,
    friendly_with_dogs: bool | None = None,
    friendly_with_cats: bool | None = None,
    friendly_with_children: bool | None = None,
    energy_level: Literal["low", "moderate", "high"] | None = None,
    memorialize: bool = False,
) -> PetObject:
    """Edit a pet profile; only the fields given change. Memorializing a profile keeps it but it can no longer be
    booked.

    Args:
        pet_id: The pet's id, from list_pets.
        weight_lbs: New weight in pounds.
        care_instructions: New care notes (replace the old ones).
        medications: New medication notes (replace the old ones).
        vet_name: New veterinary clinic.
        spayed_neutered: Spayed or neutered.
        microchipped: Microchipped.
        friendly_with_dogs: Friendly with other dogs.
        friendly_with_cats: Friendly with cats.
        friendly_with_children: Friendly with children.
        energy_level: low, moderate or high.
        memorialize: Memorialize the profile (the pet has passed away).
    """
    owner = access.signed_in(db)
    pet = access.own_pet(db, owner, pet_id)
    if pet["status"] != "active":
        raise Conflict(f"{pet['name']}'s profile is memorialized and can't be edited.")
    changes = given(
        weight_lbs=weight_lbs,
        care_instructions=care_instructions,
        medications=medications,
        vet_name=vet_name,
        spayed_neutered=spayed_neutered,
        microchipped=microchipped,
        friendly_with_dogs=friendly_with_dogs,
        friendly_with_cats=friendly_with_cats,
        friendly_with_children=friendly_with_children,
        energy_level=energy_level,
    )
    if memorialize:
        changes["status"] = "memorialized"
    if not changes:
        raise InvalidRequest("Nothing to update.")
    return pet_object(db.update(pets, pet["id"], **changes))


# ---------------------------------------------------------------- sitters


@tool(read_only=True)
def search_sitters(
    db: Database,
    service_type: ServiceType,
    city: Literal["Seattle", "Portland"],
    neighborhood: text(60) | None = None,
    start_date: IsoDate | None = None,
    end_date: IsoDate | None = None,
    pet_ids: PetIds | None = None,
    max_rate: Annotated[int, Field(ge=1, le=250)] | None = None,
    min_rating: Annotated[float, Field(ge=1, le=5)] | None = None,
    star_sitter_only: bool = False,
    sort: Literal["recommended", "price", "rating"] = "recommended",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[SitterSummary]:
    """Search active sitters offering a service in a city. With dates, only sitters free on all of them; with
    pets, only sitters whose preferences take them (species, dog size, puppies, number of pets). "recommended"
    sorts by repeat clients, then reviews.

    Args:
        service_type: boarding, house_sitting, drop_in, dog_walking or doggy_day_care.
        city: Seattle or Portland.
        neighborhood: Part of the neighborhood's name, e.g. "Ballard".
        start_date: First date of care (with end_date).
        end_date: Last date of care (checkout day for stays).
        pet_ids: The owner's pets who need care.
        max_rate: Highest base rate in USD per unit.
        min_rating: Lowest average star rating.
        star_sitter_only: Only Star Sitters.
        sort: recommended, price (lowest first) or rating (highest first).
        page_size: Sitters per page.
        cursor: next_cursor of the previous page.
    """
    where = "city = ? AND status = 'active' AND id IN (SELECT sitter_id FROM services WHERE service_type = ?)"
    rows = db.select(sitters, where, (city, service_type))
    if neighborhood is not None:
        rows = [r for r in rows if neighborhood.strip().lower() in r["neighborhood"].lower()]
    if min_rating is not None:
        rows = [r for r in rows if r["rating"] is not None and r["rating"] >= min_rating * 100]
    if star_sitter_only:
        rows = [r for r in rows if r["star_sitter"]]
    chosen = access.own_pets(db, access.signed_in(db), pet_ids) if pet_ids else []
    if (start_date is None) != (end_date is None):
        raise InvalidRequest("Give both start_date and end_date, or neither.")
    span = rules.check_dates(db, service_type, start_date, end_date) if start_date and end_date else None
    rates = {s["sitter_id"]: s for s in db.find(services, service_type=service_type)}
    found = []
    for row in rows:
        rate = rates[row["id"]]["rate"]
        if max_rate is not None and rate > max_rate * 100:
            continue
        if chosen:
            try:
                rules.check_pets_fit(row, service_type, chosen, span[0] if span else db.now().date())
            except InvalidRequest:
                continue
        if span and rules.unavailable_on(db, row, rules.service_days(service_type, *span), max(len(chosen), 1)):
            continue
        found.append((row, rate))
    keys = {
        "recommended": lambda pair: (-pair[0]["repeat_clients"], -pair[0]["review_count"]),
        "price": lambda pair: (pair[1], -(pair[0]["rating"] or 0)),
        "rating": lambda pair: (-(pair[0]["rating"] or 0), -pair[0]["review_count"]),
    }
    found.sort(key=keys[sort])
    results = [
        SitterSummary(
            sitter_id=row["id"],
            rating=row["rating"] / 100 if row["rating"] is not None else None,
            service_type=service_type,
            rate=usd(rate),
            unit=rules.SERVICE_UNITS[service_type],
            **{
                k: row[k]
                for k in ("name", "neighborhood", "city", "headline", "review_count", "repeat_clients", "star_sitter")
            },
        )
        for row, rate in found
    ]
    return paginate(results, page_size, cursor)


@tool(read_only=True)
def get_sitter(db: Database, sitter_id: NonBlankText) -> SitterProfile:
    """A sitter's profile: services with base, additional-pet, holiday and puppy rates, pet preferences (pets at a
    time, dog sizes, cats, puppies) and cancellation policy.

    Args:
        sitter_id: The sitter's profile id, e.g. "jessica-m-ballard".
    """
    return sitter_profile(db, rules.sitter(db, sitter_id))


@tool(read_only=True)
def get_sitter_availability(
    db: Database, sitter_id: NonBlankText, start_date: IsoDate, days: Annotated[int, Field(ge=1, le=31)] = 14
) -> list[AvailabilityDay]:
    """A sitter's calendar: for each date, whether they can take more pets.

    Args:
        sitter_id: The sitter's profile id.
        start_date: First date.
        days: How many dates from start_date.
    """
    row = rules.sitter(db, sitter_id)
    first = rules.day(start_date, "start_date")
    dates = [first + timedelta(days=n) for n in range(days)]
    closed = rules.blocked(db, row["id"], dates[0].isoformat(), dates[-1].isoformat())
    out = []
    for when in dates:
        taken = rules.pets_booked(db, row["id"], when.isoformat())
        free = row["status"] == "active" and when.isoformat() not in closed and taken < row["max_pets"]
        out.append(AvailabilityDay(date=when.isoformat(), available=free, pets_booked=taken, max_pets=row["max_pets"]))
    return out


@tool(read_only=True)
def list_sitter_reviews(
    db: Database,
    sitter_id: NonBlankText,
    service_type: ServiceType | None = None,
    rating: Stars | None = None,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ReviewObject]:
    """Owners' reviews of a sitter, newest first.

    Args:
        sitter_id: The sitter's profile id.
        service_type: Only reviews of this service.
        rating: Only reviews with this many stars.
        page_size: Reviews per page.
        cursor: next_cursor of the previous page.
    """
    row = rules.sitter(db, sitter_id)
    found = db.find(reviews, sitter_id=row["id"], **given(service_type=service_type, rating=rating))
    found.sort(key=lambda r: (r["created_date"], r["id"]), reverse=True)
    results = [
        ReviewObject(
            review_id=r["id"],
            tip=usd(r["tip"]),
            **{k: r[k] for k in ReviewObject.model_fields if k in r and k != "tip"},
        )
        for r in found
    ]
    return paginate(results, page_size, cursor)


@tool(read_only=True)
def get_price_quote(
    db: Database,
    sitter_id: NonBlankText,
    service_type: ServiceType,
    pet_ids: PetIds,
    start_date: IsoDate,
    end_date: IsoDate,
    visits_per_day: Visits = 1,
) -> PriceQuote:
    """Price a service with a sitter for the owner's pets and dates, and say whether the sitter is free then.

    Args:
        sitter_id: The sitter's profile id.
        service_type: The service.
        pet_ids: The owner's pets who need care.
        start_date: First date (check-in for stays).
        end_date: Last date (checkout for stays).
        visits_per_day: Drop-ins or walks a day.
    """
    owner = access.signed_in(db)
    row = rules.sitter(db, sitter_id)
    offered = rules.service(db, row, service_type)
    chosen = access.own_pets(db, owner, pet_ids)
    start, end = rules.check_dates(db, service_type, start_date, end_date)
    rules.check_pets_fit(row, service_type, chosen, start)
    priced = rules.price(db, offered, chosen, start, end, visits_per_day)
    reason = None
    if row["status"] != "active":
        reason = "Sitter is away"
    else:
        taken = rules.unavailable_on(db, row, rules.service_days(service_type, start, end), len(chosen))
        reason = f"Unavailable on {taken}" if taken else None
    return PriceQuote(
        sitter_id=row["id"],
        service_type=service_type,
        start_date=start_date,
        end_date=end_date,
        units=priced["units"],
        unit=rules.SERVICE_UNITS[service_type],
        unit_price=usd(priced["unit_price"]),
        holiday_rate_applied=priced["holiday_rate_applied"],
        subtotal=usd(priced["subtotal"]),
        service_fee=usd(priced["service_fee"]),
        total=usd(priced["total"]),
        available=reason is None,
        unavailable_reason=reason,
    )


# ---------------------------------------------------------------- meet & greets


@tool()
def request_meet_greet(
    db: Database,
    sitter_id: NonBlankText,
    pet_ids: PetIds,
    date: IsoDate,
    time: Time,
    location: Literal["owner_home", "sitter_home", "public_place"],
    note: text(500) | None = None,
) -> MeetGreetObject:
    """Ask a sitter for a Meet & Greet with the owner's pets before booking; it stays requested until the sitter
    confirms. One open Meet & Greet per sitter.

    Args:
        sitter_id: The sitter's profile id.
        pet_ids: The pets coming along.
        date: The day to meet.
        time: Start time, HH:MM.
        location: owner_home, sitter_home or public_place (a park, say).
        note: Anything the sitter should know (which park, parking).
    """
    owner = access.signed_in(db)
    row = rules.sitter(db, sitter_id)
    chosen = access.own_pets(db, owner, pet_ids)
    when = rules.day(date, "date")
    if when <= db.now().date():
        raise InvalidRequest("Meet & Greets must be scheduled for a future date.")
    if row["status"] != "active":
        raise Conflict(f"{row['name']} is away and isn't accepting requests right now.")
    if rules.blocked(db, row["id"], date, date):
        raise Conflict(f"{row['name']} is unavailable on {date}.")
    open_ones = db.select(
        meet_greets, "owner_id = ? AND sitter_id = ? AND status IN ('requested', 'confirmed')", (owner["id"], row["id"])
    )
    if open_ones:
        raise Conflict(f"You already have a Meet & Greet with {row['name']} on {open_ones[0]['date']}.")
    stored = db.insert(
        meet_greets,
        id=db.new_id(meet_greets, "mg_", 5),
        owner_id=owner["id"],
        sitter_id=row["id"],
        pet_ids=[p["id"] for p in chosen],
        date=date,
        time=time,
        location=location,
        note=note,
        status="requested",
    )
    return meet_greet_object(db, stored)


@tool(read_only=True)
def list_meet_greets(
    db: Database, status: Literal["requested", "confirmed", "completed", "canceled"] | None = None
) -> list[MeetGreetObject]:
    """The owner's Meet & Greets, by date.

    Args:
        status: Only those in this status.
    """
    owner = access.signed_in(db)
    found = db.find(meet_greets, owner_id=owner["id"], **given(status=status), order_by=[meet_greets.c.date])
    return [meet_greet_object(db, row) for row in found]


@tool()
def cancel_meet_greet(db: Database, meet_greet_id: NonBlankText) -> MeetGreetObject:
    """Cancel a requested or confirmed Meet & Greet.

    Args:
        meet_greet_id: The Meet & Greet's id, from list_meet_greets.
    """
    row = access.own_meet_greet(db, access.signed_in(db), meet_greet_id)
    if row["status"] not in ("requested", "confirmed"):
        raise Conflict(f"This Meet & Greet is {row['status']} and can't be canceled.")
    return meet_greet_object(db, db.update(meet_greets, row["id"], status="canceled"))


# ---------------------------------------------------------------- booking requests


@tool()
def send_booking_request(
    db: Database,
    sitter_id: NonBlankText,
    service_type: ServiceType,
    pet_ids: PetIds,
    start_date: IsoDate,
    end_date: IsoDate,
    visits_per_day: Visits = 1,
) -> BookingObject:
    """Send a sitter a booking request (pending until the sitter selects Book it now; then the owner has 72 hours
    to book and pay). Priced at the sitter's current rates under their cancellation policy; a note for the sitter goes
    with send_message.

    Args:
        sitter_id: The sitter's profile id.
        service_type: The service.
        pet_ids: The owner's pets who need care.
        start_date: First date (check-in for stays).
        end_date: Last date (checkout for stays).
        visits_per_day: Drop-ins or walks a day.
    """
    owner = access.signed_in(db)
    row = rules.sitter(db, sitter_id)
    offered = rules.service(db, row, service_type)
    chosen = access.own_pets(db, owner, pet_ids)
    start, end = rules.check_dates(db, service_type, start_date, end_date)
    rules.check_pets_fit(row, service_type, chosen, start)
    rules.check_available(db, row, service_type, start, end, len(chosen))
    dup = db.select(
        bookings,
        "owner_id = ? AND sitter_id = ? AND service_type = ? AND status IN ('pending', 'accepted') AND start_date <= ? "
        "AND end_date >= ?",
        (owner["id"], row["id"], service_type, end_date, start_date),
    )
    if any(rules.live_status(db, b) in rules.OPEN_REQUESTS for b in dup):
        raise Conflict(f"You already have an open request with {row['name']} for these dates.")
    priced = rules.price(db, offered, chosen, start, end, visits_per_day)
    stored = db.insert(
        bookings,
        id=f"bk_{4800 + db.next_number('booking_numbers'):06d}",
        owner_id=owner["id"],
        sitter_id=row["id"],
        service_type=service_type,
        pet_ids=[p["id"] for p in chosen],
        start_date=start_date,
        end_date=end_date,
        visits_per_day=visits_per_day if service_type in ("drop_in", "dog_walking") else 1,
        status="pending",
        cancellation_policy=row["cancellation_policy"],
        accepted_at=None,
        created_at=db.now_iso(),
        **priced,
    )
    return booking_object(db, stored)


@tool()
def update_booking_request(
    db: Database,
    booking_id: NonBlankText,
    start_date: IsoDate | None = None,
    end_date: IsoDate | None = None,
    pet_ids: PetIds | None = None,
    visits_per_day: Visits | None = None,
) -> BookingObject:
    """Change the dates, pets or visits of a pending or accepted request; it is re-priced and goes back to
    pending for the sitter to accept again.

    Args:
        booking_id: The request's id.
        start_date: New first date.
        end_date: New last date.
        pet_ids: The pets, replacing the old list.
        visits_per_day: New drop-ins or walks a day.
    """
    owner = access.signed_in(db)
    booking = access.own_booking(db, owner, booking_id)
    status = rules.live_status(db, booking)
    if status not in rules.OPEN_REQUESTS:
        raise Conflict(f"Only pending or accepted requests can be changed; this one is {status}.")
    if start_date is None and end_date is None and pet_ids is None and visits_per_day is None:
        raise InvalidRequest("Nothing to update.")
    row = rules.sitter(db, booking["sitter_id"])
    offered = rules.service(db, row, booking["service_type"])
    chosen = access.own_pets(db, owner, pet_ids or booking["pet_ids"])
    start, end = rules.check_dates(
        db, booking["service_type"], start_date or booking["start_date"], end_date or booking["end_date"]
    )
    rules.check_pets_fit(row, booking["service_type"], chosen, start)
    rules.check_available(db, row, booking["service_type"], start, end, len(chosen))
    visits = visits_per_day or booking["visits_per_day"]
    priced = rules.price(db, offered, chosen, start, end, visits)
    stored = db.update(
        bookings,
        booking["id"],
        pet_ids=[p["id"] for p in chosen],
        start_date=start.isoformat(),
        end_date=end.isoformat(),
        visits_per_day=visits if booking["service_type"] in ("drop_in", "dog_walking") else 1,
        status="pending",
        accepted_at=None,
        **priced,
    )
    return booking_object(db, stored)


@tool()
def book_request(db: Database, booking_id: NonBlankText, payment_method_id: str | None = None) -> BookingObject:
    """Book and pay for a request the sitter has accepted (within 72 hours of their acceptance); the card is
    charged the total and the service is booked.

    Args:
        booking_id: The accepted request's id.
        payment_method_id: The card to charge; the default card when left out.
    """
    owner = access.signed_in(db)
    booking = access.own_booking(db, owner, booking_id)
    status = rules.live_status(db, booking)
    if status == "pending":
        raise Conflict("The sitter hasn't accepted this request yet.")
    if status == "expired":
        raise Conflict("This request has expired. Ask the sitter to renew it.")
    if status != "accepted":
        raise Conflict(f"This request is {status} and can't be booked.")
    chosen = access.card(db, owner, payment_method_id)
    row = rules.sitter(db, booking["sitter_id"])
    start, end = rules.day(booking["start_date"], "start_date"), rules.day(booking["end_date"], "end_date")
    rules.check_available(db, row, booking["service_type"], start, end, len(booking["pet_ids"]), skip=booking["id"])
    stored = db.update(bookings, booking["id"], status="booked", payment_method_id=chosen["id"], booked_at=db.now_iso())
    return booking_object(db, stored)


@tool(read_only=True)
def list_bookings(
    db: Database,
    status: Literal["pending", "accepted", "booked", "completed", "declined", "expired", "canceled"] | None = None,
    sitter_id: str | None = None,
    pet_id: str | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[BookingObject]:
    """The owner's requests and bookings, latest start first.

    Args:
        status: Only those in this status.
        sitter_id: Only those with this sitter.
        pet_id: Only those for this pet.
        page_size: Bookings per page.
        cursor: next_cursor of the previous page.
    """
    owner = access.signed_in(db)
    found = db.find(bookings, owner_id=owner["id"], **given(sitter_id=sitter_id))
    found.sort(key=lambda b: (b["start_date"], b["id"]), reverse=True)
    shown = [booking_object(db, row) for row in found if pet_id is None or pet_id in row["pet_ids"]]
    if status is not None:
        shown = [b for b in shown if b.status == status]
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_booking(db: Database, booking_id: NonBlankText) -> BookingObject:
    """One request or booking with its status, pets, dates and price.

    Args:
        booking_id: The booking's id, e.g. "bk_004211".
    """
    return booking_object(db, access.own_booking(db, access.signed_in(db), booking_id))


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """The owner's saved cards."""
    owner = access.signed_in(db)
    return [
        PaymentMethodObject(payment_method_id=r["id"], **{k: r[k] for k in PaymentMethodObject.model_fields if k in r})
        for r in db.find(payment_methods, owner_id=owner["id"])
    ]


@tool()
def change_booking_dates(
    db: Database, booking_id: NonBlankText, start_date: IsoDate, end_date: IsoDate
) -> BookingObject:
    """Move a booked service that hasn't started to new dates of the same length (same service and pets): no
    cancellation penalty applies; the price is recalculated for the new dates (holiday rates included).

    Args:
        booking_id: The booking's id.
        start_date: New first date.
        end_date: New last date.
    """
    owner = access.signed_in(db)
    booking = access.own_booking(db, owner, booking_id)
    status = rules.live_status(db, booking)
    if status != "booked":
        raise Conflict(f"Only booked services can be moved; this one is {status}.")
    if booking["start_date"] <= db.now().date().isoformat():
        raise Conflict("This booking has already started; its dates can't be changed.")
    start, end = rules.check_dates(db, booking["service_type"], start_date, end_date)
    if (end - start) != (rules.day(booking["end_date"], "e") - rules.day(booking["start_date"], "s")):
        raise InvalidRequest("New dates must keep the same length; cancel and rebook to change it.")
    row = rules.sitter(db, booking["sitter_id"])
    rules.check_available(db, row, booking["service_type"], start, end, len(booking["pet_ids"]), skip=booking["id"])
    chosen = [db.get(pets, pet_id) for pet_id in booking["pet_ids"]]
    priced = rules.price(
        db, rules.service(db, row, booking["service_type"]), chosen, start, end, booking["visits_per_day"]
    )
    stored = db.update(bookings, booking["id"], start_date=start_date, end_date=end_date, **priced)
    return booking_object(db, stored)


@tool(read_only=True)
def get_cancellation_quote(db: Database, booking_id: NonBlankText) -> CancellationQuote:
    """What canceling a booking now would refund under the sitter's cancellation policy (a request not yet booked
    costs nothing to cancel).

    Args:
        booking_id: The booking's id.
    """
    booking = access.own_booking(db, access.signed_in(db), booking_id)
    status = rules.check_cancellable(db, booking)
    policy = rules.policy_for(booking)
    if status != "booked":
        amounts = {"service_refund": 0, "fee_refund": 0, "total_refund": 0}
        until, paid = None, 0
    else:
        amounts = rules.refund(db, booking)
        until = rules.full_refund_until(booking).strftime("%Y-%m-%dT%H:%M:%SZ")
        paid = booking["total"]
    return CancellationQuote(
        booking_id=booking["id"],
        status=status,
        cancellation_policy=policy,
        policy_details=rules.POLICY_TEXT[policy],
        full_refund_until=until,
        service_refund=usd(amounts["service_refund"]),
        service_fee_refund=usd(amounts["fee_refund"]),
        total_refund=usd(amounts["total_refund"]),
        total_paid=usd(paid),
    )


@tool()
def cancel_booking(db: Database, booking_id: NonBlankText, reason: CancelReason) -> BookingObject:
    """Cancel a request (nothing is charged) or a booked service (refunded by the sitter's cancellation policy,
    see get_cancellation_quote).

    Args:
        booking_id: The booking's id.
        reason: plans_changed, found_other_care, pet_health, sitter_not_a_fit or booked_by_mistake.
    """
    booking = access.own_booking(db, access.signed_in(db), booking_id)
    status = rules.check_cancellable(db, booking)
    back = rules.refund(db, booking)["total_refund"] if status == "booked" else 0
    stored = db.update(
        bookings, booking["id"], status="canceled", cancel_reason=reason, refund=back, canceled_at=db.now_iso()
    )
    return booking_object(db, stored)


# ---------------------------------------------------------------- after the stay


@tool()
def write_review(db: Database, booking_id: NonBlankText, rating: Stars, text: text(2000), tip: Tip = 0) -> ReviewObject:
    """Review the sitter of a completed booking (within 21 days of its end, once), with an optional tip in whole
    dollars that goes fully to the sitter.

    Args:
        booking_id: The completed booking's id.
        rating: Stars, 1 to 5.
        text: The review.
        tip: Tip in USD, whole dollars.
    """
    owner = access.signed_in(db)
    booking = access.own_booking(db, owner, booking_id)
    status = rules.live_status(db, booking)
    if status != "completed":
        raise Conflict(f"Only completed bookings can be reviewed; this one is {status}.")
    if (db.now().date() - rules.day(booking["end_date"], "end_date")).days > rules.REVIEW_DAYS:
        raise Conflict("The review window for this booking has closed (21 days after it ended).")
    if db.find(reviews, booking_id=booking["id"]):
        raise Conflict("You've already reviewed this booking.")
    row = rules.sitter(db, booking["sitter_id"])
    count = row["review_count"]
    average = ((row["rating"] or 0) * count + rating * 100) // (count + 1)
    db.update(sitters, row["id"], review_count=count + 1, rating=average)
    stored = db.insert(
        reviews,
        id=db.new_id(reviews, "rev_", 5),
        sitter_id=row["id"],
        booking_id=booking["id"],
        author=owner["name"].split()[0] + " " + owner["name"].split()[-1][0] + ".",
        service_type=booking["service_type"],
        rating=rating,
        text=text,
        tip=tip * 100,
        created_date=db.now().date().isoformat(),
    )
    return ReviewObject(
        review_id=stored["id"],
        tip=usd(stored["tip"]),
        **{k: stored[k] for k in ReviewObject.model_fields if k in stored and k not in ("tip",)},
    )


@tool()
def send_message(db: Database, sitter_id: NonBlankText, text: text(2000)) -> MessageObject:
    """Message a sitter through Rover (questions, care details, running late).

    Args:
        sitter_id: The sitter's profile id.
        text: The message.
    """
    owner = access.signed_in(db)
    row = rules.sitter(db, sitter_id)
    stored = db.insert(
        messages,
        id=db.new_id(messages, "msg_", 5),
        owner_id=owner["id"],
        sitter_id=row["id"],
        sender="owner",
        text=text,
        sent_at=db.now_iso(),
    )
    return MessageObject(message_id=stored["id"], **{k: stored[k] for k in ("sitter_id", "sender", "text", "sent_at")})
