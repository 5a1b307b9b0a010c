"""Duolingo: courses and their units, XP and daily goals, streaks and streak freezes, weekly leagues, gems and the
shop, hearts, friends and quests."""
