"""Instacart: nearby stores, catalogs, per-store carts, delivery windows, orders, replacements and Instacart+."""
