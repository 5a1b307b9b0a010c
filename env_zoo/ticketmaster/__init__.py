"""Ticketmaster: Discovery API events, venues and offers, plus the fan's commerce side (holds, orders, transfers,
Verified Resale and refunds) (developer.ticketmaster.com)."""
