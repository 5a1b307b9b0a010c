"""`python -m envfactory_training.ray_launch ARGS`: OpenRLHF's `train_ppo_ray` with envfactory's Ray worker setup hook.

The hook (`envfactory_training.advantage.install_openrlhf_hook`) runs in every Ray worker; with
ENVFACTORY_ADVANTAGE=erpo it turns the `flash_reinforce` estimator into ERPO with MEU masking. ARGS are
OpenRLHF's own flags, unchanged.
"""

from __future__ import annotations

import os
import runpy
import sys

# OpenRLHF's own ray.init defaults (skipped once Ray is initialized here), and envfactory's settings.
_DEFAULT_ENV = {"TOKENIZERS_PARALLELISM": "true", "NCCL_DEBUG": "WARN", "RAY_ENABLE_ZERO_COPY_TORCH_TENSORS": "1"}


def worker_env() -> dict[str, str]:
    """Environment variables every Ray worker gets: OpenRLHF's defaults (or the caller's values) and ENVFACTORY_*."""
    env = {k: os.environ.get(k, v) for k, v in _DEFAULT_ENV.items()}
    env.update({k: v for k, v in os.environ.items() if k.startswith("ENVFACTORY_")})
    return env


def main(argv: list[str] | None = None) -> None:
    """Initialize Ray with the hook, then run OpenRLHF's trainer as `python -m openrlhf.cli.train_ppo_ray ARGS`."""
    import ray

    ray.init(
        runtime_env={
            "worker_process_setup_hook": "envfactory_training.advantage.install_openrlhf_hook",
            "env_vars": worker_env(),
        }
    )
    sys.argv = ["openrlhf.cli.train_ppo_ray", *(sys.argv[1:] if argv is None else argv)]
    runpy.run_module("openrlhf.cli.train_ppo_ray", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
