"""GitHub: repositories, branch protection, issues, pull requests, reviews and Actions runs (REST API v3)."""
