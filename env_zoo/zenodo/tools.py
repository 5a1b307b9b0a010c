"""Zenodo's REST API as a signed-in researcher uses it: search published records, read records and their versions,
manage their own depositions (create, update, upload and delete files, publish, reopen for editing, discard an
edit, delete a draft, start a new version), look up licenses and communities, and request inclusion of records in
communities, where curators accept or decline; plus the user's own sign-in (a personal access token)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, NonEmptyText, bounded, page_size, text

from . import deposits
from .access import community_by_slug, curates, me, own_deposition, role_in
from .errors import bad_request, conflict, forbidden, not_found, validation
from .objects import (
    CommunityList,
    DepositionList,
    DepositionObject,
    FileObject,
    LicenseList,
    LicenseObject,
    RecordHits,
    RecordObject,
    RequestList,
    RequestObject,
    VersionList,
    community,
    deposition,
    deposition_summary,
    record,
    record_summary,
    request,
)
from .rules import MAX_BUCKET_BYTES, MAX_FILES, checksum
from .schema import communities, community_members, depositions, files, licenses, requests, sessions, users
from .search import search_records as run_search

UploadType = Literal[
    "publication",
    "poster",
    "presentation",
    "dataset",
    "image",
    "video",
    "software",
    "lesson",
    "physicalobject",
    "other",
]
PublicationType = Literal[
    "annotationcollection",
    "book",
    "section",
    "conferencepaper",
    "datamanagementplan",
    "article",
    "patent",
    "preprint",
    "deliverable",
    "milestone",
    "proposal",
    "report",
    "softwaredocumentation",
    "taxonomictreatment",
    "technicalnote",
    "thesis",
    "workingpaper",
    "other",
]
ImageType = Literal["figure", "plot", "drawing", "diagram", "photo", "other"]
AccessRight = Literal["open", "embargoed", "restricted", "closed"]
Relation = Literal[
    "isCitedBy",
    "cites",
    "isSupplementTo",
    "isSupplementedBy",
    "isContinuedBy",
    "continues",
    "isDescribedBy",
    "describes",
    "isNewVersionOf",
    "isPreviousVersionOf",
    "isPartOf",
    "hasPart",
    "isReferencedBy",
    "references",
    "isDocumentedBy",
    "documents",
    "isDerivedFrom",
    "isSourceOf",
    "isIdenticalTo",
]
CreatorName = Annotated[
    str,
    Field(pattern=r"^[^,]+, [^,]+$", description='"Family name, Given names"'),
    ErrorText('Creator name must be written "Family name, Given names".'),
]
Orcid = Annotated[str, Field(pattern=r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$"), ErrorText("Not a valid ORCID identifier.")]
Title = Annotated[str, text(500, 3)]
Description = Annotated[str, text(20000)]
Keyword = Annotated[str, text(100)]
Sort = Literal["bestmatch", "mostrecent", "-mostrecent"]
Clearable = Literal[
    "publication_type",
    "image_type",
    "license",
    "embargo_date",
    "access_conditions",
    "related_identifiers",
    "version",
    "notes",
]
Page = Annotated[int, bounded(1, 1000)]
Size = page_size(100)
RecordId = Annotated[int, bounded(1)]
Filename = Annotated[
    str,
    Field(min_length=1, max_length=255, pattern=r"^[^/\\]+$"),
    ErrorText("Filename must be 1-255 characters without slashes."),
]


class Creator(BaseModel):
    """A creator as Zenodo takes it."""

    name: CreatorName
    affiliation: Annotated[str, text(200)] | None = None
    orcid: Orcid | None = None


class RelatedIdentifier(BaseModel):
    """A persistent identifier (DOI, URL, arXiv id...) of a related work."""

    identifier: NonBlankText
    relation: Relation
    resource_type: UploadType | None = None


class SignedIn(BaseModel):
    """Whose token the app uses."""

    id: int
    username: str
    full_name: str
    orcid: str | None
    affiliation: str | None


class Deleted(BaseModel):
    """What was deleted."""

    id: str
    deleted: bool = True


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, email: NonEmptyText) -> SignedIn:
    """(User only) The user creates a personal access token with the deposit:write and deposit:actions scopes in
    their Zenodo account settings and hands it to the app.

    Args:
        email: The email address of the user's Zenodo account.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise not_found("No Zenodo account with this email address.")
    user = found[0]
    db.start_session(sessions, user_id=user["id"])
    return SignedIn(
        id=user["id"],
        username=user["username"],
        full_name=user["full_name"],
        orcid=user["orcid"],
        affiliation=user["affiliation"],
    )


# ---------------------------------------------------------------- records (published, public)


@tool(read_only=True)
def search_records(
    db: Database,
    q: Annotated[str, text(500, 0)] = "",
    sort: Sort = "bestmatch",
    page: Page = 1,
    size: Size = 10,
    communities: Annotated[str, text(100)] | None = None,
    type: UploadType | None = None,
    access_right: AccessRight | None = None,
    all_versions: bool = False,
) -> RecordHits:
    """Search published records. Only each work's latest version is listed unless all_versions is true.

    Args:
        q: Words that must all appear in the title, description, creators or keywords; "quoted phrases"; or
            field:value terms on title, creators.name, keywords, description, doi, upload_type, access_right.
        sort: bestmatch (title matches first), mostrecent or -mostrecent (oldest first).
        page: Page number, from 1.
        size: Results per page.
        communities: Only records included in this community (its slug).
        type: Only records of this upload type.
        access_right: Only records with this access right.
        all_versions: List every published version, not only the latest.
    """
    me(db)
    extra: list[str] = []
    params: list[Any] = []
    if communities:
        extra.append("communities LIKE ?")
        params.append(f'%"{communities.strip().lower()}"%')
    if type:
        extra.append("upload_type = ?")
        params.append(type)
    if access_right:
        extra.append("access_right = ?")
        params.append(access_right)
    if not all_versions:
        extra.append(
            "id = (SELECT max(v.id) FROM depositions v WHERE v.conceptrecid = depositions.conceptrecid"
            " AND v.submitted = 1)"
        )
    total, ids = run_search(db, q, extra, params, sort, page, size)
    return RecordHits(total=total, page=page, size=size, hits=[record_summary(db.get(depositions, key)) for key in ids])


@tool(read_only=True)
def get_record(db: Database, record_id: RecordId) -> RecordObject:
    """Get a published record: its metadata, DOIs, owner, whether it is the latest version, and its files where
    access allows.

    Args:
        record_id: The record's id (the number in its DOI 10.5281/zenodo.<id>).
    """
    me(db)
    row = deposits.published_record(db, record_id)
    return record(db, row, deposits.latest_id(db, row["conceptrecid"]) == row["id"])


@tool(read_only=True)
def list_record_versions(db: Database, record_id: RecordId) -> VersionList:
    """List every published version of the work a record belongs to, newest first (the concept DOI resolves to
    the newest); the owner also sees their unpublished new-version draft.

    Args:
        record_id: Any version's record id, or the concept record id.
    """
    user = me(db)
    found = db.find(depositions, id=record_id) or db.find(depositions, conceptrecid=record_id)
    if not found or not any(r["submitted"] for r in db.find(depositions, conceptrecid=found[0]["conceptrecid"])):
        raise not_found()
    concept = found[0]["conceptrecid"]
    rows = db.find(depositions, conceptrecid=concept, order_by=[depositions.c.id.desc()])
    published = [r for r in rows if r["submitted"]]
    draft = next((r["id"] for r in rows if not r["submitted"] and r["owner_id"] == user["id"]), None)
    return VersionList(
        conceptrecid=concept,
        conceptdoi=published[0]["conceptdoi"],
        total=len(published),
        hits=[record_summary(r) for r in published],
        draft_id=draft,
    )


# ---------------------------------------------------------------- the user's depositions


@tool(read_only=True)
def list_depositions(
    db: Database,
    q: Annotated[str, text(500, 0)] = "",
    status: Literal["draft", "published"] | None = None,
    sort: Literal["bestmatch", "mostrecent", "-mostrecent"] = "mostrecent",
    page: Page = 1,
    size: Size = 10,
) -> DepositionList:
    """List the signed-in user's depositions (drafts, published records and records reopened for editing),
    most recently modified first.

    Args:
        q: Words that must all appear in the title, description, creators or keywords (same syntax as record search).
        status: draft (never published) or published.
        sort: bestmatch, mostrecent (last modified first) or -mostrecent.
        page: Page number, from 1.
        size: Results per page.
    """
    user = me(db)
    rows = deposits.own_matching(db, user["id"], q, status, sort)
    start = (page - 1) * size
    return DepositionList(
        total=len(rows), page=page, size=size, hits=[deposition_summary(r) for r in rows[start : start + size]]
    )


@tool(read_only=True)
def get_deposition(db: Database, deposition_id: RecordId) -> DepositionObject:
    """Get one of the user's depositions with its full metadata and files.

    Args:
        deposition_id: The deposition's id (the same number as its record id).
    """
    return deposition(db, own_deposition(db, me(db), deposition_id))


@tool()
def create_deposition(
    db: Database,
    title: Title | None = None,
    upload_type: UploadType | None = None,
    publication_type: PublicationType | None = None,
    image_type: ImageType | None = None,
    publication_date: IsoDate | None = None,
    description: Description | None = None,
    access_right: AccessRight = "open",
    license: Annotated[str, text(50)] | None = None,
    embargo_date: IsoDate | None = None,
    access_conditions: Description | None = None,
    creators: list[Creator] | None = None,
    keywords: list[Keyword] | None = None,
    related_identifiers: list[RelatedIdentifier] | None = None,
    version: Annotated[str, text(50)] | None = None,
    notes: Description | None = None,
) -> DepositionObject:
    """Create a new draft deposition (it gets its record id now; the DOI is minted when it is published).
    Anything left out can be added later; publication_date defaults to today.

    Args:
        title: The title.
        upload_type: What the work is.
        publication_type: For a publication: which kind (required then).
        image_type: For an image: which kind (required then).
        publication_date: The date of publication (YYYY-MM-DD).
        description: An abstract or description (HTML allowed).
        access_right: open (default), embargoed (needs embargo_date and license), restricted (needs
            access_conditions) or closed.
        license: A license id from the license list (required for open and embargoed access).
        embargo_date: When an embargoed record's files open (a future date).
        access_conditions: The conditions under which restricted files are shared.
        creators: The creators, in author order.
        keywords: Free-text keywords.
        related_identifiers: Related works.
        version: A version label such as v1.0.
        notes: Additional notes.
    """
    user = me(db)
    values = {
        "title": title or "",
        "upload_type": upload_type,
        "publication_type": publication_type,
        "image_type": image_type,
        "publication_date": publication_date or db.now().date().isoformat(),
        "description": description,
        "access_right": access_right,
        "license": license,
        "embargo_date": embargo_date,
        "access_conditions": access_conditions,
        "creators": [c.model_dump() for c in creators or []],
        "keywords": list(keywords or []),
        "related_identifiers": [r.model_dump() for r in related_identifiers or []],
        "version": version,
        "notes": notes,
    }
    return deposition(db, deposits.create(db, user, values))


@tool()
def update_deposition(
    db: Database,
    deposition_id: RecordId,
    title: Title | None = None,
    upload_type: UploadType | None = None,
    publication_type: PublicationType | None = None,
    image_type: ImageType | None = None,
    publication_date: IsoDate | None = None,
    description: Description | None = None,
    access_right: AccessRight | None = None,
    license: Annotated[str, text(50)] | None = None,
    embargo_date: IsoDate | None = None,
    access_conditions: Description | None = None,
    creators: list[Creator] | None = None,
    keywords: list[Keyword] | None = None,
    related_identifiers: list[RelatedIdentifier] | None = None,
    version: Annotated[str, text(50)] | None = None,
    notes: Description | None = None,
    clear: Annotated[list[Clearable], Unordered] | None = None,
) -> DepositionObject:
    """Change a draft's metadata, or a published record's after it was reopened for editing. Fields left out keep
    their values; a list given replaces the whole list; fields named in clear are emptied.

    Args:
        deposition_id: The deposition's id.
        title: The title.
        upload_type: What the work is.
        publication_type: For a publication: which kind.
        image_type: For an image: which kind.
        publication_date: The date of publication (YYYY-MM-DD).
        description: An abstract or description.
        access_right: open, embargoed, restricted or closed.
        license: A license id from the license list.
        embargo_date: When an embargoed record's files open (a future date).
        access_conditions: The conditions under which restricted files are shared.
        creators: The creators, in author order (replaces the list).
        keywords: Keywords (replaces the list).
        related_identifiers: Related works (replaces the list).
        version: A version label.
        notes: Additional notes.
        clear: Optional fields to empty (not also given a value).
    """
    row = own_deposition(db, me(db), deposition_id)
    changes: dict[str, Any] = {
        "title": title,
        "upload_type": upload_type,
        "publication_type": publication_type,
        "image_type": image_type,
        "publication_date": publication_date,
        "description": description,
        "access_right": access_right,
        "license": license,
        "embargo_date": embargo_date,
        "access_conditions": access_conditions,
        "creators": [c.model_dump() for c in creators] if creators is not None else None,
        "keywords": list(keywords) if keywords is not None else None,
        "related_identifiers": [r.model_dump() for r in related_identifiers]
        if related_identifiers is not None
        else None,
        "version": version,
        "notes": notes,
    }
    given_values = {k: v for k, v in changes.items() if v is not None}
    both = sorted(set(clear or []) & set(given_values))
    if both:
        raise validation({f"metadata.{name}": ["Given a value and cleared at once."] for name in both})
    emptied: dict[str, Any] = {name: [] if name == "related_identifiers" else None for name in clear or []}
    return deposition(db, deposits.update(db, row, {**given_values, **emptied}))


@tool()
def delete_deposition(db: Database, deposition_id: RecordId) -> Deleted:
    """Delete a draft that was never published, with its files. Published records cannot be deleted.

    Args:
        deposition_id: The draft's id.
    """
    row = own_deposition(db, me(db), deposition_id)
    if row["submitted"]:
        raise forbidden("Published depositions cannot be deleted; create a new version instead.")
    for stored in db.find(files, deposition_id=row["id"]):
        db.delete(files, stored["id"])
    db.delete(depositions, row["id"])
    return Deleted(id=str(row["id"]))


@tool()
def upload_file(
    db: Database,
    deposition_id: RecordId,
    filename: Filename,
    content: Annotated[str, Field(min_length=1)],
) -> FileObject:
    """Upload a file into a draft's bucket (PUT /api/files/<bucket>/<filename>); the bucket reports its size and
    md5 checksum. A published record's files are frozen: change them in a new version.

    Args:
        deposition_id: The draft's id.
        filename: The file's name, unique within the deposition.
        content: The file's content.
    """
    row = own_deposition(db, me(db), deposition_id)
    deposits.files_editable(row)
    stored = db.find(files, deposition_id=row["id"])
    if any(f["filename"] == filename for f in stored):
        raise bad_request(f"A file named '{filename}' already exists in this deposition; delete it first.")
    size, digest = checksum(content)
    if len(stored) >= MAX_FILES:
        raise bad_request(f"Too many files: a record holds at most {MAX_FILES}.")
    if sum(f["filesize"] for f in stored) + size > MAX_BUCKET_BYTES:
        raise bad_request("Bucket quota exceeded: a record holds at most 50 GB.")
    added = db.insert(
        files,
        id=db.new_uuid(files),
        deposition_id=row["id"],
        filename=filename,
        filesize=size,
        checksum=digest,
        created=db.now_iso(),
    )
    db.update(depositions, row["id"], modified=db.now_iso())
    return FileObject(id=added["id"], filename=filename, filesize=size, checksum=digest)


@tool()
def delete_file(db: Database, deposition_id: RecordId, file_id: NonEmptyText) -> Deleted:
    """Delete a file from a draft's bucket.

    Args:
        deposition_id: The draft's id.
        file_id: The file's id, from the deposition.
    """
    row = own_deposition(db, me(db), deposition_id)
    found = db.find(files, id=file_id.strip(), deposition_id=row["id"])
    if not found:
        raise not_found("File does not exist.")
    deposits.files_editable(row)
    db.delete(files, found[0]["id"])
    db.update(depositions, row["id"], modified=db.now_iso())
    return Deleted(id=found[0]["id"])


@tool()
def publish_deposition(db: Database, deposition_id: RecordId) -> DepositionObject:
    """Publish a draft (mints its DOI, and the concept DOI for a first version), or save the changes to a
    published record reopened for editing. Fails listing every missing or invalid field.

    Args:
        deposition_id: The deposition's id.
    """
    return deposition(db, deposits.publish(db, own_deposition(db, me(db), deposition_id)))


@tool()
def edit_deposition(db: Database, deposition_id: RecordId) -> DepositionObject:
    """Reopen a published record so its metadata can be changed (files stay frozen); publish again to save, or
    discard to undo.

    Args:
        deposition_id: The published deposition's id.
    """
    row = own_deposition(db, me(db), deposition_id)
    if not row["submitted"]:
        raise bad_request("Deposition is not published yet; a draft can be changed directly.")
    if row["state"] == "inprogress":
        raise conflict("Deposition is already open for editing.")
    return deposition(db, db.update(depositions, row["id"], state="inprogress", modified=db.now_iso()))


@tool()
def discard_deposition(db: Database, deposition_id: RecordId) -> DepositionObject:
    """Throw away the unsaved changes to a published record reopened for editing, restoring what was published.

    Args:
        deposition_id: The deposition's id.
    """
    row = own_deposition(db, me(db), deposition_id)
    if row["state"] != "inprogress":
        raise bad_request("Only a published deposition open for editing can be discarded; delete a draft instead.")
    restored = db.update(depositions, row["id"], state="done", modified=db.now_iso(), **row["published_metadata"])
    return deposition(db, restored)


@tool()
def new_version(db: Database, deposition_id: RecordId) -> DepositionObject:
    """Start a new version of a published work: a draft that copies the latest version's metadata and files (with
    no DOI yet, publication date today). Returns the new draft.

    Args:
        deposition_id: The latest published version's id.
    """
    return deposition(db, deposits.new_version(db, own_deposition(db, me(db), deposition_id)))


@tool(read_only=True)
def list_licenses(db: Database, q: Annotated[str, text(100, 0)] = "") -> LicenseList:
    """Search Zenodo's license vocabulary by id or title.

    Args:
        q: Words of the id or title (e.g. "attribution 4.0", "mit"); empty lists all.
    """
    me(db)
    words = q.lower().split()
    rows = [r for r in db.find(licenses) if all(w in f"{r['id']} {r['title']}".lower() for w in words)]
    return LicenseList(total=len(rows), hits=[LicenseObject(**r) for r in rows])


# ---------------------------------------------------------------- communities and requests


@tool(read_only=True)
def list_communities(db: Database, q: Annotated[str, text(200, 0)] = "", mine: bool = False) -> CommunityList:
    """Search communities by slug, title or description, with the user's role in each and how many records
    each includes.

    Args:
        q: Words that must all appear.
        mine: Only communities the user is a member of.
    """
    user = me(db)
    roles = {m["community_id"]: m["role"] for m in db.find(community_members, user_id=user["id"])}
    words = q.lower().split()
    counts = deposits.community_counts(db)
    hits = []
    for row in db.find(communities, order_by=[communities.c.slug]):
        text_ = f"{row['slug']} {row['title']} {row['description']}".lower()
        if (mine and row["id"] not in roles) or not all(w in text_ for w in words):
            continue
        hits.append(community(db, row, roles.get(row["id"]), counts.get(row["slug"], 0)))
    return CommunityList(total=len(hits), hits=hits)


@tool(read_only=True)
def list_requests(
    db: Database,
    community: Annotated[str, text(100)] | None = None,
    status: Literal["submitted", "accepted", "declined", "cancelled"] | None = None,
) -> RequestList:
    """List community inclusion requests the user submitted or, as a community's curator, decides on; newest
    first.

    Args:
        community: Only requests to this community (its slug).
        status: Only requests with this status (submitted: waiting for a decision).
    """
    user = me(db)
    return RequestList(**deposits.visible_requests(db, user, community, status))


@tool()
def submit_to_community(
    db: Database,
    record_id: RecordId,
    community: Annotated[str, text(100)],
    comment: Annotated[str, text(2000)] | None = None,
) -> RequestObject:
    """Ask a community to include one of the user's published records. A community's owners, managers and
    curators include their own records at once; others wait for a curator's decision.

    Args:
        record_id: The published record's id.
        community: The community's slug.
        comment: A note to the curators.
    """
    user = me(db)
    row = own_deposition(db, user, record_id)
    if not row["submitted"]:
        raise bad_request("Only published records can be submitted to a community; publish the draft first.")
    target = community_by_slug(db, community)
    if target["slug"] in row["communities"]:
        raise conflict(f"The record is already included in '{target['slug']}'.")
    if target["record_policy"] == "closed" and role_in(db, user["id"], target["id"]) is None:
        raise forbidden(f"'{target['slug']}' accepts records from its members only.")
    if db.find(requests, record_id=row["id"], community_id=target["id"], status="submitted"):
        raise conflict("An open inclusion request for this record and community already exists.")
    direct = curates(db, user["id"], target["id"])
    created = db.insert(
        requests,
        id=db.new_uuid(requests),
        type="community-inclusion",
        community_id=target["id"],
        record_id=row["id"],
        created_by=user["id"],
        status="accepted" if direct else "submitted",
        comment=comment,
        decision_comment=None,
        decided_by=user["id"] if direct else None,
        created=db.now_iso(),
        updated=db.now_iso(),
    )
    if direct:
        deposits.include(db, row["id"], target["slug"])
    return request(db, created, row["title"])


def _decide(db: Database, request_id: str, status: str, comment: str | None) -> RequestObject:
    user = me(db)
    row = deposits.visible_request(db, user, request_id)
    if not curates(db, user["id"], row["community_id"]):
        raise forbidden("Only the community's owners, managers and curators can accept or decline requests.")
    if row["status"] != "submitted":
        raise conflict(f"The request is already {row['status']}.")
    decided = db.update(
        requests, row["id"], status=status, decision_comment=comment, decided_by=user["id"], updated=db.now_iso()
    )
    record_row = db.get(depositions, row["record_id"])
    if status == "accepted":
        deposits.include(db, record_row["id"], db.get(communities, row["community_id"])["slug"])
    return request(db, decided, record_row["title"])


@tool()
def accept_request(
    db: Database, request_id: NonEmptyText, comment: Annotated[str, text(2000)] | None = None
) -> RequestObject:
    """(Curators) Accept an inclusion request: the record joins the community.

    Args:
        request_id: The request's id.
        comment: A note to the submitter.
    """
    return _decide(db, request_id, "accepted", comment)


@tool()
def decline_request(
    db: Database, request_id: NonEmptyText, comment: Annotated[str, text(2000)] | None = None
) -> RequestObject:
    """(Curators) Decline an inclusion request.

    Args:
        request_id: The request's id.
        comment: The reason, for the submitter.
    """
    return _decide(db, request_id, "declined", comment)


@tool()
def cancel_request(db: Database, request_id: NonEmptyText) -> RequestObject:
    """Withdraw an inclusion request the user submitted that is still waiting for a decision.

    Args:
        request_id: The request's id.
    """
    user = me(db)
    row = deposits.visible_request(db, user, request_id)
    if row["created_by"] != user["id"]:
        raise forbidden("Only the submitter can cancel a request.")
    if row["status"] != "submitted":
        raise conflict(f"The request is already {row['status']}.")
    cancelled = db.update(requests, row["id"], status="cancelled", updated=db.now_iso())
    return request(db, cancelled, db.get(depositions, row["record_id"])["title"])
