"""Zotero: personal and group reference libraries (items, notes, collections, tags, saved searches, trash), after the Zotero Web API v3."""
