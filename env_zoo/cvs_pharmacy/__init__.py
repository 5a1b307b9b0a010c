"""CVS Pharmacy: prescriptions, refills, renewals, transfers, delivery, insurance, ExtraCare and vaccines."""
