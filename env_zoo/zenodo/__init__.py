"""Zenodo's REST API (InvenioRDM deposits, records, files, versions and communities) as a signed-in researcher sees it."""
