"""REDCap's API (projects, data dictionary, records, events and arms, repeating instruments, data access groups,
user rights, logging, record locking and e-signatures) as a signed-in study coordinator uses it."""
