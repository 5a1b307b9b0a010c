"""Datadog's rules for monitor queries and thresholds, downtime status, and SLO error budgets."""

from __future__ import annotations

import re
from typing import Any

from .errors import bad_request

#: a metric or log alert query ends in its comparison and the critical threshold, e.g. `... by {host} > 90`
THRESHOLD_AT_END = re.compile(r"(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")
QUERY_SHAPES = {
    "metric alert": re.compile(r"^(avg|sum|min|max|change|pct_change)\(last_\d+[mhd]\):.+\{.*\}.*(>=|<=|>|<)"),
    "log alert": re.compile(r'^logs\(".*"\)\.index\(".+"\)\.rollup\(".+"\)\.last\("\d+[mhd]"\)\s*(>=|<=|>|<)'),
    "service check": re.compile(r'^".+"\.over\(.*\)(\.by\(.*\))?\.last\(\d+\)\.count_by_status\(\)$'),
}


def check_thresholds(kind: str, query: str, critical: float | None, warning: float | None) -> None:
    """400 unless the query fits the monitor type, the critical threshold equals the query's, and the warning
    threshold sits on the alerting side's near side of critical (below it for > and >=, above it for < and <=)."""
    if not QUERY_SHAPES[kind].match(query.strip()):
        raise bad_request(f"The value provided for parameter 'query' is invalid for a {kind} monitor")
    if kind == "service check":
        if critical is not None and critical < 1 or warning is not None and warning < 1:
            raise bad_request("Service check thresholds are counts of consecutive checks and must be at least 1")
        if critical is not None and warning is not None and warning > critical:
            raise bad_request(f"Warning threshold ({warning:g}) must not exceed critical threshold ({critical:g})")
        return
    found = THRESHOLD_AT_END.search(query)
    assert found is not None  # the shape regexes require a comparator
    operator, in_query = found.group(1), float(found.group(2))
    if critical is None:
        raise bad_request("Critical threshold is required for this monitor type")
    if critical != in_query:
        raise bad_request(f"Alert threshold ({critical:g}) does not match that used in the query ({in_query:g}).")
    if warning is None:
        return
    if operator in (">", ">=") and warning >= critical:
        raise bad_request(
            f"Warning threshold ({warning:g}) must be less than the alert threshold ({critical:g}) "
            f"for a '{operator}' comparison."
        )
    if operator in ("<", "<=") and warning <= critical:
        raise bad_request(
            f"Warning threshold ({warning:g}) must be greater than the alert threshold ({critical:g}) "
            f"for a '{operator}' comparison."
        )


def downtime_status(row: dict[str, Any], now: str) -> str:
    """canceled, ended (its end has passed), active (started) or scheduled."""
    if row["canceled"]:
        return "canceled"
    if row["end"] and row["end"] <= now:
        return "ended"
    return "active" if row["start"] <= now else "scheduled"


def error_budget_remaining(sli: float | None, target: float) -> float | None:
    """Share of the error budget left, in percent (negative once breached); None without data."""
    if sli is None:
        return None
    return round((sli - target) / (100 - target) * 100, 2)
