"""Kaggle (public API: datasets, competitions, teams, submissions, kernels) as one signed-in Kaggler sees it."""
