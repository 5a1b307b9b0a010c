"""Mealie's objects as tables: groups and households with their members, organizers (categories, tags, tools),
units and foods, recipes with ingredients, instructions, comments, ratings and timeline events, meal plans and
their rules, shopping lists and items, cookbooks and recipe share tokens. IDs are UUIDs, meal plan entries are
numbered, as in Mealie's API."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

groups = Table(
    "groups",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
)

households = Table(
    "households",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
    # private_household, lock_recipe_edits_from_other_households, first_day_of_week, recipe_public,
    # recipe_show_nutrition, recipe_disable_comments
    Column("preferences", JSON, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("full_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("admin", Boolean, nullable=False, default=False),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("can_invite", Boolean, nullable=False, default=False),
    Column("can_manage", Boolean, nullable=False, default=False),
    Column("can_manage_household", Boolean, nullable=False, default=False),
    Column("can_organize", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False),
)

auth_sessions = Table(
    "auth_sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": whose token the assistant holds
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)


# Organizers: categories, tags and kitchen tools share one shape.
categories = Table(
    "categories",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
)

tags = Table(
    "tags",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
)

kitchen_tools = Table(
    "tools",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
)

ingredient_units = Table(
    "ingredient_units",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("plural_name", String),
    Column("abbreviation", String, nullable=False, default=""),
    Column("use_abbreviation", Boolean, nullable=False, default=False),
    Column("fraction", Boolean, nullable=False, default=True),  # show amounts as fractions (1 1/2)
)

ingredient_foods = Table(
    "ingredient_foods",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("plural_name", String),
    Column("label", String),  # shopping list section, e.g. Produce
)

recipes = Table(
    "recipes",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("recipe_servings", Float, nullable=False, default=0),
    Column("recipe_yield_quantity", Float, nullable=False, default=0),
    Column("recipe_yield", String, nullable=False, default=""),
    Column("total_time", String),
    Column("prep_time", String),
    Column("perform_time", String),  # "Cook time" in the app
    Column("recipe_category", JSON, nullable=False),  # category ids, sorted
    Column("tags", JSON, nullable=False),  # tag ids, sorted
    Column("tools", JSON, nullable=False),  # tool ids, sorted
    Column("org_url", String),
    Column("nutrition", JSON, nullable=False),  # calories, protein_content, ... (strings, per serving)
    Column("settings", JSON, nullable=False),  # public, show_nutrition, disable_comments, locked
    Column("date_added", String, info={"volatile": True}),
    Column("created_at", String, info={"volatile": True}),
    Column("date_updated", String, info={"volatile": True}),
    Column("last_made", String, info={"volatile": True}),
)

recipe_ingredients = Table(
    "recipe_ingredients",
    metadata,
    Column("reference_id", String, primary_key=True),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("title", String),  # section header shown above this ingredient
    Column("quantity", Float),
    Column("unit_id", String, ForeignKey("ingredient_units.id")),
    Column("food_id", String, ForeignKey("ingredient_foods.id")),
    Column("note", String, nullable=False, default=""),
)

recipe_instructions = Table(
    "recipe_instructions",
    metadata,
    Column("id", String, primary_key=True),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("title", String, nullable=False, default=""),
    Column("text", Text, nullable=False),
)

recipe_comments = Table(
    "recipe_comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

users_to_recipes = Table(  # a user's rating and favourite flag for a recipe
    "users_to_recipes",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("rating", Float),
    Column("is_favorite", Boolean, nullable=False, default=False),
    Column("update_at", String, info={"volatile": True}),
)

recipe_timeline_events = Table(
    "recipe_timeline_events",
    metadata,
    Column("id", String, primary_key=True),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("subject", String, nullable=False),
    Column("event_type", String, nullable=False),  # system | info | comment
    Column("event_message", Text),
    Column("timestamp", String, nullable=False, info={"volatile": True}),
)

group_meal_plans = Table(
    "group_meal_plans",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),  # YYYY-MM-DD
    Column("entry_type", String, nullable=False),  # breakfast | lunch | dinner | side
    Column("title", String, nullable=False, default=""),
    Column("text", Text, nullable=False, default=""),
    Column("recipe_id", String, ForeignKey("recipes.id")),
)

group_meal_plan_rules = Table(
    "group_meal_plan_rules",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("day", String, nullable=False),  # monday ... sunday | unset
    Column("entry_type", String, nullable=False),  # breakfast | lunch | dinner | side | unset
    Column("query_filter_string", String, nullable=False, default=""),
)

shopping_lists = Table(
    "shopping_lists",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("recipe_references", JSON, nullable=False),  # [{recipe_id, recipe_quantity}]
    Column("created_at", String, info={"volatile": True}),
    Column("update_at", String, info={"volatile": True}),
)

shopping_list_items = Table(
    "shopping_list_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("shopping_list_id", String, ForeignKey("shopping_lists.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("checked", Boolean, nullable=False, default=False),
    Column("is_food", Boolean, nullable=False, default=False),
    Column("quantity", Float, nullable=False, default=1),
    Column("unit_id", String, ForeignKey("ingredient_units.id")),
    Column("food_id", String, ForeignKey("ingredient_foods.id")),
    Column("note", String, nullable=False, default=""),
    Column("recipe_references", JSON, nullable=False),  # [{recipe_id, recipe_quantity, recipe_scale}]
    Column("created_at", String, info={"volatile": True}),
    Column("update_at", String, info={"volatile": True}),
)

cookbooks = Table(
    "cookbooks",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("household_id", String, ForeignKey("households.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
    Column("description", String, nullable=False, default=""),
    Column("position", Integer, nullable=False),
    Column("public", Boolean, nullable=False, default=False),
    Column("query_filter_string", String, nullable=False),
)

recipe_share_tokens = Table(
    "recipe_share_tokens",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), nullable=False),
    Column("recipe_id", String, ForeignKey("recipes.id"), nullable=False),
    Column("expires_at", String, nullable=False),
    Column("created_at", String, info={"volatile": True}),
)
