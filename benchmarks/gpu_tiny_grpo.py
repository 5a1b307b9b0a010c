"""SFT, then GRPO steps, through OpenRLHF's real `MultiTurnAgentExecutor` over an envfactory environment, on a GPU.

The GPU machines this project may borrow reach no model hub and cannot hold vLLM or Ray, so the policy is a small
Qwen2 model initialised at random, with a ChatML tokenizer trained here on the environment's SFT chats, and the
engine behind the executor is transformers' `generate` answering the vLLM engine's call
(`generate(prompt_token_ids, sampling_params)` -> outputs with token ids, text and finish reason). Everything else
is what a GRPO run uses: `sft_rows` and per-turn `prompt_rows` from the train split,
`envfactory_training.openrlhf_agent`'s
AgentExecutor (env feedback rendered with the chat template, rewards paid as deltas), GRPO's per-prompt group
normalization, and a policy-gradient update on the action tokens only.

    python benchmarks/gpu_tiny_grpo.py --out runs/gpu_grpo            # on the GPU machine
    python benchmarks/gpu_tiny_grpo.py --device cpu --sft-steps 2 --grpo-steps 1 --prompts 1 --samples 2

Prints the SFT loss, per GRPO step the rewards, spread, tokens and time, and writes `report.json` and
`curves.png` to --out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import torch

from envfactory_training.advantage import group_norm_advantages
from envfactory_training.datasets import prompt_rows, sft_rows
from envfactory_training.openrlhf_agent import AgentExecutor
from envfactory_training.tiny import chatml_tokenizer


def tokenize_chat(tokenizer, messages: list[dict], max_tokens: int) -> tuple[list[int], list[int]]:
    """Token ids of a rendered chat and a 0/1 mask of the assistant messages' tokens (ChatML renders each message
    as a suffix of the previous render, so each message's tokens are the difference)."""
    ids: list[int] = []
    mask: list[int] = []
    for i, message in enumerate(messages):
        rendered = tokenizer.apply_chat_template(messages[: i + 1], tokenize=False)
        new = tokenizer(rendered, add_special_tokens=False)["input_ids"][len(ids) :]
        ids += new
        mask += [int(message["role"] == "assistant")] * len(new)
    return ids[:max_tokens], mask[:max_tokens]


def build_model(tokenizer, device: str, width: int, layers: int):
    """A Qwen2 causal LM initialised at random, sized by `width` and `layers`."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=width,
        intermediate_size=4 * width,
        num_hidden_layers=layers,
        num_attention_heads=max(1, width // 64),
        num_key_value_heads=max(1, width // 64),
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(0)
    return Qwen2ForCausalLM(config).to(device)


def token_logprobs(model, ids: torch.Tensor) -> torch.Tensor:
    """log p(ids[t] | ids[:t]) for t >= 1, shape [batch, length - 1]."""
    with torch.autocast(ids.device.type, dtype=torch.bfloat16, enabled=ids.device.type == "cuda"):
        logits = model(ids).logits[:, :-1].float()
    return torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None]).squeeze(-1)


def sft(model, samples: list[tuple[list[int], list[int]]], steps: int, lr: float, device: str) -> list[float]:
    """Next-token loss on assistant tokens, one chat per step; returns the losses."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    return sft_steps(model, optimizer, samples, steps, device, random.Random(0))


def sft_steps(
    model, optimizer, samples: list[tuple[list[int], list[int]]], steps: int, device: str, rng: random.Random
) -> list[float]:
    """`steps` SFT steps with `optimizer`, each on a chat drawn with `rng`; returns their losses."""
    losses = []
    for _ in range(steps):
        ids, mask = rng.choice(samples)
        ids_t = torch.tensor([ids], device=device)
        mask_t = torch.tensor([mask[1:]], device=device, dtype=torch.float32)
        loss = -(token_logprobs(model, ids_t) * mask_t).sum() / mask_t.sum().clamp(min=1)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
    return losses


class BatchingEngine:
    """The vLLM engine call the executor makes, answered by `model.generate`: requests that arrive together are
    generated as one left-padded batch (as vLLM batches concurrent requests), in a worker thread so the event loop
    keeps running the other samples' environment steps meanwhile."""

    def __init__(self, model, tokenizer, max_new_tokens: int, temperature: float) -> None:
        self.model, self.tokenizer = model, tokenizer
        self.max_new_tokens, self.temperature = max_new_tokens, temperature
        self.pending: list[tuple[list[int], int, asyncio.Future]] = []
        self.worker: asyncio.Task | None = None
        self.generated_tokens = 0
        self.batches: list[int] = []

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        """One completion for the prompt, within the executor's token budget."""
        budget = min(self.max_new_tokens, sampling_params.max_tokens or self.max_new_tokens)
        future = asyncio.get_running_loop().create_future()
        self.pending.append((list(prompt_token_ids), budget, future))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.create_task(self._drain())
        return SimpleNamespace(outputs=[await future])

    async def _drain(self) -> None:
        while self.pending:
            await asyncio.sleep(0.005)  # the other samples' requests of this round arrive meanwhile
            batch, self.pending = self.pending, []
            try:
                outputs = await asyncio.to_thread(self._generate, [p for p, _, _ in batch], max(b for _, b, _ in batch))
            except Exception as error:  # every waiting sample sees the failure
                for _, _, future in batch:
                    future.set_exception(error)
                continue
            for (_, budget, future), ids in zip(batch, outputs):
                future.set_result(self._completion(ids[:budget]))

    def _generate(self, prompts: list[list[int]], budget: int) -> list[list[int]]:
        device = next(self.model.parameters()).device
        width = max(map(len, prompts))
        pad = self.tokenizer.pad_token_id
        ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device=device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device=device)
        self.batches.append(len(prompts))
        with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            output = self.model.generate(
                ids,
                attention_mask=mask,
                do_sample=True,
                temperature=self.temperature,
                max_new_tokens=budget,
                eos_token_id=self.tokenizer.eos_token_id,
                pad_token_id=pad,
            )
        return output[:, width:].tolist()

    def _completion(self, new: list[int]) -> SimpleNamespace:
        """vLLM's output shape: token ids up to and with eos, the text without it, and why generation stopped."""
        eos = self.tokenizer.eos_token_id
        ids = new[: new.index(eos) + 1] if eos in new else new
        self.generated_tokens += len(ids)
        text = self.tokenizer.decode(ids, skip_special_tokens=True)
        return SimpleNamespace(
            token_ids=ids, text=text, finish_reason="stop" if eos in ids else "length", logprobs=None
        )


async def rollout_group(engine: BatchingEngine, tokenizer, rows: list[dict], samples: int, max_length: int):
    """`samples` executions of each prompt row, all concurrent, through OpenRLHF's executor."""
    executor = AgentExecutor()

    async def one(row: dict) -> dict:
        prompt = tokenizer.apply_chat_template(row["messages"], tokenize=False, add_generation_prompt=True)
        params = SimpleNamespace(max_tokens=None, logprobs=None)
        return await executor.execute(prompt, row["label"], params, max_length, tokenizer, engine)

    return await asyncio.gather(*(one(row) for row in rows for _ in range(samples)))


def grpo_step(model, optimizer, responses: list[dict], prompts: int, samples: int, device: str) -> dict[str, Any]:
    """One policy-gradient update: group-normalized advantages on the action tokens of every sample."""
    rewards = torch.tensor([float(r["reward"]) for r in responses]).view(prompts, samples)
    advantages = group_norm_advantages(rewards).flatten()
    action_tokens = sum(b - a for r in responses for a, b in r["action_ranges"])
    optimizer.zero_grad()
    for response, advantage in zip(responses, advantages.tolist()):
        ids = torch.tensor([response["observation_tokens"]], device=device)
        mask = torch.zeros(ids.shape[1] - 1, device=device)
        for start, end in response["action_ranges"]:
            mask[start - 1 : end - 1] = 1.0
        loss = -advantage * (token_logprobs(model, ids)[0] * mask).sum() / max(action_tokens, 1)
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return {
        "reward_mean": float(rewards.mean()),
        "reward_max": float(rewards.max()),
        "groups_with_spread": int((rewards.std(-1) > 0).sum()),
        "action_tokens": action_tokens,
        "turns_per_sample": sum(len(r["action_ranges"]) for r in responses) / len(responses),
        "truncated": sum(bool(r["truncated"]) for r in responses),
    }


def plot(report: dict, path: Path) -> None:
    """SFT loss and GRPO reward curves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
    left.plot(report["sft_losses"])
    left.set(title="SFT loss (assistant tokens)", xlabel="step", yscale="log")
    steps = report["grpo"]
    right.plot([s["reward_mean"] for s in steps], marker="o", label="mean")
    right.plot([s["reward_max"] for s in steps], marker="x", label="max")
    right.set(title="GRPO reward per step", xlabel="step", ylim=(0, 1.05))
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="notion")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--vocab", type=int, default=2048)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--sft-steps", type=int, default=400)
    parser.add_argument("--sft-lr", type=float, default=1e-3)
    parser.add_argument("--grpo-steps", type=int, default=4)
    parser.add_argument("--grpo-lr", type=float, default=1e-5)
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=16384)
    parser.add_argument("--max-new-tokens", type=int, default=256)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path("runs/gpu_tiny_grpo"))
    args = parser.parse_args(argv)

    started = time.perf_counter()
    chats = list(sft_rows(args.env, "train"))
    tokenizer = chatml_tokenizer([json.dumps(c["messages"], ensure_ascii=False) for c in chats], args.vocab)
    samples = [tokenize_chat(tokenizer, c["messages"], args.max_length) for c in chats]
    model = build_model(tokenizer, args.device, args.width, args.layers)
    parameters = sum(p.numel() for p in model.parameters())
    print(
        f"device {args.device} ({torch.cuda.get_device_name() if args.device == 'cuda' else 'cpu'}); "
        f"{parameters / 1e6:.1f}M parameters; {len(chats)} SFT chats, {max(len(s[0]) for s in samples)} tokens max"
    )

    t0 = time.perf_counter()
    losses = sft(model, samples, args.sft_steps, args.sft_lr, args.device)
    sft_seconds = time.perf_counter() - t0
    print(f"SFT: {args.sft_steps} steps in {sft_seconds:.1f} s, loss {losses[0]:.3f} -> {losses[-1]:.3f}")

    rows = list(prompt_rows(args.env, "turn", split="train"))
    engine = BatchingEngine(model, tokenizer, args.max_new_tokens, args.temperature)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.grpo_lr)
    rng = random.Random(0)
    steps = []
    print("step  reward_mean  reward_max  groups_with_spread  turns/sample  action_tokens  truncated  seconds")
    for step in range(args.grpo_steps):
        t0 = time.perf_counter()
        batch = rng.sample(rows, args.prompts)
        model.eval()
        responses = asyncio.run(rollout_group(engine, tokenizer, batch, args.samples, args.max_length))
        model.train()
        metrics = grpo_step(model, optimizer, responses, args.prompts, args.samples, args.device)
        metrics["seconds"] = time.perf_counter() - t0
        steps.append(metrics)
        print(
            f"{step:4d}  {metrics['reward_mean']:11.3f}  {metrics['reward_max']:10.3f}  "
            f"{metrics['groups_with_spread']:18d}  {metrics['turns_per_sample']:12.2f}  "
            f"{metrics['action_tokens']:13d}  {metrics['truncated']:9d}  {metrics['seconds']:7.1f}"
        )

    report = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "parameters": parameters,
        "sft_losses": losses,
        "sft_seconds": sft_seconds,
        "grpo": steps,
        "generated_tokens": engine.generated_tokens,
        "mean_generate_batch": sum(engine.batches) / max(len(engine.batches), 1),
        "peak_gpu_memory_gib": torch.cuda.max_memory_allocated() / 2**30 if args.device == "cuda" else None,
        "total_seconds": time.perf_counter() - started,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps(report, indent=1))
    plot(report, args.out / "curves.png")
    print(f"wrote {args.out / 'report.json'} and {args.out / 'curves.png'}; total {report['total_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
