"""Vinted: a member's second-hand fashion marketplace account (listings, offers, bundles, orders, shipping)."""
