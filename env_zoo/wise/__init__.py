"""Wise (the Wise Platform API): profiles, multi-currency balances and jars, quotes, recipients, transfers."""
