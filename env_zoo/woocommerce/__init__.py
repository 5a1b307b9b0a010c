"""WooCommerce: the REST API (v3) of an online shop, from the store manager's side."""
