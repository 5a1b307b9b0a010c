"""Generic output models whose parametrizations stay built.

Pydantic keeps `Model[X]` only in a weak cache: once no object holds the class, the next `Model[X](...)` in a tool
builds it again, schema and validator included (10-40 ms, measured on eBay's search, where it was most of the
call). Parametrizations of a `KeptGeneric` model are held for the process's life; there is one per output type.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_PARAMETRIZED: list[type[BaseModel]] = []


class KeptGeneric(BaseModel):
    """Base of a generic output model (`class Page(KeptGeneric, Generic[T])`): `Page[X]` is built once."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if cls.__pydantic_generic_metadata__["origin"] is not None:  # `Page[X]`, not `Page` or a plain subclass
            _PARAMETRIZED.append(cls)
