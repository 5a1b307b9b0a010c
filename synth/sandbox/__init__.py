"""A sandbox for generated code: a separate, isolated Python process with resource limits and no network.

`Sandbox(limits).run(entry, payload, files)` copies `files` into a fresh scratch folder, starts
`python -I` there (in new user, network and pid namespaces when `unshare` allows it), applies rlimits, installs an
audit-hook guard, calls `entry(payload)` and returns a `SandboxResult` with the JSON value or the reason it stopped.
"""

from .limits import Limits
from .runner import Sandbox, SandboxResult, namespaces_available

__all__ = ["Limits", "Sandbox", "SandboxResult", "namespaces_available"]
