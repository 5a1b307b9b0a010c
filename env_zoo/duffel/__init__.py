"""Duffel's Flights API as a travel agency's assistant uses it: offer requests and offers, seat maps, orders,
order changes and cancellations, and Duffel Payments."""
