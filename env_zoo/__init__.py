"""The environment zoo: one sub-package per verified environment (schema, tools, metadata, snapshots, tasks)."""
