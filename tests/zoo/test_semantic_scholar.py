"""The Semantic Scholar environment's tools on the real seed: paper ids in every style, search filters and paging,
citations, authors, recommendations, the library (folders, saving, notes), Research Feeds and their rules, alerts,
and the author-page claim that only the account holder can confirm. Every error path leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("semantic_scholar")
CLOCK = datetime(2025, 6, 10, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def paper(title_start: str) -> str:
    return next(p["paper_id"] for p in SEED["papers"] if p["title"].startswith(title_start))


def author(name: str, affiliation: str | None = None) -> str:
    return next(
        a["author_id"]
        for a in SEED["authors"]
        if a["name"] == name and (affiliation is None or affiliation in a["affiliations"])
    )


def folder(name: str) -> str:
    return next(f["folder_id"] for f in SEED["library_folders"] if f["name"] == name)


def in_folder(session: ToolSession, folder_id: str) -> set[str]:
    return {key for key, row in session.dump()["folder_papers"].items() if row["folder_id"] == folder_id}


DPR = paper("Dense Passage Retrieval")
RAG = paper("Retrieval-Augmented Generation for Knowledge")
RAPTOR = paper("RAPTOR")
NADIA = author("Nadia Rahimi", "University of Edinburgh")
NADIA_TEHRAN = author("Nadia Rahimi", "University of Tehran")
RAG_FOLDER, TO_READ, PROTEIN = folder("RAG for science"), folder("To read"), folder("Protein LMs (side project)")
POST_TRAINING = folder("LLM post-training")


# ---------------------------------------------------------------- interface


def test_tools_user_only_link_and_parameterless_reads(session):
    assert len(SPEC.tools) == 24
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["open_claim_verification_link"]
    assert {t.name for t in SPEC.agent_tools if not t.input_schema["properties"]} == {
        "list_library_folders",
        "list_alerts",
    }
    ok(session, "claim_author_page", {"author_id": NADIA})
    outcome = session.call("open_claim_verification_link", {})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert session.dump()["account"]["7731024"]["claimed_author_id"] is None


# ---------------------------------------------------------------- papers


def test_paper_ids_in_every_style_name_the_same_paper(session):
    specter = paper("SPECTER")
    corpus = next(p["corpus_id"] for p in SEED["papers"] if p["paper_id"] == specter)
    for style in (
        specter,
        specter.upper(),
        f"CorpusId:{corpus}",
        "DOI:10.18653/V1/2020.ACL-MAIN.207",
        "arxiv:2004.07180v2",
        "ACL:2020.acl-main.207",
        "URL:https://arxiv.org/abs/2004.07180",
        f"URL:https://www.semanticscholar.org/paper/{specter}",
        "URL:https://doi.org/10.18653/v1/2020.acl-main.207",
    ):
        assert ok(session, "get_paper", {"paper_id": style})["paperId"] == specter, style
    alphafold = paper("Highly accurate protein structure")
    for style in ("PMID:34265844", "PMCID:PMC8371605", "PMCID:8371605"):
        assert ok(session, "get_paper", {"paper_id": style})["paperId"] == alphafold
    fails(
        session, "get_paper", {"paper_id": "ARXIV:9999.99999"}, "NotFound", "Paper with id ARXIV:9999.99999 not found"
    )
    fails(session, "get_paper", {"paper_id": "10.18653/v1/2020.acl-main.207"}, "NotFound", "not found")
    fails(session, "get_paper", {"paper_id": "URL:https://scholar.google.com/x"}, "InvalidRequest", "Unsupported URL")


def test_paper_details(session):
    specter = ok(session, "get_paper", {"paper_id": "ARXIV:2004.07180"})
    assert specter["externalIds"]["DOI"] == "10.18653/v1/2020.acl-main.207"
    assert specter["openAccessPdf"]["status"] == "GOLD" and specter["isOpenAccess"] is True
    assert specter["publicationVenue"]["alternate_names"][0] == "ACL"
    assert specter["tldr"]["text"].startswith("We propose SPECTER")
    assert specter["citationStyles"]["bibtex"].startswith("@inproceedings{Cohan2020Specter")
    assert [a["name"] for a in specter["authors"]][:2] == ["Arman Cohan", "Sergey Feldman"]
    review = ok(session, "get_paper", {"paper_id": "DOI:10.1038/nature14539"})  # publisher withholds the abstract
    assert (review["abstract"], review["tldr"], review["openAccessPdf"]) == (None, None, None)
    assert review["citationStyles"]["bibtex"].startswith("@article{LeCun2015Deep")
    assert review["journal"] == {"name": "Nature", "volume": "521", "pages": "436-444"}


def test_search_ranks_title_matches_first_and_counts_every_match(session):
    result = ok(session, "search_papers", {"query": "dense passage retrieval"})
    assert result["data"][0]["paperId"] == DPR
    everything = ok(session, "search_papers", {"query": "retrieval", "limit": 100})
    assert everything["total"] == len(everything["data"]) > 10 and everything["next"] is None
    by_author = ok(session, "search_papers", {"query": "Beltagy", "limit": 100})["data"]
    assert by_author and all(any(a["name"] == "Iz Beltagy" for a in p["authors"]) for p in by_author)
    fails(session, "search_papers", {"query": "the of and"}, "InvalidRequest", "search word")


def test_search_filters(session):
    found = ok(
        session,
        "search_papers",
        {"query": "hallucination", "year": "2023-", "open_access_pdf": True, "min_citation_count": 300},
    )["data"]
    assert sorted(p["title"][:19] for p in found) == [
        "Chain-of-Verificati",
        "Enabling Large Lang",
        "Retrieval-Augmented",
    ]
    assert all(p["year"] >= 2023 and p["isOpenAccess"] and p["citationCount"] >= 300 for p in found)
    years = ok(session, "search_papers", {"query": "language model", "year": "-2019", "limit": 100})["data"]
    assert years and max(p["year"] for p in years) <= 2019
    exact = ok(session, "search_papers", {"query": "language model", "year": "2020", "limit": 100})["data"]
    assert exact and {p["year"] for p in exact} == {2020}
    naacl = ok(session, "search_papers", {"query": "retrieval", "venue": ["naacl"], "limit": 100})["data"]
    assert naacl and {p["venue"] for p in naacl} == {
        "North American Chapter of the Association for Computational Linguistics"
    }
    medicine = ok(session, "search_papers", {"query": "protein structure", "fields_of_study": ["Medicine"]})["data"]
    assert medicine and all("Medicine" in p["fieldsOfStudy"] for p in medicine)
    datasets = ok(session, "search_papers", {"query": "benchmark", "publication_types": ["Dataset"], "limit": 100})
    assert datasets["data"] and all("Dataset" in p["publicationTypes"] for p in datasets["data"])
    for bad in ("19-20", "2019-2020-2021", "recent", "2019 - 2020"):
        fails(session, "search_papers", {"query": "retrieval", "year": bad}, "invalid_arguments", "Invalid year")
    fails(session, "search_papers", {"query": "retrieval", "year": "2021-2019"}, "InvalidRequest", "range is empty")
    for bad_offset in (-1,):
        fails(session, "search_papers", {"query": "retrieval", "offset": bad_offset}, "invalid_arguments", ">= 0")
    fails(session, "search_papers", {"query": "retrieval", "min_citation_count": -1}, "invalid_arguments", "min_")
    fails(session, "search_authors", {"query": "   "}, "invalid_arguments", "query")


def test_search_paging_and_its_limits(session):
    first = ok(session, "search_papers", {"query": "language", "limit": 5})
    second = ok(session, "search_papers", {"query": "language", "offset": first["next"], "limit": 5})
    assert first["next"] == 5 and second["offset"] == 5 and first["total"] == second["total"]
    assert not {p["paperId"] for p in first["data"]} & {p["paperId"] for p in second["data"]}
    beyond = ok(session, "search_papers", {"query": "language", "offset": 900, "limit": 100})
    assert beyond["data"] == [] and beyond["next"] is None
    fails(
        session, "search_papers", {"query": "language", "limit": 101}, "invalid_arguments", "less than or equal to 100"
    )
    fails(session, "search_papers", {"query": "language", "offset": 950, "limit": 100}, "InvalidRequest", "1000")


def test_citations_and_references_mirror_each_other(session):
    refs = ok(session, "get_paper_references", {"paper_id": RAG})["data"]
    assert {r["citedPaper"]["title"][:24] for r in refs} >= {"Dense Passage Retrieval ", "BART: Denoising Sequence"}
    dates = [r["citedPaper"]["publicationDate"] for r in refs]
    assert dates == sorted(dates)
    for ref in refs[:3]:
        citing = ok(session, "get_paper_citations", {"paper_id": ref["citedPaper"]["paperId"], "limit": 1000})["data"]
        back = next(c for c in citing if c["citingPaper"]["paperId"] == RAG)
        assert (back["contexts"], back["intents"], back["isInfluential"]) == (
            ref["contexts"],
            ref["intents"],
            ref["isInfluential"],
        )
    cites = ok(session, "get_paper_citations", {"paper_id": DPR, "limit": 3})
    assert len(cites["data"]) == 3 and cites["next"] == 3
    newest = [c["citingPaper"]["publicationDate"] for c in cites["data"]]
    assert newest == sorted(newest, reverse=True)
    fails(session, "get_paper_citations", {"paper_id": DPR, "limit": 1001}, "invalid_arguments", "limit")


def test_authors_pages_and_their_papers(session):
    found = ok(session, "search_authors", {"query": "Nadia Rahimi"})
    assert found["total"] == 2
    assert {a["affiliations"][0] for a in found["data"]} == {"University of Edinburgh", "University of Tehran"}
    assert ok(session, "search_authors", {"query": "N. Rahimi"})["total"] == 2  # aliases match too
    page = ok(session, "get_author", {"author_id": NADIA})
    papers = ok(session, "get_author_papers", {"author_id": NADIA})["data"]
    counts = sorted((p["citationCount"] for p in papers), reverse=True)
    assert page["paperCount"] == len(papers) and page["citationCount"] == sum(counts)
    assert page["hIndex"] == sum(1 for i, c in enumerate(counts, start=1) if c >= i) == 4
    assert [p["publicationDate"] for p in papers] == sorted((p["publicationDate"] for p in papers), reverse=True)
    fails(session, "get_author", {"author_id": "1"}, "NotFound", "Author '1' not found")


def test_recommendations_follow_the_examples(session):
    args = {"positive_paper_ids": [DPR, paper("ColBERTv2")], "limit": 20}
    liked = ok(session, "get_recommendations", args)["recommendedPapers"]
    assert liked == ok(session, "get_recommendations", args)["recommendedPapers"]  # deterministic
    ids = [p["paperId"] for p in liked]
    assert DPR not in ids and RAG in ids
    pushed = ok(session, "get_recommendations", {**args, "negative_paper_ids": [RAG]})["recommendedPapers"]
    assert RAG not in [p["paperId"] for p in pushed]
    fails(session, "get_recommendations", {"positive_paper_ids": []}, "invalid_arguments", "at least one")
    fails(
        session,
        "get_recommendations",
        {"positive_paper_ids": [DPR], "negative_paper_ids": ["ARXIV:2004.04906"]},
        "InvalidRequest",
        "both a positive and a negative",
    )
    fails(session, "get_recommendations", {"positive_paper_ids": [DPR], "limit": 501}, "invalid_arguments", "500")


def test_author_search_is_by_name_prefix_most_cited_first(session):
    found = ok(session, "search_authors", {"query": "kaim", "limit": 1000})["data"]
    assert [a["name"] for a in found] == ["Kaiming He"]
    many = ok(session, "search_authors", {"query": "Chen", "limit": 3})
    assert many["total"] > 3 and many["next"] == 3
    counts = [a["citationCount"] for a in ok(session, "search_authors", {"query": "Chen", "limit": 1000})["data"]]
    assert counts == sorted(counts, reverse=True)
    assert ok(session, "search_authors", {"query": "Zettlemoyer Luke"})["data"][0]["hIndex"] == 112
    fails(session, "search_authors", {"query": " . "}, "InvalidRequest", "name")


# ---------------------------------------------------------------- folders


def test_folders_list_with_their_paper_counts(session):
    listed = ok(session, "list_library_folders")
    assert [f["name"] for f in listed] == sorted(f["name"] for f in listed)
    for f in listed:
        assert f["paperCount"] == sum(1 for m in SEED["folder_papers"] if m["folder_id"] == f["folderId"])
    assert next(f for f in listed if f["folderId"] == PROTEIN)["paperCount"] == 0


def test_folder_names_are_unique_and_new_folders_start_without_a_feed(session):
    new = ok(session, "create_library_folder", {"name": "  Embedding models ", "privacy_setting": "public"})
    assert (new["name"], new["recommendationStatus"], new["paperCount"], new["privacySetting"]) == (
        "Embedding models",
        "Disabled",
        0,
        "public",
    )
    fails(session, "create_library_folder", {"name": "rag FOR science"}, "Conflict", "'RAG for science'")
    fails(session, "create_library_folder", {"name": " "}, "invalid_arguments", "1 to 100")
    fails(session, "create_library_folder", {"name": "x" * 101}, "invalid_arguments", "1 to 100")
    fails(session, "update_library_folder", {"folder_id": new["folderId"], "name": "To Read"}, "Conflict", "To read")
    fails(session, "update_library_folder", {"folder_id": new["folderId"]}, "InvalidRequest", "Nothing to update")
    renamed = ok(
        session, "update_library_folder", {"folder_id": TO_READ, "name": "to READ", "privacy_setting": "public"}
    )
    assert (renamed["name"], renamed["privacySetting"]) == ("to READ", "public")  # its own name may change case


def test_new_rows_take_the_simulated_clock_and_deterministic_ids(session):
    first = ok(session, "create_library_folder", {"name": "Embedding models"})
    assert (first["createdAt"], first["modifiedAt"]) == ("2025-06-10T14:00:00Z", "2025-06-10T14:00:00Z")
    second = ok(session, "create_library_folder", {"name": "Agents"})
    assert second["createdAt"] == "2025-06-10T14:00:30Z"
    session.reset("seed", CLOCK)
    assert ok(session, "create_library_folder", {"name": "Agents"})["folderId"] == first["folderId"]


def test_switching_a_feed_off_keeps_its_folder(session):
    off = ok(
        session,
        "update_library_folder",
        {"folder_id": RAG_FOLDER, "recommendation_status": "Disabled", "description": "Chapter 3"},
    )
    assert (off["recommendationStatus"], off["description"], off["paperCount"]) == ("Disabled", "Chapter 3", 14)
    fails(session, "get_research_feed", {"folder_id": RAG_FOLDER}, "Conflict", "turned off")
    assert (
        ok(session, "update_library_folder", {"folder_id": RAG_FOLDER, "recommendation_status": "Enabled"})[
            "recommendationStatus"
        ]
        == "Enabled"
    )


def test_a_feed_needs_a_paper_in_its_folder(session):
    fails(
        session,
        "update_library_folder",
        {"folder_id": PROTEIN, "recommendation_status": "Enabled"},
        "Conflict",
        "is empty",
    )
    fails(session, "get_research_feed", {"folder_id": PROTEIN}, "Conflict", "turned off")
    ok(session, "save_to_library", {"paper_id": "PMID:34265844", "folder_ids": [PROTEIN]})
    on = ok(session, "update_library_folder", {"folder_id": PROTEIN, "recommendation_status": "Enabled"})
    assert (on["recommendationStatus"], on["paperCount"]) == ("Enabled", 1)
    titles = [p["title"] for p in ok(session, "get_research_feed", {"folder_id": PROTEIN})["recommendations"]]
    assert "Accurate structure prediction of biomolecular interactions with AlphaFold 3" in titles


def test_deleting_a_folder_keeps_its_papers_in_the_library(session):
    filed = {m["paper_id"] for m in SEED["folder_papers"] if m["folder_id"] == TO_READ}
    gone = ok(session, "delete_library_folder", {"folder_id": TO_READ})
    assert gone["paperCount"] == len(filed)
    state = session.dump()
    assert TO_READ not in state["library_folders"] and not in_folder(session, TO_READ)
    assert filed <= set(state["library_entries"])
    fails(session, "delete_library_folder", {"folder_id": TO_READ}, "NotFound", "Folder")
    feed_folder = folder("RAG for science")
    ok(session, "delete_library_folder", {"folder_id": feed_folder})  # its not-relevant ratings go with it
    assert not [r for r in session.dump()["feed_ratings"].values() if r["folder_id"] == feed_folder]


# ---------------------------------------------------------------- saving, removing, notes


def test_saving_papers_to_the_library_and_folders(session):
    nq = paper("Natural Questions")
    entry = ok(session, "save_to_library", {"paper_id": nq})
    assert (entry["folderIds"], entry["source"], entry["note"]) == ([], "Library", None)
    fails(session, "save_to_library", {"paper_id": nq}, "Conflict", "already in your library")
    filed = ok(session, "save_to_library", {"paper_id": nq, "folder_ids": [RAG_FOLDER, TO_READ, RAG_FOLDER]})
    assert filed["folderIds"] == sorted([RAG_FOLDER, TO_READ])
    fails(session, "save_to_library", {"paper_id": nq, "folder_ids": [TO_READ]}, "Conflict", "already in 'To read'")
    fails(
        session,
        "save_to_library",
        {"paper_id": paper("GPT-4"), "folder_ids": [TO_READ, "999"]},
        "NotFound",
        "Folder '999' not found",
    )
    fails(session, "save_to_library", {"paper_id": "DOI:10.0/none"}, "NotFound", "Paper with id")


def test_saving_into_a_folder_drops_its_not_relevant_rating(session):
    dismissed = next(r for r in SEED["feed_ratings"] if r["folder_id"] == RAG_FOLDER)
    key = json.dumps([RAG_FOLDER, dismissed["paper_id"]])
    assert key in session.dump()["feed_ratings"]
    ok(session, "save_to_library", {"paper_id": dismissed["paper_id"], "folder_ids": [RAG_FOLDER]})
    assert key not in session.dump()["feed_ratings"]


def test_removing_from_a_folder_or_from_the_library(session):
    kept = ok(session, "remove_from_library", {"paper_id": RAPTOR, "folder_id": TO_READ})
    assert (kept["removedFromFolderIds"], kept["stillInLibrary"]) == ([TO_READ], True)
    entry = session.dump()["library_entries"][RAPTOR]
    assert entry["note"].startswith("Tree of summaries")
    fails(session, "remove_from_library", {"paper_id": RAPTOR, "folder_id": TO_READ}, "Conflict", "not in the folder")
    gone = ok(session, "remove_from_library", {"paper_id": RAG})
    assert gone["stillInLibrary"] is False and len(gone["removedFromFolderIds"]) == 2
    state = session.dump()
    assert RAG not in state["library_entries"] and not [
        m for m in state["folder_papers"].values() if m["paper_id"] == RAG
    ]
    fails(session, "remove_from_library", {"paper_id": RAG}, "NotFound", "is not in your library")


def test_notes_only_on_saved_papers(session):
    written = ok(session, "set_paper_note", {"paper_id": DPR, "text": " Hard negatives matter "})
    assert written["note"] == "Hard negatives matter"
    assert ok(session, "set_paper_note", {"paper_id": DPR, "text": ""})["note"] is None
    fails(session, "set_paper_note", {"paper_id": DPR, "text": ""}, "Conflict", "no note to delete")
    fails(session, "set_paper_note", {"paper_id": paper("Mistral 7B"), "text": "x"}, "NotFound", "not in your library")
    fails(session, "set_paper_note", {"paper_id": RAPTOR, "text": "x" * 2001}, "invalid_arguments", "2000")


def test_library_listing_pages_newest_first(session):
    first = ok(session, "list_library_papers", {})
    assert (first["total"], len(first["data"]), first["next"]) == (len(SEED["library_entries"]), 50, 50)
    rest = ok(session, "list_library_papers", {"offset": 50})
    added = [e["addedAt"] for e in first["data"] + rest["data"]]
    assert added == sorted(added, reverse=True) and rest["next"] is None
    ok(session, "save_to_library", {"paper_id": paper("Mistral 7B"), "folder_ids": [TO_READ]})
    newest = ok(session, "list_library_papers", {"folder_id": TO_READ, "limit": 1})["data"][0]
    assert newest["title"] == "Mistral 7B" and newest["folderIds"] == [TO_READ]
    fails(session, "list_library_papers", {"folder_id": "1"}, "NotFound", "Folder '1' not found")


# ---------------------------------------------------------------- research feeds


def test_feed_recommends_recent_unsaved_papers(session):
    feed = ok(session, "get_research_feed", {"folder_id": RAG_FOLDER, "limit": 100})["recommendations"]
    saved = {e["paper_id"] for e in SEED["library_entries"]}
    dismissed = {r["paper_id"] for r in SEED["feed_ratings"] if r["folder_id"] == RAG_FOLDER}
    since = (date(2025, 6, 10) - timedelta(days=730)).isoformat()
    assert feed and all(p["publicationDate"] >= since for p in feed)
    assert not {p["paperId"] for p in feed} & (saved | dismissed)
    fails(session, "get_research_feed", {"folder_id": TO_READ}, "Conflict", "turned off")


def test_rating_feed_papers(session):
    ok(session, "update_library_folder", {"folder_id": POST_TRAINING, "recommendation_status": "Enabled"})
    feed = [p["paperId"] for p in ok(session, "get_research_feed", {"folder_id": POST_TRAINING})["recommendations"]]
    liked, disliked = feed[0], feed[1]
    rated = ok(session, "rate_feed_paper", {"folder_id": POST_TRAINING, "paper_id": liked, "rating": "relevant"})
    assert rated["savedToFolder"] is True
    entry = session.dump()["library_entries"][liked]
    assert entry["source"] == "Feed" and json.dumps([POST_TRAINING, liked]) in session.dump()["folder_papers"]
    ok(session, "rate_feed_paper", {"folder_id": POST_TRAINING, "paper_id": disliked, "rating": "not_relevant"})
    assert session.dump()["feed_ratings"][json.dumps([POST_TRAINING, disliked])]["rating"] == "not_relevant"
    after = [p["paperId"] for p in ok(session, "get_research_feed", {"folder_id": POST_TRAINING})["recommendations"]]
    assert liked not in after and disliked not in after
    fails(
        session,
        "rate_feed_paper",
        {"folder_id": POST_TRAINING, "paper_id": disliked, "rating": "relevant"},
        "NotFound",
        "is not in the Research Feed",
    )
    fails(
        session,
        "rate_feed_paper",
        {"folder_id": POST_TRAINING, "paper_id": DPR, "rating": "not_relevant"},
        "NotFound",
        "is not in the Research Feed",
    )
    fails(
        session,
        "rate_feed_paper",
        {"folder_id": TO_READ, "paper_id": liked, "rating": "relevant"},
        "Conflict",
        "turned off",
    )


# ---------------------------------------------------------------- alerts


def test_alerts_take_the_right_target_and_never_repeat(session):
    hajishirzi = author("Hannaneh Hajishirzi")
    new = ok(session, "create_alert", {"alert_type": "AuthorPaper", "author_id": hajishirzi})
    assert (new["authorName"], new["paperId"]) == ("Hannaneh Hajishirzi", None)
    fails(session, "create_alert", {"alert_type": "AuthorPaper", "author_id": hajishirzi}, "Conflict", "already have")
    fails(
        session,
        "create_alert",
        {"alert_type": "AuthorPaper", "author_id": author("Akari Asai")},
        "Conflict",
        "already have",
    )  # seeded
    fails(session, "create_alert", {"alert_type": "PaperCitation"}, "InvalidRequest", "takes a paper_id")
    fails(
        session,
        "create_alert",
        {"alert_type": "AuthorCitation", "author_id": NADIA, "paper_id": DPR},
        "InvalidRequest",
        "takes an author_id",
    )
    fails(session, "create_alert", {"alert_type": "AuthorCitation", "author_id": "42"}, "NotFound", "Author")
    cited = ok(session, "create_alert", {"alert_type": "PaperCitation", "paper_id": "ARXIV:2004.04906"})
    assert cited["paperTitle"].startswith("Dense Passage Retrieval")
    assert len(ok(session, "list_alerts")) == len(SEED["alerts"]) + 2
    ok(session, "delete_alert", {"alert_id": cited["alertId"]})
    assert cited["alertId"] not in {a["alertId"] for a in ok(session, "list_alerts")}
    fails(session, "delete_alert", {"alert_id": cited["alertId"]}, "NotFound", "Alert")


# ---------------------------------------------------------------- the author page


def test_claiming_and_editing_your_author_page(session):
    claim = ok(session, "claim_author_page", {"author_id": NADIA})
    assert (claim["status"], claim["email"]) == ("pending_verification", "nadia.rahimi@ed.ac.uk")
    fails(session, "update_author_page", {"name": "N. S. Rahimi"}, "PermissionDenied", "waiting for email verification")
    approved = ok(session, "open_claim_verification_link", {}, caller="user")
    assert approved["status"] == "approved"
    assert session.dump()["account"]["7731024"]["claimed_author_id"] == NADIA
    page = ok(session, "update_author_page", {"name": "Nadia S. Rahimi", "homepage": "https://nadia.example.org"})
    assert (page["name"], page["homepage"]) == ("Nadia S. Rahimi", "https://nadia.example.org")
    assert page["aliases"] == ["N. Rahimi", "Nadia Rahimi"]  # the old name stays findable
    assert ok(session, "update_author_page", {"homepage": ""})["homepage"] is None
    fails(
        session,
        "update_author_page",
        {"affiliations": [f"Lab {i}" for i in range(6)]},
        "invalid_arguments",
        "at most 5",
    )
    fails(session, "update_author_page", {"homepage": "nadia.example.org"}, "invalid_arguments", "http")
    fails(session, "update_author_page", {}, "InvalidRequest", "Nothing to update")
    fails(session, "claim_author_page", {"author_id": author("Ewan Sinclair")}, "Conflict", "already linked")
    fails(session, "open_claim_verification_link", {}, "NotFound", "No author page claim", caller="user")


def test_claim_rules(session):
    fails(session, "update_author_page", {"name": "X"}, "PermissionDenied", "Claim your author page first")
    fails(session, "claim_author_page", {"author_id": NADIA_TEHRAN}, "Conflict", "already been claimed")
    fails(session, "open_claim_verification_link", {}, "NotFound", "No author page claim", caller="user")
    first = ok(session, "claim_author_page", {"author_id": author("Ewan Sinclair")})  # his own claim is only pending
    fails(session, "claim_author_page", {"author_id": author("Ewan Sinclair")}, "Conflict", "already waiting")
    second = ok(session, "claim_author_page", {"author_id": NADIA})
    claims = session.dump()["author_claims"]
    assert claims[first["claimId"]]["status"] == "withdrawn"
    assert claims[second["claimId"]]["status"] == "pending_verification"
    assert ok(session, "open_claim_verification_link", {}, caller="user")["authorId"] == NADIA


# ---------------------------------------------------------------- the seed itself


def test_seed_graph_is_consistent():
    by_id = {p["paper_id"]: p for p in SEED["papers"]}
    cited_by: dict[str, int] = {}
    cites: dict[str, int] = {}
    for edge in SEED["citations"]:
        citing, cited = by_id[edge["citing_paper_id"]], by_id[edge["cited_paper_id"]]
        assert citing["publication_date"] > cited["publication_date"]
        assert set(edge["intents"]) <= {"background", "methodology", "result"}
        cited_by[cited["paper_id"]] = cited_by.get(cited["paper_id"], 0) + 1
        cites[citing["paper_id"]] = cites.get(citing["paper_id"], 0) + 1
    for p in SEED["papers"]:
        assert p["citation_count"] >= cited_by.get(p["paper_id"], 0)
        assert p["reference_count"] >= cites.get(p["paper_id"], 0)
        assert p["influential_citation_count"] <= p["citation_count"]
        assert len(p["paper_id"]) == 40 and p["external_ids"]["CorpusId"] == p["corpus_id"]
    assert len(SEED["papers"]) > 150 and len(SEED["citations"]) > 1000 and len(SEED["authors"]) > 700


def test_searches_find_hyphenated_apostrophe_and_accented_names(session):
    """The SQL pre-filters of both searches must not lose names LIKE cannot see: joined hyphenated or
    apostrophe words and letters outside ASCII, whose case LIKE does not fold."""
    for query, name in (
        ("Rocktäschel", "Tim Rocktäschel"),
        ("ROCKTÄSCHEL", "Tim Rocktäschel"),
        ("Rücklé", "Andreas Rücklé"),
        ("Saad-Falcon", "Jon Saad-Falcon"),
        ("O'Donoghue", "Odhran O'Donoghue"),
        ("Minh-Thang", "Minh-Thang Luong"),
    ):
        found = ok(session, "search_authors", {"query": query, "limit": 100})["data"]
        assert name in [a["name"] for a in found], query
    joined = ok(session, "search_papers", {"query": "saadfalcon", "limit": 100})["data"]
    assert joined and all(any(a["name"] == "Jon Saad-Falcon" for a in p["authors"]) for p in joined)
    accented = ok(session, "search_papers", {"query": "RÜCKLÉ", "limit": 100})["data"]
    assert accented and all(any(a["name"] == "Andreas Rücklé" for a in p["authors"]) for p in accented)
    assert ok(session, "search_authors", {"query": "Rocktaschel"})["data"] == []


def test_type_bounds_show_in_the_schema_with_the_products_wording(session):
    def prop(tool: str, argument: str) -> dict:
        found = SPEC.tools[tool].input_schema["properties"][argument]
        return next((option for option in found.get("anyOf", []) if option.get("type") != "null"), found)

    assert prop("search_papers", "limit")["maximum"] == 100 and prop("search_papers", "offset")["minimum"] == 0
    assert prop("get_paper_citations", "limit")["maximum"] == 1000
    assert prop("get_recommendations", "positive_paper_ids")["minItems"] == 1
    assert prop("set_paper_note", "text")["maxLength"] == 2000
    assert prop("update_author_page", "affiliations")["maxItems"] == 5
    assert "pattern" in prop("search_papers", "year") and "pattern" in prop("update_author_page", "homepage")
    fails(session, "update_author_page", {"name": "   "}, "invalid_arguments", "A name has 1 to 100 characters")
    fails(session, "get_author_papers", {"author_id": "1741101", "offset": -5}, "invalid_arguments", "offset")
    fails(session, "get_research_feed", {"folder_id": folder("To read"), "limit": 0}, "invalid_arguments", "limit")
