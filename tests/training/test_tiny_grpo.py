"""The GPU smoke run (`benchmarks/gpu_tiny_grpo.py`: SFT then GRPO steps through OpenRLHF's real executor), run
small on the CPU so it cannot rot between the sessions that have a GPU."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("openrlhf.utils.agent")

pytestmark = pytest.mark.openrlhf

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "gpu_tiny_grpo.py"


def load_script():
    spec = importlib.util.spec_from_file_location("gpu_tiny_grpo", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_sft_then_grpo_steps_run_end_to_end_on_the_cpu(tmp_path, capsys):
    script = load_script()
    assert (
        script.main(
            [
                "--device",
                "cpu",
                "--width",
                "64",
                "--layers",
                "1",
                "--vocab",
                "600",
                "--sft-steps",
                "3",
                "--grpo-steps",
                "2",
                "--prompts",
                "2",
                "--samples",
                "2",
                "--max-new-tokens",
                "12",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report["sft_losses"]) == 3 and len(report["grpo"]) == 2
    # every token the engine generated is inside an action range the executor recorded, and nothing else is
    assert report["generated_tokens"] == sum(step["action_tokens"] for step in report["grpo"])
    assert all(0.0 <= step["reward_mean"] <= step["reward_max"] <= 1.0 for step in report["grpo"])
    assert (tmp_path / "curves.png").stat().st_size > 0
    assert "reward_mean" in capsys.readouterr().out


def test_assistant_tokens_are_the_only_sft_targets():
    from envfactory_training.tiny import chatml_tokenizer

    script = load_script()
    messages = [
        {"role": "system", "content": "tools"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello there"},
    ]
    tokenizer = chatml_tokenizer([json.dumps(messages)], vocab_size=300)
    ids, mask = script.tokenize_chat(tokenizer, messages, max_tokens=10_000)
    assert (
        ids == tokenizer(tokenizer.apply_chat_template(messages, tokenize=False), add_special_tokens=False)["input_ids"]
    )
    target = tokenizer.decode([t for t, m in zip(ids, mask) if m])
    assert target == "<|im_start|>assistant\nhello there<|im_end|>\n"
