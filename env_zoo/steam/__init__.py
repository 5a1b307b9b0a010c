"""Steam as a signed-in customer uses it: store, library, wishlist, refunds, gifts, friends, trades, reviews, family."""
