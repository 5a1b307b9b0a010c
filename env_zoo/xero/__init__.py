"""Xero (the Xero Accounting API): organisations, contacts, invoices, payments, credit notes, bank reconciliation."""
