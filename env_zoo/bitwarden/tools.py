"""Bitwarden Vault Management API (bw serve) and Public API tools: vault items, folders, the trash, sharing into
organization collections, members, Send, the generator, and the user's master-password re-prompt."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.fields import ErrorText, NonBlankText, page_size

from . import vault
from .access import (
    ACCEPTED,
    CONFIRMED,
    INVITED,
    OWNER,
    REVOKED,
    administered,
    administered_member,
    applying_policies,
    binds_me,
    is_admin,
    item_access,
    me,
    membership,
    organization,
    reprompt_passed,
    require_active,
    require_edit,
    require_reprompt,
    require_view_password,
    visible_item,
    writable_collections,
)
from .generator import Options, apply_policies, generate
from .inputs import CardInput, CollectionAccess, FieldInput, IdentityInput, LoginInput, UriInput
from .objects import (
    CollectionObject,
    FolderObject,
    GeneratedObject,
    ItemObject,
    ItemSummary,
    MemberObject,
    OrganizationObject,
    RepromptObject,
    SendObject,
    TotpObject,
    access_id,
    item_object,
    item_summary,
    member_object,
    policy_object,
    send_key,
    send_object,
)
from .rules import (
    GENERATOR_POLICY,
    MAX_PAGE_SIZE,
    MAX_SEND_DAYS,
    NULL,
    TWO_STEP_POLICY,
    ItemType,
    MemberType,
    check_send_options,
    collection_grants,
    digest,
    equals_or_null,
    item_changes,
    occupied_seats,
    send_dates,
)
from .rules import (
    folder_id as _folder_id,
)
from .schema import collections, folders, items, members, organizations, policies, reprompts, sends
from .totp import code_at, parse_key

ItemPageSize = page_size(MAX_PAGE_SIZE)
Name = Annotated[
    str,
    Field(min_length=1, max_length=vault.MAX_NAME, pattern=r"\S"),
    ErrorText(f"The Name field is required and can hold at most {vault.MAX_NAME} characters."),
]
Email = Annotated[
    str,
    Field(pattern=r"^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$"),
    ErrorText("The Email field is not a valid e-mail address."),
]
SendText = Annotated[NonBlankText, ErrorText("The text to share is required.")]
MaxAccessCount = Annotated[int, Field(ge=1), ErrorText("Maximum access count must be at least 1.")]
DeletionDays = Annotated[
    int,
    Field(ge=1, le=MAX_SEND_DAYS),
    ErrorText(
        f"You cannot have a Send with a deletion date that far into the future. Choose 1 to {MAX_SEND_DAYS} days."
    ),
]
ExpirationDays = Annotated[int, Field(ge=1), ErrorText("expiration_days must be at least 1.")]
PasswordLength = Annotated[int, Field(ge=5, le=128), ErrorText("Password length must be between 5 and 128.")]
WordCount = Annotated[int, Field(ge=3, le=20), ErrorText("A passphrase has 3 to 20 words.")]
Separator = Annotated[str, Field(max_length=1), ErrorText("The word separator is a single character.")]


# ---------------------------------------------------------------- vault items


@tool(read_only=True)
def list_items(
    db: Database,
    search: str | None = None,
    folder_id: str | None = None,
    organization_id: str | None = None,
    collection_id: str | None = None,
    url: str | None = None,
    type: ItemType | None = None,
    favorite: bool | None = None,
    trash: bool = False,
    page_size: ItemPageSize = 25,
    cursor: str | None = None,
) -> Page[ItemSummary]:
    """List the vault items you can see (your own and those shared with you through organization collections),
    sorted by name. Entries are summaries without passwords, keys, card numbers or notes: open an item with
    get_item to see everything it holds.

    Args:
        search: Text to find in the name, username, URIs or card brand.
        folder_id: Only items in this folder; "null" for items in no folder.
        organization_id: Only items of this organization; "null" for your personal vault only.
        collection_id: Only items in this collection.
        url: Only logins that would autofill on this website (their URI match detection applies).
        type: Only this type: 1 login, 2 secure note, 3 card, 4 identity.
        favorite: true for favorites only.
        trash: true to list the trash instead (items there are deleted for good 30 days after their deletedDate).
        page_size: Items per page, 1 to 30.
        cursor: The next_cursor of the previous page.
    """
    # conditions, not keyword equalities: the runtime's fast path binds `= NULL` for None, which matches nothing
    conditions = [items.c.deleted == trash]
    if folder_id is not None:
        conditions.append(equals_or_null(items.c.folder_id, _folder_id(db, folder_id)))
    if organization_id is not None:
        conditions.append(equals_or_null(items.c.organization_id, None if organization_id == NULL else organization_id))
    if type is not None:
        conditions.append(items.c.type == type)
    if favorite is not None:
        conditions.append(items.c.favorite == favorite)
    if collection_id is not None:
        db.get(collections, collection_id, "Collection")
    found = []
    for row in db.find(items, *conditions):
        access = item_access(db, row)
        if access is None or (collection_id is not None and collection_id not in row["collection_ids"]):
            continue
        if search and not vault.matches_search(row, search):
            continue
        if url and (row["type"] != vault.LOGIN or not vault.matches_url(row, url)):
            continue
        found.append((row, access))
    found.sort(key=lambda pair: (pair[0]["name"].casefold(), pair[0]["id"]))
    page = paginate(found, page_size, cursor)
    return Page[ItemSummary](
        results=[item_summary(r, a) for r, a in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_item(db: Database, item_id: str) -> ItemObject:
    """Open one vault item with everything it holds, its password history included. An item with master password
    re-prompt opens only after the user has confirmed their master password for it (in the last 10 minutes).

    Args:
        item_id: The item's ID.
    """
    item, access = visible_item(db, item_id)
    require_reprompt(db, item)
    return item_object(item, access, reveal=True, history=True)


@tool(read_only=True)
def get_totp(db: Database, item_id: str) -> TotpObject:
    """Get the current verification code of a login's authenticator key (TOTP).

    Args:
        item_id: The login item's ID.
    """
    item, access = visible_item(db, item_id)
    if item["type"] != vault.LOGIN or not item["login_totp"]:
        raise NotFound(f"No TOTP available for '{item['name']}'.")
    require_view_password(item, access)
    require_reprompt(db, item)
    key = parse_key(item["login_totp"])
    code, remaining = code_at(key, db.now())
    return TotpObject(itemId=item["id"], code=code, period=key.period, secondsRemaining=remaining)


@tool()
def create_item(
    db: Database,
    type: ItemType,
    name: Name,
    notes: str | None = None,
    folder_id: str | None = None,
    favorite: bool = False,
    reprompt: Literal[0, 1] = 0,
    login: LoginInput | None = None,
    card: CardInput | None = None,
    identity: IdentityInput | None = None,
    fields: list[FieldInput] | None = None,
    organization_id: str | None = None,
    collection_ids: Annotated[list[str], Unordered] | None = None,
) -> ItemObject:
    """Create a vault item: a login, secure note, card or identity, in your personal vault or directly in an
    organization (then at least one collection you can edit is required).

    Args:
        type: 1 login, 2 secure note, 3 card, 4 identity.
        name: The item's name.
        notes: Free-text notes.
        folder_id: One of your folders.
        favorite: Mark it as a favorite.
        reprompt: 1 to require the master password to open it.
        login: Username, password, authenticator key and URIs (logins only).
        card: Cardholder, brand, number, expiry and code (cards only).
        identity: Name, address, contact and document numbers (identities only).
        fields: Custom fields.
        organization_id: Create it in this organization instead of your personal vault.
        collection_ids: The organization collections to put it in.
    """
    if collection_ids and organization_id is None:
        raise InvalidRequest("Collections are only for items of an organization; give organization_id.")
    chosen = writable_collections(db, organization_id, collection_ids or []) if organization_id else []
    values = vault.content(type, login, card, identity)
    now = db.now_iso()
    row = db.insert(
        items,
        id=db.new_uuid(items),
        organization_id=organization_id,
        collection_ids=chosen,
        folder_id=_folder_id(db, folder_id),
        type=type,
        name=vault.clean_name(name),
        notes=notes or None,
        favorite=favorite,
        reprompt=reprompt,
        fields=vault.custom_fields(fields or []),
        deleted=False,
        password_history=[],
        password_revision_date=None,
        creation_date=now,
        revision_date=now,
        deleted_date=None,
        **values,
    )
    return item_object(row, item_access(db, row), reveal=True)


@tool()
def update_item(
    db: Database,
    item_id: str,
    name: Name | None = None,
    notes: str | None = None,
    folder_id: str | None = None,
    favorite: bool | None = None,
    reprompt: Literal[0, 1] | None = None,
    username: str | None = None,
    password: str | None = None,
    totp: str | None = None,
    uris: list[UriInput] | None = None,
    card: CardInput | None = None,
    identity: IdentityInput | None = None,
    fields: list[FieldInput] | None = None,
) -> ItemObject:
    """Edit a vault item; only the arguments you give change. Moving an item to a folder and marking it a
    favorite are yours alone and work on any item you can see; every other change needs edit access (not a
    read-only collection) and, for items with master password re-prompt, the user's confirmation first. A new
    password pushes the old one into the item's password history (the last five are kept).

    Args:
        item_id: The item's ID.
        name: New name.
        notes: New notes ("" clears them).
        folder_id: Move it to this folder of yours; "null" for no folder.
        favorite: true or false.
        reprompt: 1 to require the master password to open it, 0 to stop requiring it.
        username: New login username ("" clears it).
        password: New login password.
        totp: New authenticator key, base32 or otpauth:// ("" removes it).
        uris: The login's URIs (replaces them all).
        card: Card details to change (the parts given replace the old ones).
        identity: Identity details to change (the parts given replace the old ones).
        fields: Custom fields (replaces them all).
    """
    item, access = visible_item(db, item_id)
    require_active(item)
    changes: dict[str, Any] = {}
    if folder_id is not None:
        changes["folder_id"] = _folder_id(db, folder_id)
    if favorite is not None:
        changes["favorite"] = favorite
    now = db.now_iso()
    content = item_changes(
        db,
        item,
        access,
        now,
        name=name,
        notes=notes,
        reprompt=reprompt,
        username=username,
        password=password,
        totp=totp,
        uris=uris,
        card=card,
        identity=identity,
        fields=fields,
    )
    if content is None and not changes:
        raise InvalidRequest("Nothing to update.")
    changes.update(content or {})
    row = db.update(items, item_id, revision_date=now, **changes)
    return item_object(row, access, reveal=reprompt_passed(db, row))


@tool()
def delete_item(db: Database, item_id: str, permanent: bool = False) -> ItemObject:
    """Send an item to the trash (it stays restorable for 30 days), or delete it permanently with
    permanent=true, which can't be undone.

    Args:
        item_id: The item's ID.
        permanent: true to delete it for good instead of moving it to the trash.
    """
    item, access = visible_item(db, item_id)
    require_edit(item, access, "delete")
    if permanent:
        for verification in db.find(reprompts, item_id=item_id):
            db.delete(reprompts, verification["id"])
        db.delete(items, item_id)
        return item_object(item, access, reveal=False)
    if item["deleted"]:
        raise Conflict(f"'{item['name']}' is already in the trash.")
    now = db.now_iso()
    row = db.update(items, item_id, deleted=True, deleted_date=now, revision_date=now)
    return item_object(row, access, reveal=reprompt_passed(db, row))


@tool()
def restore_item(db: Database, item_id: str) -> ItemObject:
    """Restore an item from the trash to the vault, back in its folder.

    Args:
        item_id: The item's ID.
    """
    item, access = visible_item(db, item_id)
    if not item["deleted"]:
        raise Conflict(f"'{item['name']}' is not in the trash.")
    require_edit(item, access, "restore")
    row = db.update(items, item_id, deleted=False, deleted_date=None, revision_date=db.now_iso())
    return item_object(row, access, reveal=reprompt_passed(db, row))


@tool()
def move_item_to_organization(
    db: Database, item_id: str, organization_id: str, collection_ids: Annotated[list[str], Unordered]
) -> ItemObject:
    """Share a personal item by moving it into an organization's collections. The organization owns it from then
    on: it can't be moved back to your personal vault. You need edit access to every collection chosen.

    Args:
        item_id: The personal item's ID.
        organization_id: The organization to move it to.
        collection_ids: One or more collections of that organization.
    """
    item, _ = visible_item(db, item_id)
    if item["organization_id"] is not None:
        raise Conflict(f"'{item['name']}' already belongs to an organization.")
    require_active(item)
    chosen = writable_collections(db, organization_id, collection_ids)
    row = db.update(items, item_id, organization_id=organization_id, collection_ids=chosen, revision_date=db.now_iso())
    return item_object(row, item_access(db, row), reveal=reprompt_passed(db, row))


# ---------------------------------------------------------------- folders


@tool(read_only=True)
def list_folders(db: Database) -> list[FolderObject]:
    """List your folders by name ("Parent/Child" names nest)."""
    rows = sorted(db.find(folders), key=lambda f: f["name"].casefold())
    return [FolderObject(id=f["id"], name=f["name"]) for f in rows]


@tool()
def create_folder(db: Database, name: Name) -> FolderObject:
    """Create a folder in your vault. Name it "Parent/Child" to nest it under another folder.

    Args:
        name: The folder's name.
    """
    row = db.insert(folders, id=db.new_uuid(folders), name=vault.clean_name(name), revision_date=db.now_iso())
    return FolderObject(id=row["id"], name=row["name"])


@tool()
def delete_folder(db: Database, folder_id: str) -> FolderObject:
    """Delete a folder. Its items are not deleted: they move to "No Folder".

    Args:
        folder_id: The folder's ID.
    """
    folder = db.get(folders, folder_id, "Folder")
    now = db.now_iso()
    for row in db.find(items, folder_id=folder_id):
        db.update(items, row["id"], folder_id=None, revision_date=now)
    db.delete(folders, folder_id)
    return FolderObject(id=folder["id"], name=folder["name"])


# ---------------------------------------------------------------- organizations


@tool(read_only=True)
def list_organizations(db: Database) -> list[OrganizationObject]:
    """List the organizations you belong to, with your role, seats and the policies in force."""
    found = []
    for org in db.find(organizations, order_by=[organizations.c.name]):
        mine = membership(db, org["id"])
        if mine is None or mine["status"] == REVOKED:
            continue
        rules = [policy_object(p, binds_me(db, p)) for p in db.find(policies, organization_id=org["id"], enabled=True)]
        found.append(
            OrganizationObject(
                id=org["id"],
                name=org["name"],
                plan=org["plan"],
                status=mine["status"],
                type=mine["type"],
                enabled=org["enabled"],
                seats=org["seats"],
                occupiedSeats=occupied_seats(db, org["id"]),
                policies=rules,
            )
        )
    return found


@tool(read_only=True)
def list_collections(db: Database, organization_id: str) -> list[CollectionObject]:
    """List the collections of an organization that you can reach, with your access to each (owners and admins
    reach all of them).

    Args:
        organization_id: The organization's ID.
    """
    _, mine = organization(db, organization_id)
    grants = {g["id"]: g for g in mine["collections"]}
    found = []
    for row in db.find(collections, organization_id=organization_id, order_by=[collections.c.name]):
        grant = {"readOnly": False, "hidePasswords": False, "manage": True} if is_admin(mine) else grants.get(row["id"])
        if grant is None:
            continue
        found.append(
            CollectionObject(
                id=row["id"],
                organizationId=organization_id,
                name=row["name"],
                externalId=row["external_id"],
                readOnly=grant["readOnly"],
                hidePasswords=grant["hidePasswords"],
                manage=grant["manage"],
            )
        )
    return found


@tool(read_only=True)
def list_members(db: Database, organization_id: str) -> list[MemberObject]:
    """List the members of an organization you own or administer, with their role, status (-1 revoked,
    0 invited, 1 accepted, 2 confirmed) and collection access.

    Args:
        organization_id: The organization's ID.
    """
    administered(db, organization_id)
    rows = db.find(members, organization_id=organization_id)
    return [member_object(m) for m in sorted(rows, key=lambda m: ((m["name"] or m["email"]).casefold(), m["id"]))]


@tool()
def invite_member(
    db: Database,
    organization_id: str,
    email: Email,
    type: MemberType = 2,
    collections: list[CollectionAccess] | None = None,
) -> MemberObject:
    """Invite someone to an organization by email. They join when they accept and an owner or admin confirms
    them. Every member who is not revoked takes a seat, invited ones included; only owners can invite owners.

    Args:
        organization_id: The organization's ID.
        email: The person's email address.
        type: Their role: 0 owner, 1 admin, 2 user, 3 manager.
        collections: The collections they get and how (owners and admins reach every collection anyway).
    """
    org, mine = administered(db, organization_id)
    address = email.strip().lower()
    if type == OWNER and mine["type"] != OWNER:
        raise PermissionDenied("Only an Owner can configure other Owner accounts.")
    if any(m["email"].lower() == address for m in db.find(members, organization_id=organization_id)):
        raise Conflict(f"{address} is already a member of {org['name']}.")
    if occupied_seats(db, organization_id) >= org["seats"]:
        raise Conflict(f"Seat limit has been reached: {org['name']} ({org['plan']}) has {org['seats']} seats.")
    row = db.insert(
        members,
        id=db.new_uuid(members),
        organization_id=organization_id,
        user_id=None,
        name=None,
        email=address,
        type=type,
        status=INVITED,
        two_factor_enabled=False,
        collections=collection_grants(db, organization_id, collections or []),
        external_id=None,
        creation_date=db.now_iso(),
    )
    return member_object(row)


@tool()
def update_member(
    db: Database,
    member_id: str,
    type: MemberType | None = None,
    collections: list[CollectionAccess] | None = None,
) -> MemberObject:
    """Change a member's role or collection access. Only owners can change owners or make someone an owner, and
    an organization always keeps at least one confirmed owner.

    Args:
        member_id: The member's ID (from list_members).
        type: New role: 0 owner, 1 admin, 2 user, 3 manager.
        collections: Their collection access (replaces it all; [] removes every collection).
    """
    member, org, mine = administered_member(db, member_id)
    if type is None and collections is None:
        raise InvalidRequest("Nothing to update.")
    if member["status"] == REVOKED:
        raise Conflict(f"{member['email']} has been revoked; restore their access first.")
    if mine["type"] != OWNER and OWNER in (member["type"], type):
        raise PermissionDenied("Only an Owner can configure other Owner accounts.")
    changes: dict[str, Any] = {}
    if type is not None and type != member["type"]:
        if member["type"] == OWNER and member["status"] == CONFIRMED:
            owners = db.find(members, organization_id=org["id"], type=OWNER, status=CONFIRMED)
            if len(owners) == 1:
                raise Conflict(f"{org['name']} must have at least one confirmed owner.")
        changes["type"] = type
    if collections is not None:
        changes["collections"] = collection_grants(db, org["id"], collections)
    return member_object(db.update(members, member_id, **changes) if changes else member)


@tool()
def confirm_member(db: Database, member_id: str) -> MemberObject:
    """Confirm a member who accepted their invitation, so they get access to the organization's items. Where the
    organization requires two-step login, members without it can't be confirmed.

    Args:
        member_id: The member's ID (from list_members).
    """
    member, org, _ = administered_member(db, member_id)
    status = member["status"]
    if status == INVITED:
        raise Conflict(f"{member['email']} hasn't accepted the invitation yet; only accepted members can be confirmed.")
    if status == CONFIRMED:
        raise Conflict(f"{member['email']} is already confirmed.")
    if status != ACCEPTED:
        raise Conflict(f"{member['email']} has been revoked.")
    two_step = db.find(policies, organization_id=org["id"], type=TWO_STEP_POLICY, enabled=True)
    if two_step and not member["two_factor_enabled"]:
        raise Conflict(f"{org['name']} requires two-step login and {member['email']} hasn't turned it on.")
    return member_object(db.update(members, member_id, status=CONFIRMED))


# ---------------------------------------------------------------- Send


@tool(read_only=True)
def list_sends(db: Database, search: str | None = None) -> list[SendObject]:
    """List your Sends, newest deletion date first, with their share link and status.

    Args:
        search: Text to find in the name.
    """
    rows = [s for s in db.find(sends) if not search or search.strip().casefold() in s["name"].casefold()]
    now = db.now_iso()
    return [send_object(s, now) for s in sorted(rows, key=lambda s: (s["deletion_date"], s["id"]), reverse=True)]


@tool()
def create_send(
    db: Database,
    name: Name,
    text: SendText,
    hidden: bool = False,
    notes: str | None = None,
    password: str | None = None,
    max_access_count: MaxAccessCount | None = None,
    deletion_days: DeletionDays = 7,
    expiration_days: ExpirationDays | None = None,
    hide_email: bool = False,
    disabled: bool = False,
) -> SendObject:
    """Create a text Send: a link that shares text securely. It is deleted after deletion_days (at most 31),
    may expire earlier, may stop opening after a number of accesses and may require a password.

    Args:
        name: A name only you see.
        text: The text to share.
        hidden: Hide the text until the recipient reveals it.
        notes: Private notes about this Send.
        password: Recipients must enter this password to open it.
        max_access_count: How many times it can be opened.
        deletion_days: Days until the Send is deleted, 1 to 31.
        expiration_days: Days until the link stops working, at most deletion_days.
        hide_email: Hide your email address from recipients.
        disabled: Create it switched off, so nobody can open it yet.
    """
    check_send_options(db, hide_email)
    send_id = db.new_uuid(sends)
    row = db.insert(
        sends,
        id=send_id,
        access_id=access_id(send_id),
        key=send_key(send_id),
        type=0,
        name=vault.clean_name(name),
        notes=notes or None,
        text=text,
        hidden=hidden,
        password_hash=digest(password) if password else None,
        max_access_count=max_access_count,
        access_count=0,
        disabled=disabled,
        hide_email=hide_email,
        revision_date=db.now_iso(),
        **{"expiration_date": None, **send_dates(db, deletion_days, expiration_days)},
    )
    return send_object(row, db.now_iso())


@tool()
def update_send(
    db: Database,
    send_id: str,
    name: Name | None = None,
    text: SendText | None = None,
    hidden: bool | None = None,
    notes: str | None = None,
    password: str | None = None,
    remove_password: bool = False,
    max_access_count: MaxAccessCount | None = None,
    deletion_days: DeletionDays | None = None,
    expiration_days: ExpirationDays | None = None,
    hide_email: bool | None = None,
    disabled: bool | None = None,
) -> SendObject:
    """Edit a Send; only the arguments you give change. New dates count from now: deletion at most 31 days
    ahead, expiration no later than deletion. Raising the maximum access count re-opens a Send that reached it.

    Args:
        send_id: The Send's ID.
        name: New name.
        text: New text.
        hidden: Hide the text until the recipient reveals it.
        notes: New private notes ("" clears them).
        password: A new password recipients must enter.
        remove_password: true to remove the password.
        max_access_count: New maximum number of accesses.
        deletion_days: Delete it this many days from now, 1 to 31.
        expiration_days: Make the link stop working this many days from now.
        hide_email: Hide your email address from recipients.
        disabled: true to switch it off, false to switch it back on.
    """
    send = db.get(sends, send_id, "Send")
    if password is not None and remove_password:
        raise InvalidRequest("Give a new password or remove_password, not both.")
    if remove_password and send["password_hash"] is None:
        raise Conflict(f"The Send '{send['name']}' has no password.")
    check_send_options(db, hide_email)
    changes: dict[str, Any] = {
        k: v
        for k, v in {
            "name": vault.clean_name(name) if name is not None else None,
            "text": text,
            "hidden": hidden,
            "max_access_count": max_access_count,
            "hide_email": hide_email,
            "disabled": disabled,
        }.items()
        if v is not None
    }
    if notes is not None:
        changes["notes"] = notes or None
    if password is not None:
        changes["password_hash"] = digest(password)
    if remove_password:
        changes["password_hash"] = None
    changes.update(send_dates(db, deletion_days, expiration_days, send))
    if not changes:
        raise InvalidRequest("Nothing to update.")
    return send_object(db.update(sends, send_id, revision_date=db.now_iso(), **changes), db.now_iso())


# ---------------------------------------------------------------- generator


@tool(read_only=True)
def generate_password(
    db: Database,
    passphrase: bool = False,
    length: PasswordLength = 14,
    uppercase: bool = True,
    lowercase: bool = True,
    number: bool = True,
    special: bool = False,
    words: WordCount = 3,
    separator: Separator = "-",
    capitalize: bool = False,
    include_number: bool = False,
) -> GeneratedObject:
    """Generate a password (5 to 128 characters, ambiguous characters avoided) or a passphrase (3 to 20 words).
    Nothing is saved. A password generator policy of an organization you belong to raises the options to its
    minimums.

    Args:
        passphrase: true for a passphrase of words instead of a password.
        length: Password length.
        uppercase: Use A-Z.
        lowercase: Use a-z.
        number: Use 0-9.
        special: Use !@#$%^&*.
        words: Passphrase word count.
        separator: Passphrase word separator (one character).
        capitalize: Capitalize the passphrase's words.
        include_number: Add a digit to one passphrase word.
    """
    asked = Options(
        passphrase=passphrase,
        length=length,
        uppercase=uppercase,
        lowercase=lowercase,
        number=number,
        special=special,
        words=words,
        separator=separator,
        capitalize=capitalize,
        include_number=include_number,
    )
    options = apply_policies(asked, applying_policies(db, GENERATOR_POLICY))
    retired = sum(len(row["password_history"]) for row in db.find(items))
    value = generate(options, db.now().strftime("%Y-%m-%d"), retired)
    return GeneratedObject(
        data=value,
        type="passphrase" if passphrase else "password",
        length=options.words if passphrase else len(value),
        policyInEffect=options != asked,
    )


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def confirm_master_password(db: Database, item_name: str, master_password: str) -> RepromptObject:
    """(User only, in the re-prompt dialog) Type the master password to open an item protected by master
    password re-prompt. The item stays open to the assistant for 10 minutes.

    Args:
        item_name: The name of the item the dialog is for.
        master_password: The account's master password.
    """
    account = me(db)
    if digest(master_password) != account["master_password_hash"]:
        raise PermissionDenied("Invalid master password.")
    wanted = item_name.strip().casefold()
    found = [
        r
        for r in db.find(items, reprompt=1, deleted=False)
        if r["name"].casefold() == wanted and item_access(db, r) is not None
    ]
    if not found:
        raise NotFound(f"No item named '{item_name}' asks for the master password.")
    if len(found) > 1:
        raise InvalidRequest(f"Several items are named '{item_name}'.")
    now = db.now_iso()
    db.insert(reprompts, id=db.new_id(reprompts, "rp_"), item_id=found[0]["id"], verified_at=now)
    return RepromptObject(itemId=found[0]["id"], itemName=found[0]["name"], verifiedAt=now)
