"""Argument types of the Etsy tools, with Etsy's own bounds in them (so the model sees them in the schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Unordered
from envfactory_gym.fields import ErrorText

Price = Annotated[
    float,
    Field(ge=0.2, le=50000),
    ErrorText("price: must be between 0.20 and 50000.00 in the shop's currency"),
]
Cost = Annotated[float, Field(ge=0, le=10000)]
Quantity = Annotated[int, Field(ge=1, le=999), ErrorText("quantity: must be between 1 and 999")]
Stock = Annotated[int, Field(ge=0, le=999), ErrorText("quantity: must be between 0 and 999")]
Title = Annotated[str, Field(min_length=1, max_length=140, pattern=r"\S"), ErrorText("title: 1 to 140 characters")]
Description = Annotated[str, Field(min_length=1, max_length=20000, pattern=r"\S")]
Tag = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[\w \-'™©®]+$")]
Tags = Annotated[
    list[Tag],
    Unordered,
    Field(max_length=13),
    ErrorText("tags: at most 13 tags, each of 1 to 20 letters, numbers, spaces, - or '"),
]
Material = Annotated[str, Field(min_length=1, max_length=45, pattern=r"^[\w ]+$")]
Materials = Annotated[list[Material], Unordered, Field(max_length=13)]
WhoMade = Literal["i_did", "collective", "someone_else"]
WhenMade = Literal[
    "made_to_order",
    "2020_2026",
    "2010_2019",
    "2007_2009",
    "before_2007",
    "2000_2006",
    "1990s",
    "1980s",
    "1970s",
    "1960s",
    "1950s",
    "before_1950",
]
SectionTitle = Annotated[
    str, Field(min_length=1, max_length=24, pattern=r"\S"), ErrorText("title: a section title is 1 to 24 characters")
]
Country = Annotated[str, Field(pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2, e.g. US")]
Region = Literal["eu", "non_eu", "none"]
ProcessingDays = Annotated[int, Field(ge=1, le=10)]
DeliveryDays = Annotated[int, Field(ge=1, le=45)]
Carrier = Literal["usps", "ups", "fedex", "dhl", "canada-post", "royal-mail", "australia-post", "other"]
TrackingCode = Annotated[
    str, Field(pattern=r"^[A-Za-z0-9]{8,40}$"), ErrorText("tracking_code: 8 to 40 letters and digits")
]
Note = Annotated[str, Field(max_length=500)]
RefundAmount = Annotated[float, Field(gt=0, le=50000)]
RefundReason = Literal[
    "buyer_canceled",
    "item_out_of_stock",
    "wrong_item_sent",
    "item_damaged",
    "not_as_described",
    "shipping_adjustment",
    "other",
]
Limit = Annotated[int, Field(ge=1, le=100)]
Offset = Annotated[int, Field(ge=0)]
SortOrder = Literal["asc", "desc"]
ListingState = Literal["active", "inactive", "sold_out", "draft", "expired"]
SortOn = Literal["created", "price", "title", "ending"]
Rating = Annotated[int, Field(ge=1, le=5)]


class PropertyValueInput(BaseModel):
    """One variation value of a product, e.g. Color = Sage."""

    property_name: Annotated[str, Field(min_length=1, max_length=45, pattern=r"\S")]
    value: Annotated[str, Field(min_length=1, max_length=45, pattern=r"\S")]


class ProductInput(BaseModel):
    """One product of a listing's inventory with its single offering."""

    sku: Annotated[str, Field(max_length=32)] = ""
    property_values: Annotated[list[PropertyValueInput], Field(max_length=2)] = []
    price: Price
    quantity: Stock
    is_enabled: bool = True
