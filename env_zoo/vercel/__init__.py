"""Vercel REST API: teams, roles, projects, deployments with promote and rollback, aliases, domains, DNS, env vars."""
