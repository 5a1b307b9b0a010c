"""Semantic Scholar's objects as tables: the Academic Graph (venues, authors, papers, authorships, citations) and
the signed-in user's account, author-page claims, library folders and entries, feed ratings and alerts."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

venues = Table(
    "venues",
    metadata,
    Column("id", String, primary_key=True),  # a UUID, as publicationVenue.id
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # journal | conference
    Column("alternate_names", JSON, nullable=False),
    Column("url", String),
    Column("issn", String),
)

authors = Table(
    "authors",
    metadata,
    Column("author_id", String, primary_key=True),  # numeric string, e.g. "1741101"
    Column("name", String, nullable=False),
    Column("aliases", JSON, nullable=False),
    Column("affiliations", JSON, nullable=False),
    Column("homepage", String),
    Column("external_ids", JSON, nullable=False),  # {"DBLP": [...], "ORCID": "..."}
    Column("paper_count", Integer, nullable=False),
    Column("citation_count", Integer, nullable=False),
    Column("h_index", Integer, nullable=False),
)

papers = Table(
    "papers",
    metadata,
    Column("paper_id", String, primary_key=True),  # 40 hex characters
    Column("corpus_id", Integer, nullable=False, unique=True),
    Column("external_ids", JSON, nullable=False),  # {"DOI", "ArXiv", "ACL", "PubMed", "PubMedCentral", "DBLP", ...}
    Column("title", String, nullable=False),
    Column("abstract", Text),  # null where the publisher does not allow it
    Column("venue", String, nullable=False),  # "" when unknown
    Column("publication_venue_id", String, ForeignKey("venues.id")),
    Column("year", Integer),
    Column("publication_date", String),  # YYYY-MM-DD
    Column("journal", JSON),  # {"name", "volume", "pages"}
    Column("reference_count", Integer, nullable=False),
    Column("citation_count", Integer, nullable=False),
    Column("influential_citation_count", Integer, nullable=False),
    Column("open_access_pdf", JSON),  # {"url", "status": GREEN|GOLD|HYBRID|BRONZE, "license"}
    Column("fields_of_study", JSON, nullable=False),
    Column("s2_fields_of_study", JSON, nullable=False),  # [{"category", "source"}]
    Column("publication_types", JSON, nullable=False),
    Column("tldr", Text),
)

paper_authors = Table(
    "paper_authors",
    metadata,
    Column("paper_id", String, ForeignKey("papers.paper_id"), primary_key=True),
    Column("author_id", String, ForeignKey("authors.author_id"), primary_key=True),
    Column("position", Integer, nullable=False),
)

citations = Table(
    "citations",
    metadata,
    Column("citing_paper_id", String, ForeignKey("papers.paper_id"), primary_key=True),
    Column("cited_paper_id", String, ForeignKey("papers.paper_id"), primary_key=True),
    Column("contexts", JSON, nullable=False),
    Column("intents", JSON, nullable=False),  # background | methodology | result
    Column("is_influential", Boolean, nullable=False),
)

account = Table(
    "account",
    metadata,
    Column("user_id", String, primary_key=True),
    Column("full_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("claimed_author_id", String, ForeignKey("authors.author_id")),
    Column("created_at", String, nullable=False),
)

author_claims = Table(
    "author_claims",
    metadata,
    Column("claim_id", String, primary_key=True),
    Column("author_id", String, ForeignKey("authors.author_id"), nullable=False),
    Column("user_id", String, nullable=False),  # the claiming Semantic Scholar user (others' claims included)
    Column("email", String, nullable=False),
    Column("status", String, nullable=False),  # pending_verification | approved | withdrawn
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("verified_at", String, info={"volatile": True}),
)

library_folders = Table(
    "library_folders",
    metadata,
    Column("folder_id", String, primary_key=True),  # numeric string
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("privacy_setting", String, nullable=False),  # private | public
    Column("recommendation_status", String, nullable=False),  # Enabled | Disabled (the folder's Research Feed)
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

library_entries = Table(
    "library_entries",
    metadata,
    Column("paper_id", String, ForeignKey("papers.paper_id"), primary_key=True),
    Column("source", String, nullable=False),  # Library (saved by hand) | Feed (rated relevant in a Research Feed)
    Column("note", Text),
    Column("note_updated_at", String, info={"volatile": True}),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

folder_papers = Table(
    "folder_papers",
    metadata,
    Column("folder_id", String, ForeignKey("library_folders.folder_id"), primary_key=True),
    Column("paper_id", String, ForeignKey("library_entries.paper_id"), primary_key=True),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

feed_ratings = Table(
    "feed_ratings",
    metadata,
    Column("folder_id", String, ForeignKey("library_folders.folder_id"), primary_key=True),
    Column("paper_id", String, ForeignKey("papers.paper_id"), primary_key=True),
    Column("rating", String, nullable=False),  # not_relevant ('relevant' saves the paper into the folder instead)
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

alerts = Table(
    "alerts",
    metadata,
    Column("alert_id", String, primary_key=True),
    Column("alert_type", String, nullable=False),  # PaperCitation | AuthorPaper | AuthorCitation
    Column("paper_id", String, ForeignKey("papers.paper_id")),
    Column("author_id", String, ForeignKey("authors.author_id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
