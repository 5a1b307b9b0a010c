"""Uber Eats for an eater: stores and their hours, menus with modifier groups, a one-store cart, promotions, orders."""
