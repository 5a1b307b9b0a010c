"""Charles Schwab Trader API: a signed-in client's accounts, positions, quotes, orders and transactions."""
