"""How AWS decides a request: the signed-in user's identity-based policies and the bucket's resource-based policy
are read together; an explicit Deny in either wins, else an Allow in either grants, else the request is implicitly
denied. Actions and resources match with `*` and `?` wildcards (actions case-insensitively)."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any, Literal

Decision = Literal["allowed", "explicitDeny", "implicitDeny"]


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _principals(statement: dict[str, Any]) -> list[str]:
    principal = statement.get("Principal")
    if principal == "*":
        return ["*"]
    if isinstance(principal, dict):
        return _as_list(principal.get("AWS"))
    return []


def statement_matches(statement: dict[str, Any], action: str, resource: str, principal: str | None) -> bool:
    """Whether a statement covers the action on the resource (and, for a resource policy, names the principal)."""
    if principal is not None:
        names = _principals(statement)
        if "*" not in names and principal not in names:
            return False
    actions = _as_list(statement.get("Action"))
    if not any(fnmatchcase(action.lower(), pattern.lower()) for pattern in actions):
        return False
    return any(fnmatchcase(resource, pattern) for pattern in _as_list(statement.get("Resource")))


def evaluate(
    identity: list[dict[str, Any]], resource_policy: dict[str, Any] | None, principal: str, action: str, resource: str
) -> tuple[Decision, str | None]:
    """The decision and which kind of policy made it ("identity" or "resource"; None for an implicit deny)."""
    sources = [("identity", s, None) for doc in identity for s in _as_list_of_dicts(doc)]
    if resource_policy:
        sources += [("resource", s, principal) for s in _as_list_of_dicts(resource_policy)]
    matching = [(kind, s) for kind, s, who in sources if statement_matches(s, action, resource, who)]
    for kind, statement in matching:
        if statement.get("Effect") == "Deny":
            return "explicitDeny", kind
    for kind, statement in matching:
        if statement.get("Effect") == "Allow":
            return "allowed", kind
    return "implicitDeny", None


def _as_list_of_dicts(document: dict[str, Any]) -> list[dict[str, Any]]:
    statements = document.get("Statement", [])
    return [statements] if isinstance(statements, dict) else list(statements)


def is_public(document: dict[str, Any]) -> bool:
    """A bucket policy is public when one of its Allow statements names the principal "*"."""
    return any(s.get("Effect") == "Allow" and "*" in _principals(s) for s in _as_list_of_dicts(document))
