"""Expensify: workspaces (policies) with members and rules, expenses with receipts, and expense reports."""
