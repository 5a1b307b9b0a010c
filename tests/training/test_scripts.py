"""The launch scripts use only flags that the installed OpenRLHF defines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

openrlhf = pytest.importorskip("openrlhf")

pytestmark = pytest.mark.openrlhf

SCRIPTS = Path(__file__).resolve().parents[2] / "training" / "scripts"
CLI = Path(openrlhf.__file__).parent / "cli"


def script_flags(name: str) -> list[str]:
    """The flags on the script's continuation lines (`  --flag value \\`): those handed to OpenRLHF."""
    return re.findall(r"^\s+--([\w.]+)", (SCRIPTS / name).read_text(), flags=re.MULTILINE)


def defined(flag: str, source: str) -> bool:
    """Whether the CLI source declares the flag, literally or through its per-model `--{prefix}.` loop."""
    head, _, rest = flag.partition(".")
    return f'"--{flag}"' in source or (head in ("actor", "critic") and f'f"--{{prefix}}.{rest}"' in source)


@pytest.mark.parametrize("script, cli", [("sft.sh", "train_sft.py"), ("grpo.sh", "train_ppo_ray.py")])
def test_script_flags_exist_in_openrlhf(script, cli):
    source = (CLI / cli).read_text()
    flags = script_flags(script)
    assert len(flags) > 10
    assert [f for f in flags if not defined(f, source)] == []
