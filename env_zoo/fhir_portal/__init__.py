"""A MyChart-like patient portal over FHIR R4 resources: proxies, appointments, prescriptions, results, messages."""
