"""Figshare's records as tables: accounts and authors, the category and licence vocabularies, articles with their
authors, files and published versions, collections and their articles, projects and their members."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

authors = Table(
    "authors",
    metadata,
    Column("author_id", Integer, primary_key=True),  # e.g. 14502377
    Column("full_name", String, nullable=False),
    Column("orcid_id", String, nullable=False),  # "" when none
    Column("is_active", Boolean, nullable=False),  # has a Figshare account
    Column("institution", String, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("account_id", Integer, primary_key=True),  # e.g. 2281904
    Column("author_id", Integer, ForeignKey("authors.author_id"), nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("quota", Integer, nullable=False),  # private storage in bytes
)

sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.account_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

categories = Table(
    "categories",
    metadata,
    Column("category_id", Integer, primary_key=True),  # e.g. 24736
    Column("parent_id", Integer),  # 0 for a top-level field of research
    Column("title", String, nullable=False),
    Column("path", String, nullable=False),  # "/Biological sciences/Ecology"
)

licenses = Table(
    "licenses",
    metadata,
    Column("value", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("url", String, nullable=False),
)

articles = Table(
    "articles",
    metadata,
    Column("article_id", Integer, primary_key=True),  # e.g. 24817536
    Column("owner_id", Integer, ForeignKey("accounts.account_id"), nullable=False),
    Column("project_id", Integer, ForeignKey("projects.project_id")),
    Column("title", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("defined_type", String, nullable=False),  # item type name: dataset, figure, software, ...
    Column("tags", JSON, nullable=False),
    Column("categories", JSON, nullable=False),  # category ids
    Column("license", Integer, ForeignKey("licenses.value")),
    Column("funding", String, nullable=False),
    Column("references", JSON, nullable=False),
    Column("status", String, nullable=False),  # draft | public | embargoed (publish waits for a whole-item embargo)
    Column("version", Integer, nullable=False),  # latest published version, 0 before the first publish
    Column("doi", String, nullable=False),  # "" until reserved or published
    Column("has_changes", Boolean, nullable=False),  # private edits since the last publish
    Column("versioned_changes", Boolean, nullable=False),  # title, authors, licence or files changed since then
    Column("is_embargoed", Boolean, nullable=False),
    Column("embargo_type", String, nullable=False),  # article | file | "" when none
    Column("embargo_date", String, nullable=False),  # YYYY-MM-DD, "0" permanent, "" none
    Column("embargo_title", String, nullable=False),
    Column("embargo_reason", String, nullable=False),
    Column("views", Integer, nullable=False),
    Column("downloads", Integer, nullable=False),
    Column("created_date", String, nullable=False, info={"volatile": True}),
    Column("published_date", String, nullable=False, info={"volatile": True}),  # "" before the first publish
    Column("modified_date", String, nullable=False, info={"volatile": True}),
)

article_authors = Table(
    "article_authors",
    metadata,
    Column("link_key", String, primary_key=True),  # "<article_id>/<position>"
    Column("article_id", Integer, ForeignKey("articles.article_id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("author_id", Integer, ForeignKey("authors.author_id"), nullable=False),
)

files = Table(
    "files",
    metadata,
    Column("file_id", Integer, primary_key=True),  # e.g. 43591234
    Column("article_id", Integer, ForeignKey("articles.article_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("size", Integer, nullable=False),  # bytes
    Column("computed_md5", String, nullable=False),
    Column("is_link_only", Boolean, nullable=False),
    Column("download_url", String, nullable=False),
    Column("status", String, nullable=False),  # available
    Column("uploaded_date", String, nullable=False, info={"volatile": True}),
)

article_versions = Table(
    "article_versions",
    metadata,
    Column("version_key", String, primary_key=True),  # "<article_id>/v<version>"
    Column("article_id", Integer, ForeignKey("articles.article_id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("title", Text, nullable=False),
    Column("doi", String, nullable=False),  # 10.6084/m9.figshare.<id>.v<version>
    Column("license", Integer, ForeignKey("licenses.value")),
    Column("file_names", JSON, nullable=False),
    Column("author_names", JSON, nullable=False),
    Column("published_date", String, nullable=False, info={"volatile": True}),
)

collections = Table(
    "collections",
    metadata,
    Column("collection_id", Integer, primary_key=True),  # e.g. 6943512
    Column("owner_id", Integer, ForeignKey("accounts.account_id"), nullable=False),
    Column("title", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("categories", JSON, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("status", String, nullable=False),  # draft | public
    Column("version", Integer, nullable=False),
    Column("doi", String, nullable=False),
    Column("has_changes", Boolean, nullable=False),  # private edits since the last publish
    Column("versioned_changes", Boolean, nullable=False),  # title or articles changed since then
    Column("created_date", String, nullable=False, info={"volatile": True}),
    Column("published_date", String, nullable=False, info={"volatile": True}),
    Column("modified_date", String, nullable=False, info={"volatile": True}),
)

collection_articles = Table(
    "collection_articles",
    metadata,
    Column("link_key", String, primary_key=True),  # "<collection_id>/<article_id>"
    Column("collection_id", Integer, ForeignKey("collections.collection_id"), nullable=False),
    Column("article_id", Integer, ForeignKey("articles.article_id"), nullable=False),
    Column("added_date", String, nullable=False, info={"volatile": True}),
)

projects = Table(
    "projects",
    metadata,
    Column("project_id", Integer, primary_key=True),  # e.g. 187223
    Column("owner_id", Integer, ForeignKey("accounts.account_id"), nullable=False),
    Column("title", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("funding", String, nullable=False),
    Column("storage", String, nullable=False),  # individual | group
    Column("created_date", String, nullable=False, info={"volatile": True}),
    Column("modified_date", String, nullable=False, info={"volatile": True}),
)

project_members = Table(
    "project_members",
    metadata,
    Column("member_key", String, primary_key=True),  # "<project_id>/<account_id or email>"
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.account_id")),  # null for an invited e-mail with no account
    Column("email", String, nullable=False),
    Column("role", String, nullable=False),  # owner | collaborator | viewer
    Column("status", String, nullable=False),  # active | invited
    Column("comment", Text, nullable=False),
)
