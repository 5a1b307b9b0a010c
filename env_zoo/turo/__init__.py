"""Turo: a guest's or host's account on the car-sharing marketplace (listings, trips, check-in, reimbursements)."""
