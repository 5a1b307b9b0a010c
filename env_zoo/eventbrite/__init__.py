"""Eventbrite: events, venues, ticket classes, orders and attendees, refund requests and discount codes."""
