"""The sandbox for code this process must not trust: generated environments (EnvGen) and imported projects
(`envfactory import --isolate`).

The kernel isolates (bubblewrap namespaces, a read-only filesystem view with one size-limited scratch folder, an
unprivileged user, seccomp, rlimits); an audit hook in the worker is the second layer that explains refusals. A
`Worker` is one sandboxed Python process kept alive for a session and spoken to over a pipe; `Sandbox.run` is a
one-shot call. Verdicts are the parent's: see `runner.SandboxResult`. Details: docs/envgen.md.
"""

from .channel import mark
from .guard import SandboxViolation
from .kernel import SandboxUnavailable, check_available
from .limits import Limits
from .runner import OPT_OUT, Sandbox, SandboxResult, Worker, WorkerStartError, violation_reason

__all__ = [
    "Limits",
    "OPT_OUT",
    "Sandbox",
    "SandboxResult",
    "SandboxUnavailable",
    "SandboxViolation",
    "Worker",
    "WorkerStartError",
    "check_available",
    "mark",
    "violation_reason",
]
