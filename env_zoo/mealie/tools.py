"""Mealie API tools: recipes (search, read, create, edit, rate, comment, share), meal plans and their rules,
shopping lists, cookbooks and household members. The assistant acts with the token of the user who logged in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText
from envfactory_gym.values import parse_date

from . import shopping
from .access import (
    check_can_comment,
    check_can_lock,
    check_can_update,
    current_user,
    household_items,
    household_row,
    managed_member,
    recipe_by_id,
    recipe_by_slug,
    shopping_list,
    user_by_login,
    visible_recipes,
)
from .filters import canonical_filter, parse_filter
from .objects import (
    CookbookOut,
    ItemsCollection,
    Nutrition,
    Pagination,
    PlanEntry,
    PlanRule,
    Recipe,
    RecipeSummary,
    ShareTokenOut,
    ShoppingListOut,
    ShoppingListSummary,
    TimelineEventOut,
    UserOut,
    UserRatingOut,
    cookbook_out,
    item_out,
    items_out,
    list_out,
    list_summary,
    page_of,
    plan_entry,
    recipe_out,
    share_token_out,
    user_out,
)
from .rules import (
    ENTRY_TYPES,
    WEEKDAYS,
    check_unique_slug,
    food_by_name,
    food_id,
    new_plan_entry,
    new_share_token,
    plan_rule_clauses,
    preferences,
    proper_name,
    random_key,
    rating_of,
    resolve_organizers,
    share_expiry,
    slugify,
    unit_by_name,
)
from .schema import (
    auth_sessions,
    cookbooks,
    group_meal_plan_rules,
    group_meal_plans,
    recipe_comments,
    recipe_ingredients,
    recipe_timeline_events,
    recipes,
    shopping_lists,
    users,
    users_to_recipes,
)
from .schema import recipe_instructions as instruction_steps
from .search import (
    RecipeFacts,
    by_organizers,
    by_words,
    in_cookbook,
    matching,
    sort_recipes,
    visible_cookbooks,
)

EntryType = Literal["breakfast", "lunch", "dinner", "side"]
OrderBy = Literal["name", "date_added", "created_at", "date_updated", "rating", "last_made"]
BASE_URL = "https://mealie.delgado.family"
Page = Annotated[int, Field(ge=1), ErrorText("page must be 1 or more")]
PerPage = Annotated[int, Field(ge=1, le=100), ErrorText("per_page must be between 1 and 100")]
PlanDate = Annotated[IsoDate, ErrorText("must be a date like 2025-03-14")]
RecipeName = Annotated[
    str, Field(min_length=1, max_length=150, pattern=r"\S"), ErrorText("name can't be empty or over 150 characters.")
]
Servings = Annotated[float, Field(ge=0), ErrorText("recipe_servings can't be negative.")]
Instructions = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=5000, pattern=r"\S")]] | None,
    ErrorText("An instruction can't be empty or over 5000 characters."),
]
Rating = Annotated[
    float, Field(ge=1, le=5, multiple_of=0.5), ErrorText("rating must be between 1 and 5, in half stars.")
]
CommentText = Annotated[
    str, Field(min_length=1, max_length=1000, pattern=r"\S"), ErrorText("text can't be empty or over 1000 characters.")
]
Amount = Annotated[float, Field(gt=0), ErrorText("must be more than 0.")]
CookbookName = Annotated[
    str, Field(min_length=1, max_length=100, pattern=r"\S"), ErrorText("name can't be empty or over 100 characters.")
]
QueryFilter = Annotated[NonBlankText, ErrorText("A cookbook needs a query filter.")]


class IngredientIn(BaseModel):
    """One ingredient line of a new recipe."""

    quantity: float | None = Field(None, ge=0, description="amount, e.g. 1.5; omit for 'to taste' lines")
    unit: str | None = Field(None, description="a unit of the group by name or abbreviation (cup, tbsp, g)")
    food: str | None = Field(None, description="the food, e.g. 'yellow onion'; new foods are added to the group")
    note: str = Field("", description="free text after the food, e.g. 'finely chopped'")


# ---------------------------------------------------------------- only the user


@tool(user_only=True)
def log_in(db: Database, username: str) -> UserOut:
    """(User only) The user logs in to Mealie with their username or email and password; the assistant then acts
    with their token.

    Args:
        username: The user's username or email.
    """
    found = user_by_login(db, username)
    db.start_session(auth_sessions, user_id=found["id"])
    return user_out(db, found)


@tool(user_only=True)
def mark_recipe_made(db: Database, slug: str, note: str = "") -> TimelineEventOut:
    """(User only, in the app: "I Made This") The user records that they cooked a recipe: its last made date
    becomes now and a "Made this" event, with their note, goes on the recipe's timeline.

    Args:
        slug: The recipe's slug.
        note: What the user wrote about how it went.
    """
    user = current_user(db)
    recipe = recipe_by_slug(db, user, slug)
    now = db.now_iso()
    db.update(recipes, recipe["id"], last_made=now)
    row = db.insert(
        recipe_timeline_events,
        id=db.new_uuid(recipe_timeline_events),
        recipe_id=recipe["id"],
        user_id=user["id"],
        subject="Made this",
        event_type="comment",
        event_message=note.strip() or None,
        timestamp=now,
    )
    return TimelineEventOut(**row)


# ---------------------------------------------------------------- recipes


@tool(read_only=True)
def get_recipes(
    db: Database,
    search: str | None = None,
    categories: Annotated[list[str] | None, Unordered] = None,
    tags: Annotated[list[str] | None, Unordered] = None,
    tools: Annotated[list[str] | None, Unordered] = None,
    foods: Annotated[list[str] | None, Unordered] = None,
    require_all: bool = False,
    cookbook: str | None = None,
    order_by: OrderBy = "name",
    order_direction: Literal["asc", "desc"] = "asc",
    page: Page = 1,
    per_page: PerPage = 25,
) -> Pagination[RecipeSummary]:
    """Search the recipes the user can see (their group's, except other households' private ones), page by page.

    Args:
        search: Words that must all appear in the name, description or ingredients.
        categories: Category names or slugs; recipes in any of them (all of them with require_all).
        tags: Tag names or slugs; recipes with any of them (all of them with require_all).
        tools: Tool names or slugs; recipes needing any of them (all of them with require_all).
        foods: Food names; recipes using any of them (all of them with require_all).
        require_all: Require every listed category, tag, tool and food instead of any one.
        cookbook: A cookbook's slug or id: only the recipes its filter selects from its household.
        order_by: Sort field.
        order_direction: asc or desc.
        page: Page number, from 1.
        per_page: Recipes per page, 1 to 100.
    """
    user = current_user(db)
    rows = visible_recipes(db, user)
    facts = RecipeFacts(db, user["group_id"], rows)
    if cookbook is not None:
        rows = in_cookbook(db, user, rows, facts, cookbook)
    if search and search.strip():
        rows = by_words(rows, facts, search)
    for kind, names in (
        ("recipe_category", categories),
        ("tags", tags),
        ("tools", tools),
        ("recipe_ingredient.food", foods),
    ):
        if names:
            rows = by_organizers(rows, facts, kind, names, require_all)
    if order_by != "name" or order_direction == "desc":
        rows = sort_recipes(rows, facts, order_by, order_direction == "desc")
    return page_of(rows, page, per_page, facts.summaries)


@tool(read_only=True)
def get_recipe(
    db: Database,
    slug: str,
    servings: Annotated[float | None, Field(gt=0), ErrorText("servings must be more than 0.")] = None,
) -> Recipe:
    """Get a recipe with its ingredients, instructions, nutrition, settings, rating and comments, optionally scaled
    to a number of servings.

    Args:
        slug: The recipe's slug (or its id).
        servings: Scale the ingredient quantities to this many servings (the recipe must state its servings).
    """
    user = current_user(db)
    recipe = recipe_by_slug(db, user, slug)
    if servings is None:
        return recipe_out(db, recipe)
    if not recipe["recipe_servings"]:
        raise InvalidRequest(
            f"'{recipe['name']}' doesn't state how many servings it makes, so it can't be scaled to servings."
        )
    return recipe_out(db, recipe, servings / recipe["recipe_servings"])


@tool()
def create_recipe(
    db: Database,
    name: RecipeName,
    description: str = "",
    recipe_servings: Servings = 0,
    prep_time: str | None = None,
    perform_time: str | None = None,
    total_time: str | None = None,
    recipe_ingredient: list[IngredientIn] | None = None,
    recipe_instructions: Instructions = None,
    recipe_category: Annotated[list[str] | None, Unordered] = None,
    tags: Annotated[list[str] | None, Unordered] = None,
    tools: Annotated[list[str] | None, Unordered] = None,
    org_url: str | None = None,
) -> Recipe:
    """Create a recipe in the user's household. Its slug comes from the name and must be unique in the group; new
    categories, tags or tools are created only for users with the 'can organize' permission.

    Args:
        name: The recipe's name.
        description: A short description.
        recipe_servings: How many servings it makes.
        prep_time: Free text, e.g. "15 minutes".
        perform_time: Cook time, free text, e.g. "1 hour".
        total_time: Free text, e.g. "1 hour 15 minutes".
        recipe_ingredient: The ingredient lines in order.
        recipe_instructions: The steps in order, one text each.
        recipe_category: Category names.
        tags: Tag names.
        tools: Tool names (equipment).
        org_url: The original recipe's web address.
    """
    user = current_user(db)
    name = name.strip()
    slug = slugify(name)
    check_unique_slug(db, user["group_id"], slug)
    prefs = preferences(db, user["household_id"])
    organizer_ids = {
        kind: resolve_organizers(db, user, kind, names or [])
        for kind, names in (("recipe_category", recipe_category), ("tags", tags), ("tools", tools))
    }
    now = db.now_iso()
    row = db.insert(
        recipes,
        id=db.new_uuid(recipes),
        group_id=user["group_id"],
        household_id=user["household_id"],
        user_id=user["id"],
        name=name,
        slug=slug,
        description=description.strip(),
        recipe_servings=recipe_servings,
        recipe_yield_quantity=0,
        recipe_yield="",
        total_time=total_time,
        prep_time=prep_time,
        perform_time=perform_time,
        org_url=org_url,
        nutrition={},
        **organizer_ids,
        settings={
            "public": prefs["recipe_public"],
            "show_nutrition": prefs["recipe_show_nutrition"],
            "disable_comments": prefs["recipe_disable_comments"],
            "locked": False,
        },
        date_added=now[:10],
        created_at=now,
        date_updated=now,
        last_made=None,
    )
    for position, line in enumerate(recipe_ingredient or []):
        if not (line.food or line.note.strip()):
            raise InvalidRequest("Each ingredient needs a food or a note.")
        unit_id = unit_by_name(db, user["group_id"], line.unit)["id"] if line.unit else None
        db.insert(
            recipe_ingredients,
            reference_id=db.new_uuid(recipe_ingredients),
            recipe_id=row["id"],
            position=position,
            title=None,
            quantity=line.quantity,
            unit_id=unit_id,
            food_id=food_id(db, user, line.food),
            note=line.note.strip(),
        )
    for position, text in enumerate(recipe_instructions or []):
        db.insert(
            instruction_steps,
            id=db.new_uuid(instruction_steps),
            recipe_id=row["id"],
            position=position,
            title="",
            text=text.strip(),
        )
    return recipe_out(db, row)


@tool()
def update_recipe(
    db: Database,
    slug: str,
    name: RecipeName | None = None,
    description: str | None = None,
    recipe_servings: Servings | None = None,
    prep_time: str | None = None,
    perform_time: str | None = None,
    total_time: str | None = None,
    recipe_category: Annotated[list[str] | None, Unordered] = None,
    tags: Annotated[list[str] | None, Unordered] = None,
    tools: Annotated[list[str] | None, Unordered] = None,
    nutrition: Nutrition | None = None,
    public: bool | None = None,
    show_nutrition: bool | None = None,
    disable_comments: bool | None = None,
    locked: bool | None = None,
) -> Recipe:
    """Change a recipe (PATCH): only the fields given change. Lists replace the recipe's whole list (send the tags
    to keep as well). The owner can always edit; others can't edit a locked recipe or one from a household that
    locks out other households; only the owner can lock or unlock. Renaming changes the slug.

    Args:
        slug: The recipe's slug.
        name: New name (the slug follows it).
        description: New description.
        recipe_servings: New number of servings.
        prep_time: New prep time, free text.
        perform_time: New cook time, free text.
        total_time: New total time, free text.
        recipe_category: The full list of category names.
        tags: The full list of tag names.
        tools: The full list of tool names.
        nutrition: Nutrition per serving; the fields given replace the old ones.
        public: Whether people without an account can view it.
        show_nutrition: Whether the nutrition panel shows.
        disable_comments: Whether comments are turned off.
        locked: Lock it against edits by others (owner only).
    """
    user = current_user(db)
    recipe = recipe_by_slug(db, user, slug)
    check_can_update(db, user, recipe)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
        changes["slug"] = slugify(changes["name"])
        check_unique_slug(db, recipe["group_id"], changes["slug"], recipe["id"])
    if description is not None:
        changes["description"] = description.strip()
    if recipe_servings is not None:
        changes["recipe_servings"] = recipe_servings
    for key, value in (("prep_time", prep_time), ("perform_time", perform_time), ("total_time", total_time)):
        if value is not None:
            changes[key] = value.strip() or None
    for kind, names in (("recipe_category", recipe_category), ("tags", tags), ("tools", tools)):
        if names is not None:
            changes[kind] = resolve_organizers(db, user, kind, names)
    if nutrition is not None:
        changes["nutrition"] = {**recipe["nutrition"], **nutrition.model_dump(exclude_none=True)}
    flags = {"public": public, "show_nutrition": show_nutrition, "disable_comments": disable_comments, "locked": locked}
    check_can_lock(user, recipe, locked)
    if any(v is not None for v in flags.values()):
        changes["settings"] = {**recipe["settings"], **{k: v for k, v in flags.items() if v is not None}}
    if not changes:
        raise InvalidRequest("Nothing to update.")
    row = db.update(recipes, recipe["id"], date_updated=db.now_iso(), **changes)
    return recipe_out(db, row)


@tool()
def set_recipe_rating(
    db: Database, recipe_id: str, rating: Rating | None = None, is_favorite: bool | None = None
) -> UserRatingOut:
    """Set the user's own rating (1 to 5, in half stars) and/or favourite flag for a recipe. The recipe's rating is
    the average of its users' ratings.

    Args:
        recipe_id: The recipe's id.
        rating: 1 to 5 in steps of 0.5.
        is_favorite: Add to (true) or remove from (false) the user's favourites.
    """
    user = current_user(db)
    recipe = recipe_by_id(db, user, recipe_id)
    if rating is None and is_favorite is None:
        raise InvalidRequest("Give a rating or is_favorite.")
    existing = db.find(users_to_recipes, user_id=user["id"], recipe_id=recipe["id"])
    values = {k: v for k, v in (("rating", rating), ("is_favorite", is_favorite)) if v is not None}
    if existing:
        row = db.update(users_to_recipes, existing[0]["id"], update_at=db.now_iso(), **values)
    else:
        row = db.insert(
            users_to_recipes,
            id=db.new_uuid(users_to_recipes),
            user_id=user["id"],
            recipe_id=recipe["id"],
            rating=rating,
            is_favorite=bool(is_favorite),
            update_at=db.now_iso(),
        )
    return UserRatingOut(
        recipe_id=recipe["id"],
        user_id=user["id"],
        rating=row["rating"],
        is_favorite=row["is_favorite"],
        recipe_rating=rating_of(db, recipe["id"]),
    )


@tool()
def create_comment(db: Database, recipe_id: str, text: CommentText) -> Recipe:
    """Comment on a recipe (not possible where its settings turn comments off).

    Args:
        recipe_id: The recipe's id.
        text: The comment.
    """
    user = current_user(db)
    recipe = recipe_by_id(db, user, recipe_id)
    check_can_comment(recipe)
    db.insert(
        recipe_comments,
        id=db.new_uuid(recipe_comments),
        recipe_id=recipe["id"],
        user_id=user["id"],
        text=text.strip(),
        created_at=db.now_iso(),
    )
    return recipe_out(db, recipe)


@tool()
def create_recipe_share_token(db: Database, recipe_id: str, expires_at: str | None = None) -> ShareTokenOut:
    """Create a share link for a recipe: anyone with it can view the recipe, without an account, until it expires.

    Args:
        recipe_id: The recipe's id.
        expires_at: Expiry date (2025-04-01, the link works through that day) or UTC timestamp; by default 30 days
            from today.
    """
    user = current_user(db)
    recipe = recipe_by_id(db, user, recipe_id)
    row = new_share_token(db, user, recipe["id"], share_expiry(db, expires_at))
    return share_token_out(row, BASE_URL)


# ---------------------------------------------------------------- meal plans


@tool(read_only=True)
def get_mealplans(
    db: Database,
    start_date: PlanDate | None = None,
    end_date: PlanDate | None = None,
    page: Page = 1,
    per_page: PerPage = 30,
) -> Pagination[PlanEntry]:
    """List the household's meal plan entries by date (breakfast, lunch, dinner, side), page by page.

    Args:
        start_date: First date, e.g. 2025-03-10.
        end_date: Last date, inclusive.
        page: Page number, from 1.
        per_page: Entries per page, 1 to 100.
    """
    user = current_user(db)
    where, params = ["household_id = ?"], [user["household_id"]]
    for bound, value, name in ((">=", start_date, "start_date"), ("<=", end_date, "end_date")):
        if value is not None:
            where.append(f"date {bound} ?")
            params.append(parse_date(value, name, "2025-03-14").isoformat())
    rows = db.select(group_meal_plans, " AND ".join(where), params)
    order = {t: i for i, t in enumerate(ENTRY_TYPES)}
    rows.sort(key=lambda r: (r["date"], order[r["entry_type"]], r["id"]))
    return page_of(rows, page, per_page, lambda chunk: [plan_entry(db, r) for r in chunk])


@tool()
def create_mealplan(
    db: Database,
    date: PlanDate,
    entry_type: EntryType = "breakfast",
    recipe_id: str | None = None,
    title: str = "",
    text: str = "",
) -> PlanEntry:
    """Add an entry to the household's meal plan: a recipe, or a note with a title (e.g. "Leftovers"). Note that
    the entry type defaults to breakfast.

    Args:
        date: The day, e.g. 2025-03-14.
        entry_type: breakfast, lunch, dinner or side.
        recipe_id: The recipe's id.
        title: A title, required when there is no recipe.
        text: A note for the entry.
    """
    user = current_user(db)
    plan_date = parse_date(date, "date", "2025-03-14").isoformat()
    if recipe_id is None and not title.strip():
        raise InvalidRequest("Give a recipe_id or a title.")
    if recipe_id is not None:
        recipe_id = recipe_by_id(db, user, recipe_id)["id"]
    return plan_entry(db, new_plan_entry(db, user, plan_date, entry_type, recipe_id, title.strip(), text.strip()))


@tool()
def create_random_mealplan(db: Database, date: PlanDate, entry_type: EntryType = "dinner") -> PlanEntry:
    """Let Mealie pick a recipe for a day: it follows the household's meal plan rules for that weekday and entry
    type (rules for any day or any type apply too) and picks among the recipes they allow.

    Args:
        date: The day, e.g. 2025-03-14.
        entry_type: breakfast, lunch, dinner or side.
    """
    user = current_user(db)
    plan_date = parse_date(date, "date", "2025-03-14").isoformat()
    rows = visible_recipes(db, user)
    clauses = plan_rule_clauses(db, user, plan_date, entry_type)
    allowed = matching(rows, RecipeFacts(db, user["group_id"], rows), clauses)
    if not allowed:
        raise NotFound("No recipes match your rules")
    pick = min(allowed, key=lambda r: random_key(plan_date, entry_type, r["id"]))
    return plan_entry(db, new_plan_entry(db, user, plan_date, entry_type, pick["id"], "", ""))


@tool()
def delete_mealplan(db: Database, mealplan_id: int) -> PlanEntry:
    """Remove an entry from the household's meal plan.

    Args:
        mealplan_id: The entry's id.
    """
    user = current_user(db)
    row = household_row(db, user, group_meal_plans, mealplan_id, "Meal plan entry")
    entry = plan_entry(db, row)
    db.delete(group_meal_plans, mealplan_id)
    return entry


@tool(read_only=True)
def get_mealplan_rules(db: Database) -> list[PlanRule]:
    """List the household's meal plan rules: for a weekday (or any day) and entry type (or any type), the query
    filter the random picker applies."""
    user = current_user(db)
    rows = db.find(group_meal_plan_rules, household_id=user["household_id"])
    order = {d: i for i, d in enumerate((*WEEKDAYS, "unset"))}
    return [PlanRule(**r) for r in sorted(rows, key=lambda r: (order[r["day"]], r["entry_type"]))]


# ---------------------------------------------------------------- shopping lists


@tool(read_only=True)
def get_shopping_lists(db: Database) -> list[ShoppingListSummary]:
    """List the household's shopping lists with their item counts and the recipes added to them."""
    user = current_user(db)
    rows = db.find(shopping_lists, household_id=user["household_id"], order_by=[shopping_lists.c.name])
    return [list_summary(db, r) for r in rows]


@tool(read_only=True)
def get_shopping_list(db: Database, shopping_list_id: str) -> ShoppingListOut:
    """Get a shopping list with its items (unchecked first).

    Args:
        shopping_list_id: The list's id.
    """
    return list_out(db, shopping_list(db, current_user(db), shopping_list_id))


@tool()
def add_recipe_to_shopping_list(
    db: Database, shopping_list_id: str, recipe_id: str, recipe_increment_quantity: Amount = 1
) -> ShoppingListOut:
    """Add a recipe's ingredients to a shopping list, scaled by recipe_increment_quantity (2 for a double batch).
    Ingredients with the same food and unit as an unchecked item merge into it (quantities add up).

    Args:
        shopping_list_id: The list's id.
        recipe_id: The recipe's id.
        recipe_increment_quantity: How many batches of the recipe, e.g. 1.5 for 6 servings of a 4-serving recipe.
    """
    user = current_user(db)
    target = shopping_list(db, user, shopping_list_id)
    recipe = recipe_by_id(db, user, recipe_id)
    shopping.add_items(db, target["id"], shopping.recipe_items(db, recipe["id"], recipe_increment_quantity))
    shopping.add_list_recipe_ref(db, target, recipe["id"], recipe_increment_quantity)
    return list_out(db, db.get(shopping_lists, target["id"]))


@tool()
def create_shopping_list_item(
    db: Database,
    shopping_list_id: str,
    note: str = "",
    quantity: Amount = 1,
    unit: str | None = None,
    food: str | None = None,
) -> ItemsCollection:
    """Add one item to a shopping list; it merges into an unchecked item with the same food and unit (or the same
    note when there is no food).

    Args:
        shopping_list_id: The list's id.
        note: Free text, e.g. "paper towels" (required without a food).
        quantity: How many.
        unit: A unit of the group (by name or abbreviation).
        food: A food of the group by name.
    """
    user = current_user(db)
    target = shopping_list(db, user, shopping_list_id)
    food_row = food_by_name(db, user["group_id"], food) if food else None
    if food and food_row is None:
        raise NotFound(f"Food '{food}' not found")
    if food_row is None and not note.strip():
        raise InvalidRequest("Give a note or a food.")
    new = {
        "checked": False,
        "is_food": food_row is not None,
        "food_id": food_row["id"] if food_row else None,
        "unit_id": unit_by_name(db, user["group_id"], unit)["id"] if unit else None,
        "note": note.strip(),
        "quantity": quantity,
        "recipe_references": [],
    }
    created, updated = shopping.add_items(db, target["id"], [new])
    db.update(shopping_lists, target["id"], update_at=db.now_iso())
    return ItemsCollection(created_items=items_out(db, created), updated_items=items_out(db, updated), deleted_items=[])


@tool()
def update_shopping_list_items(
    db: Database,
    item_ids: Annotated[list[str], Field(min_length=1), Unordered, ErrorText("item_ids can't be empty.")],
    checked: bool,
) -> ItemsCollection:
    """Check items off a shopping list, or uncheck them. Checked items lose their recipe links (a recipe whose items
    are all checked leaves the list); an unchecked item merges into a matching unchecked item.

    Args:
        item_ids: The items' ids.
        checked: true to check off, false to uncheck.
    """
    user = current_user(db)
    items = household_items(db, user, item_ids)
    before = {i["id"]: item_out(db, i) for i in items}
    updated, deleted = shopping.set_checked(db, items, checked)
    kept = [key for key in dict.fromkeys(updated) if key not in deleted]
    return ItemsCollection(
        created_items=[], updated_items=items_out(db, kept), deleted_items=[before[k] for k in deleted]
    )


# ---------------------------------------------------------------- cookbooks


@tool(read_only=True)
def get_cookbooks(db: Database) -> list[CookbookOut]:
    """List the cookbooks of the user's group (their own household's and other, non-private, households'). A
    cookbook is a saved query filter; get_recipes(cookbook=...) lists its recipes."""
    return [cookbook_out(db, r) for r in visible_cookbooks(db, current_user(db))]


@tool()
def create_cookbook(
    db: Database, name: CookbookName, query_filter_string: QueryFilter, description: str = "", public: bool = False
) -> CookbookOut:
    """Create a cookbook in the user's household: a named, saved filter over the household's recipes, e.g.
    'tags.name CONTAINS ALL ["Quick"] AND recipe_category.name IN ["Dinner"]'. Clauses join with AND and compare
    recipe_category, tags or tools (.name, .slug, .id) or recipe_ingredient.food.name with IN (any of),
    CONTAINS ALL, NOT IN, = or !=, or rating with =, !=, >, >=, <, <=. The filter is stored in a canonical form.

    Args:
        name: The cookbook's name (unique in the household).
        query_filter_string: The filter selecting its recipes.
        description: A description.
        public: Whether people without an account can see it.
    """
    user = current_user(db)
    name = name.strip()
    slug = slugify(name)
    if db.find(cookbooks, household_id=user["household_id"], slug=slug):
        raise Conflict(f"Your household already has a cookbook '{name}'.")
    clauses = parse_filter(query_filter_string)
    positions = [c["position"] for c in db.find(cookbooks, household_id=user["household_id"])]
    row = db.insert(
        cookbooks,
        id=db.new_uuid(cookbooks),
        group_id=user["group_id"],
        household_id=user["household_id"],
        name=name,
        slug=slug,
        description=description.strip(),
        position=max(positions, default=0) + 1,
        public=public,
        query_filter_string=canonical_filter(clauses, lambda a, v: proper_name(db, user, a, v)),
    )
    return cookbook_out(db, row)


# ---------------------------------------------------------------- household members


@tool(read_only=True)
def get_household_members(db: Database) -> list[UserOut]:
    """List the members of the user's household with their permissions."""
    user = current_user(db)
    rows = db.find(users, household_id=user["household_id"], order_by=[users.c.full_name])
    return [user_out(db, r) for r in rows]


@tool()
def set_member_permissions(
    db: Database,
    user_id: str,
    can_manage: bool = False,
    can_manage_household: bool = False,
    can_invite: bool = False,
    can_organize: bool = False,
) -> UserOut:
    """Set a household member's permissions. Needs the 'can manage' permission. Every permission is set: one left
    out becomes false, so pass the ones to keep.

    Args:
        user_id: The member's user id.
        can_manage: May manage members and their permissions.
        can_manage_household: May change the household's settings.
        can_invite: May invite new users.
        can_organize: May create and edit categories, tags and tools.
    """
    target = managed_member(db, current_user(db), user_id)
    row = db.update(
        users,
        target["id"],
        can_manage=can_manage,
        can_manage_household=can_manage_household,
        can_invite=can_invite,
        can_organize=can_organize,
    )
    return user_out(db, row)
