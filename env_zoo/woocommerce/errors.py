"""WooCommerce's error shape: the REST API answers a refused request with a `code` such as
`woocommerce_rest_invalid_coupon` and a human `message`; the tools raise them as `code: message`."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError


def invalid_id(code: str) -> ToolError:
    """An id that names nothing in the shop (`woocommerce_rest_shop_order_invalid_id: Invalid ID.`)."""
    return NotFound(f"{code}: Invalid ID.")


def refused(code: str, message: str) -> ToolError:
    """A value or combination of values WooCommerce refuses."""
    return InvalidRequest(f"{code}: {message}")


def clash(code: str, message: str) -> ToolError:
    """A request that clashes with what the shop already holds (a taken coupon code, an order's state)."""
    return Conflict(f"{code}: {message}")
