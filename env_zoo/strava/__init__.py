"""Strava: an athlete's activities, segments, gear, clubs and routes, after the Strava API v3."""
