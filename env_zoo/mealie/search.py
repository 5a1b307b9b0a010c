"""Finding recipes as Mealie's recipe search does: words in the name, description and ingredients, organizer and
food filters (any or all), cookbooks (saved filters over their household's recipes) and sorting."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .filters import matches, parse_filter
from .rules import folded, preferences, rating_of, recipe_facts
from .schema import cookbooks, ingredient_foods, recipe_ingredients


def _haystack(db: Database, recipe: dict[str, Any]) -> str:
    parts = [recipe["name"], recipe["description"]]
    for line in db.find(recipe_ingredients, recipe_id=recipe["id"]):
        parts.append(line["note"])
        if line["food_id"]:
            parts.append(db.get(ingredient_foods, line["food_id"])["name"])
    return folded(" ".join(parts))


def by_words(db: Database, rows: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Recipes whose name, description or ingredients hold every word of `text`."""
    words = folded(text).split()
    return [r for r in rows if all(w in _haystack(db, r) for w in words)]


def by_organizers(
    db: Database, rows: list[dict[str, Any]], kind: str, names: list[str], require_all: bool
) -> list[dict[str, Any]]:
    """Recipes with any (or all) of these categories, tags, tools (names or slugs) or foods (names)."""
    keys = {folded(n.strip()) for n in names}
    fields = ("name",) if kind == "recipe_ingredient.food" else ("name", "slug")
    kept = []
    for row in rows:
        facts = recipe_facts(db, row)
        have = {folded(v) for field in fields for v in facts[f"{kind}.{field}"]}
        if (keys <= have) if require_all else (keys & have):
            kept.append(row)
    return kept


def sort_recipes(db: Database, rows: list[dict[str, Any]], order_by: str, descending: bool) -> list[dict[str, Any]]:
    """Recipes sorted by a field; those without a value come last either way."""
    value = (lambda r: rating_of(db, r["id"])) if order_by == "rating" else (lambda r: r[order_by])
    keyed = [(value(r), r) for r in rows]
    present = sorted((pair for pair in keyed if pair[0] is not None), key=lambda pair: pair[0], reverse=descending)
    return [r for _, r in present] + [r for v, r in keyed if v is None]


def visible_cookbooks(db: Database, user: dict[str, Any]) -> list[dict[str, Any]]:
    """The group's cookbooks, except other private households' ones; the user's household first."""
    rows = [
        c
        for c in db.find(cookbooks, group_id=user["group_id"], order_by=[cookbooks.c.position])
        if c["household_id"] == user["household_id"] or not preferences(db, c["household_id"])["private_household"]
    ]
    return sorted(rows, key=lambda c: c["household_id"] != user["household_id"])


def in_cookbook(db: Database, user: dict[str, Any], rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The recipes a cookbook (by slug or id) selects: its filter over its household's recipes."""
    found = [c for c in visible_cookbooks(db, user) if key.strip() in (c["slug"], c["id"])]
    if not found:
        raise NotFound(f"Cookbook '{key}' not found")
    clauses = parse_filter(found[0]["query_filter_string"])
    return [r for r in rows if r["household_id"] == found[0]["household_id"] and matches(clauses, recipe_facts(db, r))]
