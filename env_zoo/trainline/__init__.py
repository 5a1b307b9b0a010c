"""Trainline: UK rail journeys and fares, Railcards, e-tickets, seat reservations, refunds and changes."""
