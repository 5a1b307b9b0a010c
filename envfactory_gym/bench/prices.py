"""What a model's tokens cost: `--price-in/--price-out`, or a table of known models that a user extends with a
JSON file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Price:
    """US dollars per million prompt (`input`) and completion (`output`) tokens; `source` says where it came from."""

    input: float
    output: float
    source: str = "given"

    def __post_init__(self) -> None:
        if self.input < 0 or self.output < 0:
            raise ValueError(f"prices must not be negative (input {self.input}, output {self.output})")

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Dollars for these tokens."""
        return (prompt_tokens * self.input + completion_tokens * self.output) / 1e6

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"input": self.input, "output": self.output, "source": self.source}


#: List prices of some hosted models (USD per million tokens, input / output) as their providers published them in
#: 2025. Prices change: override with --price-in/--price-out or a --price-table file.
KNOWN_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o3": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "claude-opus-4": (15.00, 75.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "gemini-2.5-pro": (1.25, 10.00),
    "gemini-2.5-flash": (0.30, 2.50),
}


def load_price_table(path: str | Path | None = None) -> dict[str, tuple[float, float]]:
    """The known prices, extended (or overridden) by a JSON file mapping model names to `[input, output]` or
    `{"input": ..., "output": ...}` in dollars per million tokens."""
    table = dict(KNOWN_PRICES)
    if path is None:
        return table
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"price table {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"price table {path}: expected an object of model name -> prices")
    for model, value in data.items():
        pair = [value.get("input"), value.get("output")] if isinstance(value, dict) else value
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in pair)
        ):
            raise ValueError(
                f"price table {path}: {model!r} needs [input, output] dollars per million tokens, got {value!r}"
            )
        table[str(model).lower()] = (float(pair[0]), float(pair[1]))
    return table


def price_for(model: str, table: dict[str, tuple[float, float]]) -> Price | None:
    """The price of `model` from `table`: its exact name, else the longest table entry that its name (without a
    provider prefix such as `openai/`) starts with followed by `-` (dated versions: `gpt-4o-2024-08-06`); None when
    unknown (self-hosted models)."""
    name = model.lower()
    if name in table:
        return Price(*table[name], source=f"price table ({name})")
    bare = name.rsplit("/", 1)[-1]
    matches = [key for key in table if bare == key or bare.startswith(key + "-")]
    if not matches:
        return None
    key = max(matches, key=len)
    return Price(*table[key], source=f"price table ({key})")
