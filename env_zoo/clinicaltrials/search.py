"""The registry's study search (GET /studies): the filters of a query, which studies pass them, in which order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database

from .matching import distance_km, geo_circle, matches
from .rules import age_fits
from .schema import locations, studies

SORT_FIELDS = {
    "LastUpdatePostDate": "last_update_post_date",
    "StartDate": "start_date",
    "EnrollmentCount": "enrollment_count",
    "NCTId": "nct_id",
    "PrimaryCompletionDate": "primary_completion_date",
}


@dataclass(frozen=True)
class Filters:
    """What a search asks for: query words per search area and the narrowing filters."""

    query_cond: str = ""
    query_term: str = ""
    query_intr: str = ""
    query_locn: str = ""
    query_spons: str = ""
    overall_status: list[str] | None = None
    phase: list[str] | None = None
    study_type: str | None = None
    sex: str | None = None
    age: int | None = None
    healthy_volunteers: bool | None = None
    geo: str | None = None


def site_text(site: dict[str, Any]) -> str:
    """The words a site's location is found by."""
    return f"{site['facility']} {site['city']} {site['state'] or ''} {site['zip'] or ''} {site['country']}"


def fits(row: dict[str, Any], own: list[dict[str, Any]], f: Filters, near: tuple[float, float, float] | None) -> bool:
    """Whether a study (with its sites) passes every filter and query of the search."""
    if f.overall_status and row["overall_status"] not in f.overall_status:
        return False
    if f.phase and not set(row["phases"] or ["NA"]) & set(f.phase):
        return False
    if (f.study_type and row["study_type"] != f.study_type) or (f.sex and row["sex"] not in ("ALL", f.sex)):
        return False
    if f.healthy_volunteers is not None and row["healthy_volunteers"] != f.healthy_volunteers:
        return False
    if f.age is not None and not age_fits(row, f.age):
        return False
    conditions = row["conditions"] + row["keywords"] + [row["brief_title"], row["official_title"], row["nct_id"]]
    treatments = [f"{i['type']} {i['name']} {i['description']}" for i in row["interventions"]]
    treatments += [f"{a['label']} {a['description']}" for a in row["arm_groups"]]
    terms = [row["nct_id"], row["acronym"] or "", row["brief_title"], row["official_title"], row["brief_summary"]]
    terms += [row["lead_sponsor"], *row["conditions"], *row["keywords"], *(i["name"] for i in row["interventions"])]
    if not (
        matches(f.query_cond, conditions)
        and matches(f.query_intr, treatments)
        and matches(f.query_spons, [row["lead_sponsor"], *row["collaborators"]])
        and matches(f.query_term, terms)
    ):
        return False
    if f.query_locn.strip() and not any(matches(f.query_locn, [site_text(s)]) for s in own):
        return False
    return not near or any(distance_km(near[0], near[1], s["lat"], s["lon"]) <= near[2] for s in own)


def find_studies(db: Database, f: Filters, sort: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The studies passing the search, in the sort's order (undated last), and each study's site count."""
    near = geo_circle(f.geo) if f.geo else None
    sites: dict[str, list[dict[str, Any]]] = {}
    for site in db.find(locations):
        sites.setdefault(site["nct_id"], []).append(site)
    found = [
        row for row in db.find(studies, order_by=[studies.c.nct_id]) if fits(row, sites.get(row["nct_id"], []), f, near)
    ]
    field, _, direction = sort.partition(":")
    column = SORT_FIELDS[field]
    descending = direction == "desc" if direction else field != "NCTId"
    dated = sorted((r for r in found if r[column] is not None), key=lambda r: r[column], reverse=descending)
    return dated + [r for r in found if r[column] is None], {k: len(v) for k, v in sites.items()}
