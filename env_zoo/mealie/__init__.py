"""Mealie: recipes, ingredients, ratings and comments, meal plans and rules, shopping lists, cookbooks, households."""
