"""Finding recipes as Mealie's recipe search does: words in the name, description and ingredients, organizer and
food filters (any or all), cookbooks (saved filters over their household's recipes), the random picker's rules and
sorting. What a filter compares is read for all candidate recipes at once (a few queries a search, not a few per
recipe)."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from envfactory_gym import Database, NotFound

from .access import hidden_households
from .filters import Clause, matches, parse_filter
from .objects import RecipeSummary
from .rules import ORGANIZERS, average_rating, folded
from .schema import cookbooks, ingredient_foods, recipe_ingredients, users_to_recipes

SUMMARY_FIELDS = ("id", "slug", "name", "household_id", "recipe_servings", "total_time", "date_added", "last_made")


def _in(column: str, count: int) -> str:
    return f"{column} IN ({', '.join('?' * count)})"


class RecipeFacts:
    """What searches, filters and listings read about a set of recipes of one group, each read once."""

    def __init__(self, db: Database, group_id: str, rows: list[dict[str, Any]]) -> None:
        self.db = db
        self.group_id = group_id
        self.ids = [r["id"] for r in rows]

    @cached_property
    def organizers(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Per kind, the group's categories, tags or tools by id."""
        return {
            kind: {o["id"]: o for o in self.db.find(table, group_id=self.group_id)}
            for kind, (table, _) in ORGANIZERS.items()
        }

    @cached_property
    def ingredients(self) -> dict[str, list[dict[str, Any]]]:
        """The recipes' ingredient lines, each with its food's row (or None)."""
        return self._lines(self.ids)

    def _lines(self, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        lines = self.db.select(recipe_ingredients, _in("recipe_id", len(ids)), ids) if ids else []
        food_ids = sorted({line["food_id"] for line in lines if line["food_id"]})
        food_rows = self.db.select(ingredient_foods, _in("id", len(food_ids)), food_ids) if food_ids else []
        foods = {f["id"]: f for f in food_rows}
        grouped: dict[str, list[dict[str, Any]]] = {key: [] for key in ids}
        for line in lines:
            grouped[line["recipe_id"]].append({**line, "food": foods.get(line["food_id"])})
        return grouped

    def _may_hold(self, word: str) -> set[str]:
        """The recipes with an ingredient line whose note or food may hold a folded word: SQL's LIKE decides for
        plain ASCII text (it ignores ASCII case as folding does); text with other characters is kept, to be
        folded in Python."""
        pattern = "%" + re.sub(r"([\\%_])", r"\\\1", word) + "%"
        maybe = "({0} LIKE ? ESCAPE '\\' OR {0} GLOB '*[^ -~]*')"
        where = (
            f"{_in('recipe_id', len(self.ids))} AND ({maybe.format('note')} OR food_id IN "
            f"(SELECT id FROM ingredient_foods WHERE {maybe.format('name')}))"
        )
        return {line["recipe_id"] for line in self.db.select(recipe_ingredients, where, [*self.ids, pattern, pattern])}

    def with_words(self, rows: list[dict[str, Any]], words: list[str]) -> list[dict[str, Any]]:
        """The recipes holding every folded word in their name, description, ingredient notes or foods."""
        heads = {r["id"]: folded(f"{r['name']} {r['description']}") for r in rows}
        missing = {r["id"]: [w for w in words if w not in heads[r["id"]]] for r in rows}
        possible = {w: self._may_hold(w) for w in sorted({w for ws in missing.values() for w in ws})}
        doubtful = [key for key, ws in missing.items() if ws and all(key in possible[w] for w in ws)]
        lines = self._lines(doubtful)
        kept = []
        for row in rows:
            if not missing[row["id"]]:
                kept.append(row)
            elif row["id"] in lines:
                parts = [heads[row["id"]]]
                for line in lines[row["id"]]:
                    parts.append(line["note"])
                    if line["food"]:
                        parts.append(line["food"]["name"])
                text = folded(" ".join(parts))
                if all(w in text for w in words):
                    kept.append(row)
        return kept

    @cached_property
    def ratings(self) -> dict[str, float | None]:
        """The recipes' ratings: the average of their users' ratings."""
        return self._ratings(self.ids)

    def _ratings(self, ids: list[str]) -> dict[str, float | None]:
        given: dict[str, list[float | None]] = {key: [] for key in ids}
        if ids:
            for row in self.db.select(users_to_recipes, _in("recipe_id", len(ids)), ids):
                given[row["recipe_id"]].append(row["rating"])
        return {key: average_rating(values) for key, values in given.items()}

    def facts(self, recipe: dict[str, Any], kinds: set[str]) -> dict[str, Any]:
        """What query filters compare, for the kinds asked ("rating", "recipe_category", "tags", "tools",
        "recipe_ingredient.food"): organizer ids, names and slugs, ingredient foods, rating (casefolded)."""
        found: dict[str, Any] = {"rating": self.ratings[recipe["id"]]} if "rating" in kinds else {}
        for kind in ORGANIZERS.keys() & kinds:
            rows = [self.organizers[kind][key] for key in recipe[kind]]
            for field in ("id", "name", "slug"):
                found[f"{kind}.{field}"] = {row[field].casefold() for row in rows}
        if "recipe_ingredient.food" in kinds:
            foods = [line["food"] for line in self.ingredients[recipe["id"]] if line["food"]]
            found["recipe_ingredient.food.id"] = {f["id"].casefold() for f in foods}
            found["recipe_ingredient.food.name"] = {f["name"].casefold() for f in foods}
        return found

    def summaries(self, rows: list[dict[str, Any]]) -> list[RecipeSummary]:
        """Recipes as listings show them (ratings read for these recipes only, unless already read)."""
        ratings = self.__dict__.get("ratings") or self._ratings([r["id"] for r in rows])
        return [
            RecipeSummary(
                **{k: row[k] for k in SUMMARY_FIELDS},
                rating=ratings[row["id"]],
                **{
                    kind: sorted(self.organizers[kind][key]["name"] for key in row[kind])
                    for kind in ("recipe_category", "tags")
                },
            )
            for row in rows
        ]


def matching(rows: list[dict[str, Any]], facts: RecipeFacts, clauses: list[Clause]) -> list[dict[str, Any]]:
    """The recipes a query filter's clauses select."""
    kinds = {c.attribute.rpartition(".")[0] or c.attribute for c in clauses}
    return [r for r in rows if matches(clauses, facts.facts(r, kinds))] if clauses else rows


def by_words(rows: list[dict[str, Any]], facts: RecipeFacts, text: str) -> list[dict[str, Any]]:
    """Recipes whose name, description or ingredients hold every word of `text`."""
    return facts.with_words(rows, folded(text).split())


def by_organizers(
    rows: list[dict[str, Any]], facts: RecipeFacts, kind: str, names: list[str], require_all: bool
) -> list[dict[str, Any]]:
    """Recipes with any (or all) of these categories, tags, tools (names or slugs) or foods (names)."""
    keys = {folded(n.strip()) for n in names}
    fields = ("name",) if kind == "recipe_ingredient.food" else ("name", "slug")
    kept = []
    for row in rows:
        found = facts.facts(row, {kind})
        have = {folded(v) for field in fields for v in found[f"{kind}.{field}"]}
        if (keys <= have) if require_all else (keys & have):
            kept.append(row)
    return kept


def sort_recipes(
    rows: list[dict[str, Any]], facts: RecipeFacts, order_by: str, descending: bool
) -> list[dict[str, Any]]:
    """Recipes sorted by a field; those without a value come last either way."""
    value = (lambda r: facts.ratings[r["id"]]) if order_by == "rating" else (lambda r: r[order_by])
    keyed = [(value(r), r) for r in rows]
    present = sorted((pair for pair in keyed if pair[0] is not None), key=lambda pair: pair[0], reverse=descending)
    return [r for _, r in present] + [r for v, r in keyed if v is None]


def visible_cookbooks(db: Database, user: dict[str, Any]) -> list[dict[str, Any]]:
    """The group's cookbooks, except other private households' ones; the user's household first."""
    hidden = set(hidden_households(db, user))
    rows = [
        c
        for c in db.find(cookbooks, group_id=user["group_id"], order_by=[cookbooks.c.position])
        if c["household_id"] not in hidden
    ]
    return sorted(rows, key=lambda c: c["household_id"] != user["household_id"])


def in_cookbook(
    db: Database, user: dict[str, Any], rows: list[dict[str, Any]], facts: RecipeFacts, key: str
) -> list[dict[str, Any]]:
    """The recipes a cookbook (by slug or id) selects: its filter over its household's recipes."""
    found = [c for c in visible_cookbooks(db, user) if key.strip() in (c["slug"], c["id"])]
    if not found:
        raise NotFound(f"Cookbook '{key}' not found")
    own = [r for r in rows if r["household_id"] == found[0]["household_id"]]
    return matching(own, facts, parse_filter(found[0]["query_filter_string"]))
