"""PagerDuty: services, escalation policies, on-call schedules, incidents and maintenance windows (REST/Events v2)."""
