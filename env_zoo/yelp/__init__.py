"""Yelp: business search and details, reviews, Yelp Reservations, Yelp Waitlist, collections and check-ins, after
the Yelp Fusion API v3 and Yelp's consumer features."""
