"""Airtable Web API: bases, tables with typed fields, records in batches of ten, views, filterByFormula, comments."""
