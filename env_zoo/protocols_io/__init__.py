"""protocols.io's API (protocols, steps, materials, versions, forks, workspaces, comments, bookmarks) as a
signed-in researcher sees it."""
