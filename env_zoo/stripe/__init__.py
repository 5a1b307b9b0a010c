"""Stripe: customers, cards, payment intents, charges, refunds, prices, subscriptions and invoices."""
