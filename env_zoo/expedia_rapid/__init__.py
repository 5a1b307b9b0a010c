"""Expedia Group Rapid API for a travel agency partner: content, shopping, price check, booking, holds, itineraries."""
