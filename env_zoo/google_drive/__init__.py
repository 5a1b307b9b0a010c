"""Google Drive: files and folders, search, sharing, revisions, shared drives, comments and access requests (v3)."""
