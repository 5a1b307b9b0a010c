"""Etsy Open API v3 as a seller sees it: shops, listings and their inventory, images, shipping profiles, orders."""
