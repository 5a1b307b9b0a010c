"""QuickBooks Online (the QuickBooks Online Accounting API): customers, vendors, items, invoices, payments, credit
memos, bills and bill payments, with SyncToken concurrency."""
