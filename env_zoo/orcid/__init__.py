"""ORCID's Member API v3.0 as a university research portal (a member client) uses it on researchers' records."""
