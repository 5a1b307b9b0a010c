"""Sentry API: organizations, projects, issues and events, releases and deploys, alert rules, members and teams."""
