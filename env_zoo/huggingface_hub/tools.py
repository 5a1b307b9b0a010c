"""The Hugging Face Hub API (huggingface_hub's HfApi) as a signed-in user uses it: find and inspect models,
datasets and Spaces; create repositories and change their settings; branches, tags, commits and files;
discussions and pull requests (comments, status changes, merging); gated access requests; collections; likes;
organization members and roles; plus the user's own sign-in with an access token."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, tool
from envfactory_gym.fields import text

from . import commits as git
from . import discussions as talk
from . import rules
from .access import RANK, account, creatable_in, me, org_role, repo_named, sees, writable
from .inputs import (
    CommentText,
    DiscussionNum,
    Gated,
    ItemType,
    Limit,
    Note,
    Operations,
    OrgRole,
    RefName,
    RepoId,
    RepoType,
    Revision,
    Sort,
    SpaceSdk,
    Title,
    Username,
)
from .objects import (
    AccessRequest,
    Collection,
    CommitInfo,
    Discussion,
    DiscussionWithDetails,
    GitCommitInfo,
    GitRef,
    GitRefs,
    LikeResult,
    OrgMember,
    OrgMembership,
    RepoFile,
    RepoInfo,
    RepoSummary,
    RepoTree,
    WhoAmI,
    access_request,
    collection,
    discussion,
    discussion_details,
    git_ref,
    git_refs,
    info_of,
    like_result,
    repo_summary,
)
from .schema import (
    access_requests,
    accounts,
    collection_items,
    collections,
    discussions,
    likes,
    org_members,
    refs,
    repos,
    sessions,
)


def _whoami(db: Database, name: str) -> WhoAmI:
    user = db.get(accounts, name, "User")
    orgs = [
        OrgMembership(
            name=m["org"], fullname=(o := db.get(accounts, m["org"]))["fullname"], plan=o["plan"], role=m["role"]
        )
        for m in db.find(org_members, user=name, order_by=[org_members.c.org])
    ]
    return WhoAmI(name=name, fullname=user["fullname"], email=user["email"], plan=user["plan"], orgs=orgs)


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def login(db: Database, username: Username) -> WhoAmI:
    """(User only) The user creates a write User Access Token in Settings > Access Tokens and gives it to the
    assistant, which then acts as that user.

    Args:
        username: The user's Hugging Face username.
    """
    found = db.find(accounts, name=username, type="user")
    if not found:
        raise PermissionDenied("401 Unauthorized: Invalid user token.")
    db.start_session(sessions, user=username)
    return _whoami(db, username)


@tool(read_only=True)
def whoami(db: Database) -> WhoAmI:
    """The signed-in user: name, email, plan, and each organization they belong to with their role there (read,
    contributor, write or admin)."""
    return _whoami(db, me(db))


# ---------------------------------------------------------------- repositories


@tool(read_only=True)
def list_repos(
    db: Database,
    repo_type: RepoType = "model",
    search: str | None = None,
    author: str | None = None,
    sort: Sort = "downloads",
    limit: Limit = 20,
) -> list[RepoSummary]:
    """List models, datasets or Spaces you can see (public ones and your organizations' private ones), most
    downloaded (or liked, or recently changed) first.

    Args:
        repo_type: model, dataset or space.
        search: Only repos whose id contains this text (case-insensitive).
        author: Only repos of this user or organization.
        sort: downloads, likes, last_modified or created_at, descending.
        limit: At most this many, 1 to 100.
    """
    user = me(db)
    where, params = ["repo_type = ?"], [repo_type]
    if search:
        where.append("lower(repo_id) LIKE ?")
        params.append(f"%{search.strip().lower()}%")
    if author:
        where.append("owner = ?")
        params.append(author.strip())
    rows = db.select(repos, " AND ".join(where), params, order_by=f"{sort} DESC")
    return [repo_summary(r) for r in rows if sees(db, r, user)][:limit]


@tool(read_only=True)
def repo_info(db: Database, repo_id: RepoId, repo_type: RepoType = "model") -> RepoInfo:
    """Get a repository: visibility, gating, head commit of main, the files on main, tags, likes, downloads,
    whether discussions are enabled, and for a gated repo the status of your own access request.

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
    """
    user = me(db)
    return info_of(db, repo_named(db, repo_type, repo_id, user), user)


@tool()
def create_repo(
    db: Database,
    repo_id: RepoId,
    repo_type: RepoType = "model",
    private: bool = False,
    space_sdk: SpaceSdk | None = None,
    exist_ok: bool = False,
) -> RepoInfo:
    """Create an empty repository (one commit holding .gitattributes on main) in your namespace or in an
    organization where you are at least a contributor.

    Args:
        repo_id: namespace/name of the new repository.
        repo_type: model, dataset or space.
        private: Whether only you (or the organization's members) can see it.
        space_sdk: Required for a Space: gradio, streamlit, docker or static.
        exist_ok: Return the existing repository instead of failing when it already exists.
    """
    user = me(db)
    namespace, name = repo_id.split("/")
    account(db, namespace)
    found = db.find(repos, repo_type=repo_type, repo_id=repo_id)
    if found and exist_ok and sees(db, found[0], user):
        return info_of(db, found[0], user)
    creatable_in(db, namespace, user, repo_type)
    if found:
        raise Conflict(f"409 Conflict: You already created this {repo_type} repo: {repo_id}.")
    if (repo_type == "space") != (space_sdk is not None):
        raise InvalidRequest("400 Bad Request: space_sdk is required for a Space and only for a Space.")
    row = db.insert(
        repos,
        id=db.next_number("repos", repos),
        repo_type=repo_type,
        repo_id=repo_id,
        owner=namespace,
        created_by=user,
        private=private,
        gated="false",
        discussions_disabled=False,
        pipeline_tag=None,
        library_name=None,
        sdk=space_sdk,
        license=None,
        tags=[],
        downloads=0,
        likes=0,
        last_num=0,
        created_at=db.now_iso(),
        last_modified=db.now_iso(),
    )
    git.initial_commit(db, row, user)
    return info_of(db, row, user)


@tool()
def update_repo_settings(
    db: Database,
    repo_id: RepoId,
    repo_type: RepoType = "model",
    private: bool | None = None,
    gated: Gated | None = None,
    discussions_disabled: bool | None = None,
) -> RepoInfo:
    """Change a repository's visibility, access requests (gated: "auto" approves every request, "manual" waits for
    a writer's review, false turns gating off) or whether discussions and pull requests are enabled. Needs write
    access. Only models and datasets can be gated.

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
        private: New visibility.
        gated: "auto", "manual" or false.
        discussions_disabled: true turns discussions and pull requests off.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    writable(db, repo, user)
    if gated is not None and gated is not False:
        rules.require_gateable(repo)
    changes = {
        key: value
        for key, value in (("private", private), ("discussions_disabled", discussions_disabled))
        if value is not None
    }
    if gated is not None:
        changes["gated"] = gated or "false"
    if not changes:
        raise InvalidRequest("400 Bad Request: give at least one setting to change.")
    row = db.update(repos, repo["id"], last_modified=db.now_iso(), **changes)
    return info_of(db, row, user)


# ---------------------------------------------------------------- refs, commits, files


@tool(read_only=True)
def list_repo_refs(
    db: Database, repo_id: RepoId, repo_type: RepoType = "model", include_pull_requests: bool = False
) -> GitRefs:
    """List a repository's branches and tags (each with the commit it points at, tags with their message), and
    with include_pull_requests the refs/pr/<num> refs of its pull requests.

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
        include_pull_requests: Also list pull-request refs.
    """
    user = me(db)
    return git_refs(db, repo_named(db, repo_type, repo_id, user), include_pull_requests)


@tool()
def create_branch(
    db: Database,
    repo_id: RepoId,
    branch: RefName,
    repo_type: RepoType = "model",
    revision: Revision | None = None,
    exist_ok: bool = False,
) -> GitRef:
    """Create a branch at a revision (default: the head of main). Needs write access.

    Args:
        repo_id: The repository as namespace/name.
        branch: The new branch's name.
        repo_type: model, dataset or space.
        revision: A branch, tag or commit id to start from (default main).
        exist_ok: Do not fail when the branch already exists.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    writable(db, repo, user)
    target = git.resolve(db, repo, revision)
    existing = git.find_ref(db, repo, "branch", branch)
    if existing is not None:
        if exist_ok:
            return git_ref(existing)
        raise Conflict(f"409 Conflict: Reference already exists: refs/heads/{branch}.")
    row = db.insert(
        refs,
        id=git.ref_key(repo, "branch", branch),
        repo=repo["id"],
        kind="branch",
        name=branch,
        target=target,
        message=None,
    )
    return git_ref(row)


@tool()
def create_tag(
    db: Database,
    repo_id: RepoId,
    tag: RefName,
    repo_type: RepoType = "model",
    tag_message: CommentText | None = None,
    revision: Revision | None = None,
    exist_ok: bool = False,
) -> GitRef:
    """Tag a revision (default: the head of main), e.g. a release. Needs write access.

    Args:
        repo_id: The repository as namespace/name.
        tag: The tag's name, e.g. v1.0.
        repo_type: model, dataset or space.
        tag_message: The tag's message.
        revision: A branch, tag or commit id to tag (default main).
        exist_ok: Do not fail when the tag already exists.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    writable(db, repo, user)
    target = git.resolve(db, repo, revision)
    existing = git.find_ref(db, repo, "tag", tag)
    if existing is not None:
        if exist_ok:
            return git_ref(existing)
        raise Conflict(f"409 Conflict: Tag already exists: refs/tags/{tag}.")
    row = db.insert(
        refs,
        id=git.ref_key(repo, "tag", tag),
        repo=repo["id"],
        kind="tag",
        name=tag,
        target=target,
        message=tag_message,
    )
    return git_ref(row)


@tool(read_only=True)
def list_repo_commits(
    db: Database, repo_id: RepoId, repo_type: RepoType = "model", revision: Revision | None = None, limit: Limit = 20
) -> list[GitCommitInfo]:
    """List the commits of a revision (default main), newest first; the author of a repo's first commit created it
    (contributors of an organization write only to the repos they created).

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
        revision: A branch, tag, refs/pr/<num> or commit id.
        limit: At most this many, 1 to 100.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    return [
        GitCommitInfo(
            commit_id=c["id"], title=c["title"], message=c["message"], authors=[c["author"]], created_at=c["created_at"]
        )
        for c in git.history(db, git.resolve(db, repo, revision))[:limit]
    ]


@tool(read_only=True)
def list_repo_files(
    db: Database, repo_id: RepoId, repo_type: RepoType = "model", revision: Revision | None = None
) -> RepoTree:
    """List the files of a revision (default main) with their sizes, whether they are stored with LFS, and their
    blob ids (equal ids: equal content).

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
        revision: A branch, tag, refs/pr/<num> or commit id.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    head = git.resolve(db, repo, revision)
    entries = git.tree(db, head)
    return RepoTree(
        revision=revision or "main",
        commit_id=head,
        files=[
            RepoFile(path=p, size=e["size"], lfs=e["lfs"], blob_id=e["blob_id"]) for p, e in sorted(entries.items())
        ],
    )


@tool()
def create_commit(
    db: Database,
    repo_id: RepoId,
    operations: Operations,
    commit_message: Title,
    repo_type: RepoType = "model",
    commit_description: CommentText = "",
    revision: Revision | None = None,
    create_pr: bool = False,
    parent_commit: Annotated[str, Field(pattern=r"^[0-9a-f]{40}$")] | None = None,
) -> CommitInfo:
    """Add, overwrite or delete files in one commit. Committing to a branch needs write access; anyone who can see
    the repo may instead open a pull request with create_pr (the commit goes on its refs/pr/<num>), and a pull
    request's author or a writer may add commits to it with revision="refs/pr/<num>".

    Args:
        repo_id: The repository as namespace/name.
        operations: The changes, each {"operation": "add", "path_in_repo", "content"} or
            {"operation": "delete", "path_in_repo"}.
        commit_message: The commit's title.
        repo_type: model, dataset or space.
        commit_description: The commit's longer description (with create_pr: the pull request's description).
        revision: The branch to commit to, or refs/pr/<num> (default main).
        create_pr: Open a pull request against the branch with this commit instead of committing to it.
        parent_commit: Fail unless this is still the head of the revision (guards against concurrent changes).
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    wanted = (revision or "main").strip()
    paths = [op.path_in_repo for op in operations]
    if len(set(paths)) != len(paths):
        raise InvalidRequest("400 Bad Request: each path may appear in only one operation of a commit.")
    if wanted.startswith(git.PR_PREFIX):
        if create_pr:
            raise InvalidRequest("400 Bad Request: create_pr cannot be used with a refs/pr/ revision.")
        pull = talk.numbered(
            db, repo, int(wanted[len(git.PR_PREFIX) :]) if wanted[len(git.PR_PREFIX) :].isdigit() else 0
        )
        if pull["status"] not in ("open", "draft") or not pull["is_pull_request"]:
            raise Conflict(f"409 Conflict: pull request #{pull['num']} is {pull['status']}; it takes no more commits.")
        talk.require_moderator(db, repo, pull, user)
        ref = git.find_ref(db, repo, "pr", str(pull["num"]))
    else:
        branch = git.find_ref(db, repo, "branch", wanted)
        if branch is None:
            raise NotFound(f"404 Revision Not Found: '{wanted}' is not a branch of {repo['repo_id']}.")
        pull = None
        if create_pr:
            talk.require_enabled(repo)
            pull = talk.open_discussion(db, repo, user, commit_message, commit_description, True, wanted)
            ref = git.find_ref(db, repo, "pr", str(pull["num"]))
        else:
            writable(db, repo, user)
            ref = branch
    assert ref is not None
    if parent_commit is not None and parent_commit != ref["target"]:
        raise Conflict(f"412 Precondition Failed: parent_commit {parent_commit} is not the head of {wanted}.")
    before = git.tree(db, ref["target"])
    changes: dict[str, dict[str, object] | None] = {}
    for op in operations:
        if op.operation == "delete":
            if op.path_in_repo not in before:
                raise NotFound(f"404 Entry Not Found: '{op.path_in_repo}' does not exist at {wanted}.")
            changes[op.path_in_repo] = None
        else:
            changes[op.path_in_repo] = git.text_file(op.content)
    made = git.commit(db, repo, ref, user, commit_message, commit_description, changes)
    if pull is not None:
        if pull["status"] == "draft":
            pull = db.update(discussions, pull["id"], status="open")
        talk.event(db, pull, "commit", user, content=commit_message, commit=made["id"])
    return CommitInfo(
        commit_oid=made["id"],
        commit_message=commit_message,
        revision=f"{git.PR_PREFIX}{pull['num']}" if pull else wanted,
        pr_num=pull["num"] if pull else None,
        pr_revision=f"{git.PR_PREFIX}{pull['num']}" if pull else None,
    )


# ---------------------------------------------------------------- discussions and pull requests


@tool(read_only=True)
def get_repo_discussions(
    db: Database,
    repo_id: RepoId,
    repo_type: RepoType = "model",
    discussion_type: Literal["all", "discussion", "pull_request"] = "all",
    discussion_status: Literal["all", "open", "closed"] = "all",
    author: str | None = None,
) -> list[Discussion]:
    """List a repository's discussions and pull requests, newest first. "open" includes draft pull requests,
    "closed" includes merged ones.

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
        discussion_type: all, discussion or pull_request.
        discussion_status: all, open or closed.
        author: Only those opened by this user.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    statuses = {"all": ("open", "draft", "closed", "merged"), "open": ("open", "draft"), "closed": ("closed", "merged")}
    rows = [
        r
        for r in db.find(discussions, repo=repo["id"], order_by=[discussions.c.num.desc()])
        if r["status"] in statuses[discussion_status]
        and (discussion_type == "all" or r["is_pull_request"] == (discussion_type == "pull_request"))
        and (author is None or r["author"] == author)
    ]
    return [discussion(r, repo) for r in rows]


@tool(read_only=True)
def get_discussion_details(
    db: Database, repo_id: RepoId, discussion_num: DiscussionNum, repo_type: RepoType = "model"
) -> DiscussionWithDetails:
    """Get a discussion or pull request with its comments, status changes and commits; for an open pull request
    also the files it changes and any that conflict with its target branch.

    Args:
        repo_id: The repository as namespace/name.
        discussion_num: The discussion's or pull request's number.
        repo_type: model, dataset or space.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    return discussion_details(db, talk.numbered(db, repo, discussion_num), repo)


@tool()
def create_discussion(
    db: Database,
    repo_id: RepoId,
    title: Title,
    repo_type: RepoType = "model",
    description: CommentText = "",
    pull_request: bool = False,
) -> DiscussionWithDetails:
    """Open a discussion, or with pull_request a draft pull request against main (it opens with its first commit,
    made with create_commit on its refs/pr/<num>). Not possible where discussions are disabled.

    Args:
        repo_id: The repository as namespace/name.
        title: The title.
        repo_type: model, dataset or space.
        description: The opening comment.
        pull_request: Open a draft pull request instead of a discussion.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    talk.require_enabled(repo)
    row = talk.open_discussion(db, repo, user, title, description, pull_request, "main")
    return discussion_details(db, row, repo)


@tool()
def comment_discussion(
    db: Database, repo_id: RepoId, discussion_num: DiscussionNum, comment: CommentText, repo_type: RepoType = "model"
) -> DiscussionWithDetails:
    """Comment on a discussion or pull request (closed and merged ones too).

    Args:
        repo_id: The repository as namespace/name.
        discussion_num: The discussion's or pull request's number.
        comment: The comment, in Markdown.
        repo_type: model, dataset or space.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    talk.require_enabled(repo)
    row = talk.numbered(db, repo, discussion_num)
    talk.event(db, row, "comment", user, content=comment)
    return discussion_details(db, row, repo)


@tool()
def change_discussion_status(
    db: Database,
    repo_id: RepoId,
    discussion_num: DiscussionNum,
    new_status: Literal["open", "closed"],
    repo_type: RepoType = "model",
    comment: CommentText | None = None,
) -> DiscussionWithDetails:
    """Close or reopen a discussion or pull request, optionally with a comment. Only its author or members with
    write access may; a merged pull request stays merged.

    Args:
        repo_id: The repository as namespace/name.
        discussion_num: The discussion's or pull request's number.
        new_status: open or closed.
        repo_type: model, dataset or space.
        comment: A comment to post with the change.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    row = talk.numbered(db, repo, discussion_num)
    talk.require_moderator(db, repo, row, user)
    if comment:
        talk.event(db, row, "comment", user, content=comment)
    return discussion_details(db, talk.set_status(db, row, new_status, user), repo)


@tool()
def merge_pull_request(
    db: Database,
    repo_id: RepoId,
    discussion_num: DiscussionNum,
    repo_type: RepoType = "model",
    comment: CommentText | None = None,
) -> DiscussionWithDetails:
    """Merge an open pull request into its target branch (one commit with the pull request's changes). Needs write
    access; drafts, closed and merged pull requests and ones that conflict with the target cannot be merged.

    Args:
        repo_id: The repository as namespace/name.
        discussion_num: The pull request's number.
        repo_type: model, dataset or space.
        comment: A comment to post with the merge.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    row = talk.numbered(db, repo, discussion_num)
    if not row["is_pull_request"]:
        raise InvalidRequest(f"400 Bad Request: #{discussion_num} is a discussion, not a pull request.")
    writable(db, repo, user)
    if row["status"] != "open":
        hint = {
            "draft": "is a draft with no commits",
            "closed": "is closed: reopen it first",
            "merged": "is already merged",
        }
        raise Conflict(f"409 Conflict: pull request #{discussion_num} {hint[row['status']]}.")
    head = git.find_ref(db, repo, "pr", str(discussion_num))
    target = git.find_ref(db, repo, "branch", row["target_branch"])
    if head is None or target is None:
        raise NotFound(f"404 Revision Not Found: branch '{row['target_branch']}' no longer exists.")
    git.require_mergeable(db, row["base_commit"], head["target"], target["target"], row["target_branch"])
    changes = git.pr_changes(db, row["base_commit"], head["target"])
    made = git.commit(db, repo, target, user, row["title"], f"Merged {git.PR_PREFIX}{discussion_num}", changes)
    if comment:
        talk.event(db, row, "comment", user, content=comment)
    talk.event(db, row, "status-change", user, new_status="merged")
    merged = db.update(discussions, row["id"], status="merged", merge_commit=made["id"])
    return discussion_details(db, merged, repo)


# ---------------------------------------------------------------- gated access


@tool(read_only=True)
def list_access_requests(
    db: Database,
    repo_id: RepoId,
    status: Literal["pending", "accepted", "rejected"] = "pending",
    repo_type: RepoType = "model",
) -> list[AccessRequest]:
    """List a gated repository's access requests with a given status, oldest first, each with the requester's
    name, email and form answers. Needs write access.

    Args:
        repo_id: The repository as namespace/name.
        status: pending, accepted or rejected.
        repo_type: model or dataset.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    writable(db, repo, user)
    rules.require_gated(repo)
    rows = db.find(access_requests, repo=repo["id"], status=status, order_by=[access_requests.c.timestamp])
    return [access_request(db, r) for r in rows]


@tool()
def handle_access_request(
    db: Database,
    repo_id: RepoId,
    user: Username,
    status: Literal["accepted", "rejected", "pending"],
    repo_type: RepoType = "model",
    rejection_reason: Annotated[str, text(200)] | None = None,
) -> AccessRequest:
    """Accept or reject a user's access request to a gated repository, or move it back to pending (which takes
    access away). A rejection may give a reason the requester sees. Needs write access.

    Args:
        repo_id: The repository as namespace/name.
        user: The requester's username.
        status: accepted, rejected or pending.
        repo_type: model or dataset.
        rejection_reason: Why, when rejecting.
    """
    caller = me(db)
    repo = repo_named(db, repo_type, repo_id, caller)
    writable(db, repo, caller)
    rules.require_gated(repo)
    account(db, user)
    request = db.find_one(
        access_requests,
        id=f"{repo['id']}:{user}",
        not_found=f"404 Not Found: '{user}' has not requested access to {repo_id}.",
    )
    rules.check_transition(request, status, rejection_reason)
    row = db.update(
        access_requests,
        request["id"],
        status=status,
        rejection_reason=rejection_reason,
        handled_by=caller,
        timestamp=db.now_iso(),
    )
    return access_request(db, row)


# ---------------------------------------------------------------- collections and likes


@tool(read_only=True)
def list_collections(
    db: Database,
    owner: str | None = None,
    item: Annotated[str, text(200)] | None = None,
    limit: Limit = 20,
) -> list[Collection]:
    """List collections you can see with their items, most upvoted first.

    Args:
        owner: Only collections of this user or organization.
        item: Only collections holding this item: models/<repo_id>, datasets/<repo_id>, spaces/<repo_id> or
            papers/<arxiv id>.
        limit: At most this many, 1 to 100.
    """
    user = me(db)
    rows = db.find(collections, **({"owner": owner.strip()} if owner else {}), order_by=[collections.c.upvotes.desc()])
    visible = [r for r in rows if not r["private"] or r["owner"] == user or org_role(db, r["owner"], user)]
    if item:
        kind, _, wanted = item.strip().partition("/")
        holding = {i["collection"] for i in db.find(collection_items, item_type=kind.rstrip("s"), item_id=wanted)}
        visible = [r for r in visible if r["slug"] in holding]
    return [collection(db, r) for r in visible[:limit]]


@tool()
def add_collection_item(
    db: Database,
    collection_slug: Annotated[str, text(200)],
    item_id: Annotated[str, text(200)],
    item_type: ItemType,
    note: Note | None = None,
    exists_ok: bool = False,
) -> Collection:
    """Add a model, dataset, Space or paper to a collection you own (or that your organization owns, with write
    or admin role there), at the end, with an optional note.

    Args:
        collection_slug: The collection's slug, as list_collections shows it.
        item_id: The repo id (namespace/name), or the arXiv id of a paper.
        item_type: model, dataset, space or paper.
        note: A note shown with the item (up to 500 characters).
        exists_ok: Do not fail when the item is already in the collection.
    """
    user = me(db)
    found = db.find(collections, slug=collection_slug.strip())
    if not found or (found[0]["private"] and found[0]["owner"] != user and not org_role(db, found[0]["owner"], user)):
        raise NotFound(f"404 Collection '{collection_slug}' not found.")
    row = found[0]
    if row["owner"] != user and RANK.get(org_role(db, row["owner"], user) or "", 0) < RANK["write"]:
        raise PermissionDenied(f"403 Forbidden: you cannot edit collections of {row['owner']}.")
    if item_type != "paper":
        repo_named(db, item_type, item_id, user)
    items = db.find(collection_items, collection=row["slug"])
    if any(i["item_type"] == item_type and i["item_id"] == item_id for i in items):
        if exists_ok:
            return collection(db, row)
        raise Conflict(f"409 Conflict: {item_type} '{item_id}' is already in this collection.")
    number = db.next_number("collection_items", collection_items)
    db.insert(
        collection_items,
        id=f"{number:024x}",
        collection=row["slug"],
        item_type=item_type,
        item_id=item_id,
        note=note,
        position=max((i["position"] for i in items), default=-1) + 1,
    )
    return collection(db, db.update(collections, row["slug"], last_updated=db.now_iso()))


@tool()
def like(db: Database, repo_id: RepoId, repo_type: RepoType = "model") -> LikeResult:
    """Like a repository (liking one you already like changes nothing).

    Args:
        repo_id: The repository as namespace/name.
        repo_type: model, dataset or space.
    """
    user = me(db)
    repo = repo_named(db, repo_type, repo_id, user)
    key = f"{user}:{repo['id']}"
    if not db.find(likes, id=key):
        db.insert(likes, id=key, user=user, repo=repo["id"], liked_at=db.now_iso())
        repo = db.update(repos, repo["id"], likes=repo["likes"] + 1)
    return like_result(repo, True)


# ---------------------------------------------------------------- organizations


@tool(read_only=True)
def list_organization_members(db: Database, organization: Username) -> list[OrgMember]:
    """List an organization's members with their roles (read, contributor, write, admin), A-Z. Members only.

    Args:
        organization: The organization's name.
    """
    user = me(db)
    org = account(db, organization)
    if org["type"] != "org":
        raise NotFound(f"404 Not Found: '{organization}' is not an organization.")
    if org_role(db, org["name"], user) is None:
        raise PermissionDenied(f"403 Forbidden: only members of {org['name']} can see its members' roles.")
    rows = db.find(org_members, org=org["name"], order_by=[org_members.c.user])
    return [OrgMember(name=r["user"], fullname=db.get(accounts, r["user"])["fullname"], role=r["role"]) for r in rows]


@tool()
def update_org_member_role(db: Database, organization: Username, username: Username, role: OrgRole) -> OrgMember:
    """Change a member's role in an organization (Team and Enterprise plans). Needs the write or admin role; only
    admins grant or remove admin, and the last admin keeps it.

    Args:
        organization: The organization's name.
        username: The member's username.
        role: read, contributor, write or admin.
    """
    user = me(db)
    org = account(db, organization)
    member = db.find_one(
        org_members,
        org=org["name"],
        user=username,
        not_found=f"404 Not Found: '{username}' is not a member of {organization}.",
    )
    row = rules.change_role(db, org, user, member, role)
    return OrgMember(name=username, fullname=db.get(accounts, username)["fullname"], role=row["role"])
