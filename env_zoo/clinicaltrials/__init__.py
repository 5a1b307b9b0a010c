"""ClinicalTrials: the ClinicalTrials.gov API v2 study registry plus a research coordinator's pre-screening workspace."""
