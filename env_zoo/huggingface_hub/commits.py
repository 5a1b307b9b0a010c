"""Git on the Hub: resolving a revision (branch, tag, `refs/pr/<num>` or commit id) to a commit, the tree of
files a commit holds, making a commit on a ref, and merging a pull request's changes into its target branch."""

from __future__ import annotations

import hashlib
from typing import Any

from envfactory_gym import Conflict, Database, NotFound

from .schema import commits, files, refs, repos

PR_PREFIX = "refs/pr/"
GITATTRIBUTES = "".join(f"*.{ext} filter=lfs diff=lfs merge=lfs -text\n" for ext in ("safetensors", "bin", "parquet"))


def ref_key(repo: dict[str, Any], kind: str, name: str) -> str:
    """The stored key of a ref: `<repo>:refs/heads/<name>`, `<repo>:refs/tags/<name>` or `<repo>:refs/pr/<num>`."""
    folder = {"branch": "refs/heads/", "tag": "refs/tags/", "pr": PR_PREFIX}[kind]
    return f"{repo['id']}:{folder}{name}"


def find_ref(db: Database, repo: dict[str, Any], kind: str, name: str) -> dict[str, Any] | None:
    """A branch, tag or pull-request ref, or None."""
    found = db.find(refs, id=ref_key(repo, kind, name))
    return found[0] if found else None


def resolve(db: Database, repo: dict[str, Any], revision: str | None) -> str:
    """The commit id a revision names: a branch, a tag, `refs/pr/<num>`, or a full or 7+ digit commit id."""
    wanted = (revision or "main").strip()
    if wanted.startswith(PR_PREFIX):
        ref = find_ref(db, repo, "pr", wanted[len(PR_PREFIX) :])
    else:
        ref = find_ref(db, repo, "branch", wanted) or find_ref(db, repo, "tag", wanted)
    if ref is not None:
        return str(ref["target"])
    if len(wanted) >= 7:
        found = db.select(commits, "repo = ? AND id LIKE ?", (repo["id"], wanted.lower() + "%"), limit=2)
        if len(found) == 1:
            return str(found[0]["id"])
    raise NotFound(f"404 Revision Not Found: invalid rev id '{wanted}' in {repo['repo_type']} '{repo['repo_id']}'.")


def tree(db: Database, commit_id: str) -> dict[str, dict[str, Any]]:
    """The files of a commit by path."""
    return {row["path"]: row for row in db.find(files, commit=commit_id)}


def history(db: Database, commit_id: str) -> list[dict[str, Any]]:
    """A commit and its ancestors, newest first."""
    out: list[dict[str, Any]] = []
    current: str | None = commit_id
    while current:
        row = db.get(commits, current, "Commit")
        out.append(row)
        current = row["parent"]
    return out


def text_file(text: str) -> dict[str, Any]:
    """A text file as a tree entry: its size, git blob hash and content."""
    data = text.encode()
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    return {"size": len(data), "lfs": False, "blob_id": blob, "content": text}


def commit(
    db: Database,
    repo: dict[str, Any],
    ref: dict[str, Any],
    author: str,
    title: str,
    message: str,
    changes: dict[str, dict[str, Any] | None],
) -> dict[str, Any]:
    """Commit `changes` (path -> the new file, or None to delete) on top of `ref`'s head and move the ref to it."""
    parent = ref["target"]
    number = db.next_number("commits", commits)
    sha = hashlib.sha1(f"{repo['id']}:{parent}:{title}:{number}".encode()).hexdigest()
    row = db.insert(
        commits,
        id=sha,
        repo=repo["id"],
        parent=parent,
        title=title,
        message=message,
        author=author,
        created_at=db.now_iso(),
    )
    content: dict[str, dict[str, Any]] = tree(db, parent)
    for path, entry in changes.items():
        if entry is None:
            content.pop(path, None)
        else:
            content[path] = entry
    for path, entry in sorted(content.items()):
        db.insert(
            files,
            id=f"{sha}:{path}",
            commit=sha,
            path=path,
            size=entry["size"],
            lfs=entry["lfs"],
            blob_id=entry["blob_id"],
            content=entry["content"],
        )
    db.update(refs, ref["id"], target=sha)
    db.update(repos, repo["id"], last_modified=db.now_iso())
    return row


def changed(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, str | None]:
    """What turns tree `before` into tree `after`: path -> the new file's blob id, or None where it was deleted."""
    out: dict[str, str | None] = {}
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if new is None:
            out[path] = None
        elif old is None or old["blob_id"] != new["blob_id"]:
            out[path] = new["blob_id"]
    return out


def conflicts(db: Database, base: str, head: str, target: str) -> list[str]:
    """Paths a pull request (base -> head) changes that its target branch (base -> target) changed differently."""
    base_tree = tree(db, base)
    ours, theirs = changed(base_tree, tree(db, head)), changed(base_tree, tree(db, target))
    return sorted(path for path in ours if path in theirs and ours[path] != theirs[path])


def pr_changes(db: Database, base: str, head: str) -> dict[str, dict[str, Any] | None]:
    """A pull request's changes as path -> the new file (None: deleted)."""
    after = tree(db, head)
    return {path: (after[path] if blob else None) for path, blob in changed(tree(db, base), after).items()}


def require_mergeable(db: Database, base: str, head: str, target: str, branch: str) -> None:
    """Conflict when the target branch changed a file the pull request also changes."""
    clashing = conflicts(db, base, head, target)
    if clashing:
        raise Conflict(f"409 Conflict: this pull request has merge conflicts with '{branch}' in {', '.join(clashing)}.")


def initial_commit(db: Database, repo: dict[str, Any], author: str) -> dict[str, Any]:
    """A new repository's first commit (a .gitattributes routing weights to LFS) and its main branch."""
    number = db.next_number("commits", commits)
    sha = hashlib.sha1(f"{repo['id']}:initial:{number}".encode()).hexdigest()
    row = db.insert(
        commits,
        id=sha,
        repo=repo["id"],
        parent=None,
        title="initial commit",
        message="",
        author=author,
        created_at=db.now_iso(),
    )
    entry = text_file(GITATTRIBUTES)
    db.insert(files, id=f"{sha}:.gitattributes", commit=sha, path=".gitattributes", **entry)
    db.insert(
        refs, id=ref_key(repo, "branch", "main"), repo=repo["id"], kind="branch", name="main", target=sha, message=None
    )
    return row
