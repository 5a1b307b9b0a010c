"""The worker's system-call filters, compiled to BPF with libseccomp (through `pyseccomp`) in the parent.

`base_filter` is loaded by bubblewrap before it executes the worker: no sockets but AF_UNIX (the network namespace
is empty anyway), no fork/vfork/non-thread clone unless processes are allowed, and none of the calls that reach
other processes' memory, the kernel's keyrings, mounts, namespaces, modules or io_uring. It must let the worker be
executed, so `exec_filter`, which refuses execve, is loaded by the worker itself before any untrusted code runs.
Refused calls fail with EPERM (library code sees an ordinary OSError).
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile
from functools import lru_cache
from typing import Any

CLONE_THREAD = 0x00010000
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
#: Calls no sandboxed worker needs: other processes' memory, kernel objects, mounts, namespaces, modules, clocks.
DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    "pidfd_open",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "syslog",
    "lookup_dcookie",
    "name_to_handle_at",
    "open_by_handle_at",
    "iopl",
    "ioperm",
    "fanotify_init",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "mknod",
    "mknodat",
    "vhangup",
    "uselib",
    "landlock_create_ruleset",
    "memfd_secret",
    "move_pages",
    "migrate_pages",
    "mbind",
    "set_mempolicy",
)
PROCESS_CALLS = ("fork", "vfork")
EXEC_CALLS = ("execve", "execveat")


class SeccompUnavailable(RuntimeError):
    """libseccomp (or its `pyseccomp` binding) is missing."""


def _library():
    try:
        import pyseccomp
    except (ImportError, RuntimeError, OSError) as exc:
        raise SeccompUnavailable(f"the seccomp filter needs pyseccomp and libseccomp ({exc})") from exc
    return pyseccomp


def _deny(seccomp: Any, rules: Any, name: str, *args: Any) -> None:  # Any: pyseccomp is untyped
    try:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name, *args)
    except (OSError, ValueError):
        pass  # a call this kernel or libseccomp does not know cannot be made either


def _export(rules: Any) -> bytes:
    with tempfile.TemporaryFile() as out:
        rules.export_bpf(out)
        out.seek(0)
        return out.read()


@lru_cache(maxsize=4)
def base_filter(allow_processes: bool) -> bytes:
    """BPF program loaded by bubblewrap for the worker (execve allowed: it is how the worker starts)."""
    seccomp = _library()
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in DENIED:
        _deny(seccomp, rules, name)
    for name in ("socket", "socketpair"):
        _deny(seccomp, rules, name, seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    _deny(seccomp, rules, "ioctl", seccomp.Arg(1, seccomp.EQ, TIOCSTI))
    _deny(seccomp, rules, "ioctl", seccomp.Arg(1, seccomp.EQ, TIOCLINUX))
    # clone3 passes its flags in memory a filter cannot read: ENOSYS makes libc fall back to clone for threads.
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    if not allow_processes:
        for name in PROCESS_CALLS:
            _deny(seccomp, rules, name)
        _deny(seccomp, rules, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    return _export(rules)


@lru_cache(maxsize=1)
def exec_filter() -> bytes:
    """BPF program the worker loads on itself once it runs: no program can replace it any more."""
    seccomp = _library()
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in EXEC_CALLS:
        _deny(seccomp, rules, name)
    return _export(rules)


def memfd(data: bytes, name: str) -> int:
    """An anonymous in-memory file holding `data`, positioned at its start (for bubblewrap's --seccomp)."""
    fd = os.memfd_create(name, 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
