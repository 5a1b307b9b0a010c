"""Kraken Spot REST API: balances, asset pairs, orders, ledger, deposits, and withdrawals to saved address keys."""
