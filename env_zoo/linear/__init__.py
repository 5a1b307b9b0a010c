"""Linear (the Linear GraphQL API): teams and workflow states, issues with sub-issues and relations, cycles,
projects with milestones, comments."""
