"""Plaid API as a fintech app's backend uses it: Items, accounts, Auth, transactions sync and Transfer."""
