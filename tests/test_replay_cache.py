"""The on-disk replay cache: a warm cache gives the same replay and the same rewards as replaying, anything it
depends on invalidates it, a bad file is a miss (never an error), and `ENVFACTORY_REPLAY_CACHE=0` turns it off."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shutil
from pathlib import Path

import pytest

from envfactory_gym import ToolUseEnv, load_zoo_environment, replay_cache
from envfactory_gym.agents import NoOpAgent, RandomAgent, ReferenceAgent, run_episode
from envfactory_gym.cli import main as cli_main
from envfactory_gym.delta import SnapshotRows
from envfactory_gym.session import snapshot_rows
from envfactory_gym.tasks import _REPLAYS, Replay, load_tasks, replay

KEY = "notion"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own, the cache on."""
    monkeypatch.setenv("ENVFACTORY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ENVFACTORY_REPLAY_CACHE", raising=False)
    return tmp_path / "cache"


def forget_replays() -> None:
    """Drop the process's replays and snapshot row sources, as a new process starts (the disk cache stays)."""
    _REPLAYS.clear()
    snapshot_rows.cache_clear()


@pytest.fixture
def fresh_process():
    """Each test starts and ends with no replay in memory."""
    forget_replays()
    yield forget_replays
    forget_replays()


@pytest.fixture
def no_replays(monkeypatch):
    """Replaying a ground truth fails the test: every replay must come from the cache."""

    def refuse(spec, task):
        raise AssertionError(f"task {task.id} was replayed, not read from the cache")

    monkeypatch.setattr(replay_cache, "replay", refuse)


def tasks(count: int = 4):
    spec = load_zoo_environment(KEY)
    return spec, list(load_tasks(spec).values())[:count]


def assert_same_replay(loaded: Replay, expected: Replay) -> None:
    """Equal outcomes, checkpoints and every state, row by row and as whole states."""
    assert loaded.outcomes == expected.outcomes
    assert loaded.checkpoints == expected.checkpoints
    pairs = [
        *zip(loaded.states, expected.states),
        (loaded.baseline, expected.baseline),
        *zip(loaded.after_user_calls or [], expected.after_user_calls or []),
    ]
    assert len(loaded.states) == len(expected.states)
    assert (loaded.after_user_calls is None) == (expected.after_user_calls is None)
    for got, want in pairs:
        assert dict(got.rows) == dict(want.rows)
        assert all(got.get(k) == want.get(k) for k in got.rows.keys() | want.rows.keys())
    assert all(got.full() == want.full() for got, want in pairs)


def test_a_warm_cache_gives_the_identical_replay(cache, fresh_process, no_replays, monkeypatch):
    spec, chosen = tasks()
    expected = {task.id: replay(spec, task) for task in chosen}
    for task in chosen:
        replay_cache.store(spec, task, expected[task.id])
    fresh_process()
    for task in chosen:
        loaded = replay_cache.cached_replay(spec, task)
        base = snapshot_rows(spec, task.snapshot)
        assert isinstance(base, SnapshotRows) and all(d.base is base for d in [*loaded.states, loaded.baseline])
        with monkeypatch.context() as patch:  # the stored base rows answer every lookup: no dump of the snapshot
            patch.setattr(base, "full", lambda: pytest.fail("the snapshot was dumped"))
            keys = {k for d in [*loaded.states, loaded.baseline] for k in d.rows}
            assert {k: base.row(k) for k in keys} == {k: expected[task.id].initial.base.row(k) for k in keys}
        assert_same_replay(loaded, expected[task.id])


def _episodes(task_ids: list[str]) -> list[dict]:
    env = ToolUseEnv(KEY)
    try:
        out = []
        for task_id in task_ids:
            for agent in (ReferenceAgent(), ReferenceAgent(calls_per_action=3), NoOpAgent(), RandomAgent(seed=3)):
                episode = run_episode(env, agent, seed=0, task_id=task_id)
                out.append({k: episode[k] for k in ("reward", "components", "turn_rewards", "steps")})
        return out
    finally:
        env.close()


def test_a_warm_cache_gives_identical_episode_rewards(cache, fresh_process, monkeypatch):
    _, chosen = tasks(3)
    ids = [task.id for task in chosen]
    monkeypatch.setenv("ENVFACTORY_REPLAY_CACHE", "0")
    uncached = _episodes(ids)
    monkeypatch.delenv("ENVFACTORY_REPLAY_CACHE")
    fresh_process()
    cold = _episodes(ids)
    assert len(list((cache / "replays" / KEY).iterdir())) == len(ids)
    fresh_process()
    monkeypatch.setattr(replay_cache, "replay", lambda spec, task: pytest.fail(f"{task.id} replayed"))
    warm = _episodes(ids)
    assert uncached == cold == warm
    assert any(e["reward"] == 1.0 for e in warm) and any(e["reward"] < 1.0 for e in warm)


def _copied_spec(tmp_path: Path):
    """Notion's spec over a copy of its folder (same key, same tools), so its files can be changed."""
    spec = load_zoo_environment(KEY)
    folder = tmp_path / KEY
    shutil.copytree(spec.folder, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return dataclasses.replace(spec, folder=folder)


def test_changing_an_environment_file_invalidates_the_cache(cache, tmp_path, fresh_process, monkeypatch):
    spec = _copied_spec(tmp_path)
    task = next(iter(load_tasks(spec).values()))
    replay_cache.cached_replay(spec, task)
    before = replay_cache.cache_path(spec, task.id)
    assert replay_cache.load(spec, task) is not None
    lines = spec.tasks_path.read_text().splitlines()
    changed = json.loads(lines[-1])
    changed["turns"][0]["query"] += " Please."  # another task's wording: the content hash must still move
    spec.tasks_path.write_text("\n".join([*lines[:-1], json.dumps(changed)]) + "\n")
    replay_cache.content_hash.cache_clear()  # a new process: the changed folder is hashed again
    fresh_process()
    after = replay_cache.cache_path(spec, task.id)
    assert after != before and before.exists()
    assert replay_cache.load(spec, task) is None
    replayed = []
    monkeypatch.setattr(replay_cache, "replay", lambda s, t: replayed.append(t.id) or replay(s, t))
    replay_cache.cached_replay(spec, task)
    assert replayed == [task.id] and after.exists()


def test_the_content_hash_is_remembered_per_folder_and_recomputed_when_a_file_changes(cache, tmp_path, monkeypatch):
    spec = _copied_spec(tmp_path)
    replay_cache.content_hash.cache_clear()
    first = replay_cache.content_hash(spec.folder)
    hashed = []
    original = replay_cache.environment_content_hash
    monkeypatch.setattr(replay_cache, "environment_content_hash", lambda f: hashed.append(f) or original(f))
    replay_cache.content_hash.cache_clear()
    assert replay_cache.content_hash(spec.folder) == first and hashed == []  # read back from disk
    metadata = spec.folder / "metadata.json"
    meta = json.loads(metadata.read_text())
    metadata.write_text(json.dumps({**meta, "description": meta["description"] + " Changed."}))
    replay_cache.content_hash.cache_clear()
    assert replay_cache.content_hash(spec.folder) != first and hashed == [spec.folder]
    replay_cache.content_hash.cache_clear()


@pytest.mark.parametrize("bad", [b"", b"not a pickle", b"\x80\x05truncated", [1, 2], "another task", "a folder"])
def test_a_corrupt_cache_file_is_ignored_and_rewritten(cache, fresh_process, bad):
    spec, (task, other) = tasks(2)
    expected = replay(spec, task)
    path = replay_cache.cache_path(spec, task.id)
    if bad == "another task":  # a whole, valid record, but written for another key
        replay_cache.store(spec, other, replay(spec, other))
        shutil.copy(replay_cache.cache_path(spec, other.id), path)
    elif bad == "a folder":
        path.mkdir(parents=True)
    else:
        path.parent.mkdir(parents=True)
        path.write_bytes(bad if isinstance(bad, bytes) else pickle.dumps(bad))
    assert replay_cache.load(spec, task) is None
    assert_same_replay(replay_cache.cached_replay(spec, task), expected)
    if bad != "a folder":  # a folder in the file's place cannot be replaced: the replay is simply not cached
        fresh_process()
        assert_same_replay(replay_cache.load(spec, task), expected)
    assert not list(path.parent.glob("*.tmp"))


def test_the_environment_variable_turns_the_cache_off(cache, fresh_process, monkeypatch):
    spec, (task, *_) = tasks(1)
    monkeypatch.setenv("ENVFACTORY_REPLAY_CACHE", "0")
    env = ToolUseEnv(KEY)
    try:
        env.reset(options={"task_id": task.id})
    finally:
        env.close()
    assert not cache.exists()
    replay_cache.store(spec, task, replay(spec, task))  # a file written earlier is not read either
    replayed = []
    monkeypatch.setattr(replay_cache, "replay", lambda s, t: replayed.append(t.id) or replay(s, t))
    replay_cache.cached_replay(spec, task)
    assert replayed == [task.id]


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ENVFACTORY_CACHE_DIR", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert replay_cache.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("ENVFACTORY_CACHE_DIR")
    assert replay_cache.cache_dir() == tmp_path / "xdg" / "envfactory-gym"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert replay_cache.cache_dir() == tmp_path / "home" / ".cache" / "envfactory-gym"


def test_the_test_session_caches_outside_the_home():
    folder = replay_cache.cache_dir()
    assert Path.home() not in folder.resolve().parents


def test_the_cli_shows_and_clears_the_cache(cache, fresh_process, capsys):
    spec, chosen = tasks(2)
    for task in chosen:
        replay_cache.cached_replay(spec, task)
    assert cli_main(["cache"]) == 0
    assert str(cache) in capsys.readouterr().out.replace("\n", "")
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert len(files) >= len(chosen)
    assert cli_main(["cache", "--clear"]) == 0
    assert f"removed {len(files)} cached files" in capsys.readouterr().out
    assert not [p for p in cache.rglob("*") if p.is_file()]
