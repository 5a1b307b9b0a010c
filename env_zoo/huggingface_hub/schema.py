"""The Hugging Face Hub's objects as tables. Accounts (users and organizations) are keyed by their name; a
repository is a model, dataset or Space named `owner/name` (one name may be taken once per kind). A commit's files
are its whole tree (one row per path), so any revision (branch, tag, commit id) lists its files. Discussions and
pull requests of a repository share one number sequence; a pull request's commits live on its `refs/pr/<num>`
ref. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("name", String, primary_key=True),  # the username or organization name
    Column("type", String, nullable=False),  # user | org
    Column("fullname", String, nullable=False),
    Column("email", String),  # users only
    Column("plan", String, nullable=False),  # users: free | pro; organizations: free | team | enterprise
    Column("created_at", String, nullable=False),
)

org_members = Table(
    "org_members",
    metadata,
    Column("id", String, primary_key=True),  # "<org>:<user>"
    Column("org", String, ForeignKey("accounts.name"), nullable=False),
    Column("user", String, ForeignKey("accounts.name"), nullable=False),
    Column("role", String, nullable=False),  # read | contributor | write | admin
    UniqueConstraint("org", "user"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": whose access token the assistant holds
    Column("user", String, ForeignKey("accounts.name"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

repos = Table(
    "repos",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_type", String, nullable=False),  # model | dataset | space
    Column("repo_id", String, nullable=False),  # owner/name
    Column("owner", String, ForeignKey("accounts.name"), nullable=False),
    Column("created_by", String, ForeignKey("accounts.name"), nullable=False),  # who created it (contributor rule)
    Column("private", Boolean, nullable=False),
    Column("gated", String, nullable=False),  # false | auto | manual
    Column("discussions_disabled", Boolean, nullable=False),
    Column("pipeline_tag", String),  # models: text-generation, image-classification, ...
    Column("library_name", String),  # models: transformers, timm, ...
    Column("sdk", String),  # Spaces: gradio | streamlit | docker | static
    Column("license", String),
    Column("tags", JSON, nullable=False),
    Column("downloads", Integer, nullable=False),  # last 30 days
    Column("likes", Integer, nullable=False),
    Column("last_num", Integer, nullable=False),  # the last discussion / pull request number handed out
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("last_modified", String, nullable=False, info={"volatile": True}),
    UniqueConstraint("repo_type", "repo_id"),
)

commits = Table(
    "commits",
    metadata,
    Column("id", String, primary_key=True),  # 40 hex digits
    Column("repo", Integer, ForeignKey("repos.id"), nullable=False),
    Column("parent", String),  # the previous commit (NULL for the first)
    Column("title", String, nullable=False),
    Column("message", Text, nullable=False),
    Column("author", String, ForeignKey("accounts.name"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

refs = Table(
    "refs",
    metadata,
    Column("id", String, primary_key=True),  # "<repo>:<ref>", ref as refs/heads/x, refs/tags/x or refs/pr/N
    Column("repo", Integer, ForeignKey("repos.id"), nullable=False),
    Column("kind", String, nullable=False),  # branch | tag | pr
    Column("name", String, nullable=False),  # main, v1.0, or the PR number
    Column("target", String, ForeignKey("commits.id"), nullable=False),
    Column("message", Text),  # a tag's message
)

files = Table(
    "files",
    metadata,
    Column("id", String, primary_key=True),  # "<commit>:<path>"
    Column("commit", String, ForeignKey("commits.id"), nullable=False),
    Column("path", String, nullable=False),
    Column("size", Integer, nullable=False),  # bytes
    Column("lfs", Boolean, nullable=False),  # stored with Git LFS (weights, archives, parquet)
    Column("blob_id", String, nullable=False),  # content hash: equal blobs, equal content
    Column("content", Text),  # small text files only
)

discussions = Table(
    "discussions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo", Integer, ForeignKey("repos.id"), nullable=False),
    Column("num", Integer, nullable=False),
    Column("title", String, nullable=False),
    Column("author", String, ForeignKey("accounts.name"), nullable=False),
    Column("is_pull_request", Boolean, nullable=False),
    Column("status", String, nullable=False),  # open | closed | merged (PRs) | draft (PRs without a commit)
    Column("target_branch", String),  # PRs: the branch it merges into
    Column("base_commit", String, ForeignKey("commits.id")),  # PRs: the target's head when it was opened
    Column("merge_commit", String, ForeignKey("commits.id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    UniqueConstraint("repo", "num"),
)

discussion_events = Table(
    "discussion_events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("discussion", Integer, ForeignKey("discussions.id"), nullable=False),
    Column("type", String, nullable=False),  # comment | status-change | commit | title-change
    Column("author", String, ForeignKey("accounts.name"), nullable=False),
    Column("content", Text),  # a comment's text, a commit's title
    Column("new_status", String),  # status-change
    Column("commit", String, ForeignKey("commits.id")),  # commit
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

access_requests = Table(
    "access_requests",
    metadata,
    Column("id", String, primary_key=True),  # "<repo>:<user>"
    Column("repo", Integer, ForeignKey("repos.id"), nullable=False),
    Column("user", String, ForeignKey("accounts.name"), nullable=False),
    Column("status", String, nullable=False),  # pending | accepted | rejected
    Column("fields", JSON, nullable=False),  # what the form asked: affiliation, intended use, ...
    Column("rejection_reason", Text),
    Column("handled_by", String, ForeignKey("accounts.name")),
    Column("timestamp", String, nullable=False, info={"volatile": True}),
)

collections = Table(
    "collections",
    metadata,
    Column("slug", String, primary_key=True),  # <owner>/<title-slug>-<24 hex>
    Column("owner", String, ForeignKey("accounts.name"), nullable=False),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("theme", String, nullable=False),
    Column("upvotes", Integer, nullable=False),
    Column("last_updated", String, nullable=False, info={"volatile": True}),
)

collection_items = Table(
    "collection_items",
    metadata,
    Column("id", String, primary_key=True),  # the item's object id, 24 hex digits
    Column("collection", String, ForeignKey("collections.slug"), nullable=False),
    Column("item_type", String, nullable=False),  # model | dataset | space | paper
    Column("item_id", String, nullable=False),  # owner/name, or an arXiv id for a paper
    Column("note", Text),
    Column("position", Integer, nullable=False),
)

likes = Table(
    "likes",
    metadata,
    Column("id", String, primary_key=True),  # "<user>:<repo>"
    Column("user", String, ForeignKey("accounts.name"), nullable=False),
    Column("repo", Integer, ForeignKey("repos.id"), nullable=False),
    Column("liked_at", String, nullable=False, info={"volatile": True}),
)
