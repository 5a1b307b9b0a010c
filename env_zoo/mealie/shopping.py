"""How Mealie fills shopping lists: identical unchecked items (same food and unit, or the same note when there is
no food) merge into one line, recipe ingredients arrive scaled, and checked items drop their recipe references."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import recipe_ingredients, shopping_list_items, shopping_lists


def can_merge(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two unchecked items with the same food and unit merge; without a food, only with the same note."""
    if a["checked"] or b["checked"] or a["food_id"] != b["food_id"] or a["unit_id"] != b["unit_id"]:
        return False
    return bool(a["food_id"]) or a["note"] == b["note"]


def _merged_note(into: str, extra: str) -> str:
    notes = into.split(" | ") if into else []
    if extra and extra not in notes:
        notes.append(extra)
    return " | ".join(notes)


def _merged_refs(into: list[dict[str, Any]], extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    refs = [dict(r) for r in into]
    for ref in extra:
        same = next((r for r in refs if r["recipe_id"] == ref["recipe_id"]), None)
        if same is None:
            refs.append(dict(ref))
        else:
            same["recipe_scale"] += ref["recipe_scale"]
    return refs


def recipe_items(db: Database, recipe_id: str, scale: float) -> list[dict[str, Any]]:
    """New list items for a recipe's ingredients at `scale`, repeated ingredients already combined."""
    items: list[dict[str, Any]] = []
    for line in db.find(recipe_ingredients, recipe_id=recipe_id, order_by=[recipe_ingredients.c.position]):
        quantity = line["quantity"] or 0
        new = {
            "checked": False,
            "is_food": bool(line["food_id"]),
            "food_id": line["food_id"],
            "unit_id": line["unit_id"],
            "note": line["note"],
            "quantity": quantity * scale,
            "recipe_references": [{"recipe_id": recipe_id, "recipe_quantity": quantity, "recipe_scale": scale}],
        }
        same = next((i for i in items if can_merge(i, new)), None)
        if same is None:
            items.append(new)
            continue
        same["quantity"] += new["quantity"]
        same["recipe_references"][0]["recipe_quantity"] += quantity
        same["note"] = _merged_note(same["note"], new["note"])
    return items


def add_items(db: Database, list_id: str, new_items: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Put items on a list, merging each into a matching unchecked item. Returns (created ids, updated ids)."""
    existing = db.find(
        shopping_list_items, shopping_list_id=list_id, checked=False, order_by=[shopping_list_items.c.position]
    )
    positions = [i["position"] for i in db.find(shopping_list_items, shopping_list_id=list_id)]
    next_position = max(positions, default=-1) + 1
    now = db.now_iso()
    created: list[str] = []
    updated: list[str] = []
    for new in new_items:
        target = next((e for e in existing if can_merge(e, new)), None)
        if target is not None:
            row = db.update(
                shopping_list_items,
                target["id"],
                quantity=target["quantity"] + new["quantity"],
                note=_merged_note(target["note"], new["note"]),
                update_at=now,
                recipe_references=_merged_refs(target["recipe_references"], new["recipe_references"]),
            )
            existing[existing.index(target)] = row
            if row["id"] not in created and row["id"] not in updated:
                updated.append(row["id"])
            continue
        row = db.insert(
            shopping_list_items,
            id=db.new_uuid(shopping_list_items),
            shopping_list_id=list_id,
            position=next_position,
            created_at=now,
            update_at=now,
            **new,
        )
        next_position += 1
        existing.append(row)
        created.append(row["id"])
    return created, updated


def add_list_recipe_ref(db: Database, shopping_list: dict[str, Any], recipe_id: str, increment: float) -> None:
    """Count one more (or `increment` more) of a recipe on the list."""
    refs = [dict(r) for r in shopping_list["recipe_references"]]
    same = next((r for r in refs if r["recipe_id"] == recipe_id), None)
    if same is None:
        refs.append({"recipe_id": recipe_id, "recipe_quantity": increment})
    else:
        same["recipe_quantity"] += increment
    db.update(shopping_lists, shopping_list["id"], recipe_references=refs, update_at=db.now_iso())


def set_checked(db: Database, items: list[dict[str, Any]], checked: bool) -> tuple[list[str], list[str]]:
    """Check or uncheck items. A checked item loses its recipe references; an unchecked one merges into a matching
    unchecked item on its list. Returns (updated ids, deleted ids)."""
    updated: list[str] = []
    deleted: list[str] = []
    now = db.now_iso()
    for item in items:
        if checked:
            db.update(shopping_list_items, item["id"], checked=True, recipe_references=[], update_at=now)
            updated.append(item["id"])
            continue
        reopened = {**item, "checked": False}
        others = [
            o
            for o in db.find(
                shopping_list_items,
                shopping_list_id=item["shopping_list_id"],
                checked=False,
                order_by=[shopping_list_items.c.position],
            )
            if o["id"] != item["id"]
        ]
        target = next((o for o in others if can_merge(o, reopened)), None)
        if target is None:
            db.update(shopping_list_items, item["id"], checked=False, update_at=now)
            updated.append(item["id"])
            continue
        db.update(
            shopping_list_items,
            target["id"],
            quantity=target["quantity"] + item["quantity"],
            note=_merged_note(target["note"], item["note"]),
            update_at=now,
            recipe_references=_merged_refs(target["recipe_references"], item["recipe_references"]),
        )
        db.delete(shopping_list_items, item["id"])
        updated.append(target["id"])
        deleted.append(item["id"])
    for list_id in {i["shopping_list_id"] for i in items}:
        drop_unused_recipe_refs(db, list_id)
    return updated, deleted


def drop_unused_recipe_refs(db: Database, list_id: str) -> None:
    """A list only keeps the recipes that some item still refers to."""
    shopping_list = db.get(shopping_lists, list_id, "Shopping list")
    used = {
        ref["recipe_id"]
        for i in db.find(shopping_list_items, shopping_list_id=list_id)
        for ref in i["recipe_references"]
    }
    kept = [r for r in shopping_list["recipe_references"] if r["recipe_id"] in used]
    if kept != shopping_list["recipe_references"]:
        db.update(shopping_lists, list_id, recipe_references=kept)
