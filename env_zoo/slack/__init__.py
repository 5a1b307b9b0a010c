"""Slack: a workspace's channels, DMs, messages and threads, reactions, pins, user groups, scheduled messages,
bookmarks and statuses, after the Slack Web API (api.slack.com/methods)."""
