"""Home Assistant REST API: entity states and service calls, registries of floors, areas and devices, automations,
scenes, scripts and the logbook."""
