"""Mealie's API objects as output models, and how stored rows become them."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import Database, KeptGeneric

from .rules import ORGANIZERS, rating_of
from .schema import (
    groups,
    households,
    ingredient_foods,
    ingredient_units,
    recipe_comments,
    recipe_ingredients,
    recipe_instructions,
    recipes,
    shopping_list_items,
    users,
)

T = TypeVar("T")


class Pagination(KeptGeneric, Generic[T]):
    """One page of a listing, as Mealie pages them (page numbers from 1)."""

    page: int
    per_page: int
    total: int
    total_pages: int
    items: list[T]


def page_of(items: list[Any], page: int, per_page: int, build: Callable[[list[Any]], list[T]]) -> Pagination[T]:
    """Page `page` of `items` (a page past the end is empty), only that page's items built into objects."""
    start = (page - 1) * per_page
    return Pagination[Any](
        page=page,
        per_page=per_page,
        total=len(items),
        total_pages=math.ceil(len(items) / per_page),
        items=build(items[start : start + per_page]),
    )


class UserOut(BaseModel):
    """A Mealie user with their group, household and permissions."""

    id: str
    username: str
    full_name: str
    email: str
    admin: bool
    group_id: str
    group: str
    household_id: str
    household: str
    can_invite: bool = Field(description="may invite new users to the household")
    can_manage: bool = Field(description="may manage the household's members and their permissions")
    can_manage_household: bool = Field(description="may change the household's settings")
    can_organize: bool = Field(description="may create and edit categories, tags and tools")


class Organizer(BaseModel):
    """A category, tag or tool."""

    id: str
    name: str
    slug: str


class RecipeSummary(BaseModel):
    """A recipe in a listing."""

    id: str
    slug: str
    name: str
    household_id: str
    recipe_servings: float
    total_time: str | None
    rating: float | None = Field(description="average of the users' ratings, 1 to 5")
    recipe_category: list[str] = Field(description="category names")
    tags: list[str] = Field(description="tag names")
    date_added: str | None
    last_made: str | None


class UnitOut(BaseModel):
    """An ingredient unit."""

    id: str
    name: str
    abbreviation: str


class FoodOut(BaseModel):
    """An ingredient food."""

    id: str
    name: str
    label: str | None = Field(description="shopping list section")


class RecipeIngredientOut(BaseModel):
    """One ingredient line of a recipe (scaled when the recipe was asked for other servings)."""

    reference_id: str
    title: str | None = Field(description="section header shown above this line")
    quantity: float | None
    unit: UnitOut | None
    food: FoodOut | None
    note: str
    display: str


class RecipeStep(BaseModel):
    """One instruction step."""

    id: str
    title: str
    text: str


class Nutrition(BaseModel):
    """Nutrition per serving, as the free-text values Mealie stores (e.g. "420 kcal", "18 g")."""

    calories: str | None = None
    carbohydrate_content: str | None = None
    protein_content: str | None = None
    fat_content: str | None = None
    saturated_fat_content: str | None = None
    fiber_content: str | None = None
    sugar_content: str | None = None
    sodium_content: str | None = None


class RecipeSettings(BaseModel):
    """A recipe's settings."""

    public: bool
    show_nutrition: bool
    disable_comments: bool
    locked: bool = Field(description="only the owner may edit a locked recipe")


class CommentUser(BaseModel):
    """Who wrote a comment."""

    id: str
    username: str
    full_name: str


class CommentOut(BaseModel):
    """A comment on a recipe."""

    id: str
    recipe_id: str
    text: str
    created_at: str
    user: CommentUser


class Recipe(BaseModel):
    """A full recipe."""

    id: str
    user_id: str
    household_id: str
    group_id: str
    name: str
    slug: str
    description: str
    recipe_servings: float
    recipe_yield_quantity: float
    recipe_yield: str
    total_time: str | None
    prep_time: str | None
    perform_time: str | None = Field(description="cook time")
    recipe_category: list[Organizer]
    tags: list[Organizer]
    tools: list[Organizer]
    rating: float | None
    org_url: str | None
    date_added: str | None
    date_updated: str | None
    last_made: str | None
    scale: float = Field(description="factor the ingredient quantities were multiplied by")
    recipe_ingredient: list[RecipeIngredientOut]
    recipe_instructions: list[RecipeStep]
    nutrition: Nutrition
    settings: RecipeSettings
    comments: list[CommentOut]


class UserRatingOut(BaseModel):
    """A user's rating and favourite flag for a recipe."""

    recipe_id: str
    user_id: str
    rating: float | None
    is_favorite: bool
    recipe_rating: float | None = Field(description="the recipe's new average rating")


class TimelineEventOut(BaseModel):
    """An event on a recipe's timeline."""

    id: str
    recipe_id: str
    user_id: str
    subject: str
    event_type: str
    event_message: str | None
    timestamp: str


class RecipeRef(BaseModel):
    """A recipe named in another object."""

    id: str
    name: str
    slug: str


class PlanEntry(BaseModel):
    """A meal plan entry: a recipe, or a note with a title, on a date."""

    id: int
    date: str
    entry_type: str
    title: str
    text: str
    recipe_id: str | None
    recipe: RecipeRef | None
    user_id: str


class PlanRule(BaseModel):
    """A meal plan rule: which recipes the random picker may choose for a day and entry type."""

    id: str
    day: str
    entry_type: str
    query_filter_string: str


class ListRecipeRef(BaseModel):
    """A recipe added to a shopping list, and how many times."""

    recipe_id: str
    recipe_name: str
    recipe_quantity: float


class ItemRecipeRef(BaseModel):
    """Which recipe an item came from."""

    recipe_id: str
    recipe_quantity: float = Field(description="the quantity the recipe calls for")
    recipe_scale: float


class ShoppingListItemOut(BaseModel):
    """An item on a shopping list."""

    id: str
    shopping_list_id: str
    position: int
    checked: bool
    quantity: float
    unit: str | None
    food: str | None
    label: str | None
    note: str
    display: str
    recipe_references: list[ItemRecipeRef]


class ShoppingListSummary(BaseModel):
    """A shopping list in a listing."""

    id: str
    name: str
    user_id: str
    unchecked_items: int
    checked_items: int
    recipe_references: list[ListRecipeRef]


class ShoppingListOut(ShoppingListSummary):
    """A shopping list with its items."""

    list_items: list[ShoppingListItemOut]


class ItemsCollection(BaseModel):
    """What a change to shopping list items did."""

    created_items: list[ShoppingListItemOut]
    updated_items: list[ShoppingListItemOut]
    deleted_items: list[ShoppingListItemOut]


class CookbookOut(BaseModel):
    """A cookbook: a saved filter over a household's recipes."""

    id: str
    name: str
    slug: str
    description: str
    position: int
    public: bool
    query_filter_string: str
    household_id: str
    household: str


class ShareTokenOut(BaseModel):
    """A link token that lets anyone without an account view one recipe until it expires."""

    id: str
    recipe_id: str
    expires_at: str
    created_at: str | None
    url: str


# ---------------------------------------------------------------- rows to objects


def user_out(db: Database, row: dict[str, Any]) -> UserOut:
    """A user with their group and household names."""
    return UserOut(
        **{k: row[k] for k in UserOut.model_fields if k not in ("group", "household")},
        group=db.get(groups, row["group_id"], "Group")["name"],
        household=db.get(households, row["household_id"], "Household")["name"],
    )


def organizers(db: Database, recipe: dict[str, Any], kind: str) -> list[Organizer]:
    """A recipe's categories, tags or tools, by name."""
    table = ORGANIZERS[kind][0]
    rows = [db.get(table, key) for key in recipe[kind]]
    return sorted((Organizer(id=r["id"], name=r["name"], slug=r["slug"]) for r in rows), key=lambda o: o.name)


def amount(quantity: float, fraction: bool) -> str:
    """A quantity as the app shows it: 1 1/2 for fraction units, else 1.5."""
    if fraction:
        whole, rest = divmod(Fraction(quantity).limit_denominator(8), 1)
        if abs(float(whole + rest) - quantity) < 0.01:
            if not rest:
                return str(whole)
            return f"{whole} {rest}" if whole else str(rest)
    return f"{round(quantity, 2):g}"


def ingredient_display(
    quantity: float | None, unit: dict[str, Any] | None, food: dict[str, Any] | None, note: str
) -> str:
    """The ingredient line: '1 1/2 cups all-purpose flour, sifted'."""
    many = quantity is not None and quantity > 1
    parts: list[str] = []
    if quantity:
        parts.append(amount(quantity, unit["fraction"] if unit else True))
    if unit:
        if unit["use_abbreviation"] and unit["abbreviation"]:
            parts.append(unit["abbreviation"])
        else:
            parts.append(unit["plural_name"] if many and unit["plural_name"] else unit["name"])
    if food:
        parts.append(food["plural_name"] if many and not unit and food["plural_name"] else food["name"])
    text = " ".join(parts)
    if note:
        text = f"{text}, {note}" if food else f"{text} {note}".strip()
    return text


def _unit(db: Database, unit_id: str | None) -> dict[str, Any] | None:
    return db.get(ingredient_units, unit_id, "Unit") if unit_id else None


def _food(db: Database, food_id: str | None) -> dict[str, Any] | None:
    return db.get(ingredient_foods, food_id, "Food") if food_id else None


def ingredient_out(db: Database, row: dict[str, Any], scale: float) -> RecipeIngredientOut:
    """An ingredient line, its quantity multiplied by `scale`."""
    unit, food = _unit(db, row["unit_id"]), _food(db, row["food_id"])
    quantity = row["quantity"] * scale if row["quantity"] is not None else None
    return RecipeIngredientOut(
        reference_id=row["reference_id"],
        title=row["title"],
        quantity=quantity,
        note=row["note"],
        unit=UnitOut(id=unit["id"], name=unit["name"], abbreviation=unit["abbreviation"]) if unit else None,
        food=FoodOut(id=food["id"], name=food["name"], label=food["label"]) if food else None,
        display=ingredient_display(quantity, unit, food, row["note"]),
    )


def comment_out(db: Database, row: dict[str, Any]) -> CommentOut:
    """A comment with its author."""
    author = db.get(users, row["user_id"], "User")
    return CommentOut(
        id=row["id"],
        recipe_id=row["recipe_id"],
        text=row["text"],
        created_at=row["created_at"],
        user=CommentUser(id=author["id"], username=author["username"], full_name=author["full_name"]),
    )


def recipe_out(db: Database, row: dict[str, Any], scale: float = 1.0) -> Recipe:
    """The full recipe, ingredients multiplied by `scale`."""
    lines = db.find(recipe_ingredients, recipe_id=row["id"], order_by=[recipe_ingredients.c.position])
    steps = db.find(recipe_instructions, recipe_id=row["id"], order_by=[recipe_instructions.c.position])
    comments = db.find(recipe_comments, recipe_id=row["id"], order_by=[recipe_comments.c.created_at])
    plain = (
        "id",
        "user_id",
        "household_id",
        "group_id",
        "name",
        "slug",
        "description",
        "recipe_servings",
        "recipe_yield_quantity",
        "recipe_yield",
        "total_time",
        "prep_time",
        "perform_time",
        "org_url",
        "date_added",
        "date_updated",
        "last_made",
    )
    return Recipe(
        **{k: row[k] for k in plain},
        **{kind: organizers(db, row, kind) for kind in ORGANIZERS},
        rating=rating_of(db, row["id"]),
        scale=scale,
        recipe_ingredient=[ingredient_out(db, line, scale) for line in lines],
        recipe_instructions=[RecipeStep(id=s["id"], title=s["title"], text=s["text"]) for s in steps],
        nutrition=Nutrition(**row["nutrition"]),
        settings=RecipeSettings(**row["settings"]),
        comments=[comment_out(db, c) for c in comments],
    )


def recipe_ref(db: Database, recipe_id: str | None) -> RecipeRef | None:
    """The id, name and slug of a recipe."""
    if recipe_id is None:
        return None
    row = db.get(recipes, recipe_id, "Recipe")
    return RecipeRef(id=row["id"], name=row["name"], slug=row["slug"])


def plan_entry(db: Database, row: dict[str, Any]) -> PlanEntry:
    """A meal plan entry with its recipe."""
    return PlanEntry(
        **{k: row[k] for k in PlanEntry.model_fields if k != "recipe"}, recipe=recipe_ref(db, row["recipe_id"])
    )


def item_out(db: Database, row: dict[str, Any]) -> ShoppingListItemOut:
    """A shopping list item with its unit, food and label named."""
    return _item(row, _unit(db, row["unit_id"]), _food(db, row["food_id"]))


def _by_id(db: Database, table: Any, keys: set[str | None]) -> dict[str, dict[str, Any]]:
    """Rows of `table` by id, read in one query."""
    wanted = sorted(k for k in keys if k)
    if not wanted:
        return {}
    return {r["id"]: r for r in db.select(table, f"id IN ({', '.join('?' * len(wanted))})", wanted)}


def _item(row: dict[str, Any], unit: dict[str, Any] | None, food: dict[str, Any] | None) -> ShoppingListItemOut:
    return ShoppingListItemOut(
        **{k: row[k] for k in ("id", "shopping_list_id", "position", "checked", "quantity", "note")},
        unit=unit["name"] if unit else None,
        food=food["name"] if food else None,
        label=food["label"] if food else None,
        display=ingredient_display(row["quantity"], unit, food, row["note"]),
        recipe_references=[ItemRecipeRef(**ref) for ref in row["recipe_references"]],
    )


def list_summary(db: Database, row: dict[str, Any]) -> ShoppingListSummary:
    """A shopping list with its item counts and recipes."""
    items = db.find(shopping_list_items, shopping_list_id=row["id"])
    return ShoppingListSummary(
        id=row["id"],
        name=row["name"],
        user_id=row["user_id"],
        unchecked_items=sum(not i["checked"] for i in items),
        checked_items=sum(i["checked"] for i in items),
        recipe_references=[
            ListRecipeRef(
                recipe_id=ref["recipe_id"],
                recipe_name=db.get(recipes, ref["recipe_id"])["name"],
                recipe_quantity=ref["recipe_quantity"],
            )
            for ref in row["recipe_references"]
        ],
    )


def list_out(db: Database, row: dict[str, Any]) -> ShoppingListOut:
    """A shopping list with its items, unchecked first, in list order."""
    items = db.find(
        shopping_list_items,
        shopping_list_id=row["id"],
        order_by=[shopping_list_items.c.checked, shopping_list_items.c.position],
    )
    units = _by_id(db, ingredient_units, {i["unit_id"] for i in items})
    foods = _by_id(db, ingredient_foods, {i["food_id"] for i in items})
    return ShoppingListOut(
        **list_summary(db, row).model_dump(),
        list_items=[_item(i, units.get(i["unit_id"]), foods.get(i["food_id"])) for i in items],
    )


def items_out(db: Database, keys: list[str]) -> list[ShoppingListItemOut]:
    """Shopping list items by id."""
    return [item_out(db, db.get(shopping_list_items, key, "Item")) for key in keys]


def cookbook_out(db: Database, row: dict[str, Any]) -> CookbookOut:
    """A cookbook with its household's name."""
    return CookbookOut(
        **{k: row[k] for k in CookbookOut.model_fields if k != "household"},
        household=db.get(households, row["household_id"])["name"],
    )


def share_token_out(row: dict[str, Any], base_url: str) -> ShareTokenOut:
    """A share token with the link that opens the recipe."""
    return ShareTokenOut(**row, url=f"{base_url}/g/{row['group_id']}/shared/r/{row['id']}")
