"""PayPal: a merchant's REST APIs: Orders v2, Payments v2, Disputes, Payouts and Invoicing v2."""
