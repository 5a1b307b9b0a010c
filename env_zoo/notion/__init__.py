"""Notion: pages, databases, blocks, comments and users, after the public Notion API (developers.notion.com)."""
