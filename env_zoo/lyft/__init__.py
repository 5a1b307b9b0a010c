"""Lyft rider API and app: ride types, ETAs, cost estimates with Prime Time, rides, cancellations, tips, lost items."""
