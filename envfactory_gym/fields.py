"""Argument types whose constraints reach the JSON schema the model sees, checked by validation before a tool
runs: a tool never re-checks a bound by hand, and the model never has to guess one.

    @tool(read_only=True)
    def list_orders(db: Database, status: OrderStatus | None = None, page_size: PageSize = 20) -> Page[Order]:
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import Field


@dataclass(frozen=True)
class ErrorText:
    """Annotated metadata: the product's own error text for an argument that breaks its type's constraints, e.g.
    `Annotated[str, Field(max_length=40000), ErrorText("msg_too_long")]`; the agent then reads
    `text: msg_too_long` instead of the validator's wording."""

    message: str


def error_text(annotation: Any) -> str | None:
    """The `ErrorText` an argument's annotation carries (also inside `X | None`), or None."""
    if get_origin(annotation) is Annotated:
        found = next((m.message for m in annotation.__metadata__ if isinstance(m, ErrorText)), None)
        return found or error_text(get_args(annotation)[0])
    if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType":
        return next((t for t in map(error_text, get_args(annotation)) if t), None)
    return None


#: How many results one page holds (1-100, the limit most product APIs use).
PageSize = Annotated[int, Field(ge=1, le=100)]
#: A calendar date, `YYYY-MM-DD`.
IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", json_schema_extra={"format": "date"})]
#: An ISO 8601 timestamp with its zone, e.g. `2025-06-18T14:00:00Z`.
IsoTimestamp = Annotated[str, Field(min_length=10, json_schema_extra={"format": "date-time"})]
#: An ISO 4217 currency code such as `USD` (any case).
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Za-z]{3}$")]
#: Text that must not be empty.
NonEmptyText = Annotated[str, Field(min_length=1)]
#: Text that must hold something besides spaces (a title, a message).
NonBlankText = Annotated[str, Field(min_length=1, pattern=r"\S")]


def page_size(maximum: int = 100, minimum: int = 1) -> Any:
    """A page-size type with the product's own limits, e.g. `page_size(50)`."""
    return Annotated[int, Field(ge=minimum, le=maximum)]


def bounded(minimum: float | None = None, maximum: float | None = None, *, integer: bool = True) -> Any:
    """A number with inclusive bounds, e.g. `bounded(1, 20)` for a party size."""
    return Annotated[int if integer else float, Field(ge=minimum, le=maximum)]


def text(max_length: int, min_length: int = 1) -> Any:
    """Text with a length limit, e.g. `text(2000)` for a comment body."""
    return Annotated[str, Field(min_length=min_length, max_length=max_length)]
