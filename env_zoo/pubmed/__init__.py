"""PubMed: the NCBI E-utilities (ESearch, ESummary, EFetch, ELink) over PubMed and the signed-in My NCBI account."""
