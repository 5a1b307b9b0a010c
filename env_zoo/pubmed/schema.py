"""PubMed's records as tables (journals, citations with their authors, MeSH headings, comment/correction links,
citation and similar-article links) and the signed-in My NCBI account (collections, saved searches, My
Bibliography, filters)."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

journals = Table(
    "journals",
    metadata,
    Column("nlm_id", String, primary_key=True),  # NLM unique journal id, e.g. "0255562"
    Column("title", String, nullable=False),
    Column("iso_abbreviation", String, nullable=False),  # the [ta] / ESummary "source" value
    Column("issn", String, nullable=False),
)

articles = Table(
    "articles",
    metadata,
    Column("pmid", String, primary_key=True),  # digits, e.g. "36512044"
    Column("title", Text, nullable=False),
    Column("abstract", Text, nullable=False),
    Column("nlm_id", String, ForeignKey("journals.nlm_id"), nullable=False),
    Column("volume", String, nullable=False),
    Column("issue", String, nullable=False),
    Column("pages", String, nullable=False),
    Column("pub_date", String, nullable=False),  # YYYY-MM-DD, the [dp] date
    Column("entrez_date", String, nullable=False),  # YYYY-MM-DD, when PubMed received the record
    Column("doi", String),
    Column("pmc_id", String),
    Column("language", String, nullable=False),  # eng | fre | ger | spa
    Column("publication_types", JSON, nullable=False),
    Column("keywords", JSON, nullable=False),
    # lower-cased '|'-delimited copies the ESearch translator matches with LIKE (derived from the rows below)
    Column("author_index", Text, nullable=False),  # "|raman p|raman priya|okafor c|..."
    Column("mesh_index", Text, nullable=False),  # "|klebsiella infections|humans|..."
)

article_authors = Table(
    "article_authors",
    metadata,
    Column("author_key", String, primary_key=True),  # "<pmid>/<position>"
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("last_name", String, nullable=False),
    Column("fore_name", String, nullable=False),
    Column("initials", String, nullable=False),
    Column("affiliation", String, nullable=False),
)

mesh_headings = Table(
    "mesh_headings",
    metadata,
    Column("heading_key", String, primary_key=True),  # "<pmid>/<descriptor>"
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("descriptor", String, nullable=False),
    Column("major_topic", Boolean, nullable=False),
)

comments_corrections = Table(
    "comments_corrections",
    metadata,
    Column("link_key", String, primary_key=True),  # "<pmid>/<ref_type>/<ref_pmid>"
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column(
        "ref_type", String, nullable=False
    ),  # RetractionIn | RetractionOf | ErratumIn | ErratumFor | CommentIn | CommentOn
    Column("ref_pmid", String, ForeignKey("articles.pmid"), nullable=False),
)

citations = Table(
    "citations",
    metadata,
    Column("link_key", String, primary_key=True),  # "<citing>/<cited>"
    Column("citing_pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("cited_pmid", String, ForeignKey("articles.pmid"), nullable=False),
)

similar_articles = Table(
    "similar_articles",
    metadata,
    Column("link_key", String, primary_key=True),  # "<pmid>/<other>"
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("other_pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("score", Integer, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("user_id", String, primary_key=True),  # My NCBI user name
    Column("full_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("bibliography_author", String, nullable=False),  # the name My Bibliography is kept for, e.g. "Raman P"
    Column("bibliography_public", Boolean, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String, primary_key=True),
    Column("user_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

collections = Table(
    "collections",
    metadata,
    Column("collection_id", String, primary_key=True),  # numeric, e.g. "62104587"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("is_favorites", Boolean, nullable=False),  # the default Favorites collection (cannot be renamed or deleted)
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

collection_items = Table(
    "collection_items",
    metadata,
    Column("item_key", String, primary_key=True),  # "<collection_id>/<pmid>"
    Column("collection_id", String, ForeignKey("collections.collection_id"), nullable=False),
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

saved_searches = Table(
    "saved_searches",
    metadata,
    Column("search_id", String, primary_key=True),  # numeric, e.g. "4401227"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("term", Text, nullable=False),
    Column("frequency", String, nullable=False),  # none | daily | weekly | monthly
    Column("send_day", String),  # weekly: a weekday; monthly: "1".."28"; else null
    Column("report_format", String, nullable=False),  # Summary | Abstract | PubMed | PMID
    Column("max_items", Integer, nullable=False),  # 5 | 10 | 20 | 50 | 100 | 200
    Column("send_if_empty", Boolean, nullable=False),
    Column("last_run", String, nullable=False),  # YYYY-MM-DD
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

bibliography = Table(
    "bibliography",
    metadata,
    Column("entry_key", String, primary_key=True),  # "<user_id>/<pmid>"
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("pmid", String, ForeignKey("articles.pmid"), nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

filters = Table(
    "filters",
    metadata,
    Column("filter_id", String, primary_key=True),
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("term", Text, nullable=False),  # the query the filter ANDs onto a search
    Column("custom", Boolean, nullable=False),
    Column("active", Boolean, nullable=False),
)
