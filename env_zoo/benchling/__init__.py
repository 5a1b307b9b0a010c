"""Benchling: projects, notebook entries and review, registry, inventory and requests (benchling.com/api/reference)."""
