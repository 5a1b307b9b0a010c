"""Alpaca Trading API: account, assets, market data, orders, positions, watchlists, clock, calendar, activities."""
