"""Spotify: catalog search, albums and artists, the user's library, playlists, top items and the player (Web API)."""
