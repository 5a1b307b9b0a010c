"""Figshare: a researcher's articles, files, embargoes, DOIs and versions, collections and projects (API v2)."""
