"""OpenAlex's catalogue as tables (institutions, sources, topics, authors, works with their authorships and
references, merged ids) and the signed-in user's library (lists of works with notes, saved searches with alerts)."""

from sqlalchemy import Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

institutions = Table(
    "institutions",
    metadata,
    Column("id", String, primary_key=True),  # "I" + digits, e.g. "I4210142711"
    Column("display_name", String, nullable=False),
    Column("ror", String, nullable=False),  # "https://ror.org/03zga2b32"
    Column("country_code", String, nullable=False),  # ISO alpha-2, upper case
    Column("type", String, nullable=False),  # education | healthcare | company | government | nonprofit | facility
    Column("city", String, nullable=False),
    Column("works_count", Integer, nullable=False),
    Column("cited_by_count", Integer, nullable=False),
)

sources = Table(
    "sources",
    metadata,
    Column("id", String, primary_key=True),  # "S" + digits
    Column("display_name", String, nullable=False),
    Column("issn_l", String),
    Column("type", String, nullable=False),  # journal | repository | conference | book series
    Column("host_organization_name", String, nullable=False),
    Column("is_oa", Boolean, nullable=False),
    Column("country_code", String, nullable=False),
    Column("works_count", Integer, nullable=False),
    Column("cited_by_count", Integer, nullable=False),
)

topics = Table(
    "topics",
    metadata,
    Column("id", String, primary_key=True),  # "T" + digits
    Column("display_name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("keywords", Text, nullable=False),  # "; "-separated
    Column("subfield_id", Integer, nullable=False),
    Column("subfield", String, nullable=False),
    Column("field_id", Integer, nullable=False),
    Column("field", String, nullable=False),
    Column("domain_id", Integer, nullable=False),
    Column("domain", String, nullable=False),
    Column("works_count", Integer, nullable=False),
)

authors = Table(
    "authors",
    metadata,
    Column("id", String, primary_key=True),  # "A" + digits
    Column("display_name", String, nullable=False),
    Column("orcid", String),  # "https://orcid.org/0000-..." or null
    Column("last_known_institution_id", String, ForeignKey("institutions.id")),
    Column("works_count", Integer, nullable=False),
    Column("cited_by_count", Integer, nullable=False),
    Column("h_index", Integer, nullable=False),
)

works = Table(
    "works",
    metadata,
    Column("id", String, primary_key=True),  # "W" + digits
    Column("doi", String),  # "https://doi.org/10...." or null
    Column("title", Text, nullable=False),
    Column("abstract", Text, nullable=False),
    Column("publication_year", Integer, nullable=False),
    Column("publication_date", String, nullable=False),  # YYYY-MM-DD
    Column("type", String, nullable=False),  # article | review | preprint | book-chapter | dataset | erratum | letter
    Column("language", String, nullable=False),  # ISO 639-1, e.g. "en"
    Column("source_id", String, ForeignKey("sources.id")),
    Column("is_oa", Boolean, nullable=False),
    Column("oa_status", String, nullable=False),  # diamond | gold | green | hybrid | bronze | closed
    Column("license", String),  # cc-by | cc-by-nc | ... or null
    Column("cited_by_count", Integer, nullable=False),
    Column("is_retracted", Boolean, nullable=False),
    Column("primary_topic_id", String, ForeignKey("topics.id")),
    # '|'-delimited copies the filter compiler matches with LIKE (derived from authorships and work topics)
    Column("author_ids", Text, nullable=False),  # "|A5023888391|A5001122334|"
    Column("institution_ids", Text, nullable=False),  # "|I4210142711|"
    Column("country_codes", Text, nullable=False),  # "|NO|DE|"
    Column("topic_ids", Text, nullable=False),  # "|T10001|T10422|"
)

authorships = Table(
    "authorships",
    metadata,
    Column("authorship_key", String, primary_key=True),  # "<work id>/<position>"
    Column("work_id", String, ForeignKey("works.id"), nullable=False),
    Column("position", Integer, nullable=False),  # 1-based order on the byline
    Column("author_id", String, ForeignKey("authors.id"), nullable=False),
    Column("institution_id", String, ForeignKey("institutions.id")),
    Column("is_corresponding", Boolean, nullable=False),
    Column("raw_author_name", String, nullable=False),
)

referenced_works = Table(
    "referenced_works",
    metadata,
    Column("link_key", String, primary_key=True),  # "<citing>/<cited>"
    Column("citing_id", String, ForeignKey("works.id"), nullable=False),
    Column("cited_id", String, ForeignKey("works.id"), nullable=False),
)

merged_ids = Table(
    "merged_ids",
    metadata,
    Column("old_id", String, primary_key=True),  # an id OpenAlex retired by merging duplicates
    Column("merged_into", String, nullable=False),  # the surviving entity's id (same kind)
)

accounts = Table(
    "accounts",
    metadata,
    Column("user_id", String, primary_key=True),  # "U" + digits
    Column("display_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("author_id", String, ForeignKey("authors.id")),  # the author profile the user claimed, if any
)

sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String, primary_key=True),
    Column("user_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

lists = Table(
    "lists",
    metadata,
    Column("list_id", String, primary_key=True),  # "L" + digits
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("visibility", String, nullable=False),  # private | public
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

list_items = Table(
    "list_items",
    metadata,
    Column("item_key", String, primary_key=True),  # "<list id>/<work id>"
    Column("list_id", String, ForeignKey("lists.list_id"), nullable=False),
    Column("work_id", String, ForeignKey("works.id"), nullable=False),
    Column("note", Text, nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

saved_searches = Table(
    "saved_searches",
    metadata,
    Column("search_id", String, primary_key=True),  # "Q" + digits
    Column("owner_id", String, ForeignKey("accounts.user_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("entity", String, nullable=False),  # works | authors | sources | institutions | topics
    Column("filter", Text, nullable=False),
    Column("search", Text, nullable=False),
    Column("alert", String, nullable=False),  # none | daily | weekly
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
