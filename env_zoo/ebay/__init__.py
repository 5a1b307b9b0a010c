"""eBay (buyer side): search, items, watchlist, proxy bids, Best Offers, checkout, orders, returns, feedback."""
