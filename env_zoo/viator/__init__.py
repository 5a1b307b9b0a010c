"""Viator Partner API: tours and experiences, availability, booking questions, cart holds, bookings, cancellations."""
