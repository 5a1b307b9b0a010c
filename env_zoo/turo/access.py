"""Who is signed in to Turo (a guest or a host), and what belongs to them: their trips, vehicles and cards."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .schema import accounts, payment_methods, sessions, trips, vehicles


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the account's session; an unknown email is refused as the log-in page does."""
    account = db.find_one(
        accounts, not_found="We couldn't find an account with that email.", email=email.strip().lower()
    )
    db.start_session(sessions, account_id=account["id"])
    return account


def signed_in(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    session = db.current_session(sessions, "Log in to continue.")
    return db.get(accounts, session["account_id"], "Account")


def guest(db: Database) -> dict[str, Any]:
    """The signed-in account, which must be a guest."""
    account = signed_in(db)
    if account["role"] != "guest":
        raise PermissionDenied("Only the guest on a trip can do this.")
    return account


def host(db: Database) -> dict[str, Any]:
    """The signed-in account, which must be a host."""
    account = signed_in(db)
    if account["role"] != "host":
        raise PermissionDenied("Only hosts can do this.")
    return account


def own_trip(db: Database, account: dict[str, Any], trip_id: str) -> dict[str, Any]:
    """A trip the signed-in guest booked or whose car the signed-in host shares."""
    column = "guest_id" if account["role"] == "guest" else "host_id"
    return db.find_one(trips, not_found=f"Trip {trip_id} not found.", id=trip_id.strip(), **{column: account["id"]})


def own_vehicle(db: Database, account: dict[str, Any], vehicle_id: str) -> dict[str, Any]:
    """One of the signed-in host's vehicles."""
    row = db.find(vehicles, id=vehicle_id.strip(), host_id=account["id"])
    if not row:
        raise NotFound(f"Vehicle {vehicle_id} isn't one of your listings.")
    return row[0]


def card(db: Database, account: dict[str, Any], method_id: str | None) -> dict[str, Any]:
    """The named card of the account, or its default card; an expired card is refused."""
    if method_id is None:
        found = db.find(payment_methods, account_id=account["id"], is_default=True)
        if not found:
            raise InvalidRequest("Add a payment method to continue.")
        row = found[0]
    else:
        row = db.find_one(
            payment_methods,
            not_found=f"Payment method {method_id} isn't on your account.",
            id=method_id.strip(),
            account_id=account["id"],
        )
    now = db.now()
    if (row["exp_year"], row["exp_month"]) < (now.year, now.month):
        raise InvalidRequest(f"Your card ending in {row['last4']} has expired. Update your payment method.")
    return row
