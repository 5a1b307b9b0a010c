"""Marriott Bonvoy: a member's hotel stays, points, free night awards, Suite Night Awards and elite status."""
