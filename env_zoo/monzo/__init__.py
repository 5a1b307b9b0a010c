"""Monzo: accounts, balance, pots, transactions, feed items, payees, faster payments and cards (docs.monzo.com)."""
