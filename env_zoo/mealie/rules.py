"""Mealie's business rules: who is signed in, which recipes a user can see and edit, slugs, organizers and the
facts query filters match against."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import Table

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    PermissionDenied,
)

from .schema import (
    auth_sessions,
    categories,
    households,
    ingredient_foods,
    ingredient_units,
    kitchen_tools,
    recipe_ingredients,
    recipes,
    tags,
    users,
    users_to_recipes,
)

ORGANIZERS: dict[str, tuple[Table, str]] = {
    "recipe_category": (categories, "category"),
    "tags": (tags, "tag"),
    "tools": (kitchen_tools, "tool"),
}


def folded(text: str) -> str:
    """Lower case without accents, for matching names and searches (Jalapeño matches jalapeno)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(name: str) -> str:
    """The URL slug Mealie derives from a name: 'Abuela's Pozole Rojo' -> 'abuela-s-pozole-rojo'."""
    slug = re.sub(r"[^a-z0-9]+", "-", folded(name)).strip("-")
    if not slug:
        raise InvalidRequest("A name must contain letters or digits.")
    return slug


# ---------------------------------------------------------------- the signed-in user


def current_user(db: Database) -> dict[str, Any]:
    """The user whose token the assistant holds."""
    session = db.current_session(auth_sessions, "Not authenticated. The user has to log in first.")
    return db.get(users, session["user_id"], "User")


def preferences(db: Database, household_id: str) -> dict[str, Any]:
    """A household's preferences."""
    return db.get(households, household_id, "Household")["preferences"]


# ---------------------------------------------------------------- recipes


def can_see(db: Database, user: dict[str, Any], recipe: dict[str, Any]) -> bool:
    """Recipes are shared across the group, except those of another household set to private."""
    if recipe["group_id"] != user["group_id"]:
        return False
    return (
        recipe["household_id"] == user["household_id"]
        or not preferences(db, recipe["household_id"])["private_household"]
    )


def visible_recipes(db: Database, user: dict[str, Any]) -> list[dict[str, Any]]:
    """Every recipe the user can see, by name."""
    rows = db.find(recipes, group_id=user["group_id"], order_by=[recipes.c.name])
    return [r for r in rows if can_see(db, user, r)]


def recipe_by_slug(db: Database, user: dict[str, Any], slug: str) -> dict[str, Any]:
    """A visible recipe by its slug (or its id)."""
    found = db.find(recipes, group_id=user["group_id"], slug=slug.strip()) or db.find(
        recipes, group_id=user["group_id"], id=slug.strip()
    )
    if not found or not can_see(db, user, found[0]):
        raise NotFound(f"Recipe '{slug}' not found")
    return found[0]


def recipe_by_id(db: Database, user: dict[str, Any], recipe_id: str) -> dict[str, Any]:
    """A visible recipe by its id."""
    found = db.find(recipes, id=recipe_id.strip())
    if not found or not can_see(db, user, found[0]):
        raise NotFound(f"Recipe '{recipe_id}' not found")
    return found[0]


def check_can_update(db: Database, user: dict[str, Any], recipe: dict[str, Any]) -> None:
    """The owner may always edit; others not when the recipe is locked or its household locks out other
    households."""
    if recipe["user_id"] == user["id"]:
        return
    if (
        recipe["household_id"] != user["household_id"]
        and preferences(db, recipe["household_id"])["lock_recipe_edits_from_other_households"]
    ):
        raise PermissionDenied("This recipe's household doesn't allow edits from other households.")
    if recipe["settings"]["locked"]:
        raise PermissionDenied("This recipe is locked; only its owner can edit it.")


def check_unique_slug(db: Database, group_id: str, slug: str, recipe_id: str | None = None) -> None:
    """Recipe slugs are unique within a group."""
    clash = [r for r in db.find(recipes, group_id=group_id, slug=slug) if r["id"] != recipe_id]
    if clash:
        raise Conflict(f"A recipe with the slug '{slug}' already exists ('{clash[0]['name']}').")


def rating_of(db: Database, recipe_id: str) -> float | None:
    """A recipe's rating: the average of its users' ratings."""
    given = [r["rating"] for r in db.find(users_to_recipes, recipe_id=recipe_id) if r["rating"]]
    return round(sum(given) / len(given), 2) if given else None


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


def food_by_name(db: Database, group_id: str, name: str) -> dict[str, Any] | None:
    """A food by its name or plural, or None."""
    key = folded(name.strip())
    for food in db.find(ingredient_foods, group_id=group_id):
        if key in {folded(food["name"]), folded(food["plural_name"] or "")}:
            return food
    return None


def recipe_facts(db: Database, recipe: dict[str, Any]) -> dict[str, Any]:
    """What query filters compare: organizer ids, names and slugs, ingredient foods, rating."""
    facts: dict[str, Any] = {"rating": rating_of(db, recipe["id"])}
    for kind, (table, _) in ORGANIZERS.items():
        rows = [db.get(table, key) for key in recipe[kind]]
        for field in ("id", "name", "slug"):
            facts[f"{kind}.{field}"] = {row[field].casefold() for row in rows}
    foods = [
        db.get(ingredient_foods, i["food_id"])
        for i in db.find(recipe_ingredients, recipe_id=recipe["id"])
        if i["food_id"]
    ]
    facts["recipe_ingredient.food.id"] = {f["id"].casefold() for f in foods}
    facts["recipe_ingredient.food.name"] = {f["name"].casefold() for f in foods}
    return facts


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
