"""Booking.com: accommodation search, availability and rate plans, orders (book, modify, cancel), Genius, wish lists
and guest reviews, after Booking.com's Demand API."""
