"""The Mealie environment's tools on the real seed: signing in, recipe visibility across households and groups, edit
locks, organizer permissions, slugs, scaling, ratings, comments, share links, meal plans and the random picker's
rules, shopping list merging and checking, cookbooks as canonical filters, and member permissions. Every error path
leaves the state unchanged."""

from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timezone

import pytest

from envfactory_gym import InvalidRequest, ToolSession, resolve
from envfactory_zoo.mealie.filters import canonical_filter, matches, parse_filter

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("mealie")
CLOCK = datetime(2025, 3, 12, 17, 30, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
DELGADO = next(g["id"] for g in SEED["groups"] if g["name"] == "Delgado Family")
HARTLEY = next(g["id"] for g in SEED["groups"] if g["name"] == "Hartley Supper Club")
FOODS = {f["id"]: f["name"] for f in SEED["ingredient_foods"]}

session = session_fixture(SPEC, CLOCK)


def user(username: str) -> str:
    return next(u["id"] for u in SEED["users"] if u["username"] == username)


def recipe(name: str, group: str = DELGADO) -> dict:
    return next(r for r in SEED["recipes"] if r["name"] == name and r["group_id"] == group)


def slist(name: str) -> str:
    return next(s["id"] for s in SEED["shopping_lists"] if s["name"] == name)


def item(list_name: str, text: str) -> str:
    return next(
        i["id"]
        for i in SEED["shopping_list_items"]
        if i["shopping_list_id"] == slist(list_name) and (FOODS.get(i["food_id"]) == text or i["note"] == text)
    )


def login(session: ToolSession, username: str) -> dict:
    return ok(session, "log_in", {"username": username}, caller="user")


def items_of(session: ToolSession, list_name: str) -> list[dict]:
    return ok(session, "get_shopping_list", {"shopping_list_id": slist(list_name)})["list_items"]


# ---------------------------------------------------------------- interface and signing in


def test_tools_and_the_user_only_actions(session):
    assert len(SPEC.tools) == 23
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == ["log_in", "mark_recipe_made"]
    assert SPEC.tools["get_mealplan_rules"].input_schema["properties"] == {}
    assert SPEC.tools["update_shopping_list_items"].unordered_inputs == {"item_ids"}
    assert SPEC.tools["update_recipe"].unordered_inputs == {"recipe_category", "tags", "tools"}
    for name, args in (("log_in", {"username": "elena"}), ("mark_recipe_made", {"slug": "banana-bread"})):
        outcome = session.call(name, args)
        assert not outcome.ok and outcome.error_kind == "user_only"


def test_every_call_needs_a_logged_in_user(session):
    fails(session, "get_recipes", {}, "PermissionDenied", "Not authenticated")
    fails(
        session, "log_in", {"username": "grandpa"}, "PermissionDenied", "Incorrect username or password", caller="user"
    )
    me = login(session, "Marco.Delgado@gmail.com")
    assert (me["username"], me["household"], me["can_manage"], me["can_organize"]) == (
        "marco",
        "Delgado Home",
        False,
        True,
    )


# ---------------------------------------------------------------- visibility and search


def test_private_household_recipes_are_hidden_from_other_households(session):
    login(session, "elena")
    names = {r["name"] for r in ok(session, "get_recipes", {"per_page": 100})["items"]}
    assert "Chana Masala" in names and "Pozole Rojo" not in names and "Beef Wellington" not in names
    assert len(names) == sum(1 for r in SEED["recipes"] if r["group_id"] == DELGADO) - 6  # Casa Rosa's six
    fails(session, "get_recipe", {"slug": "pozole-rojo"}, "NotFound", "Recipe 'pozole-rojo' not found")
    login(session, "rosa")
    assert ok(session, "get_recipe", {"slug": "pozole-rojo"})["name"] == "Pozole Rojo"


def test_groups_are_separate_even_with_the_same_slug(session):
    login(session, "owen")
    caesar = ok(session, "get_recipe", {"slug": "caesar-salad"})
    assert caesar["id"] == recipe("Caesar Salad", HARTLEY)["id"] != recipe("Caesar Salad")["id"]
    assert ok(session, "get_recipes", {"per_page": 100})["total"] == 5
    fails(session, "get_recipe", {"slug": "chicken-tinga-tacos"}, "NotFound", "not found")


def test_search_and_organizer_filters(session):
    login(session, "elena")

    def names(args):
        return [r["name"] for r in ok(session, "get_recipes", args)["items"]]

    assert names({"tags": ["tacos"]}) == [
        "Black Bean Tacos with Mango Salsa",
        "Carne Asada",
        "Chicken Tinga Tacos",
        "Sheet Pan Chicken Fajitas",
    ]
    assert names({"tags": ["Tacos", "Vegetarian"], "require_all": True}) == ["Black Bean Tacos with Mango Salsa"]
    assert names({"foods": ["paneer"]}) == ["Palak Paneer"]
    assert names({"search": "chipotle chicken"}) == ["Chicken Tinga Tacos"]
    assert names({"categories": ["soup"], "tools": ["slow-cooker"]}) == ["Slow Cooker Chicken Tortilla Soup"]


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@pytest.mark.parametrize(
    "words", ["jalapeno", "JALAPEÑO", "chicken lime", "minced garlic", "oaxaca", "gruyere", "%", "_", "50%", "crème"]
)
def test_search_finds_what_folding_every_recipe_finds(session, words):
    """The SQL-narrowed search returns exactly the recipes whose folded name, description, ingredient notes and
    foods hold every word (accents and case ignored; LIKE's wildcards are plain characters)."""
    login(session, "elena")
    state = session.dump()
    foods = {key: row["name"] for key, row in state["ingredient_foods"].items()}
    lines: dict[str, list[str]] = {}
    for row in state["recipe_ingredients"].values():
        lines.setdefault(row["recipe_id"], []).extend([row["note"], foods.get(row["food_id"], "")])
    visible = {r["id"] for r in ok(session, "get_recipes", {"per_page": 100})["items"]}
    expected = sorted(
        row["name"]
        for key, row in state["recipes"].items()
        if key in visible
        and all(
            w in _folded(" ".join([row["name"], row["description"], *lines.get(key, [])]))
            for w in _folded(words).split()
        )
    )
    found = ok(session, "get_recipes", {"search": words, "per_page": 100})
    assert sorted(r["name"] for r in found["items"]) == expected
    assert found["total"] == len(expected)


def test_search_ignores_accents_and_case(session):
    login(session, "elena")
    plain = ok(session, "get_recipes", {"search": "jalapeno", "per_page": 100})["items"]
    accented = ok(session, "get_recipes", {"search": "Jalapeño", "per_page": 100})["items"]
    assert plain == accented and len(plain) >= 3


def test_recipes_page_by_page(session):
    login(session, "elena")
    first = ok(session, "get_recipes", {"per_page": 20})
    assert (first["page"], first["total"], first["total_pages"], len(first["items"])) == (1, 45, 3, 20)
    seen = [r["id"] for page in (1, 2, 3) for r in ok(session, "get_recipes", {"per_page": 20, "page": page})["items"]]
    assert len(seen) == len(set(seen)) == 45
    assert ok(session, "get_recipes", {"per_page": 20, "page": 4})["items"] == []
    fails(session, "get_recipes", {"per_page": 0}, "invalid_arguments", "per_page must be between 1 and 100")
    fails(
        session, "get_recipes", {"per_page": 500, "page": 9}, "invalid_arguments", "per_page must be between 1 and 100"
    )
    fails(session, "get_recipes", {"page": 0}, "invalid_arguments", "page must be")


def test_order_by_rating_puts_unrated_last(session):
    login(session, "elena")
    items = ok(session, "get_recipes", {"order_by": "rating", "order_direction": "desc", "per_page": 100})["items"]
    rated = [r["rating"] for r in items if r["rating"] is not None]
    assert rated == sorted(rated, reverse=True) and items[-1]["rating"] is None
    assert items.index(next(r for r in items if r["rating"] is None)) == len(rated)
    newest = ok(session, "get_recipes", {"order_by": "date_updated", "order_direction": "desc", "per_page": 3})
    updated = sorted(
        (
            r["date_updated"]
            for r in SEED["recipes"]
            if r["group_id"] == DELGADO and r["household_id"] != recipe("Pozole Rojo")["household_id"]
        ),
        reverse=True,
    )[:3]
    assert [recipe(r["name"])["date_updated"] for r in newest["items"]] == updated
    made = ok(session, "get_recipes", {"order_by": "last_made", "per_page": 100})["items"]
    dates = [r["last_made"] for r in made if r["last_made"]]
    assert dates == sorted(dates) and made[-1]["last_made"] is None


def test_a_recipe_scaled_to_servings(session):
    login(session, "elena")
    base = ok(session, "get_recipe", {"slug": "chicken-tinga-tacos"})
    doubled = ok(session, "get_recipe", {"slug": "chicken-tinga-tacos", "servings": 8})
    assert doubled["scale"] == 2
    assert [i["quantity"] for i in doubled["recipe_ingredient"]] == [
        i["quantity"] * 2 if i["quantity"] is not None else None for i in base["recipe_ingredient"]
    ]
    assert doubled["recipe_ingredient"][0]["display"] == "3 pounds chicken thighs, boneless, skinless"
    assert base["recipe_ingredient"][0]["display"] == "1 1/2 pounds chicken thighs, boneless, skinless"
    assert [c["user"]["username"] for c in base["comments"]] == ["marco", "sofia", "nate"]
    fails(session, "get_recipe", {"slug": "pico-de-gallo", "servings": 6}, "InvalidRequest", "doesn't state")
    fails(session, "get_recipe", {"slug": "guacamole", "servings": 0}, "invalid_arguments", "more than 0")


# ---------------------------------------------------------------- editing recipes


def test_a_locked_recipe_is_only_edited_by_its_owner(session):
    login(session, "marco")
    fails(session, "update_recipe", {"slug": "chicken-tikka-masala", "description": "x"}, "PermissionDenied", "locked")
    login(session, "elena")
    assert ok(session, "update_recipe", {"slug": "chicken-tikka-masala", "recipe_servings": 8})["recipe_servings"] == 8


def test_households_can_lock_out_edits_from_other_households(session):
    login(session, "elena")
    fails(
        session,
        "update_recipe",
        {"slug": "grilled-veggie-skewers", "total_time": "30 minutes"},
        "PermissionDenied",
        "doesn't allow edits from other households",
    )
    login(session, "priya")  # same household as the owner, Nate
    assert (
        ok(session, "update_recipe", {"slug": "grilled-veggie-skewers", "total_time": "30 minutes"})["total_time"]
        == "30 minutes"
    )
    login(session, "nate")  # Delgado Home doesn't lock other households out
    assert ok(session, "update_recipe", {"slug": "guacamole", "description": "Extra lime."})["description"] == (
        "Extra lime."
    )


def test_only_the_owner_locks_or_unlocks(session):
    login(session, "marco")
    fails(
        session,
        "update_recipe",
        {"slug": "spaghetti-bolognese", "locked": True},
        "PermissionDenied",
        "Only the recipe's owner",
    )
    assert ok(session, "update_recipe", {"slug": "spaghetti-bolognese", "public": True})["settings"] == {
        "public": True,
        "show_nutrition": True,
        "disable_comments": False,
        "locked": False,
    }
    login(session, "elena")
    assert ok(session, "update_recipe", {"slug": "spaghetti-bolognese", "locked": True})["settings"]["locked"] is True
    fails(session, "update_recipe", {"slug": "spaghetti-bolognese"}, "InvalidRequest", "Nothing to update")


def test_tags_replace_the_list_and_new_ones_need_can_organize(session):
    login(session, "sofia")
    fails(
        session,
        "update_recipe",
        {"slug": "chocolate-chip-cookies", "tags": ["Sleepover"]},
        "PermissionDenied",
        "can organize",
    )
    result = ok(session, "update_recipe", {"slug": "chocolate-chip-cookies", "tags": ["picnic", "Kid Favorite"]})
    assert [t["name"] for t in result["tags"]] == ["Kid Favorite", "Picnic"]  # Vegetarian was not sent: gone
    login(session, "carmen")
    result = ok(session, "update_recipe", {"slug": "horchata", "tags": ["Mexican", "Summer Drinks"]})
    assert [t["slug"] for t in result["tags"]] == ["mexican", "summer-drinks"]
    assert len(session.dump()["tags"]) == len(SEED["tags"]) + 1


def test_renaming_changes_the_slug_which_must_stay_unique(session):
    login(session, "elena")
    fails(session, "update_recipe", {"slug": "caesar-salad", "name": "Guacamole"}, "Conflict", "'guacamole'")
    renamed = ok(session, "update_recipe", {"slug": "caesar-salad", "name": "Elena's Caesar Salad"})
    assert renamed["slug"] == "elena-s-caesar-salad"
    fails(session, "get_recipe", {"slug": "caesar-salad"}, "NotFound", "not found")


def test_create_a_recipe(session):
    login(session, "owen")  # Hartley House makes new recipes public
    new = ok(
        session,
        "create_recipe",
        {
            "name": "Crème Brûlée",
            "recipe_servings": 6,
            "recipe_category": ["Dessert"],
            "recipe_ingredient": [
                {"quantity": 2, "unit": "cup", "food": "heavy cream"},
                {"quantity": 0.5, "unit": "cup", "food": "granulated sugar", "note": "plus more to torch"},
                {"note": "a vanilla bean"},
            ],
            "recipe_instructions": ["Bake the custards in a water bath.", "Torch the sugar."],
        },
    )
    assert (new["slug"], new["settings"]["public"], new["household_id"]) == (
        "creme-brulee",
        True,
        recipe("Beef Wellington", HARTLEY)["household_id"],
    )
    assert [i["display"] for i in new["recipe_ingredient"]] == [
        "2 cups heavy cream",
        "1/2 cup granulated sugar, plus more to torch",
        "a vanilla bean",
    ]
    assert [s["text"] for s in new["recipe_instructions"]] == ["Bake the custards in a water bath.", "Torch the sugar."]
    new_foods = [
        f
        for key, f in session.dump()["ingredient_foods"].items()
        if f["group_id"] == HARTLEY and f["name"] in ("heavy cream", "granulated sugar")
    ]
    assert len(new_foods) == 2  # the supper club had neither food: both were added to its group
    fails(session, "create_recipe", {"name": "crème brûlée!"}, "Conflict", "creme-brulee")
    fails(
        session,
        "create_recipe",
        {"name": "Tart", "recipe_ingredient": [{"quantity": 1, "unit": "handful", "food": "salt"}]},
        "InvalidRequest",
        "Unknown unit 'handful'",
    )
    fails(
        session,
        "create_recipe",
        {"name": "Tart", "recipe_ingredient": [{"quantity": 1}]},
        "InvalidRequest",
        "a food or a note",
    )


def test_bounds_are_refused_by_the_argument_types(session):
    """Every bound a tool enforces is in its schema: validation refuses the value naming the argument, in
    Mealie's words, and nothing changes."""
    login(session, "elena")
    cases = [
        ("create_recipe", {"name": "   "}, "name: name can't be empty"),
        ("create_recipe", {"name": "x" * 151}, "name: name can't be empty or over 150 characters"),
        ("create_recipe", {"name": "Soup", "recipe_servings": -1}, "recipe_servings can't be negative"),
        ("create_recipe", {"name": "Soup", "recipe_instructions": ["Stir.", " "]}, "An instruction can't be empty"),
        ("create_recipe", {"name": "Soup", "recipe_ingredient": [{"quantity": -2, "food": "salt"}]}, "quantity"),
        ("update_recipe", {"slug": "guacamole", "recipe_servings": -4}, "recipe_servings can't be negative"),
        ("update_recipe", {"slug": "guacamole", "name": ""}, "name: name can't be empty"),
        ("create_comment", {"recipe_id": recipe("Guacamole")["id"], "text": "x" * 1001}, "over 1000 characters"),
        ("create_cookbook", {"name": " ", "query_filter_string": 'tags.name IN ["Quick"]'}, "name can't be empty"),
        ("get_mealplans", {"end_date": "next friday"}, "end_date: must be a date like 2025-03-14"),
        ("create_mealplan", {"date": "3/19", "title": "Sushi"}, "date: must be a date like"),
        ("create_random_mealplan", {"date": "2025-3-19"}, "date: must be a date like"),
        ("get_mealplans", {"per_page": 101}, "per_page must be between 1 and 100"),
        ("update_shopping_list_items", {"item_ids": [], "checked": True}, "item_ids can't be empty"),
        ("set_recipe_rating", {"recipe_id": recipe("Guacamole")["id"], "rating": 0.5}, "between 1 and 5"),
    ]
    for name, args, text in cases:
        fails(session, name, args, "invalid_arguments", text)
    schema = SPEC.tools["create_recipe"].input_schema["properties"]
    assert (schema["name"]["maxLength"], schema["recipe_servings"]["minimum"]) == (150, 0)


def test_impossible_dates_are_refused_by_name(session):
    login(session, "elena")
    fails(session, "create_mealplan", {"date": "2025-02-30", "title": "x"}, "InvalidRequest", "not a valid date")
    fails(session, "get_mealplans", {"start_date": "2025-13-01"}, "InvalidRequest", "start_date")
    fails(
        session,
        "create_recipe_share_token",
        {"recipe_id": recipe("Banana Bread")["id"], "expires_at": "2025-04-31"},
        "InvalidRequest",
        "expires_at",
    )


def test_share_links_take_zoned_timestamps_as_utc(session):
    login(session, "elena")
    bread = recipe("Banana Bread")["id"]
    zoned = ok(session, "create_recipe_share_token", {"recipe_id": bread, "expires_at": "2025-03-20T18:00:00-07:00"})
    assert zoned["expires_at"] == "2025-03-21T01:00:00Z"
    fails(
        session,
        "create_recipe_share_token",
        {"recipe_id": bread, "expires_at": "2025-03-20T18:00:00"},
        "InvalidRequest",
        "needs a time zone",
    )


def test_log_in_takes_the_username_or_email_in_any_case(session):
    assert login(session, "Elena.Delgado@Fastmail.com")["username"] == "elena"
    assert login(session, " NATE ")["username"] == "nate"
    fails(session, "log_in", {"username": "elena@fastmail.com"}, "PermissionDenied", "Incorrect", caller="user")


# ---------------------------------------------------------------- ratings, comments, sharing, cooking


def test_ratings_average_per_user(session):
    login(session, "marco")
    tikka = recipe("Chicken Tikka Masala")["id"]
    result = ok(session, "set_recipe_rating", {"recipe_id": tikka, "rating": 5})
    assert (result["rating"], result["is_favorite"], result["recipe_rating"]) == (5, False, 4.5)  # (5+5+3.5+4.5)/4
    login(session, "luis")
    result = ok(session, "set_recipe_rating", {"recipe_id": tikka, "is_favorite": True})
    assert (result["rating"], result["is_favorite"], result["recipe_rating"]) == (None, True, 4.5)
    fails(session, "set_recipe_rating", {"recipe_id": tikka, "rating": 4.3}, "invalid_arguments", "half stars")
    fails(session, "set_recipe_rating", {"recipe_id": tikka, "rating": 6}, "invalid_arguments", "between 1 and 5")
    fails(session, "set_recipe_rating", {"recipe_id": tikka}, "InvalidRequest", "Give a rating")


def test_comments_can_be_turned_off(session):
    login(session, "marco")
    turkey = recipe("Thanksgiving Roast Turkey")["id"]
    fails(
        session,
        "create_comment",
        {"recipe_id": turkey, "text": "Brine longer"},
        "PermissionDenied",
        "Comments are turned off",
    )
    login(session, "elena")
    ok(session, "update_recipe", {"slug": "thanksgiving-roast-turkey", "disable_comments": False})
    login(session, "marco")
    comments = ok(session, "create_comment", {"recipe_id": turkey, "text": "Brine longer"})["comments"]
    assert [(c["text"], c["user"]["full_name"]) for c in comments] == [("Brine longer", "Marco Delgado")]
    fails(session, "create_comment", {"recipe_id": turkey, "text": "  "}, "invalid_arguments", "can't be empty")


def test_share_links_expire(session):
    login(session, "elena")
    bread = recipe("Banana Bread")["id"]
    default = ok(session, "create_recipe_share_token", {"recipe_id": bread})
    assert default["expires_at"] == "2025-04-11T23:59:59Z"  # 30 days from 2025-03-12
    assert default["url"].endswith(f"/shared/r/{default['id']}")
    dated = ok(session, "create_recipe_share_token", {"recipe_id": bread, "expires_at": "2025-03-20"})
    assert dated["expires_at"] == "2025-03-20T23:59:59Z"
    fails(
        session,
        "create_recipe_share_token",
        {"recipe_id": bread, "expires_at": "2025-03-11"},
        "InvalidRequest",
        "in the future",
    )
    fails(
        session,
        "create_recipe_share_token",
        {"recipe_id": bread, "expires_at": "next week"},
        "InvalidRequest",
        "expires_at must be",
    )
    fails(session, "create_recipe_share_token", {"recipe_id": recipe("Pozole Rojo")["id"]}, "NotFound", "not found")


def test_marking_a_recipe_made_is_the_users(session):
    login(session, "luis")
    event = ok(
        session, "mark_recipe_made", {"slug": "weeknight-fried-rice", "note": "Added leftover chicken."}, caller="user"
    )
    assert (event["subject"], event["event_message"], event["user_id"]) == (
        "Made this",
        "Added leftover chicken.",
        user("luis"),
    )
    made = ok(session, "get_recipe", {"slug": "weeknight-fried-rice"})["last_made"]
    assert made == event["timestamp"] and made.startswith("2025-03-12")


# ---------------------------------------------------------------- meal plans


def test_meal_plans_are_per_household_and_by_date(session):
    login(session, "elena")
    week = ok(session, "get_mealplans", {"start_date": "2025-03-13", "end_date": "2025-03-15"})["items"]
    assert [(e["date"], e["entry_type"]) for e in week] == [
        ("2025-03-13", "dinner"),
        ("2025-03-13", "side"),
        ("2025-03-14", "dinner"),
        ("2025-03-15", "breakfast"),
        ("2025-03-15", "dinner"),
        ("2025-03-15", "side"),
        ("2025-03-15", "side"),
    ]
    assert week[2]["recipe"] is None and week[2]["title"] == "Pizza night"
    fails(session, "get_mealplans", {"start_date": "03/13/2025"}, "invalid_arguments", "date like")
    maple = next(p["id"] for p in SEED["group_meal_plans"] if p["title"] == "Date night out")
    fails(session, "delete_mealplan", {"mealplan_id": maple}, "NotFound", "Meal plan entry")


def test_create_and_delete_meal_plan_entries(session):
    login(session, "elena")
    entry = ok(session, "create_mealplan", {"date": "2025-03-19", "recipe_id": recipe("Buttermilk Pancakes")["id"]})
    assert entry["entry_type"] == "breakfast" and entry["id"] == max(p["id"] for p in SEED["group_meal_plans"]) + 1
    note = ok(session, "create_mealplan", {"date": "2025-03-21", "entry_type": "dinner", "title": "Sushi out"})
    assert note["recipe"] is None
    fails(
        session,
        "create_mealplan",
        {"date": "2025-03-21", "entry_type": "dinner"},
        "InvalidRequest",
        "recipe_id or a title",
    )
    fails(
        session,
        "create_mealplan",
        {"date": "2025-03-21", "recipe_id": recipe("Mole Poblano")["id"]},
        "NotFound",
        "not found",
    )
    ok(session, "delete_mealplan", {"mealplan_id": note["id"]})
    assert str(note["id"]) not in session.dump()["group_meal_plans"]


def test_random_meal_follows_the_day_and_type_rules(session):
    login(session, "elena")
    tuesday = ok(session, "create_random_mealplan", {"date": "2025-03-25"})
    picked = ok(session, "get_recipe", {"slug": tuesday["recipe"]["slug"]})
    assert "Tacos" in {t["name"] for t in picked["tags"]}
    assert "Dinner" in {c["name"] for c in picked["recipe_category"]}
    side = ok(session, "create_random_mealplan", {"date": "2025-03-25", "entry_type": "side"})
    side_recipe = ok(session, "get_recipe", {"slug": side["recipe"]["slug"]})
    assert {c["name"] for c in side_recipe["recipe_category"]} & {"Side Dish", "Salad"}
    again = ok(session, "create_random_mealplan", {"date": "2025-03-25"})
    assert again["recipe_id"] == tuesday["recipe_id"]  # the pick is seeded by date and type
    login(session, "priya")  # Maple Court only lets the picker choose vegetarian or vegan dinners
    maple = ok(
        session, "get_recipe", {"slug": ok(session, "create_random_mealplan", {"date": "2025-03-26"})["recipe"]["slug"]}
    )
    assert {t["name"] for t in maple["tags"]} & {"Vegetarian", "Vegan"}


def test_random_meal_with_no_matching_recipe(session):
    def impossible(tables):
        for rule in tables["group_meal_plan_rules"]:
            if rule["day"] == "tuesday":
                rule["query_filter_string"] = 'tags.name CONTAINS ALL ["Tacos", "Holiday"]'

    restore_seed_with(session, impossible, CLOCK)
    login(session, "elena")
    fails(session, "create_random_mealplan", {"date": "2025-03-25"}, "NotFound", "No recipes match your rules")
    assert ok(session, "create_random_mealplan", {"date": "2025-03-26"})["date"] == "2025-03-26"


# ---------------------------------------------------------------- shopping lists


def test_adding_a_recipe_merges_identical_unchecked_items(session):
    login(session, "elena")
    soup = recipe("Slow Cooker Chicken Tortilla Soup")["id"]
    before = {i["id"]: i for i in items_of(session, "Weekly Groceries")}
    result = ok(
        session, "add_recipe_to_shopping_list", {"shopping_list_id": slist("Weekly Groceries"), "recipe_id": soup}
    )
    assert [(r["recipe_name"], r["recipe_quantity"]) for r in result["recipe_references"]] == [
        ("Chicken Tinga Tacos", 1),
        ("Slow Cooker Chicken Tortilla Soup", 2),
    ]
    after = {i["id"]: i for i in result["list_items"]}
    beans = item("Weekly Groceries", "black beans")
    assert (before[beans]["quantity"], after[beans]["quantity"]) == (1, 2)
    assert after[beans]["recipe_references"] == [{"recipe_id": soup, "recipe_quantity": 1, "recipe_scale": 2}]
    onion = item("Weekly Groceries", "yellow onion")
    assert (before[onion]["quantity"], after[onion]["quantity"]) == (2, 3)
    # the chicken breasts on the list are checked, so the soup's chicken becomes a new line
    new = [i for key, i in after.items() if key not in before]
    assert [(i["food"], i["quantity"], i["checked"]) for i in new] == [
        ("chicken breasts", 1.5, False),
        ("chicken broth", 4, False),
        ("ground cumin", 2, False),
        ("chili powder", 1, False),
        ("kosher salt", 1, False),
    ]


def test_recipe_batches_scale_the_quantities(session):
    login(session, "priya")
    result = ok(
        session,
        "add_recipe_to_shopping_list",
        {
            "shopping_list_id": slist("Trader Joe's"),
            "recipe_id": recipe("Vegetable Biryani")["id"],
            "recipe_increment_quantity": 1.5,
        },
    )
    rice = next(i for i in result["list_items"] if i["food"] == "basmati rice")
    assert (rice["quantity"], rice["display"]) == (3, "3 cups basmati rice, soaked 30 minutes")
    fails(
        session,
        "add_recipe_to_shopping_list",
        {
            "shopping_list_id": slist("Trader Joe's"),
            "recipe_id": recipe("Dal Tadka")["id"],
            "recipe_increment_quantity": 0,
        },
        "invalid_arguments",
        "more than 0",
    )
    fails(
        session,
        "add_recipe_to_shopping_list",
        {"shopping_list_id": slist("Weekly Groceries"), "recipe_id": recipe("Dal Tadka")["id"]},
        "NotFound",
        "Shopping list",
    )


def test_new_items_merge_by_note_or_by_food_and_unit(session):
    login(session, "elena")
    weekly = slist("Weekly Groceries")
    merged = ok(session, "create_shopping_list_item", {"shopping_list_id": weekly, "note": "paper towels"})
    assert merged["created_items"] == [] and merged["updated_items"][0]["quantity"] == 2
    eggs = ok(
        session, "create_shopping_list_item", {"shopping_list_id": weekly, "food": "eggs", "unit": "doz", "quantity": 2}
    )
    dozen = eggs["updated_items"][0]
    assert (dozen["id"], dozen["quantity"]) == (item("Weekly Groceries", "egg"), 3)
    loose = ok(session, "create_shopping_list_item", {"shopping_list_id": weekly, "food": "egg", "quantity": 6})
    assert loose["created_items"][0]["display"] == "6 eggs"  # no unit: a separate line
    fails(
        session,
        "create_shopping_list_item",
        {"shopping_list_id": weekly, "food": "dragonfruit"},
        "NotFound",
        "Food 'dragonfruit'",
    )
    fails(session, "create_shopping_list_item", {"shopping_list_id": weekly}, "InvalidRequest", "note or a food")
    fails(
        session,
        "create_shopping_list_item",
        {"shopping_list_id": weekly, "note": "x", "quantity": 0},
        "invalid_arguments",
        "more than 0",
    )


def test_foods_are_found_by_name_or_plural_whatever_the_accents_and_case(session):
    login(session, "elena")
    weekly = slist("Weekly Groceries")
    merged = ok(session, "create_shopping_list_item", {"shopping_list_id": weekly, "food": " JALAPENO "})
    assert [(i["food"], i["quantity"]) for i in merged["updated_items"]] == [("jalapeño", 2)]
    eggs = ok(session, "create_shopping_list_item", {"shopping_list_id": weekly, "food": "Eggs", "unit": "dozen"})
    assert eggs["updated_items"][0]["id"] == item("Weekly Groceries", "egg")  # the plural finds the food


def test_checked_items_drop_their_recipe_links(session):
    login(session, "jess")
    beet_salad = recipe("Roasted Beet Salad", HARTLEY)["id"]
    lines = [
        i["id"]
        for i in items_of(session, "Supper Club Shop")
        if any(r["recipe_id"] == beet_salad for r in i["recipe_references"])
    ]
    assert len(lines) == 6
    result = ok(session, "update_shopping_list_items", {"item_ids": lines[:3], "checked": True})
    assert [i["recipe_references"] for i in result["updated_items"]] == [[], [], []]

    def names():
        return [r["recipe_name"] for r in ok(session, "get_shopping_lists", {})[0]["recipe_references"]]

    assert names() == ["Beef Wellington", "Roasted Beet Salad"]
    ok(session, "update_shopping_list_items", {"item_ids": lines[3:], "checked": True})
    assert names() == ["Beef Wellington"]


def test_an_unchecked_item_merges_into_its_twin(session):
    login(session, "marco")
    costco = slist("Costco Run")
    towels = item("Costco Run", "Kirkland paper towels")
    twin = ok(
        session,
        "create_shopping_list_item",
        {"shopping_list_id": costco, "note": "Kirkland paper towels", "quantity": 2},
    )["created_items"][0]  # the old one is checked
    result = ok(session, "update_shopping_list_items", {"item_ids": [towels], "checked": False})
    assert [i["id"] for i in result["deleted_items"]] == [towels]
    assert (result["updated_items"][0]["id"], result["updated_items"][0]["quantity"]) == (twin["id"], 3)
    assert towels not in session.dump()["shopping_list_items"]


def test_items_of_other_households_are_out_of_reach(session):
    login(session, "elena")
    fails(
        session,
        "update_shopping_list_items",
        {"item_ids": [item("Trader Joe's", "tofu")], "checked": True},
        "NotFound",
        "Shopping list",
    )
    fails(session, "update_shopping_list_items", {"item_ids": ["nope"], "checked": True}, "NotFound", "'nope'")
    fails(session, "get_shopping_list", {"shopping_list_id": slist("Mercado")}, "NotFound", "Shopping list")
    assert [s["name"] for s in ok(session, "get_shopping_lists", {})] == [
        "Costco Run",
        "Luis's Birthday BBQ",
        "Target",
        "Weekly Groceries",
    ]


# ---------------------------------------------------------------- cookbooks


def test_cookbooks_show_their_households_recipes(session):
    login(session, "elena")
    assert "Recetas de Rosa" not in {c["name"] for c in ok(session, "get_cookbooks", {})}
    meatless = [r["name"] for r in ok(session, "get_recipes", {"cookbook": "meatless-mondays"})["items"]]
    assert "Black Bean Tacos with Mango Salsa" not in meatless and "Chana Masala" in meatless  # Maple Court's only
    favorites = ok(session, "get_recipes", {"cookbook": "family-favorites"})["items"]
    assert favorites and all(r["rating"] >= 4.5 for r in favorites)
    fails(session, "get_recipes", {"cookbook": "recetas-de-rosa"}, "NotFound", "Cookbook")


def test_creating_a_cookbook_stores_a_canonical_filter(session):
    login(session, "luis")
    book = ok(
        session,
        "create_cookbook",
        {"name": "Dorm Food", "query_filter_string": 'tags.name = "quick" and tags.name IN ["kid favorite"]'},
    )
    assert (book["slug"], book["position"]) == ("dorm-food", 5)
    assert book["query_filter_string"] == 'tags.name CONTAINS ALL ["Kid Favorite", "Quick"]'
    names = [r["name"] for r in ok(session, "get_recipes", {"cookbook": "dorm-food"})["items"]]
    assert names == ["Air Fryer Chicken Tenders", "Buttermilk Pancakes", "Margherita Flatbread Pizza"]
    fails(
        session,
        "create_cookbook",
        {"name": "dorm food", "query_filter_string": "rating > 3"},
        "Conflict",
        "already has a cookbook",
    )
    fails(
        session,
        "create_cookbook",
        {"name": "Bad", "query_filter_string": 'tags.colour IN ["red"]'},
        "InvalidRequest",
        "unknown attribute",
    )
    fails(
        session,
        "create_cookbook",
        {"name": "Empty", "query_filter_string": " "},
        "invalid_arguments",
        "needs a query filter",
    )


def test_query_filter_parsing():
    facts = {"rating": 4.5, "tags.name": {"quick", "vegan"}, "recipe_category.name": {"dinner"}}
    assert matches(parse_filter('tags.name IN ["Quick", "Spicy"] AND rating >= 4.5'), facts)
    assert not matches(parse_filter('tags.name CONTAINS ALL ["Quick", "Spicy"]'), facts)
    assert not matches(parse_filter('recipe_category.name NOT IN ["Dinner"]'), facts)
    assert matches(parse_filter('recipe_category.name IN ["Mac and Cheese", "dinner"]'), facts)
    assert (
        canonical_filter(parse_filter('tags.name != "A" AND tags.name NOT IN ["B"] AND rating > 3'), lambda a, v: v)
        == 'rating > 3 AND tags.name NOT IN ["A", "B"]'
    )
    for bad in ('tags.name IN "x"', "rating >= high", 'rating IN ["4"]', "tags.name ~ x", "tags.name IN []"):
        with pytest.raises(InvalidRequest):
            parse_filter(bad)


# ---------------------------------------------------------------- household members


def test_household_members_and_their_permissions(session):
    login(session, "marco")
    members = ok(session, "get_household_members", {})
    assert [m["username"] for m in members] == ["carmen", "elena", "luis", "marco", "sofia"]
    fails(
        session,
        "set_member_permissions",
        {"user_id": user("luis"), "can_organize": True},
        "PermissionDenied",
        "manage this household",
    )


def test_setting_permissions_sets_all_four(session):
    login(session, "elena")
    carmen = ok(session, "set_member_permissions", {"user_id": user("carmen"), "can_invite": True})
    assert (carmen["can_invite"], carmen["can_organize"], carmen["can_manage"]) == (True, False, False)
    fails(
        session,
        "set_member_permissions",
        {"user_id": user("nate")},
        "PermissionDenied",
        "not a member of this household",
    )
    fails(
        session, "set_member_permissions", {"user_id": user("owen")}, "PermissionDenied", "not a member of this group"
    )
    fails(session, "set_member_permissions", {"user_id": "ghost"}, "NotFound", "User not found")
    login(session, "carmen")  # losing can_organize bites at once
    fails(session, "update_recipe", {"slug": "horchata", "tags": ["Agua Fresca"]}, "PermissionDenied", "can organize")
