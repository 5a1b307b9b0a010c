"""ORCID's registry as tables: records (one per ORCID iD, with the researcher's default visibility and the record's
state), the clients and organizations that appear as sources and affiliations, the permissions researchers granted
the portal, and the items of a record: emails, person items (other names, keywords, researcher URLs, external
identifiers), works, affiliations, fundings and peer reviews. Every item has a put-code, a source (a client id, or
the researcher's own iD for what they entered themselves) and a visibility (public, limited or private)."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

records = Table(
    "records",
    metadata,
    Column("orcid", String, primary_key=True),  # 0000-0002-1825-0097
    Column("given_names", String, nullable=False),
    Column("family_name", String),
    Column("credit_name", String),
    Column("biography", Text),
    Column("default_visibility", String, nullable=False),  # public | limited | private
    Column("state", String, nullable=False),  # active | locked | deactivated | deprecated | unclaimed
    Column("primary_orcid", String),  # where a deprecated iD now points
    Column("created", String, nullable=False),
)

clients = Table(
    "clients",
    metadata,
    Column("client_id", String, primary_key=True),  # APP-XXXXXXXXXXXXXXXX
    Column("name", String, nullable=False),
    Column("kind", String, nullable=False),  # member | public
)

organizations = Table(
    "organizations",
    metadata,
    Column("id", String, primary_key=True),  # the disambiguated id: a ROR URL or a Crossref Funder id
    Column("source", String, nullable=False),  # ROR | FUNDREF
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("region", String),
    Column("country", String, nullable=False),  # ISO 3166 alpha-2
)

permissions = Table(
    "permissions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("scopes", JSON, nullable=False),  # ["/read-limited", "/activities/update", "/person/update"]
    Column("granted", String, nullable=False, info={"volatile": True}),
)

emails = Table(
    "emails",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("email", String, nullable=False),
    Column("primary", Boolean, nullable=False),
    Column("verified", Boolean, nullable=False),
    Column("visibility", String, nullable=False),
)

person_items = Table(
    "person_items",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("section", String, nullable=False),  # other-names | keywords | researcher-urls | external-identifiers
    Column("content", String, nullable=False),  # the name, keyword, URL name or identifier value
    Column("id_type", String),  # external identifiers: "Scopus Author ID", "ResearcherID", "Loop profile"
    Column("url", String),
    Column("source", String, nullable=False),
    Column("visibility", String, nullable=False),
    Column("display_index", Integer, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

works = Table(
    "works",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("title", String, nullable=False),
    Column("subtitle", String),
    Column("journal_title", String),
    Column("type", String, nullable=False),  # journal-article | book | conference-paper | preprint | data-set ...
    Column("publication_date", String),  # YYYY, YYYY-MM or YYYY-MM-DD
    Column("external_ids", JSON, nullable=False),  # [{type, value, relationship}]
    Column("url", String),
    Column("contributors", JSON, nullable=False),  # [credit names]
    Column("source", String, nullable=False),
    Column("visibility", String, nullable=False),
    Column("display_index", Integer, nullable=False),  # the highest in a group is the preferred version
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("last_modified", String, nullable=False, info={"volatile": True}),
)

affiliations = Table(
    "affiliations",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("section", String, nullable=False),  # employment | education | qualification | invited-position ...
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("department", String),
    Column("role_title", String),
    Column("start_date", String),
    Column("end_date", String),
    Column("source", String, nullable=False),
    Column("visibility", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("last_modified", String, nullable=False, info={"volatile": True}),
)

fundings = Table(
    "fundings",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("type", String, nullable=False),  # grant | contract | award | salary-award
    Column("title", String, nullable=False),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),  # the funder
    Column("grant_number", String),
    Column("amount", String),
    Column("currency", String),
    Column("start_date", String),
    Column("end_date", String),
    Column("source", String, nullable=False),
    Column("visibility", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("last_modified", String, nullable=False, info={"volatile": True}),
)

peer_reviews = Table(
    "peer_reviews",
    metadata,
    Column("put_code", Integer, primary_key=True),
    Column("orcid", String, ForeignKey("records.orcid"), nullable=False, index=True),
    Column("group_id", String, nullable=False),  # issn:0028-0836
    Column("group_name", String, nullable=False),  # the journal
    Column("role", String, nullable=False),  # reviewer | editor | member | chair | organizer
    Column("review_type", String, nullable=False),  # review | evaluation
    Column("completion_date", String, nullable=False),
    Column("convening_organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("source", String, nullable=False),
    Column("visibility", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)
