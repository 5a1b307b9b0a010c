"""TripIt: a traveler's trips, plans (flights, hotels, cars, activities), sharing, flight alerts and inbox."""
