"""Zendesk business-rule conditions (views, SLA policy filters) and SLA metrics computed from a ticket's history."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym.values import iso_timestamp, parse_timestamp

STATUS_ORDER = ["new", "open", "pending", "hold", "solved", "closed"]
PRIORITY_ORDER = ["low", "normal", "high", "urgent"]
UNSOLVED = ("new", "open", "pending", "hold")
AGENT_ROLES = ("agent", "admin")


def _rank(field: str, value: Any) -> int | None:
    order = STATUS_ORDER if field == "status" else PRIORITY_ORDER
    return order.index(value) if value in order else None


def condition_holds(condition: dict[str, Any], ticket: dict[str, Any], current_user_id: int | None) -> bool:
    """Whether one {"field", "operator", "value"} condition holds for a ticket row."""
    field, operator, value = condition["field"], condition["operator"], condition.get("value")
    if field == "current_tags":
        wanted = set(str(value).split())
        found = bool(wanted & set(ticket["tags"]))
        return found if operator == "includes" else not found
    actual = ticket[field]
    if value == "current_user":
        value = current_user_id
    if value == "":
        value = None
    if operator in ("less_than", "greater_than"):
        left, right = _rank(field, actual), _rank(field, value)
        if left is None or right is None:
            return False
        return left < right if operator == "less_than" else left > right
    return (actual == value) if operator == "is" else (actual != value)


def conditions_match(conditions: dict[str, Any], ticket: dict[str, Any], current_user_id: int | None) -> bool:
    """All of `all` hold and, when `any` is non-empty, at least one of it."""
    if not all(condition_holds(c, ticket, current_user_id) for c in conditions.get("all", [])):
        return False
    alternatives = conditions.get("any", [])
    return not alternatives or any(condition_holds(c, ticket, current_user_id) for c in alternatives)


def applicable_policy(policies: list[dict[str, Any]], ticket: dict[str, Any]) -> dict[str, Any] | None:
    """The first policy (by position) whose filter matches; tickets without a priority get no SLA."""
    if ticket["priority"] is None:
        return None
    for policy in sorted(policies, key=lambda p: p["position"]):
        if conditions_match(policy["filter"], ticket, None):
            return policy
    return None


def _reply_windows(ticket: dict[str, Any], comments: list[dict[str, Any]], roles: dict[int, str]) -> list[tuple]:
    """(metric, started, fulfilled) for first_reply_time and the current next_reply_time window."""
    public = [c for c in comments if c["public"]]
    if not public:
        return []
    agent = [roles.get(c["author_id"]) in AGENT_ROLES for c in public]
    windows: list[tuple] = []
    if not agent[0]:
        first_reply = next((c["created_at"] for c, a in zip(public, agent) if a), None)
        windows.append(("first_reply_time", ticket["created_at"], first_reply))
    started = None
    fulfilled = None
    for index in range(1, len(public)):
        if not agent[index] and agent[index - 1]:
            started, fulfilled = public[index]["created_at"], None
        elif agent[index] and started is not None and fulfilled is None:
            fulfilled = public[index]["created_at"]
    if started is not None:
        windows.append(("next_reply_time", started, fulfilled))
    return windows


def sla_metrics(
    ticket: dict[str, Any],
    comments: list[dict[str, Any]],
    roles: dict[int, str],
    policy: dict[str, Any] | None,
    now: datetime,
) -> list[dict[str, Any]]:
    """The policy's reply-time targets for this ticket: breach_at and stage (active, achieved or breached).

    A target is fulfilled by an agent's public reply; solving the ticket fulfils whatever is still running.
    """
    if policy is None:
        return []
    targets = {m["metric"]: m["target"] for m in policy["policy_metrics"] if m["priority"] == ticket["priority"]}
    result = []
    for metric, started, fulfilled in _reply_windows(ticket, comments, roles):
        if metric not in targets:
            continue
        if fulfilled is None and ticket["status"] not in UNSOLVED:
            fulfilled = ticket["solved_at"] or ticket["updated_at"]
        breach_at = iso_timestamp(parse_timestamp(started, "created_at") + timedelta(minutes=targets[metric]))
        if fulfilled is not None:
            stage = "achieved" if fulfilled <= breach_at else "breached"
        else:
            stage = "breached" if iso_timestamp(now) >= breach_at else "active"
        result.append({"metric": metric, "target_minutes": targets[metric], "breach_at": breach_at, "stage": stage})
    return result
