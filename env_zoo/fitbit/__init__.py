"""Fitbit Web API: profile, activity summaries and logs, goals, sleep, body, food and water, devices and alarms."""
