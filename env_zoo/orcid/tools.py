"""ORCID's Member API v3.0 as Tidewater University's research portal (a member client) uses it: search the
registry and organizations, read a record's person section, works (grouped by identifier), affiliations, fundings
and peer reviews, see what each researcher granted the portal, and add, update and delete the portal's own items;
plus the researcher's own step of authorizing the portal at orcid.org."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import ErrorText, NonBlankText, bounded, page_size, text

from . import items
from .access import item_of, own_item, record, scopes, visible, writable
from .errors import bad_request, conflict, unauthorized
from .objects import (
    AffiliationList,
    AffiliationObject,
    ConnectedRecord,
    ConnectedRecords,
    Created,
    Deleted,
    Email,
    FundingList,
    FundingObject,
    Organization,
    OrganizationList,
    PeerReview,
    PeerReviewGroup,
    PeerReviewList,
    PermissionsObject,
    PersonObject,
    SearchHit,
    SearchResult,
    WorkGroup,
    WorkObject,
    WorksObject,
    affiliation,
    funding,
    path,
    person_item,
    source,
    sources,
    uri,
    work,
    work_summary,
)
from .rules import ACTIVITIES_UPDATE, PERSON_UPDATE, PORTAL, new_put_code, normalized_id, self_ids
from .schema import (
    affiliations,
    emails,
    fundings,
    organizations,
    peer_reviews,
    permissions,
    person_items,
    records,
    works,
)

Orcid = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$", description="ORCID iD, e.g. 0000-0002-1825-0097"),
    ErrorText("400 Bad Request: an ORCID iD is four blocks of four digits, e.g. 0000-0002-1825-0097."),
]
PutCode = Annotated[int, bounded(1)]
Visibility = Literal["public", "limited", "private"]
FuzzyDate = Annotated[
    str,
    Field(pattern=r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$", description="YYYY, YYYY-MM or YYYY-MM-DD"),
    ErrorText("400 Bad Request: dates are YYYY, YYYY-MM or YYYY-MM-DD."),
]
WorkType = Literal[
    "journal-article",
    "book",
    "book-chapter",
    "conference-paper",
    "conference-poster",
    "preprint",
    "data-set",
    "software",
    "report",
    "dissertation-thesis",
    "review",
    "other",
]
AffiliationSection = Literal[
    "employment", "education", "qualification", "invited-position", "distinction", "membership", "service"
]
Section = Literal[
    "work",
    "funding",
    "employment",
    "education",
    "qualification",
    "invited-position",
    "distinction",
    "membership",
    "service",
    "other-names",
    "keywords",
    "researcher-urls",
    "external-identifiers",
]
Scope = Literal["/read-limited", "/activities/update", "/person/update"]
Title = Annotated[str, text(1000)]
Url = Annotated[str, Field(pattern=r"^https?://\S+$", max_length=2000), ErrorText("400 Bad Request: invalid URL.")]
PERSON_SECTIONS = ("other-names", "keywords", "researcher-urls", "external-identifiers")


class ExternalIdInput(BaseModel):
    """A persistent identifier of a work."""

    type: Literal["doi", "pmid", "pmc", "isbn", "arxiv", "handle", "issn", "uri", "wosuid", "eid", "other-id"]
    value: NonBlankText
    relationship: Literal["self", "part-of", "version-of", "funded-by"] = "self"


class Granted(BaseModel):
    """What the researcher granted the portal."""

    orcid: str
    client_id: str
    scopes: list[str]


# ---------------------------------------------------------------- the researcher


@tool(user_only=True)
def authorize_portal(db: Database, orcid: Orcid, scopes: Annotated[list[Scope], Unordered]) -> Granted:
    """(User only) The researcher signs in at orcid.org and grants the portal these scopes on their record (added to
    any granted before).

    Args:
        orcid: The researcher's own ORCID iD.
        scopes: The permissions granted.
    """
    record(db, orcid)
    existing = db.find(permissions, orcid=orcid, client_id=PORTAL)
    if existing:
        merged = sorted(set(existing[0]["scopes"]) | set(scopes))
        db.update(permissions, existing[0]["id"], scopes=merged, granted=db.now_iso())
    else:
        merged = sorted(set(scopes))
        db.insert(permissions, orcid=orcid, client_id=PORTAL, scopes=merged, granted=db.now_iso())
    return Granted(orcid=orcid, client_id=PORTAL, scopes=merged)


@tool(user_only=True)
def revoke_portal(db: Database, orcid: Orcid) -> Granted:
    """(User only) The researcher removes the portal from the trusted parties of their record at orcid.org: every
    scope it held is withdrawn (the items it added stay on the record).

    Args:
        orcid: The researcher's own ORCID iD.
    """
    record(db, orcid)
    existing = db.find(permissions, orcid=orcid, client_id=PORTAL)
    if not existing:
        raise unauthorized("The client application is not authorized for this ORCID record.")
    db.delete(permissions, existing[0]["id"])
    return Granted(orcid=orcid, client_id=PORTAL, scopes=[])


# ---------------------------------------------------------------- registry and organizations


@tool(read_only=True)
def search_records(
    db: Database,
    q: Annotated[str, text(200)],
    affiliation_org_name: Annotated[str, text(200)] | None = None,
    start: Annotated[int, bounded(0, 10000)] = 0,
    rows: page_size(200) = 20,
) -> SearchResult:
    """Search the registry (expanded search) by name: every word must appear in the given, family, credit or
    other names. Deprecated and deactivated records are not listed.

    Args:
        q: Name words, e.g. "okafor" or "ana ribeiro".
        affiliation_org_name: Only researchers with an affiliation at an organization whose name contains this.
        start: Offset of the first result.
        rows: Results per page.
    """
    words = q.lower().split()
    hits: list[SearchHit] = []
    for row in db.select(records, "state IN ('active', 'locked')", order_by="family_name, given_names"):
        others = [
            item["content"]
            for item in db.find(person_items, orcid=row["orcid"], section="other-names", visibility="public")
        ]
        names = " ".join(filter(None, [row["given_names"], row["family_name"], row["credit_name"], *others])).lower()
        if not all(word in names for word in words):
            continue
        places = [
            db.get(organizations, item["organization_id"])["name"]
            for item in db.find(affiliations, orcid=row["orcid"], visibility="public")
        ]
        institutions = list(dict.fromkeys(places))
        if affiliation_org_name and not any(affiliation_org_name.lower() in name.lower() for name in institutions):
            continue
        hits.append(
            SearchHit(
                orcid_id=row["orcid"],
                given_names=row["given_names"],
                family_names=row["family_name"],
                credit_name=row["credit_name"],
                other_names=others,
                institution_name=institutions,
            )
        )
    return SearchResult(num_found=len(hits), expanded_result=hits[start : start + rows])


@tool(read_only=True)
def search_organizations(
    db: Database, q: Annotated[str, text(200)], country: Annotated[str, Field(pattern=r"^[A-Z]{2}$")] | None = None
) -> OrganizationList:
    """Find disambiguated organizations (ROR) and funders (Crossref Funder Registry) by name, for affiliations
    and fundings.

    Args:
        q: Words of the organization's name or city, e.g. "wellcome" or "tidewater".
        country: Only organizations in this country (ISO 3166 alpha-2, e.g. GB).
    """
    words = q.lower().split()
    where, params = ("country = ?", [country]) if country else ("", [])
    found = [
        Organization(**row)
        for row in db.select(organizations, where, params, order_by="name")
        if all(word in f"{row['name']} {row['city']}".lower() for word in words)
    ]
    return OrganizationList(organizations=found)


@tool(read_only=True)
def get_permissions(db: Database, orcid: Orcid) -> PermissionsObject:
    """What the researcher granted the portal on their record, their default visibility for new items, and the
    record's state.

    Args:
        orcid: The researcher's ORCID iD.
    """
    row = record(db, orcid, deactivated_ok=True)
    name = row["credit_name"] or " ".join(filter(None, [row["given_names"], row["family_name"]]))
    return PermissionsObject(
        orcid=orcid,
        name=name,
        client_id=PORTAL,
        scopes=scopes(db, orcid),
        default_visibility=row["default_visibility"],
        record_state=row["state"],
    )


@tool(read_only=True)
def list_connected_records(db: Database) -> ConnectedRecords:
    """List the researchers who connected their ORCID record to the portal, with the scopes each granted, by name."""
    connected = []
    for grant in db.find(permissions, client_id=PORTAL):
        row = db.get(records, grant["orcid"])
        name = row["credit_name"] or " ".join(filter(None, [row["given_names"], row["family_name"]]))
        connected.append(ConnectedRecord(orcid=row["orcid"], name=name, scopes=sorted(grant["scopes"])))
    return ConnectedRecords(records=sorted(connected, key=lambda item: item.name))


# ---------------------------------------------------------------- reading a record


@tool(read_only=True)
def get_person(db: Database, orcid: Orcid) -> PersonObject:
    """Read a record's person section: names, biography, emails, other names, keywords, researcher URLs and
    external identifiers (Scopus, ResearcherID...), each item with its put-code, source and visibility.

    Args:
        orcid: The researcher's ORCID iD.
    """
    row = record(db, orcid)
    granted = scopes(db, orcid)
    listed = [item for item in db.find(person_items, orcid=orcid) if visible(item, granted)]
    listed.sort(key=lambda item: (-item["display_index"], item["put_code"]))

    def section(name: str) -> list:
        return [person_item(db, item) for item in listed if item["section"] == name]

    return PersonObject(
        orcid=orcid,
        orcid_uri=uri(orcid),
        given_names=row["given_names"],
        family_name=row["family_name"],
        credit_name=row["credit_name"],
        biography=row["biography"],
        emails=[
            Email(email=e["email"], primary=e["primary"], verified=e["verified"], visibility=e["visibility"])
            for e in db.find(emails, orcid=orcid)
            if visible({**e, "source": orcid}, granted)
        ],
        other_names=section("other-names"),
        keywords=section("keywords"),
        researcher_urls=section("researcher-urls"),
        external_identifiers=section("external-identifiers"),
    )


@tool(read_only=True)
def get_works(db: Database, orcid: Orcid) -> WorksObject:
    """Read a record's works, grouped: versions of one work from different sources share a self identifier (DOI,
    PMID, ISBN...); each group names its preferred version. Newest publication first.

    Args:
        orcid: The researcher's ORCID iD.
    """
    record(db, orcid)
    granted = scopes(db, orcid)
    rows = [row for row in db.find(works, orcid=orcid) if visible(row, granted)]
    named = sources(db, orcid)
    groups = []
    for group in items.group_works(rows):
        ids: dict[tuple[str, str], dict] = {}
        for row in group:
            for external in row["external_ids"]:
                if external.get("relationship", "self") == "self":
                    ids.setdefault(normalized_id(external), external)
        groups.append(
            WorkGroup(
                external_ids=list(ids.values()),
                preferred_put_code=items.preferred(group)["put_code"],
                work_summaries=[work_summary(db, row, named) for row in group],
            )
        )
    groups.sort(key=lambda g: max((s.publication_date or "") for s in g.work_summaries), reverse=True)
    return WorksObject(
        orcid=orcid, last_modified=max((row["last_modified"] for row in rows), default=None), groups=groups
    )


@tool(read_only=True)
def get_work(db: Database, orcid: Orcid, put_code: PutCode) -> WorkObject:
    """Read one work in full (contributors, URL, subtitle).

    Args:
        orcid: The researcher's ORCID iD.
        put_code: The work's put-code.
    """
    record(db, orcid)
    return work(db, item_of(db, works, orcid, put_code, "work"))


@tool(read_only=True)
def get_affiliations(db: Database, orcid: Orcid, section: AffiliationSection | None = None) -> AffiliationList:
    """Read a record's affiliations (employments, educations, qualifications, invited positions, distinctions,
    memberships, services), newest start first; an affiliation without an end date is current.

    Args:
        orcid: The researcher's ORCID iD.
        section: Only this kind of affiliation.
    """
    record(db, orcid)
    granted = scopes(db, orcid)
    where, params = ("orcid = ? AND section = ?", [orcid, section]) if section else ("orcid = ?", [orcid])
    rows = [row for row in db.select(affiliations, where, params) if visible(row, granted)]
    rows.sort(key=lambda row: row["start_date"] or "", reverse=True)
    return AffiliationList(orcid=orcid, affiliations=[affiliation(db, row) for row in rows])


@tool(read_only=True)
def get_fundings(db: Database, orcid: Orcid) -> FundingList:
    """Read a record's fundings (grants, contracts, awards, salary awards), newest start first.

    Args:
        orcid: The researcher's ORCID iD.
    """
    record(db, orcid)
    granted = scopes(db, orcid)
    rows = [row for row in db.find(fundings, orcid=orcid) if visible(row, granted)]
    rows.sort(key=lambda row: row["start_date"] or "", reverse=True)
    return FundingList(orcid=orcid, fundings=[funding(db, row) for row in rows])


@tool(read_only=True)
def get_peer_reviews(db: Database, orcid: Orcid) -> PeerReviewList:
    """Read a record's peer reviews, grouped by journal or publisher (group-id), newest first.

    Args:
        orcid: The researcher's ORCID iD.
    """
    record(db, orcid)
    granted = scopes(db, orcid)
    groups: dict[str, PeerReviewGroup] = {}
    rows = [row for row in db.find(peer_reviews, orcid=orcid) if visible(row, granted)]
    for row in sorted(rows, key=lambda row: row["completion_date"], reverse=True):
        group = groups.setdefault(
            row["group_id"], PeerReviewGroup(group_id=row["group_id"], name=row["group_name"], peer_reviews=[])
        )
        group.peer_reviews.append(
            PeerReview(
                put_code=row["put_code"],
                role=row["role"],
                review_type=row["review_type"],
                completion_date=row["completion_date"],
                convening_organization=db.get(organizations, row["convening_organization_id"])["name"],
                visibility=row["visibility"],
                source=source(db, row["source"]),
            )
        )
    return PeerReviewList(orcid=orcid, groups=list(groups.values()))


# ---------------------------------------------------------------- the portal's own activities


@tool()
def add_work(
    db: Database,
    orcid: Orcid,
    title: Title,
    type: WorkType,
    external_ids: list[ExternalIdInput],
    publication_date: FuzzyDate | None = None,
    journal_title: Annotated[str, text(1000)] | None = None,
    subtitle: Annotated[str, text(1000)] | None = None,
    url: Url | None = None,
    contributors: list[Annotated[str, text(200)]] | None = None,
    visibility: Visibility | None = None,
) -> Created:
    """Add a work to a record (needs /activities/update). It joins the group of any version with the same self
    identifier; the portal may not add a second work with an identifier it already used on the record (409).

    Args:
        orcid: The researcher's ORCID iD.
        title: The work's title.
        type: The work type.
        external_ids: Its identifiers (at least one self identifier such as a DOI).
        publication_date: When it was published.
        journal_title: The journal or venue.
        subtitle: A subtitle.
        url: A link to the work.
        contributors: Contributors' credit names, in order.
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    row = writable(db, orcid, ACTIVITIES_UPDATE)
    external = [item.model_dump() for item in external_ids]
    keys = self_ids(external)
    if not keys:
        raise bad_request(9023, "Invalid activity, an external identifier is required.")
    items.check_duplicate(db.find(works, orcid=orcid), keys, lambda w: self_ids(w["external_ids"]))
    shown = items.new_visibility(row, visibility)
    code = new_put_code(db)
    db.insert(
        works,
        put_code=code,
        orcid=orcid,
        title=title,
        subtitle=subtitle,
        journal_title=journal_title,
        type=type,
        publication_date=publication_date,
        external_ids=external,
        url=url,
        contributors=contributors or [],
        source=PORTAL,
        visibility=shown,
        display_index=0,
        **items.stamp(db),
    )
    return Created(put_code=code, path=path(orcid, "work", code), visibility=shown)


@tool()
def update_work(
    db: Database,
    orcid: Orcid,
    put_code: PutCode,
    title: Title | None = None,
    type: WorkType | None = None,
    external_ids: list[ExternalIdInput] | None = None,
    publication_date: FuzzyDate | None = None,
    journal_title: Annotated[str, text(1000)] | None = None,
    url: Url | None = None,
    contributors: list[Annotated[str, text(200)]] | None = None,
    visibility: Visibility | None = None,
) -> WorkObject:
    """Update a work the portal added (other sources' works are read-only for it); only the fields given change.

    Args:
        orcid: The researcher's ORCID iD.
        put_code: The work's put-code.
        title: A new title.
        type: A new work type.
        external_ids: The full new list of identifiers.
        publication_date: A new publication date.
        journal_title: A new journal or venue.
        url: A new link.
        contributors: The full new list of contributors.
        visibility: Must equal the current visibility (only the researcher changes it).
    """
    writable(db, orcid, ACTIVITIES_UPDATE)
    row = own_item(item_of(db, works, orcid, put_code, "work"), "work")
    items.same_visibility(row, visibility)
    changes = {
        name: value
        for name, value in {
            "title": title,
            "type": type,
            "publication_date": publication_date,
            "journal_title": journal_title,
            "url": url,
            "contributors": contributors,
        }.items()
        if value is not None
    }
    if external_ids is not None:
        external = [item.model_dump() for item in external_ids]
        keys = self_ids(external)
        if not keys:
            raise bad_request(9023, "Invalid activity, an external identifier is required.")
        items.check_duplicate(db.find(works, orcid=orcid), keys, lambda w: self_ids(w["external_ids"]), put_code)
        changes["external_ids"] = external
    return work(db, db.update(works, put_code, **changes, last_modified=db.now_iso()))


@tool()
def add_affiliation(
    db: Database,
    orcid: Orcid,
    section: AffiliationSection,
    organization_id: NonBlankText,
    role_title: Annotated[str, text(1000)] | None = None,
    department: Annotated[str, text(1000)] | None = None,
    start_date: FuzzyDate | None = None,
    end_date: FuzzyDate | None = None,
    visibility: Visibility | None = None,
) -> Created:
    """Add an employment, education or other affiliation (needs /activities/update); the organization must be a
    disambiguated one from search_organizations.

    Args:
        orcid: The researcher's ORCID iD.
        section: Which kind of affiliation.
        organization_id: The organization's disambiguated id (a ROR URL).
        role_title: Role or degree, e.g. "Senior Lecturer" or "PhD".
        department: Department name.
        start_date: Start date.
        end_date: End date (none: current).
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    row = writable(db, orcid, ACTIVITIES_UPDATE)
    if not db.find(organizations, id=organization_id):
        raise bad_request(9045, "disambiguated-organization must be present and valid")
    items.check_dates(start_date, end_date)
    shown = items.new_visibility(row, visibility)
    code = new_put_code(db)
    db.insert(
        affiliations,
        put_code=code,
        orcid=orcid,
        section=section,
        organization_id=organization_id,
        department=department,
        role_title=role_title,
        start_date=start_date,
        end_date=end_date,
        source=PORTAL,
        visibility=shown,
        **items.stamp(db),
    )
    return Created(put_code=code, path=path(orcid, section, code), visibility=shown)


@tool()
def update_affiliation(
    db: Database,
    orcid: Orcid,
    put_code: PutCode,
    role_title: Annotated[str, text(1000)] | None = None,
    department: Annotated[str, text(1000)] | None = None,
    start_date: FuzzyDate | None = None,
    end_date: FuzzyDate | None = None,
    clear_end_date: bool = False,
    visibility: Visibility | None = None,
) -> AffiliationObject:
    """Update an affiliation the portal added (e.g. give it an end date); only the fields given change.

    Args:
        orcid: The researcher's ORCID iD.
        put_code: The affiliation's put-code.
        role_title: A new role title.
        department: A new department.
        start_date: A new start date.
        end_date: A new end date.
        clear_end_date: Remove the end date (the affiliation is current again); not together with end_date.
        visibility: Must equal the current visibility (only the researcher changes it).
    """
    writable(db, orcid, ACTIVITIES_UPDATE)
    row = own_item(item_of(db, affiliations, orcid, put_code, "affiliation"), "affiliation")
    items.same_visibility(row, visibility)
    if clear_end_date and end_date:
        raise bad_request(9020, "Invalid incoming message: give an end-date or clear it, not both.")
    items.check_dates(start_date or row["start_date"], None if clear_end_date else end_date or row["end_date"])
    changes = {
        name: value
        for name, value in {
            "role_title": role_title,
            "department": department,
            "start_date": start_date,
            "end_date": end_date,
        }.items()
        if value is not None
    }
    if clear_end_date:
        changes["end_date"] = None
    return affiliation(db, db.update(affiliations, put_code, **changes, last_modified=db.now_iso()))


@tool()
def add_funding(
    db: Database,
    orcid: Orcid,
    type: Literal["grant", "contract", "award", "salary-award"],
    title: Title,
    funder_id: NonBlankText,
    grant_number: Annotated[str, text(200)],
    amount: Annotated[str, Field(pattern=r"^\d+(\.\d{1,2})?$")] | None = None,
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")] | None = None,
    start_date: FuzzyDate | None = None,
    end_date: FuzzyDate | None = None,
    visibility: Visibility | None = None,
) -> Created:
    """Add a funding (needs /activities/update); the funder must be a disambiguated organization, and the portal
    may not add a grant number it already added on the record (409).

    Args:
        orcid: The researcher's ORCID iD.
        type: grant, contract, award or salary-award.
        title: The project title.
        funder_id: The funder's disambiguated id (from search_organizations).
        grant_number: The funder's grant number.
        amount: The total amount, e.g. "250000" or "1250.50".
        currency: ISO 4217 currency of the amount (required with an amount).
        start_date: Start date.
        end_date: End date.
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    row = writable(db, orcid, ACTIVITIES_UPDATE)
    if not db.find(organizations, id=funder_id):
        raise bad_request(9045, "disambiguated-organization must be present and valid")
    if (amount is None) != (currency is None):
        raise bad_request(9020, "Invalid incoming message: an amount needs its currency code.")
    items.check_dates(start_date, end_date)
    number = grant_number.strip()
    items.check_duplicate(db.find(fundings, orcid=orcid), {("grant_number", number.lower())}, _grant_key)
    shown = items.new_visibility(row, visibility)
    code = new_put_code(db)
    db.insert(
        fundings,
        put_code=code,
        orcid=orcid,
        type=type,
        title=title,
        organization_id=funder_id,
        grant_number=number,
        amount=amount,
        currency=currency,
        start_date=start_date,
        end_date=end_date,
        source=PORTAL,
        visibility=shown,
        **items.stamp(db),
    )
    return Created(put_code=code, path=path(orcid, "funding", code), visibility=shown)


def _grant_key(row: dict) -> set[tuple[str, str]]:
    return {("grant_number", row["grant_number"].lower())} if row["grant_number"] else set()


@tool()
def update_funding(
    db: Database,
    orcid: Orcid,
    put_code: PutCode,
    title: Title | None = None,
    amount: Annotated[str, Field(pattern=r"^\d+(\.\d{1,2})?$")] | None = None,
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")] | None = None,
    start_date: FuzzyDate | None = None,
    end_date: FuzzyDate | None = None,
    visibility: Visibility | None = None,
) -> FundingObject:
    """Update a funding the portal added; only the fields given change.

    Args:
        orcid: The researcher's ORCID iD.
        put_code: The funding's put-code.
        title: A new title.
        amount: A new amount.
        currency: The amount's currency.
        start_date: A new start date.
        end_date: A new end date.
        visibility: Must equal the current visibility (only the researcher changes it).
    """
    writable(db, orcid, ACTIVITIES_UPDATE)
    row = own_item(item_of(db, fundings, orcid, put_code, "funding"), "funding")
    items.same_visibility(row, visibility)
    if (amount or row["amount"]) and not (currency or row["currency"]):
        raise bad_request(9020, "Invalid incoming message: an amount needs its currency code.")
    items.check_dates(start_date or row["start_date"], end_date or row["end_date"])
    changes = {
        name: value
        for name, value in {
            "title": title,
            "amount": amount,
            "currency": currency,
            "start_date": start_date,
            "end_date": end_date,
        }.items()
        if value is not None
    }
    return funding(db, db.update(fundings, put_code, **changes, last_modified=db.now_iso()))


# ---------------------------------------------------------------- the portal's own person items


def _add_person_item(
    db: Database, orcid: str, section: str, content: str, id_type: str | None, url: str | None, visibility: str | None
) -> Created:
    row = writable(db, orcid, PERSON_UPDATE)
    key = (id_type or "", content.strip().lower())
    for item in db.find(person_items, orcid=orcid, section=section, source=PORTAL):
        if (item["id_type"] or "", item["content"].lower()) == key:
            raise conflict(9030, f"The element '{content.strip()}' of type '{section}' is duplicated.")
    shown = items.new_visibility(row, visibility)
    code = new_put_code(db)
    db.insert(
        person_items,
        put_code=code,
        orcid=orcid,
        section=section,
        content=content.strip(),
        id_type=id_type,
        url=url,
        source=PORTAL,
        visibility=shown,
        display_index=0,
        created=db.now_iso(),
    )
    return Created(put_code=code, path=path(orcid, section, code), visibility=shown)


@tool()
def add_keyword(
    db: Database, orcid: Orcid, keyword: Annotated[str, text(100)], visibility: Visibility | None = None
) -> Created:
    """Add a keyword to a record's person section (needs /person/update).

    Args:
        orcid: The researcher's ORCID iD.
        keyword: The keyword.
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    return _add_person_item(db, orcid, "keywords", keyword, None, None, visibility)


@tool()
def add_researcher_url(
    db: Database, orcid: Orcid, name: Annotated[str, text(355)], url: Url, visibility: Visibility | None = None
) -> Created:
    """Add a link (lab page, profile) to a record's person section (needs /person/update).

    Args:
        orcid: The researcher's ORCID iD.
        name: The link's name, e.g. "Lab website".
        url: The address.
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    return _add_person_item(db, orcid, "researcher-urls", name, None, url, visibility)


@tool()
def add_external_identifier(
    db: Database,
    orcid: Orcid,
    type: Annotated[str, text(100)],
    value: Annotated[str, text(200)],
    url: Url,
    visibility: Visibility | None = None,
) -> Created:
    """Add a person identifier from another system (Scopus Author ID, ResearcherID, Loop profile...) (needs
    /person/update); the portal may not add the same identifier twice (409).

    Args:
        orcid: The researcher's ORCID iD.
        type: The identifier's type, e.g. "Scopus Author ID".
        value: The identifier.
        url: Where the identifier resolves.
        visibility: Defaults to the researcher's default visibility; it may be more private, never more open.
    """
    return _add_person_item(db, orcid, "external-identifiers", value, type, url, visibility)


@tool()
def delete_item(db: Database, orcid: Orcid, section: Section, put_code: PutCode) -> Deleted:
    """Delete an item the portal added (another source's items can only be removed by the researcher).

    Args:
        orcid: The researcher's ORCID iD.
        section: The item's section, as in its path.
        put_code: The item's put-code.
    """
    if section in PERSON_SECTIONS:
        writable(db, orcid, PERSON_UPDATE)
        table, equals = person_items, {"section": section}
    else:
        writable(db, orcid, ACTIVITIES_UPDATE)
        table, equals = {"work": (works, {}), "funding": (fundings, {})}.get(
            section, (affiliations, {"section": section})
        )
    row = own_item(item_of(db, table, orcid, put_code, section, **equals), section)
    db.delete(table, row["put_code"])
    return Deleted(put_code=put_code, path=path(orcid, section, put_code))
