"""OpenTable: restaurant search, availability, slot locks and reservations, waitlists, dining points and reviews,
after OpenTable's partner booking API."""
