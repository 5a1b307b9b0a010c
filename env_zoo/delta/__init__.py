"""Delta Air Lines, customer side: a signed-in SkyMiles member's trips, flights, seats, changes, cancellations,
eCredits, awards and same-day changes."""
