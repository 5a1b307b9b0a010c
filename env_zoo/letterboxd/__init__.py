"""Letterboxd as a signed-in member uses it: films, diary entries and reviews, watchlist, lists, follows, activity."""
