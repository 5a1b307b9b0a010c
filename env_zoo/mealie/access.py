"""Who is signed in to Mealie and what they may reach: the user whose token the assistant holds, the recipes of
their group (other households' private ones hidden), their household's plans, lists and members, and who may edit a
recipe or manage members."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database, NotFound, PermissionDenied

from .rules import preferences
from .schema import auth_sessions, households, recipes, shopping_list_items, shopping_lists, users


def current_user(db: Database) -> dict[str, Any]:
    """The user whose token the assistant holds."""
    session = db.current_session(auth_sessions, "Not authenticated. The user has to log in first.")
    return db.get(users, session["user_id"], "User")


def user_by_login(db: Database, username: str) -> dict[str, Any]:
    """The user with this username or email (any case); Mealie's sign-in error otherwise."""
    key = username.strip().lower()
    found = db.select(users, "lower(username) = ? OR lower(email) = ?", (key, key), limit=1)
    if not found:
        raise PermissionDenied("Incorrect username or password")
    return found[0]


def hidden_households(db: Database, user: dict[str, Any]) -> list[str]:
    """The other households of the user's group that are private: their recipes and cookbooks are hidden."""
    return [
        h["id"]
        for h in db.find(households, group_id=user["group_id"])
        if h["id"] != user["household_id"] and h["preferences"]["private_household"]
    ]


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
    hidden = hidden_households(db, user)
    where = "group_id = ?" + (f" AND household_id NOT IN ({', '.join('?' * len(hidden))})" if hidden else "")
    return db.select(recipes, where, (user["group_id"], *hidden), order_by="name")


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


def check_can_lock(user: dict[str, Any], recipe: dict[str, Any], locked: bool | None) -> None:
    """Only the recipe's owner can lock or unlock it."""
    if locked is not None and locked != recipe["settings"]["locked"] and recipe["user_id"] != user["id"]:
        raise PermissionDenied("Only the recipe's owner can lock or unlock it.")


def check_can_comment(recipe: dict[str, Any]) -> None:
    """Comments can be turned off per recipe."""
    if recipe["settings"]["disable_comments"]:
        raise PermissionDenied(f"Comments are turned off for '{recipe['name']}'.")


def household_row(db: Database, user: dict[str, Any], table: Table, key: Any, entity: str) -> dict[str, Any]:
    """A row that belongs to the user's household (others are not found)."""
    row = db.find(table, id=key)
    if not row or row[0]["household_id"] != user["household_id"]:
        raise NotFound(f"{entity} '{key}' not found")
    return row[0]


def shopping_list(db: Database, user: dict[str, Any], list_id: str) -> dict[str, Any]:
    """One of the household's shopping lists."""
    return household_row(db, user, shopping_lists, list_id, "Shopping list")


def household_items(db: Database, user: dict[str, Any], item_ids: list[str]) -> list[dict[str, Any]]:
    """Shopping list items by id (each once), all on the household's lists, in list order."""
    items = []
    for key in dict.fromkeys(item_ids):
        found = db.find(shopping_list_items, id=key)
        if not found:
            raise NotFound(f"Shopping list item '{key}' not found")
        shopping_list(db, user, found[0]["shopping_list_id"])
        items.append(found[0])
    return sorted(items, key=lambda i: (i["shopping_list_id"], i["position"]))


def managed_member(db: Database, user: dict[str, Any], user_id: str) -> dict[str, Any]:
    """A member of the user's household whose permissions the user may set (needs 'can manage')."""
    if not user["can_manage"]:
        raise PermissionDenied("You don't have permission to manage this household's members.")
    target = db.find(users, id=user_id)
    if not target:
        raise NotFound("User not found")
    if target[0]["group_id"] != user["group_id"]:
        raise PermissionDenied("User is not a member of this group")
    if target[0]["household_id"] != user["household_id"]:
        raise PermissionDenied("User is not a member of this household")
    return target[0]
