"""What a run was: its settings as a report shows them (model, endpoint, tool format, sampling, k, user, split,
environment versions and content hashes, package version, wall time, price), the price of each agent's tokens,
and whether two runs can be compared."""

from __future__ import annotations

from typing import Any

from .prices import Price, price_for
from .rundir import RunDirectory

#: Settings that change the benchmark itself: runs that differ in one are not compared unless forced.
MUST_MATCH = ("split", "user", "user_model")
#: Settings that change how the model was asked: runs may differ (a comparison of tool formats is one), with a
#: warning.
SHOULD_MATCH = ("tool_format", "k", "max_steps", "seed")


def run_settings(rundir: RunDirectory) -> dict[str, Any]:
    """The run's settings: what defines it (config.json) and what its sessions logged (the latest endpoint, package
    version and price; the first start; the wall time summed over the sessions)."""
    config = rundir.config()
    sessions = rundir.sessions()
    latest = lambda key: next((s[key] for s in reversed(sessions) if s.get(key)), None)  # noqa: E731
    return {
        "model": config.get("model"),
        "endpoint": latest("endpoint"),
        "tool_format": config.get("tool_format"),
        "temperature": config.get("temperature"),
        "max_tokens": config.get("max_tokens"),
        "thinking": config.get("thinking"),
        "k": config.get("k"),
        "user": config.get("user"),
        "user_model": config.get("user_model"),
        "split": config.get("split"),
        "max_steps": config.get("max_steps"),
        "seed": config.get("seed"),
        "baselines": config.get("baselines", []),
        "tasks": [tuple(task) for task in config.get("tasks", [])],
        "environments": config.get("environments"),
        "package_version": latest("package_version"),
        "price": latest("price"),
        "sessions": len(sessions),
        "started_at": sessions[0].get("started_at") if sessions else None,
        "wall_seconds": sum(float(s.get("seconds", 0.0)) for s in sessions),
    }


def agent_prices(
    settings: dict[str, Any], table: dict[str, tuple[float, float]], given: Price | None = None
) -> dict[str, Price]:
    """The price of the run's model: `given` (--price-in/--price-out now), else the one its run was started with,
    else the price table's; empty for a run without a model or with an unknown one."""
    model = settings.get("model")
    if not model:
        return {}
    stored = settings.get("price")
    price = given or (Price(stored["input"], stored["output"], "given with the run") if stored else None)
    price = price or price_for(model, table)
    return {model: price} if price else {}


def settings_rows(settings: dict[str, Any], prices: dict[str, Price]) -> list[tuple[str, str]]:
    """The settings as (name, value) rows for the top of a report."""
    endpoint = settings.get("endpoint") or {}
    envs = settings.get("environments") or {}
    model = settings.get("model")
    price = prices.get(model or "")
    thinking = settings.get("thinking")
    rows = [
        ("model", model or "(baselines only)"),
        (
            "endpoint",
            f"{endpoint.get('kind', '?')} at {endpoint.get('url', '?')}"
            + (f", context {endpoint['max_model_len']:,} tokens" if endpoint.get("max_model_len") else "")
            if endpoint
            else "-",
        ),
        ("tool format", str(settings.get("tool_format"))),
        ("temperature", str(settings.get("temperature"))),
        ("max tokens per answer", str(settings.get("max_tokens"))),
        ("thinking", "server default" if thinking is None else "on" if thinking else "off"),
        ("k (samples per task)", str(settings.get("k"))),
        ("user", str(settings.get("user")) + (f" ({settings['user_model']})" if settings.get("user_model") else "")),
        ("split", f"{settings.get('split')} ({len(settings.get('tasks', []))} tasks, {len(envs)} environments)"),
        ("max steps", str(settings.get("max_steps"))),
        ("seed", str(settings.get("seed"))),
        ("baselines", ", ".join(settings.get("baselines") or []) or "none"),
        (
            "price (USD per 1M tokens in / out)",
            f"{price.input:g} / {price.output:g} ({price.source})"
            if price
            else "unknown (pass --price-in/--price-out)"
            if model
            else "-",
        ),
        ("package", f"envfactory-gym {settings.get('package_version') or 'unknown'}"),
        (
            "wall time",
            f"{settings.get('wall_seconds', 0.0):,.1f} s over {settings.get('sessions', 0)} session(s)"
            + (f", first started {settings['started_at']}" if settings.get("started_at") else ""),
        ),
        (
            "environments",
            "; ".join(f"{env} {info['hash'][:12]}" for env, info in sorted(envs.items())) or "not recorded",
        ),
    ]
    return rows


def _environments_differ(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    envs_a, envs_b = a.get("environments"), b.get("environments")
    if envs_a is None or envs_b is None:
        return []
    return [
        f"{env} (v{envs_a[env]['version']} {envs_a[env]['hash'][:12]} vs v{envs_b[env]['version']} "
        f"{envs_b[env]['hash'][:12]})"
        for env in sorted(set(envs_a) & set(envs_b))
        if envs_a[env] != envs_b[env]
    ]


def incompatibilities(
    a: dict[str, Any], b: dict[str, Any], name_a: str = "A", name_b: str = "B"
) -> tuple[list[str], list[str]]:
    """Why runs `a` and `b` (`run_settings`) cannot be compared (refusals: environment content, split, simulated
    user) and what to keep in mind if they are (warnings: tool format, k, max steps, seed, tasks not shared,
    environment hashes not recorded)."""
    refusals, warnings = [], []
    changed = _environments_differ(a, b)
    if changed:
        refusals.append(f"the runs differ in environment content: {', '.join(changed)}")
    for key in MUST_MATCH:
        if a.get(key) != b.get(key):
            refusals.append(f"the runs differ in {key} ({a.get(key)} vs {b.get(key)})")
    for key in SHOULD_MATCH:
        if a.get(key) != b.get(key):
            warnings.append(f"the runs differ in {key} ({a.get(key)} vs {b.get(key)})")
    tasks_a, tasks_b = set(a.get("tasks", [])), set(b.get("tasks", []))
    if tasks_a != tasks_b:
        warnings.append(
            f"the runs share {len(tasks_a & tasks_b)} of {len(tasks_a | tasks_b)} tasks; only shared tasks are compared"
        )
    for name, settings in ((name_a, a), (name_b, b)):
        if settings.get("environments") is None:
            warnings.append(f"{name} recorded no environment versions (an older run): their content is not checked")
    return refusals, warnings
