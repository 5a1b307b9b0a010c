"""The Hugging Face Hub (repos, refs, commits, discussions, gated access, collections, orgs) as a user sees it."""
