"""Entry point of a sandboxed process (`python -I -m synth.sandbox.child JOB`): preload trusted modules, install
the guard, run `entry(payload)` and write `{"status", "value" | "error"}` to the result file."""

from __future__ import annotations

import errno
import importlib
import importlib.util
import json
import os
import resource
import signal
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from . import channel
from .guard import Guard, SandboxViolation, install
from .limits import apply_rlimits


class CPULimitExceeded(BaseException):
    """Raised in the child when its CPU-time budget is spent (generated code's `except Exception` misses it)."""


def _on_cpu_limit(signum: int, frame: Any) -> None:
    raise CPULimitExceeded(f"CPU time limit exceeded during {channel.current() or 'startup'}")


def resolve_entry(entry: str, scratch: Path) -> Callable[[Any], Any]:
    """`package.module:function` (trusted, importable) or `file.py:function` (a file in the scratch folder)."""
    target, _, function = entry.rpartition(":")
    if target.endswith(".py"):
        path = (scratch / target).resolve()
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {target}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    return getattr(module, function)


def _error(exc: BaseException) -> dict[str, Any]:
    return {"status": "error", "error": f"{type(exc).__name__}: {exc}",
            "traceback": "".join(traceback.format_exception(exc)[-6:])}


def run(job: dict[str, Any]) -> dict[str, Any]:
    """Run one job; every way it can end becomes a result dict."""
    scratch = Path(job["scratch"])
    channel.open_events(job["events_path"])
    for name in job.get("preload", []):
        importlib.import_module(name)
    trusted = None if job["entry"].split(":")[0].endswith(".py") else resolve_entry(job["entry"], scratch)
    os.chdir(scratch)
    install(Guard(scratch, channel.violation))
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    usage = resource.getrusage(resource.RUSAGE_SELF)  # the budget counts the whole process, like RLIMIT_CPU
    signal.setitimer(signal.ITIMER_PROF, max(0.01, float(job["cpu_s"]) - usage.ru_utime - usage.ru_stime))
    try:
        channel.mark("import entry")
        entry = trusted or resolve_entry(job["entry"], scratch)
        channel.mark("run entry")
        value = entry(job.get("payload"))
        return {"status": "ok", "value": value}
    except CPULimitExceeded as exc:
        return {"status": "cpu", "error": str(exc)}
    except MemoryError:
        return {"status": "memory", "error": f"memory limit exceeded during {channel.current()}"}
    except SandboxViolation as exc:
        return {"status": "violation", "error": str(exc)}
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            return {"status": "file_size", "error": f"file size limit exceeded during {channel.current()}"}
        return _error(exc)
    except BaseException as exc:  # generated code failing is a result, not a crash of the sandbox
        return _error(exc)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def main(argv: list[str]) -> int:
    """Read the job file, limit this process, run the job, write the result file (opened before any generated
    code runs)."""
    job = json.loads(Path(argv[1]).read_text())
    apply_rlimits(job["rlimits"])
    with open(job["result_path"], "w", encoding="utf-8") as out:
        result = run(job)
        try:
            text = json.dumps(result, default=str)
        except (TypeError, ValueError) as exc:
            text = json.dumps({"status": "error", "error": f"result is not JSON: {exc}"})
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
