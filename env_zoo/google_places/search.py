"""Text Search relevance: accent- and case-folded words matched against a place's name, types, neighbourhood,
address and summary (plurals and Portuguese/English word forms meet on a five-letter stem)."""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

STOPWORDS = {
    "a",
    "an",
    "and",
    "at",
    "around",
    "best",
    "by",
    "de",
    "do",
    "da",
    "for",
    "good",
    "in",
    "me",
    "my",
    "near",
    "nearby",
    "of",
    "on",
    "or",
    "place",
    "places",
    "some",
    "the",
    "to",
    "top",
    "with",
}
FIELD_WEIGHTS = (
    ("display_name", 3),
    ("kind", 2),
    ("neighborhood", 2),
    ("formatted_address", 1),
    ("editorial_summary", 1),
)


def fold(text: str) -> str:
    """Lower-case text without accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def stem(word: str) -> str:
    """A word's comparison key: plural endings dropped, then at most five letters."""
    for ending, repl in (("ies", "y"), ("es", ""), ("s", "")):
        if len(word) > 4 and word.endswith(ending):
            word = word[: -len(ending)] + repl
            break
    return word[:5]


def words(text: str) -> list[str]:
    """The stems of the meaningful words of a text."""
    return [stem(w) for w in re.findall(r"[a-z0-9]+", fold(text)) if w not in STOPWORDS]


def _fields(place: dict[str, Any]) -> dict[str, frozenset[str]]:
    kind = " ".join([place["primary_type_display_name"], *(t.replace("_", " ") for t in place["types"])])
    values = {**place, "kind": kind}
    texts = tuple(values[name] or "" for name, _ in FIELD_WEIGHTS)
    return dict(zip((name for name, _ in FIELD_WEIGHTS), _stems(texts)))


@lru_cache(maxsize=4096)
def _stems(texts: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The stems of each field's text; a pure function of the texts, so a place is tokenized once per process
    rather than on every search (names and addresses don't change when a rating does)."""
    return tuple(frozenset(words(text)) for text in texts)


def relevance(query: list[str], place: dict[str, Any]) -> tuple[int, int]:
    """(query words found, weighted score) of a place for a query."""
    fields = _fields(place)
    found = [w for w in query if any(w in f for f in fields.values())]
    score = sum(weight for w in query for name, weight in FIELD_WEIGHTS if w in fields[name])
    return len(found), score


def prominence(place: dict[str, Any]) -> float:
    """How well known a place is: its rating weighted by the number of ratings."""
    count = place["user_rating_count"]
    return (place["rating_total"] / count) * math.log10(count + 1) if count else 0.0


# Place types of Table A that searches may filter on.
TABLE_A = frozenset(
    """
    accounting airport amusement_park aquarium art_gallery atm bakery bank bar beach beauty_salon bicycle_store
    book_store bowling_alley brazilian_restaurant breakfast_restaurant brunch_restaurant bus_station cafe
    car_rental casino chinese_restaurant church clothing_store coffee_shop convenience_store cultural_center
    dentist department_store dessert_shop doctor drugstore electronics_store establishment farmers_market
    fast_food_restaurant ferry_terminal florist food french_restaurant furniture_store gas_station gift_shop gym
    hair_care hamburger_restaurant hardware_store historical_landmark hospital hostel hotel ice_cream_shop
    indian_restaurant italian_restaurant japanese_restaurant jewelry_store korean_restaurant laundry library
    light_rail_station lodging market mediterranean_restaurant mexican_restaurant middle_eastern_restaurant
    movie_theater museum night_club park parking performing_arts_theater pharmacy pizza_restaurant
    point_of_interest post_office pub ramen_restaurant restaurant sandwich_shop seafood_restaurant shoe_store
    shopping_mall spa spanish_restaurant stadium steak_house store subway_station supermarket sushi_restaurant
    thai_restaurant tourist_attraction tourist_information_center train_station transit_station
    vegan_restaurant vegetarian_restaurant vietnamese_restaurant wine_bar zoo
""".split()
)
