"""Walmart Marketplace API (seller side): items, prices and promotions, inventory by ship node, orders,
shipping, cancellations, refunds and returns."""
