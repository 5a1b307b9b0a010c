"""Amtrak: stations, trains and schedules, fares by class, seat inventory per segment, reservations with passengers
and discounts, changes and cancellations into eVouchers, Guest Rewards points and eTickets (amtrak.com booking)."""
