"""Semantic Scholar: the Academic Graph (papers, authors, citations, recommendations) and a user's library."""
