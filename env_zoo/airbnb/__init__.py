"""Airbnb as a guest uses it: stays search, listings, price quotes, reservations, messages, wishlists, reviews."""
