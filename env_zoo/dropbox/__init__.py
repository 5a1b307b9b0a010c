"""Dropbox (the Dropbox API v2): files and folders, revisions, shared links, shared folders and file requests."""
