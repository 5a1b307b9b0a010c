"""How the registry matches words and places: all words of a query in one search area (with a few condition
synonyms, a stand-in for the registry's MeSH expansion), conditions against a study's, and distances for filter.geo."""

from __future__ import annotations

import math
import re

from envfactory_gym import InvalidRequest

# Names that mean the same condition (a small stand-in for the registry's MeSH synonym expansion).
SYNONYMS = [
    {"type 2 diabetes", "type 2 diabetes mellitus", "diabetes mellitus type 2", "t2d", "t2dm"},
    {"heart attack", "myocardial infarction"},
    {"high blood pressure", "hypertension"},
    {"nsclc", "non small cell lung cancer"},
    {"alzheimer disease", "alzheimer s disease", "alzheimers disease"},
    {"depression", "major depressive disorder", "mdd"},
    {"copd", "chronic obstructive pulmonary disease"},
    {"ckd", "chronic kidney disease"},
    {"long covid", "post covid 19 condition", "post acute sequelae of sars cov 2"},
    {"heart failure", "chf", "congestive heart failure"},
    {"rheumatoid arthritis", "ra"},
]
GEO = re.compile(r"^distance\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*(mi|km)\s*\)$")


def tokens(text: str) -> list[str]:
    """The lower-case words and numbers of a text."""
    return re.findall(r"[a-z0-9]+", text.casefold())


def variants(phrase: str) -> list[tuple[str, ...]]:
    """The phrase's words, plus the words of every synonym of it."""
    words = tuple(tokens(phrase))
    for group in SYNONYMS:
        if " ".join(words) in group:
            return [words] + [tuple(g.split()) for g in sorted(group)]
    return [words]


def matches(phrase: str, texts: list[str]) -> bool:
    """Every word of the phrase (or of one of its synonyms) occurs in one of the texts together."""
    if not phrase.strip():
        return True
    token_sets = [set(tokens(t)) for t in texts]
    joined = set().union(*token_sets) if token_sets else set()
    return any(set(v) <= joined for v in variants(phrase))


def condition_match(condition: str, study_conditions: list[str]) -> str | None:
    """The study condition a participant's condition falls under, if any."""
    for target in study_conditions:
        target_words = set(tokens(target))
        if any(set(v) <= target_words for v in variants(condition) if v):
            return target
        if any(set(v) <= set(tokens(condition)) for v in variants(target) if v):
            return target
    return None


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(a))


def geo_circle(text: str) -> tuple[float, float, float]:
    match = GEO.match(text.strip())
    if not match:
        raise InvalidRequest(
            "geo must look like distance(30.2672,-97.7431,50mi) (latitude, longitude, radius in mi or km)"
        )
    lat, lon, radius, unit = float(match.group(1)), float(match.group(2)), float(match.group(3)), match.group(4)
    return lat, lon, radius * (1.609344 if unit == "mi" else 1.0)
