"""`envfactory verify` passes on the zoo and names the faulty component when something is wrong."""

from sqlalchemy import select

from envfactory_gym import Database, NotFound, tool
from envfactory_gym.cli import main
from envfactory_gym.verify import verify_environment

from .helpers import ITEMS, make_spec


@tool(read_only=True)
def get_item(db: Database, item_id: int) -> dict:
    """Get an item.

    Args:
        item_id: The item.
    """
    return db.get(ITEMS, item_id, "Item")


@tool()
def rename_item(db: Database, item_id: int, name: str) -> dict:
    """Rename an item.

    Args:
        item_id: The item.
        name: New name.
    """
    return db.update(ITEMS, item_id, name=name)


@tool()
def rename_item_buggy(db: Database, item_id: int, name: str) -> dict:
    """Rename an item (but forgets to save).

    Args:
        item_id: The item.
        name: New name.
    """
    if db.conn.execute(select(ITEMS).where(ITEMS.c.id == item_id)).first() is None:
        raise NotFound("Item not found")
    return {"id": item_id, "name": name}


@tool()
def undocumented(db: Database, x: int) -> dict:
    """Does something."""
    return {}


ROWS = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]


def task(tool_name="rename_item", item_id=1):
    return {
        "id": "t1",
        "turns": [
            {"query": "What is item a?", "calls": [{"name": "get_item", "arguments": {"item_id": 1}}]},
            {
                "query": "Rename it to c.",
                "calls": [{"name": tool_name, "arguments": {"item_id": item_id, "name": "c"}}],
            },
        ],
    }


def test_a_good_environment_passes(tmp_path):
    report = verify_environment(make_spec(tmp_path, [get_item, rename_item], ROWS, [task()]))
    assert report.passed, report.findings
    assert report.tasks_checked == 1


def test_failing_ground_truth_blames_the_tool_code(tmp_path):
    report = verify_environment(make_spec(tmp_path, [get_item, rename_item], ROWS, [task(item_id=99)]))
    assert any(f.component == "tool code" and "not found" in f.message for f in report.findings)


def test_a_write_that_changes_nothing_is_caught(tmp_path):
    report = verify_environment(make_spec(tmp_path, [get_item, rename_item_buggy], ROWS, [task("rename_item_buggy")]))
    assert any(f.check == "state change" for f in report.findings)


def test_undocumented_parameters_and_missing_tasks(tmp_path):
    report = verify_environment(make_spec(tmp_path, [get_item, undocumented], ROWS, []))
    checks = {(f.component, f.check) for f in report.findings}
    assert ("tool code", "interface") in checks and ("tasks", "tasks") in checks


def test_cli_verify_and_rollout_on_the_zoo(capsys):
    assert main(["verify", "notion"]) == 0
    assert "PASS" in capsys.readouterr().out
    assert main(["rollout", "notion", "--agent", "reference", "--episodes", "3"]) == 0
    assert "overall mean reward: 1.000" in capsys.readouterr().out
    assert main(["list"]) == 0 and "Notion" in capsys.readouterr().out
    assert main(["info", "notion"]) == 0 and "search_pages" in capsys.readouterr().out


def test_a_mask_on_a_value_that_reaches_the_state_is_caught(tmp_path):
    bad = task()
    bad["turns"][1]["calls"][0]["masked"] = ["name"]
    report = verify_environment(make_spec(tmp_path, [get_item, rename_item], ROWS, [bad]))
    assert [f.check for f in report.findings] == ["masks"]
