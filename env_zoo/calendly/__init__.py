"""Calendly API: users and organizations, event types, availability, scheduled events, invitees, routing forms."""
