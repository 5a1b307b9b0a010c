"""Trello REST API (v1): workspaces, boards, lists, cards, labels, checklists, comments and board membership."""
