"""Mealie's business rules: slugs, organizers, units and foods, ratings, the random picker's seeded order, meal
plan entries and share-link expiry."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import timedelta
from typing import Any

from sqlalchemy import Table

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    PermissionDenied,
)
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .filters import Clause, parse_filter
from .schema import (
    categories,
    group_meal_plan_rules,
    group_meal_plans,
    households,
    ingredient_foods,
    ingredient_units,
    kitchen_tools,
    recipe_share_tokens,
    recipes,
    tags,
    users_to_recipes,
)

ORGANIZERS: dict[str, tuple[Table, str]] = {
    "recipe_category": (categories, "category"),
    "tags": (tags, "tag"),
    "tools": (kitchen_tools, "tool"),
}


def folded(text: str) -> str:
    """Lower case without accents, for matching names and searches (Jalapeño matches jalapeno)."""
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(name: str) -> str:
    """The URL slug Mealie derives from a name: 'Abuela's Pozole Rojo' -> 'abuela-s-pozole-rojo'."""
    slug = re.sub(r"[^a-z0-9]+", "-", folded(name)).strip("-")
    if not slug:
        raise InvalidRequest("A name must contain letters or digits.")
    return slug


def preferences(db: Database, household_id: str) -> dict[str, Any]:
    """A household's preferences."""
    return db.get(households, household_id, "Household")["preferences"]


# ---------------------------------------------------------------- recipes


def check_unique_slug(db: Database, group_id: str, slug: str, recipe_id: str | None = None) -> None:
    """Recipe slugs are unique within a group."""
    clash = [r for r in db.find(recipes, group_id=group_id, slug=slug) if r["id"] != recipe_id]
    if clash:
        raise Conflict(f"A recipe with the slug '{slug}' already exists ('{clash[0]['name']}').")


def average_rating(ratings: list[float | None]) -> float | None:
    """A recipe's rating from its users' ratings: their average (unrated entries left out)."""
    given = [r for r in ratings if r]
    return round(sum(given) / len(given), 2) if given else None


def rating_of(db: Database, recipe_id: str) -> float | None:
    """A recipe's rating: the average of its users' ratings."""
    return average_rating([r["rating"] for r in db.find(users_to_recipes, recipe_id=recipe_id)])


def resolve_organizers(db: Database, user: dict[str, Any], kind: str, names: list[str]) -> list[str]:
    """Ids of the group's categories, tags or tools with these names (or slugs), sorted. Unknown names become new
    organizers, which needs the 'can organize' permission."""
    table, entity = ORGANIZERS[kind]
    existing = db.find(table, group_id=user["group_id"])
    ids: set[str] = set()
    for name in names:
        clean = " ".join(name.split())
        if not clean:
            raise InvalidRequest(f"A {entity} name can't be empty.")
        found = [o for o in existing if folded(o["name"]) == folded(clean) or o["slug"] == slugify(clean)]
        if found:
            ids.add(found[0]["id"])
            continue
        if not user["can_organize"]:
            raise PermissionDenied(
                f"There is no {entity} '{clean}', and creating {entity}s needs the 'can organize' permission."
            )
        created = db.insert(table, id=db.new_uuid(table), group_id=user["group_id"], name=clean, slug=slugify(clean))
        existing.append(created)
        ids.add(created["id"])
    return sorted(ids)


def unit_by_name(db: Database, group_id: str, name: str) -> dict[str, Any]:
    """A unit by its name, plural or abbreviation."""
    key = folded(name.strip())
    for unit in db.find(ingredient_units, group_id=group_id):
        if key in {folded(unit["name"]), folded(unit["plural_name"] or ""), folded(unit["abbreviation"] or "")}:
            return unit
    raise InvalidRequest(f"Unknown unit '{name}'. Use one of the group's units (e.g. cup, tablespoon, gram).")


#: SQL that keeps a name column's rows whose folded text may equal a folded key: lower() folds ASCII text exactly
#: as `folded` does; text with other characters is kept, to be folded in Python.
_MAY_EQUAL = "(lower({0}) = ? OR {0} GLOB '*[^ -~]*')"


def food_by_name(db: Database, group_id: str, name: str) -> dict[str, Any] | None:
    """A food by its name or plural, or None."""
    key = folded(name.strip())
    where = f"group_id = ? AND ({_MAY_EQUAL.format('name')} OR {_MAY_EQUAL.format('plural_name')})"
    for food in db.select(ingredient_foods, where, (group_id, key, key)):
        if key in {folded(food["name"]), folded(food["plural_name"] or "")}:
            return food
    return None


def proper_name(db: Database, user: dict[str, Any], attribute: str, value: str) -> str:
    """A query filter value as the group spells it: 'quick' -> 'Quick' for tags.name; other values unchanged."""
    kind, _, field = attribute.rpartition(".")
    if field != "name":
        return value
    if kind == "recipe_ingredient.food":
        food = food_by_name(db, user["group_id"], value)
        return food["name"] if food else value
    table = ORGANIZERS[kind][0]
    found = [o for o in db.find(table, group_id=user["group_id"]) if folded(o["name"]) == folded(value)]
    return found[0]["name"] if found else value


def food_id(db: Database, user: dict[str, Any], name: str | None) -> str | None:
    """The id of a food by name; a name the group lacks becomes a new food."""
    if name is None or not name.strip():
        return None
    found = food_by_name(db, user["group_id"], name)
    if found:
        return found["id"]
    return db.insert(
        ingredient_foods,
        id=db.new_uuid(ingredient_foods),
        group_id=user["group_id"],
        name=" ".join(name.split()),
        plural_name=None,
        label=None,
    )["id"]


# ---------------------------------------------------------------- meal plans

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ENTRY_TYPES = ("breakfast", "lunch", "dinner", "side")


def plan_rule_clauses(db: Database, user: dict[str, Any], plan_date: str, entry_type: str) -> list[Clause]:
    """The clauses of the household's meal plan rules for this date's weekday and this entry type (rules for any
    day or any type included)."""
    weekday = WEEKDAYS[parse_date(plan_date, "date").weekday()]
    clauses: list[Clause] = []
    for rule in db.find(group_meal_plan_rules, household_id=user["household_id"]):
        if rule["day"] in (weekday, "unset") and rule["entry_type"] in (entry_type, "unset"):
            clauses += parse_filter(rule["query_filter_string"])
    return clauses


def random_key(plan_date: str, entry_type: str, recipe_id: str) -> str:
    """The seeded shuffle Mealie's random picker uses: stable for one date and entry type."""
    return hashlib.sha256(f"{plan_date}:{entry_type}:{recipe_id}".encode()).hexdigest()


def new_plan_entry(
    db: Database, user: dict[str, Any], plan_date: str, entry_type: str, recipe_id: str | None, title: str, text: str
) -> dict[str, Any]:
    """A new entry on the household's meal plan (entries are numbered)."""
    return db.insert(
        group_meal_plans,
        id=int(db.new_id(group_meal_plans, "", 1)),
        group_id=user["group_id"],
        household_id=user["household_id"],
        user_id=user["id"],
        date=plan_date,
        entry_type=entry_type,
        title=title,
        text=text,
        recipe_id=recipe_id,
    )


# ---------------------------------------------------------------- share links

SHARE_DAYS = 30
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def share_expiry(db: Database, expires_at: str | None) -> str:
    """When a share link expires: through the end of a given day, at a given moment (as UTC), or 30 days from
    today; it must be in the future."""
    if expires_at is None:
        expiry = f"{(db.now() + timedelta(days=SHARE_DAYS)).date()}T23:59:59Z"
    elif _DAY.match(expires_at.strip()):
        expiry = f"{parse_date(expires_at, 'expires_at', '2025-04-01')}T23:59:59Z"
    else:
        expiry = iso_timestamp(parse_timestamp(expires_at, "expires_at", "2025-04-01T18:00:00Z"))
    if expiry <= db.now_iso():
        raise InvalidRequest("expires_at must be in the future.")
    return expiry


def new_share_token(db: Database, user: dict[str, Any], recipe_id: str, expiry: str) -> dict[str, Any]:
    """A share link for a recipe of the user's group."""
    return db.insert(
        recipe_share_tokens,
        id=db.new_uuid(recipe_share_tokens),
        group_id=user["group_id"],
        recipe_id=recipe_id,
        expires_at=expiry,
        created_at=db.now_iso(),
    )
