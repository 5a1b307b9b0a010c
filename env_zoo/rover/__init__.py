"""Rover: a pet owner's account on the pet-care marketplace (pets, sitters, meet & greets, bookings, reviews)."""
