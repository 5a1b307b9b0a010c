"""Zenodo's REST API (InvenioRDM deposits, records, files, versions, communities) as a signed-in researcher sees it."""
