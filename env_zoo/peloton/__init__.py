"""Peloton: class library, live schedule, bookmarks and stack, workouts, personal records, challenges, follows."""
