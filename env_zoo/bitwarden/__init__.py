"""Bitwarden: vault items, folders, trash, organizations with collections and members, Send and the generator."""
