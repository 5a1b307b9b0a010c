"""Zoom REST API v2 of one company account: users and licenses, meetings, registrants, cloud recordings, webinars."""
