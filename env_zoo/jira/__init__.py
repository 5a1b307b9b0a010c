"""Jira Cloud: projects, issues, workflows, comments, worklogs, links, watchers, boards and sprints (REST v3, Agile)."""
