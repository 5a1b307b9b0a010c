"""Uber Riders API: products and estimates at a location, ride requests, cancellation, receipts, places, payment."""
