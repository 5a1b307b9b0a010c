"""Coinbase: wallets, products and prices, buys/sells/converts, Advanced Trade orders, sends, addresses and limits."""
