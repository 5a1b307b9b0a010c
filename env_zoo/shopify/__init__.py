"""Shopify: Storefront carts and checkout with Admin orders, refunds and returns, after the public Shopify APIs."""
