"""Google Places: Places API (New) search and details, route matrices, and Google Maps saved lists and reviews."""
