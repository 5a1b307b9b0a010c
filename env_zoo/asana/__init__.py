"""Asana: workspaces, teams, projects and sections, tasks, subtasks, dependencies, tags, comments and followers."""
