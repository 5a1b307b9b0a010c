"""protocols.io's API as a signed-in researcher uses it: search and read protocols (steps, materials, versions,
comments), manage their drafts (create, edit, add and remove steps and materials, delete), publish with a DOI,
start a new version of a published protocol, fork someone's protocol, share with collaborators, comment, bookmark,
and list their workspaces; plus the researcher's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel

from envfactory_gym import Database, tool
from envfactory_gym.fields import NonBlankText, NonEmptyText, bounded, page_size, text

from . import rules
from .access import editable_protocol, me, owned_protocol, visible_protocol, workspace_by_uri, workspace_role
from .errors import bad_request, conflict, forbidden, not_found
from .objects import (
    CommentList,
    CommentObject,
    ProtocolList,
    ProtocolObject,
    WorkspaceList,
    WorkspaceObject,
    author,
    comment,
    protocol,
    protocol_summary,
)
from .schema import (
    bookmarks,
    comments,
    materials,
    protocols,
    sessions,
    shares,
    steps,
    users,
    workspace_members,
    workspaces,
)

ProtocolId = Annotated[int, bounded(1)]
Title = Annotated[str, text(250, 3)]
LongText = Annotated[str, text(20000)]
Filter = Literal["public", "user_public", "user_private", "shared_with_user", "bookmarks"]
OrderField = Literal["activity", "date", "name", "id"]
PageId = Annotated[int, bounded(1, 1000)]


class SignedIn(BaseModel):
    """Whose token the app uses."""

    username: str
    name: str
    affiliation: str | None


class Done(BaseModel):
    """What a call changed."""

    id: int
    status_code: int = 0
    message: str


# ---------------------------------------------------------------- the researcher


@tool(user_only=True)
def sign_in(db: Database, email: NonEmptyText) -> SignedIn:
    """(User only) The researcher signs in to protocols.io and hands the app an access token.

    Args:
        email: The email address of the researcher's protocols.io account.
    """
    user = db.find_one(users, email=email.strip().lower(), not_found="No protocols.io account with this email.")
    db.start_session(sessions, user_id=user["id"])
    return SignedIn(username=user["username"], name=user["name"], affiliation=user["affiliation"])


# ---------------------------------------------------------------- reading


@tool(read_only=True)
def search_protocols(
    db: Database,
    filter: Filter = "public",
    key: Annotated[str, text(200, 0)] = "",
    order_field: OrderField = "activity",
    order_dir: Literal["asc", "desc"] = "desc",
    page_size: page_size(100) = 10,  # type: ignore[valid-type]
    page_id: PageId = 1,
) -> ProtocolList:
    """List protocols: public (every published protocol, latest versions), user_public (the researcher's published
    ones), user_private (the researcher's drafts), shared_with_user (drafts others shared with them or their
    workspaces hold) or bookmarks.

    Args:
        filter: Which protocols to list.
        key: Words that must all appear in the title or description.
        order_field: activity (last change), date (publication or creation), name or id.
        order_dir: asc or desc.
        page_size: Protocols per page.
        page_id: Page number, from 1.
    """
    user = me(db)
    where = {
        "public": "state = 'published' AND version_number = (SELECT max(v.version_number) FROM protocols v "
        "WHERE v.family_id = protocols.family_id AND v.state = 'published')",
        "user_public": "state = 'published' AND creator_id = ?",
        "user_private": "state = 'draft' AND creator_id = ?",
        "shared_with_user": "state = 'draft' AND creator_id != ? AND (id IN (SELECT protocol_id FROM shares WHERE "
        "user_id = ?) OR workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?))",
        "bookmarks": "id IN (SELECT protocol_id FROM bookmarks WHERE user_id = ?)",
    }[filter]
    params: list[object] = [user["id"]] * where.count("?")
    for word in key.lower().split():
        where += " AND (lower(title) LIKE ? OR lower(coalesce(description, '')) LIKE ?)"
        params += [f"%{word}%", f"%{word}%"]
    column = {"activity": "changed_on", "date": "coalesce(published_on, created_on)", "name": "title", "id": "id"}
    rows = db.select(protocols, where, params, order_by=f"{column[order_field]} {order_dir.upper()}")
    start = (page_id - 1) * page_size
    return ProtocolList(
        items=[protocol_summary(db, r) for r in rows[start : start + page_size]],
        total=len(rows),
        page_id=page_id,
        total_pages=max(1, -(-len(rows) // page_size)),
    )


@tool(read_only=True)
def get_protocol(db: Database, protocol_id: ProtocolId) -> ProtocolObject:
    """Get a protocol with its abstract, guidelines, steps, materials, DOI and version.

    Args:
        protocol_id: The protocol's id.
    """
    return protocol(db, visible_protocol(db, me(db), protocol_id), me(db))


@tool(read_only=True)
def list_versions(db: Database, protocol_id: ProtocolId) -> ProtocolList:
    """List every version of a protocol, newest first (the creator also sees an unpublished new version).

    Args:
        protocol_id: Any version's id.
    """
    user = me(db)
    row = visible_protocol(db, user, protocol_id)
    rows = [
        r
        for r in db.find(protocols, family_id=row["family_id"], order_by=[protocols.c.version_number.desc()])
        if r["state"] == "published" or r["creator_id"] == user["id"]
    ]
    return ProtocolList(items=[protocol_summary(db, r) for r in rows], total=len(rows), page_id=1, total_pages=1)


@tool(read_only=True)
def list_comments(db: Database, protocol_id: ProtocolId) -> CommentList:
    """List the comments on a protocol and its steps, oldest first.

    Args:
        protocol_id: The protocol's id.
    """
    row = visible_protocol(db, me(db), protocol_id)
    return CommentList(items=[comment(db, c) for c in db.find(comments, protocol_id=row["id"])])


@tool(read_only=True)
def list_workspaces(db: Database) -> WorkspaceList:
    """List the workspaces the researcher belongs to, with their role and the members."""
    user = me(db)
    items = []
    for membership in db.find(workspace_members, user_id=user["id"]):
        space = db.get(workspaces, membership["workspace_id"])
        members = [author(db, m["user_id"]) for m in db.find(workspace_members, workspace_id=space["id"])]
        items.append(
            WorkspaceObject(
                uri=space["uri"],
                title=space["title"],
                visibility=space["visibility"],
                role=membership["role"],
                members=members,
            )
        )
    return WorkspaceList(items=items)


# ---------------------------------------------------------------- drafts


@tool()
def create_protocol(
    db: Database,
    title: Title,
    description: LongText | None = None,
    guidelines: LongText | None = None,
    workspace: Annotated[str, text(100)] | None = None,
) -> ProtocolObject:
    """Create a new, private draft protocol (version 1).

    Args:
        title: The protocol's title.
        description: The abstract.
        guidelines: Guidelines and safety warnings.
        workspace: The uri of a workspace to create it in (the researcher must be able to add to it).
    """
    user = me(db)
    workspace_id = None
    if workspace is not None:
        space = workspace_by_uri(db, workspace)
        if workspace_role(db, user["id"], space["id"]) not in ("owner", "admin", "member"):
            raise forbidden("You do not have permission to add protocols to this workspace.")
        workspace_id = space["id"]
    new_id = rules.next_id(db)
    now = db.now_iso()
    row = db.insert(
        protocols,
        id=new_id,
        uri=rules.uri_for(title, new_id),
        family_id=new_id,
        version_number=1,
        title=title.strip(),
        description=description,
        guidelines=guidelines,
        creator_id=user["id"],
        workspace_id=workspace_id,
        state="draft",
        created_on=now,
        changed_on=now,
    )
    return protocol(db, row, me(db))


@tool()
def update_protocol(
    db: Database,
    protocol_id: ProtocolId,
    title: Title | None = None,
    description: LongText | None = None,
    guidelines: LongText | None = None,
    version_notes: LongText | None = None,
) -> ProtocolObject:
    """Change a draft's title, abstract, guidelines or version notes (published versions cannot be edited).

    Args:
        protocol_id: The draft's id.
        title: A new title.
        description: A new abstract.
        guidelines: New guidelines.
        version_notes: What changed in this version.
    """
    row = editable_protocol(db, me(db), protocol_id)
    changes = {
        k: v
        for k, v in {
            "title": title,
            "description": description,
            "guidelines": guidelines,
            "version_notes": version_notes,
        }.items()
        if v is not None
    }
    if not changes:
        raise bad_request("Nothing to update.")
    return protocol(db, db.update(protocols, row["id"], **changes, changed_on=db.now_iso()), me(db))


@tool()
def add_step(
    db: Database,
    protocol_id: ProtocolId,
    text: NonBlankText,
    section: Annotated[str, text(100)] | None = None,
    duration: Annotated[int, bounded(1, 2_592_000)] | None = None,
    after_step: Annotated[int, bounded(0)] | None = None,
) -> ProtocolObject:
    """Add a step to a draft, at the end or after a given step number (0 puts it first); later steps move down.

    Args:
        protocol_id: The draft's id.
        text: What to do.
        section: The section the step belongs to (e.g. "Lysis").
        duration: How long the step takes, in seconds.
        after_step: The number of the step it follows.
    """
    row = editable_protocol(db, me(db), protocol_id)
    existing = rules.protocol_steps(db, row["id"])
    position = len(existing) + 1 if after_step is None else after_step + 1
    if position > len(existing) + 1:
        raise bad_request(f"Step {after_step} does not exist; the protocol has {len(existing)} steps.")
    for later in reversed(existing[position - 1 :]):
        db.update(steps, later["id"], number=later["number"] + 1)
    db.insert(steps, protocol_id=row["id"], number=position, section=section, text=text.strip(), duration=duration)
    return protocol(db, db.update(protocols, row["id"], changed_on=db.now_iso()), me(db))


@tool()
def delete_step(db: Database, protocol_id: ProtocolId, step_id: Annotated[int, bounded(1)]) -> ProtocolObject:
    """Delete a step from a draft; the steps after it move up.

    Args:
        protocol_id: The draft's id.
        step_id: The step's id.
    """
    row = editable_protocol(db, me(db), protocol_id)
    db.find_one(
        steps, id=step_id, protocol_id=row["id"], not_found='{"status_code": 404, "error_message": "Step not found."}'
    )
    db.delete(steps, step_id)
    rules.renumber(db, row["id"])
    return protocol(db, db.update(protocols, row["id"], changed_on=db.now_iso()), me(db))


@tool()
def add_material(
    db: Database,
    protocol_id: ProtocolId,
    name: Annotated[str, text(200)],
    vendor: Annotated[str, text(100)] | None = None,
    catalog_number: Annotated[str, text(50)] | None = None,
) -> ProtocolObject:
    """Add a reagent, kit or piece of equipment to a draft's materials.

    Args:
        protocol_id: The draft's id.
        name: The material's name.
        vendor: Who sells it.
        catalog_number: The vendor's catalog number.
    """
    row = editable_protocol(db, me(db), protocol_id)
    for existing in db.find(materials, protocol_id=row["id"]):
        if existing["name"].lower() == name.strip().lower() and existing["catalog_number"] == catalog_number:
            raise conflict("This material is already in the protocol.")
    db.insert(materials, protocol_id=row["id"], name=name.strip(), vendor=vendor, catalog_number=catalog_number)
    return protocol(db, db.update(protocols, row["id"], changed_on=db.now_iso()), me(db))


@tool()
def remove_material(db: Database, protocol_id: ProtocolId, material_id: Annotated[int, bounded(1)]) -> ProtocolObject:
    """Remove a material from a draft.

    Args:
        protocol_id: The draft's id.
        material_id: The material's id.
    """
    row = editable_protocol(db, me(db), protocol_id)
    db.find_one(
        materials,
        id=material_id,
        protocol_id=row["id"],
        not_found='{"status_code": 404, "error_message": "Material not found."}',
    )
    db.delete(materials, material_id)
    return protocol(db, db.update(protocols, row["id"], changed_on=db.now_iso()), me(db))


@tool()
def delete_protocol(db: Database, protocol_id: ProtocolId) -> Done:
    """Delete one of the researcher's drafts with its steps, materials and comments (published protocols stay).

    Args:
        protocol_id: The draft's id.
    """
    row = owned_protocol(db, me(db), protocol_id)
    if row["state"] == "published":
        raise forbidden("Published protocols cannot be deleted.")
    for table in (comments, bookmarks, shares, steps, materials):
        for child in db.find(table, protocol_id=row["id"]):
            db.delete(table, child["id"])
    db.delete(protocols, row["id"])
    return Done(id=row["id"], message="Protocol deleted.")


# ---------------------------------------------------------------- publishing, versions, forks


@tool()
def publish_protocol(db: Database, protocol_id: ProtocolId, version_notes: LongText | None = None) -> ProtocolObject:
    """Publish one of the researcher's drafts: it becomes public, citable and frozen, with a DOI. It needs an
    abstract and at least one step; a new version also needs notes on what changed.

    Args:
        protocol_id: The draft's id.
        version_notes: What changed since the previous version.
    """
    row = owned_protocol(db, me(db), protocol_id)
    if row["state"] == "published":
        raise conflict("This protocol is already published.")
    rules.check_publishable(db, row, version_notes)
    now = db.now_iso()
    published = db.update(
        protocols,
        row["id"],
        state="published",
        doi=rules.DOI_PREFIX + rules.code(row["id"]),
        version_notes=version_notes or row["version_notes"],
        published_on=now,
        changed_on=now,
    )
    return protocol(db, published, me(db))


@tool()
def create_new_version(db: Database, protocol_id: ProtocolId) -> ProtocolObject:
    """Start a new version of one of the researcher's published protocols: a draft copying the latest version's
    content, numbered one higher. Only the latest version gets a new version, one draft at a time.

    Args:
        protocol_id: The published protocol's id.
    """
    row = owned_protocol(db, me(db), protocol_id)
    if row["state"] != "published":
        raise conflict("Only published protocols can have new versions.")
    latest = rules.latest_version(db, row["family_id"])
    if latest["state"] == "draft":
        raise conflict(f"A new version (version {latest['version_number']}, id {latest['id']}) is already in draft.")
    if latest["id"] != row["id"]:
        raise conflict(f"Only the latest version (version {latest['version_number']}) can get a new version.")
    new_id = rules.next_id(db)
    now = db.now_iso()
    draft = db.insert(
        protocols,
        id=new_id,
        uri=rules.uri_for(row["title"], new_id),
        family_id=row["family_id"],
        version_number=row["version_number"] + 1,
        title=row["title"],
        description=row["description"],
        guidelines=row["guidelines"],
        creator_id=row["creator_id"],
        workspace_id=row["workspace_id"],
        state="draft",
        forked_from=row["forked_from"],
        created_on=now,
        changed_on=now,
    )
    rules.copy_contents(db, row["id"], new_id)
    return protocol(db, draft, me(db))


@tool()
def fork_protocol(db: Database, protocol_id: ProtocolId, title: Title | None = None) -> ProtocolObject:
    """Fork a published protocol: a private draft of the researcher's own, copying its content and pointing back at
    it.

    Args:
        protocol_id: The published protocol's id.
        title: A title for the fork (the source's title when left out).
    """
    user = me(db)
    row = visible_protocol(db, user, protocol_id)
    if row["state"] != "published":
        raise conflict("Only published protocols can be forked.")
    new_id = rules.next_id(db)
    now = db.now_iso()
    name = (title or row["title"]).strip()
    fork = db.insert(
        protocols,
        id=new_id,
        uri=rules.uri_for(name, new_id),
        family_id=new_id,
        version_number=1,
        title=name,
        description=row["description"],
        guidelines=row["guidelines"],
        creator_id=user["id"],
        state="draft",
        forked_from=row["id"],
        created_on=now,
        changed_on=now,
    )
    rules.copy_contents(db, row["id"], new_id)
    return protocol(db, fork, me(db))


# ---------------------------------------------------------------- collaboration


@tool()
def share_protocol(
    db: Database, protocol_id: ProtocolId, email: NonEmptyText, access: Literal["view", "edit"] = "view"
) -> Done:
    """Share one of the researcher's drafts with a collaborator (or change their access).

    Args:
        protocol_id: The draft's id.
        email: The collaborator's protocols.io email.
        access: view or edit.
    """
    user = me(db)
    row = owned_protocol(db, user, protocol_id)
    if row["state"] == "published":
        raise conflict("Published protocols are public; only drafts are shared.")
    other = db.find_one(
        users, email=email.strip().lower(), not_found='{"status_code": 404, "error_message": "User not found."}'
    )
    if other["id"] == user["id"]:
        raise bad_request("You cannot share a protocol with yourself.")
    found = db.find(shares, protocol_id=row["id"], user_id=other["id"])
    if found:
        db.update(shares, found[0]["id"], access=access)
    else:
        db.insert(shares, protocol_id=row["id"], user_id=other["id"], access=access)
    return Done(id=row["id"], message=f"Shared with {other['name']} ({access}).")


@tool()
def add_comment(
    db: Database,
    protocol_id: ProtocolId,
    body: NonBlankText,
    step_id: Annotated[int, bounded(1)] | None = None,
    parent_id: Annotated[int, bounded(1)] | None = None,
) -> CommentObject:
    """Comment on a protocol, on one of its steps, or reply to a comment.

    Args:
        protocol_id: The protocol's id.
        body: The comment.
        step_id: The step the comment is about.
        parent_id: The comment this one replies to.
    """
    user = me(db)
    row = visible_protocol(db, user, protocol_id)
    if step_id is not None and not db.find(steps, id=step_id, protocol_id=row["id"]):
        raise not_found("Step not found.")
    if parent_id is not None:
        parent = db.find_one(
            comments,
            id=parent_id,
            protocol_id=row["id"],
            not_found='{"status_code": 404, "error_message": "Comment not found."}',
        )
        step_id = parent["step_id"]
    created = db.insert(
        comments,
        protocol_id=row["id"],
        step_id=step_id,
        parent_id=parent_id,
        author_id=user["id"],
        body=body.strip(),
        created_on=db.now_iso(),
    )
    return comment(db, created)


@tool()
def bookmark_protocol(db: Database, protocol_id: ProtocolId) -> Done:
    """Bookmark a protocol.

    Args:
        protocol_id: The protocol's id.
    """
    user = me(db)
    row = visible_protocol(db, user, protocol_id)
    if db.find(bookmarks, protocol_id=row["id"], user_id=user["id"]):
        raise conflict("This protocol is already bookmarked.")
    db.insert(bookmarks, protocol_id=row["id"], user_id=user["id"], created_on=db.now_iso())
    return Done(id=row["id"], message="Bookmarked.")


@tool()
def remove_bookmark(db: Database, protocol_id: ProtocolId) -> Done:
    """Remove a protocol from the researcher's bookmarks.

    Args:
        protocol_id: The protocol's id.
    """
    user = me(db)
    found = db.find_one(
        bookmarks,
        protocol_id=protocol_id,
        user_id=user["id"],
        not_found='{"status_code": 404, "error_message": "Bookmark not found."}',
    )
    db.delete(bookmarks, found["id"])
    return Done(id=protocol_id, message="Bookmark removed.")
