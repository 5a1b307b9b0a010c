"""arXiv's catalogue as tables (categories, author identifiers, articles with their authors and versions) and the
signed-in reader's library (folders of saved articles with tags and notes, followed authors and categories,
e-mail alerts)."""

from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

categories = Table(
    "categories",
    metadata,
    Column("id", String, primary_key=True),  # "cs.LG", "stat.ML", "q-bio.GN"
    Column("name", String, nullable=False),  # "Machine Learning"
    Column("archive", String, nullable=False),  # "cs", "stat", "q-bio"
    Column("group_name", String, nullable=False),  # "Computer Science", "Statistics", ...
)

authors = Table(
    "authors",
    metadata,
    Column("id", String, primary_key=True),  # arXiv author identifier, "herrera_l_1"
    Column("name", String, nullable=False),  # "Lucía Herrera"
    Column("affiliation", String, nullable=False),
    Column("orcid", String),
)

papers = Table(
    "papers",
    metadata,
    Column("id", String, primary_key=True),  # "2502.04117" (YYMM.NNNNN)
    Column("title", Text, nullable=False),
    Column("abstract", Text, nullable=False),
    Column("comments", Text, nullable=False),  # the latest version's author comments ("12 pages, 4 figures")
    Column("journal_ref", Text, nullable=False),  # "" when none
    Column("doi", String, nullable=False),  # "" when none
    Column("report_no", String, nullable=False),  # "" when none
    Column("primary_category", String, ForeignKey("categories.id"), nullable=False),
    Column("categories", Text, nullable=False),  # "|cs.LG|stat.ML|", primary first
    Column("license", String, nullable=False),  # http://creativecommons.org/licenses/by/4.0/ ...
    Column("published", String, nullable=False),  # v1 submission timestamp, ISO
    Column("updated", String, nullable=False, info={"volatile": True}),  # latest version's submission time, ISO
    Column("latest_version", Integer, nullable=False),
    Column("status", String, nullable=False),  # active | withdrawn
    Column("submitter_id", String, ForeignKey("authors.id"), nullable=False),
    # normalised copies the query compiler matches word by word: " word word ... " (lower case, no punctuation)
    Column("search_ti", Text, nullable=False),
    Column("search_abs", Text, nullable=False),
    Column("search_au", Text, nullable=False),
    Column("search_co", Text, nullable=False),
    Column("search_jr", Text, nullable=False),
    Column("author_ids", Text, nullable=False),  # "|herrera_l_1|okafor_c_1|"
)

paper_authors = Table(
    "paper_authors",
    metadata,
    Column("key", String, primary_key=True),  # "<paper id>/<position>"
    Column("paper_id", String, ForeignKey("papers.id"), nullable=False),
    Column("position", Integer, nullable=False),  # 1-based byline order
    Column("author_id", String, ForeignKey("authors.id"), nullable=False),
)

versions = Table(
    "versions",
    metadata,
    Column("key", String, primary_key=True),  # "2502.04117v2"
    Column("paper_id", String, ForeignKey("papers.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("submitted", String, nullable=False, info={"volatile": True}),  # ISO timestamp
    Column("announced", String, nullable=False),  # YYYY-MM-DD of the mailing that announced it
    Column("size_kb", Integer, nullable=False),
    Column("comments", Text, nullable=False),
    Column("withdrawn", Integer, nullable=False),  # 1 for a withdrawal notice version
)

accounts = Table(
    "accounts",
    metadata,
    Column("user_id", String, primary_key=True),  # "U1001"
    Column("display_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("author_id", String, ForeignKey("authors.id")),  # the author identifier the reader claimed
)

sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String, primary_key=True),
    Column("user_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

folders = Table(
    "folders",
    metadata,
    Column("folder_id", String, primary_key=True),  # "F0001"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

saved_papers = Table(
    "saved_papers",
    metadata,
    Column("key", String, primary_key=True),  # "<folder id>/<paper id>"
    Column("folder_id", String, ForeignKey("folders.folder_id"), nullable=False),
    Column("paper_id", String, ForeignKey("papers.id"), nullable=False),
    Column("version", Integer),  # a pinned version, or null to follow the latest
    Column("tags", Text, nullable=False),  # "|to-read|methods|"
    Column("note", Text, nullable=False),
    Column("saved_at", String, nullable=False, info={"volatile": True}),
)

follows = Table(
    "follows",
    metadata,
    Column("key", String, primary_key=True),  # "<user id>/author/<author id>" or "<user id>/category/<id>"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("kind", String, nullable=False),  # author | category
    Column("target", String, nullable=False),
    Column("followed_at", String, nullable=False, info={"volatile": True}),
)

alerts = Table(
    "alerts",
    metadata,
    Column("alert_id", String, primary_key=True),  # "AL001"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("category", String, ForeignKey("categories.id"), nullable=False),
    Column("frequency", String, nullable=False),  # daily | weekly
    Column("include_cross_lists", Integer, nullable=False),
    Column("search_query", Text, nullable=False),  # "" for every new article, else a query that must match
    Column("status", String, nullable=False),  # active | paused
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
