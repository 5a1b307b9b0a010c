"""Monzo's argument types: every bound, pattern and enum a tool enforces, with the API's own wording, so the model
sees it in the schema and validation refuses a bad value before the tool runs."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym.fields import ErrorText

Category = Literal[
    "general",
    "eating_out",
    "expenses",
    "transport",
    "cash",
    "bills",
    "entertainment",
    "shopping",
    "holidays",
    "groceries",
    "personal_care",
    "family",
    "charity",
    "finances",
    "gifts",
    "income",
    "savings",
    "transfers",
]
PotStyle = Literal["piggy_bank", "beach_ball", "cactus", "raspberry", "blue", "yellow", "teal", "coral", "midnight"]
PaymentStatus = Literal["pending_approval", "completed", "declined"]

#: An amount of money in pennies, at least 1p.
Pennies = Annotated[int, Field(ge=1), ErrorText("must be a positive number of pennies.")]
GoalAmount = Annotated[int, Field(ge=1), ErrorText("must be a positive number of pennies.")]
PotName = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"\S"), ErrorText("Pot names must be 1 to 40 characters long.")
]
PayeeName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"\S"), ErrorText("must be 1 to 40 characters.")]
Reference = Annotated[
    str,
    Field(pattern=r"^[A-Za-z0-9 \-./&]{1,18}$"),
    ErrorText("A reference has 1 to 18 letters, digits, spaces or - . / &."),
]
SortCode = Annotated[str, Field(pattern=r"^\d{2}[- ]?\d{2}[- ]?\d{2}$"), ErrorText("must be 6 digits, like 20-45-77.")]
AccountNumber = Annotated[str, Field(pattern=r"^\d{8}$"), ErrorText("must be 8 digits.")]
Notes = Annotated[str, Field(max_length=500), ErrorText("can be at most 500 characters.")]
FeedTitle = Annotated[
    str, Field(min_length=1, pattern=r"\S"), ErrorText("params[title] is required and can't be blank.")
]
HexColour = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$"), ErrorText("must be a hex colour like #FCF1EE.")]
HttpsUrl = Annotated[str, Field(pattern=r"^https://\S+$"), ErrorText("must be an https URL.")]
#: A moment as the API takes it: an RFC 3339 timestamp or a bare date (its midnight UTC).
Moment = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$"),
    ErrorText("must be an RFC 3339 timestamp (2025-05-01T00:00:00Z) or a date (2025-05-01)"),
]
