"""Amadeus: flight offers, pricing, orders and seat maps, after the Amadeus Self-Service flight APIs."""
