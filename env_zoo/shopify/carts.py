"""The shopper's cart: lines kept within stock (pre-orders aside), one discount code, totals in cents."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound

from . import rules
from .rules import cents
from .schema import cart_lines, carts, products, variants


def cart_of(db: Database, customer_id: str) -> dict[str, Any] | None:
    """The shopper's cart, if they have one."""
    found = db.find(carts, customer_id=customer_id)
    return found[0] if found else None


def require_cart(db: Database, customer_id: str) -> dict[str, Any]:
    """The shopper's cart; NotFound when they have none."""
    cart = cart_of(db, customer_id)
    if cart is None:
        raise NotFound("This shopper has no cart yet; add a line to create one.")
    return cart


def open_cart(db: Database, customer_id: str) -> dict[str, Any]:
    """The shopper's cart, created empty if they have none."""
    cart = cart_of(db, customer_id)
    if cart is None:
        now = db.now_iso()
        cart = db.insert(
            carts,
            id=db.new_id(carts, "cart_"),
            customer_id=customer_id,
            discount_codes=[],
            created_at=now,
            updated_at=now,
        )
    return cart


def priced_lines(db: Database, cart_id: str) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any], int]]:
    """The cart's lines as (line, variant, product, line total in cents), in the cart's order."""
    priced = []
    for line in db.find(cart_lines, cart_id=cart_id):
        variant = db.get(variants, line["variant_id"])
        product = db.get(products, variant["product_id"])
        priced.append((line, variant, product, cents(variant["price"]) * line["quantity"]))
    return priced


def touch(db: Database, cart_id: str, **changes: Any) -> dict[str, Any]:
    """Write changes to a cart and stamp its update time."""
    return db.update(carts, cart_id, updated_at=db.now_iso(), **changes)


def add_lines(db: Database, cart: dict[str, Any], lines: list[Any]) -> dict[str, Any]:
    """Add variants (`merchandise_id`, `quantity`); a variant already in the cart raises that line's quantity."""
    for line in lines:
        variant, product = rules.sellable_variant(db, line.merchandise_id)
        existing = db.find(cart_lines, cart_id=cart["id"], variant_id=variant["id"])
        wanted = line.quantity + (existing[0]["quantity"] if existing else 0)
        rules.check_stock(product, variant, wanted)
        if existing:
            db.update(cart_lines, existing[0]["id"], quantity=wanted)
        else:
            db.insert(
                cart_lines,
                id=db.new_id(cart_lines, "cl_"),
                cart_id=cart["id"],
                variant_id=variant["id"],
                quantity=wanted,
            )
    return touch(db, cart["id"])


def set_quantities(db: Database, cart: dict[str, Any], lines: list[Any]) -> dict[str, Any]:
    """Set lines' quantities (`id`, `quantity`); 0 removes the line."""
    for update in lines:
        found = db.find(cart_lines, id=update.id, cart_id=cart["id"])
        if not found:
            raise NotFound(f"Cart line '{update.id}' is not in this cart.")
        if update.quantity == 0:
            db.delete(cart_lines, update.id)
            continue
        variant = db.get(variants, found[0]["variant_id"])
        rules.check_stock(db.get(products, variant["product_id"]), variant, update.quantity)
        db.update(cart_lines, update.id, quantity=update.quantity)
    return touch(db, cart["id"])


def apply_codes(db: Database, cart: dict[str, Any], codes: list[str]) -> dict[str, Any]:
    """Replace the cart's discount codes with `codes`, each of which must apply to it right now."""
    applied = []
    for code in codes:
        row = rules.code_row(db, code)
        subtotal = sum(p[3] for p in priced_lines(db, cart["id"]))
        problem = rules.code_problem(db, row, cart["customer_id"], subtotal)
        if problem is not None:
            raise problem
        applied.append(row["code"])
    return touch(db, cart["id"], discount_codes=applied)


def empty(db: Database, cart: dict[str, Any]) -> dict[str, Any]:
    """Remove every line and discount code; Conflict when there is nothing to remove."""
    if not db.find(cart_lines, cart_id=cart["id"]) and not cart["discount_codes"]:
        raise Conflict("The cart is already empty.")
    db.conn.execute(cart_lines.delete().where(cart_lines.c.cart_id == cart["id"]))
    return touch(db, cart["id"], discount_codes=[])


def discard(db: Database, cart: dict[str, Any]) -> None:
    """Delete the cart and its lines (checkout turned them into an order)."""
    db.conn.execute(cart_lines.delete().where(cart_lines.c.cart_id == cart["id"]))
    db.delete(carts, cart["id"])
