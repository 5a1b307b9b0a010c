"""Datadog API: monitors and mutes, downtimes, incidents and their timelines, SLOs, dashboards, users and teams."""
