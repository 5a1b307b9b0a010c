"""Does RL through the environments learn? SFT warm start, then GRPO through OpenRLHF's real executor, on the CPU.

A Qwen2 model of a few hundred thousand parameters (random init) and a ChatML tokenizer trained here on the
environment's SFT chats (`training/tiny.py`), so nothing is downloaded. A fixed set of training prompts (per-turn
samples of the train split whose turn needs one write call) is the whole task set. SFT on those tasks'
ground-truth chats stops early, at a middling reward; then GRPO: every step samples each prompt `--samples` times
through `envfactory_training.openrlhf_agent.AgentExecutor` (OpenRLHF's `MultiTurnAgentExecutor`, the env's turn
reward paid as deltas), computes group-normalized advantages and takes `--epochs` clipped policy-gradient steps on
the action tokens (the first is the update of `benchmarks/gpu_tiny_grpo.py`). The control run is the same from the
same SFT weights, with the rewards shuffled across the batch's samples before the advantages: it has no signal, so
its reward must not rise. Generation runs in lockstep (`LockstepEngine`), so a seed's run repeats exactly and its
GRPO and control runs start from the same samples.

    python benchmarks/cpu_grpo_learning.py --seeds 0 1 2 --out runs/cpu_grpo_learning     # the benchmark
    python benchmarks/cpu_grpo_learning.py --seeds 0 --steps 2 --prompts 2 --samples 2 --sft-steps 10 \
        --sft-chunk 5 --vocab 1024 --out /tmp/x                                          # smoke (plumbing only)

Writes `report.json` (reward per step per seed and run) and `learning.png` (mean over seeds with min-max band).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import copy
import json
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import torch
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gpu_tiny_grpo as tiny  # noqa: E402  (the SFT, engine and update of the GPU smoke run)

from envfactory_gym.registry import load_zoo_environment  # noqa: E402
from envfactory_gym.tasks import load_tasks  # noqa: E402
from envfactory_training.advantage import group_norm_advantages  # noqa: E402
from envfactory_training.datasets import prompt_records, sft_rows  # noqa: E402
from envfactory_training.episode import EpisodeLabel  # noqa: E402
from envfactory_training.openrlhf_agent import AgentExecutor  # noqa: E402
from envfactory_training.renderers import openrlhf_prompt  # noqa: E402
from envfactory_training.sample import SampleSettings  # noqa: E402
from envfactory_training.tiny import chatml_tokenizer  # noqa: E402


def training_prompts(env: str, count: int) -> list[dict]:
    """`count` per-turn prompts of the train split whose turn needs exactly one tool call, a call that changes the
    state (answering without acting scores 0 there; on a read-only turn it keeps the state reward, a strong pull
    towards doing nothing), those with the shortest arguments first (what a model this small can get right)."""
    spec = load_zoo_environment(env)
    tasks, read_only = load_tasks(spec), {tool.name: tool.read_only for tool in spec.agent_tools}
    candidates = []
    for record in prompt_records(env, "turn", "train"):
        label = EpisodeLabel.from_json(record["label"])
        calls = tasks[label.task_id].turns[label.turn].agent_calls
        if len(calls) == 1 and not read_only[calls[0].name]:
            candidates.append((len(json.dumps(calls[0].arguments)), len(candidates), openrlhf_prompt(record)))
    if len(candidates) < count:
        raise ValueError(f"{env} has {len(candidates)} one-write-call turns in its train split, fewer than {count}")
    return [row for _, _, row in sorted(candidates)[:count]]


_SAMPLE: contextvars.ContextVar[int] = contextvars.ContextVar("cpu_grpo_learning_sample")


class LockstepEngine(tiny.BatchingEngine):
    """`gpu_tiny_grpo.BatchingEngine` that generates a round only once every unfinished sample has asked, with the
    requests in sample order: the sampled tokens then depend on the seed alone, not on which sample's environment
    step happened to finish first (the plain engine batches whatever arrived within 5 ms), so a run repeats
    exactly and the GRPO and control runs of a seed start from the same samples."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.live = 0  # samples that may still ask for a generation

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        """One completion for the prompt, generated with the other live samples' requests of this round."""
        budget = min(self.max_new_tokens, sampling_params.max_tokens or self.max_new_tokens)
        future = asyncio.get_running_loop().create_future()
        self.pending.append((list(prompt_token_ids), budget, future, _SAMPLE.get()))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.create_task(self._drain())
        return SimpleNamespace(outputs=[await future])

    async def _drain(self) -> None:
        while self.pending:
            while len(self.pending) < self.live:  # the other samples are still in an environment step
                await asyncio.sleep(0.001)
            batch, self.pending = sorted(self.pending, key=lambda request: request[3]), []
            try:
                outputs = await asyncio.to_thread(self._generate, [p for p, *_ in batch], max(b for _, b, *_ in batch))
            except Exception as error:  # every waiting sample sees the failure
                for _, _, future, _ in batch:
                    future.set_exception(error)
                continue
            for (_, budget, future, _), ids in zip(batch, outputs):
                future.set_result(self._completion(ids[:budget]))


def rollouts(
    engine: LockstepEngine, tokenizer, rows: list[dict], samples: int, settings: SampleSettings, max_length: int
):
    """`samples` executions of every row through OpenRLHF's executor, all concurrent, generated in lockstep."""
    executor = AgentExecutor(settings)

    async def one(index: int, row: dict) -> dict:
        _SAMPLE.set(index)  # each gathered coroutine runs in its own task, with its own copy of the context
        prompt = tokenizer.apply_chat_template(row["messages"], tokenize=False, add_generation_prompt=True)
        try:
            return await executor.execute(
                prompt, row["label"], SimpleNamespace(max_tokens=None, logprobs=None), max_length, tokenizer, engine
            )
        finally:
            engine.live -= 1

    async def every() -> list[dict]:
        engine.live = len(rows) * samples
        return await asyncio.gather(*(one(i, row) for i, row in enumerate(r for r in rows for _ in range(samples))))

    return asyncio.run(every())


def policy_step(
    model, optimizer, responses: list[dict], advantages: torch.Tensor, epochs: int = 1, clip: float = 0.2
) -> None:
    """GRPO's clipped policy-gradient update with the advantages given, `epochs` optimizer steps on the batch:
    every sample's action tokens weighted by its advantage, the probability ratio to the sampling policy clipped
    to 1 +- `clip`, normalized by the batch's action tokens (the first epoch is the plain policy gradient of
    `gpu_tiny_grpo.grpo_step`). One padded forward pass per epoch, logits only where an action token is
    predicted."""
    action_tokens = sum(b - a for r in responses for a, b in r["action_ranges"])
    chosen = [(r, a) for r, a in zip(responses, advantages.tolist()) if a != 0.0]
    if not chosen:
        return
    device = next(model.parameters()).device
    width = max(len(r["observation_tokens"]) for r, _ in chosen)
    ids = torch.zeros(len(chosen), width, dtype=torch.long, device=device)
    attention = torch.zeros_like(ids)
    weight = torch.zeros(len(chosen), width - 1, device=device)
    for row, (response, advantage) in enumerate(chosen):
        tokens = response["observation_tokens"]
        ids[row, : len(tokens)] = torch.tensor(tokens, device=device)
        attention[row, : len(tokens)] = 1
        for start, end in response["action_ranges"]:
            weight[row, start - 1 : end - 1] = advantage
    predicting = weight != 0
    targets, weights = ids[:, 1:][predicting], weight[predicting]

    def logprobs() -> torch.Tensor:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            hidden = model.model(input_ids=ids, attention_mask=attention).last_hidden_state[:, :-1]
            logits = model.lm_head(hidden[predicting]).float()
        return torch.log_softmax(logits, -1).gather(-1, targets[:, None]).squeeze(-1)

    with torch.no_grad():
        sampled = logprobs()
    for _ in range(epochs):
        optimizer.zero_grad()
        ratio = torch.exp(logprobs() - sampled)
        objective = torch.minimum(ratio * weights, ratio.clamp(1 - clip, 1 + clip) * weights)
        loss = -objective.sum() / max(action_tokens, 1)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()


def advantages_for(rewards: torch.Tensor, shuffle: bool, rng: torch.Generator) -> torch.Tensor:
    """Group-normalized advantages of a `[prompts, samples]` reward matrix; with `shuffle`, of the same rewards
    permuted across the whole batch first (the control: no relation between a sample and its reward)."""
    if shuffle:
        flat = rewards.flatten()
        rewards = flat[torch.randperm(flat.numel(), generator=rng)].view_as(rewards)
    return torch.nan_to_num(group_norm_advantages(rewards), nan=0.0).flatten()


def grpo(model, tokenizer, rows, args, seed: int, shuffle: bool, log) -> list[float]:
    """GRPO steps from `model`; returns the mean reward of every step's samples (step 0: before any update)."""
    torch.manual_seed(seed)
    random.seed(seed)
    engine = LockstepEngine(model, tokenizer, args.max_new_tokens, args.temperature)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.grpo_lr)
    settings = SampleSettings(max_steps=args.max_steps, max_new_tokens=args.max_new_tokens)
    rng = torch.Generator().manual_seed(seed)
    curve = []
    for step in tqdm(range(args.steps + 1), desc=f"seed {seed} {'control' if shuffle else 'GRPO'}", leave=False):
        model.eval()
        responses = rollouts(engine, tokenizer, rows, args.samples, settings, args.max_length)
        rewards = torch.tensor([float(r["reward"]) for r in responses]).view(len(rows), args.samples)
        curve.append(float(rewards.mean()))
        log(f"seed {seed} {'control' if shuffle else 'grpo   '} step {step:2d} reward {curve[-1]:.3f}")
        if step == args.steps:
            break
        model.train()
        policy_step(model, optimizer, responses, advantages_for(rewards, shuffle, rng), args.epochs)
    return curve


def plot(report: dict, path: Path) -> None:
    """Mean reward per GRPO step over seeds, with the min-max band, for the GRPO and the control runs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6.5, 3.8))
    for run, colour in (("grpo", "tab:blue"), ("control", "tab:gray")):
        curves = torch.tensor([seed[run] for seed in report["seeds"]])
        steps = range(curves.shape[1])
        axis.plot(
            steps,
            curves.mean(0),
            marker="o",
            color=colour,
            label="GRPO" if run == "grpo" else "control (rewards shuffled)",
        )
        axis.fill_between(steps, curves.min(0).values, curves.max(0).values, color=colour, alpha=0.2)
    axis.set(
        xlabel="GRPO step (0: after SFT)",
        ylabel="mean turn reward",
        ylim=(0, 1.02),
        title=f"{report['env']}: {len(report['seeds'])} seeds, {report['prompts']} prompts x "
        f"{report['samples']} samples",
    )
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def warm_start(model, tokenizer, samples, rows, args, seed: int, log) -> dict:
    """SFT on the chosen tasks' ground-truth chats in chunks of `--sft-chunk` steps until the mean reward of
    `--samples` samples per prompt reaches `--sft-target` (a middling policy that GRPO can improve) or
    `--sft-steps` are done; returns the losses and the reward measured after each chunk."""
    torch.manual_seed(seed)
    engine = LockstepEngine(model, tokenizer, args.max_new_tokens, args.temperature)
    settings = SampleSettings(max_steps=args.max_steps, max_new_tokens=args.max_new_tokens)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.sft_lr)
    losses: list[float] = []
    checks: list[tuple[int, float]] = []
    rng = random.Random(seed)
    while len(losses) < args.sft_steps:
        model.train()
        losses += tiny.sft_steps(model, optimizer, samples, args.sft_chunk, args.device, rng)
        model.eval()
        responses = rollouts(engine, tokenizer, rows, args.samples, settings, args.max_length)
        checks.append((len(losses), sum(float(r["reward"]) for r in responses) / len(responses)))
        log(f"seed {seed} SFT step {len(losses):3d} loss {losses[-1]:.3f} reward {checks[-1][1]:.3f}")
        if checks[-1][1] >= args.sft_target:
            break
    return {"losses": losses, "checks": checks}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="notion")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--vocab", type=int, default=4096)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--sft-steps", type=int, default=200, help="the most SFT steps of the warm start")
    parser.add_argument("--sft-chunk", type=int, default=10, help="SFT steps between reward checks")
    parser.add_argument("--sft-target", type=float, default=0.35, help="stop SFT at this mean reward")
    parser.add_argument("--sft-lr", type=float, default=3e-3)
    parser.add_argument("--grpo-lr", type=float, default=1e-3)
    parser.add_argument(
        "--epochs",
        type=int,
        default=1,
        help="optimizer steps per rollout batch (1: plain policy gradient; more: clipped)",
    )
    parser.add_argument("--max-new-tokens", type=int, default=48)
    parser.add_argument("--max-steps", type=int, default=3, help="actions per sample")
    parser.add_argument("--max-length", type=int, default=4096)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--device", default="cpu", help="cpu (the benchmark), or cuda where one is at hand")
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads (a shared machine: 1)")
    parser.add_argument("--out", type=Path, default=Path("runs/cpu_grpo_learning"))
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    started = time.perf_counter()

    rows = training_prompts(args.env, args.prompts)
    tasks = {EpisodeLabel.from_json(r["label"]).task_id for r in rows}
    chats = list(sft_rows(args.env, "train"))
    # merges cross word boundaries: the system prompt every chat shares becomes a few tokens (short sequences)
    tokenizer = chatml_tokenizer((m["content"] for c in chats for m in c["messages"]), args.vocab, split_words=False)
    samples = [tiny.tokenize_chat(tokenizer, c["messages"], args.max_length) for c in chats if c["task_id"] in tasks]
    report = {
        "env": args.env,
        "prompts": len(rows),
        "samples": args.samples,
        "args": {k: str(v) for k, v in vars(args).items()},
        "labels": [r["label"] for r in rows],
        "seeds": [],
    }
    log = tqdm.write
    for seed in args.seeds:
        torch.manual_seed(seed)
        model = tiny.build_model(tokenizer, args.device, args.width, args.layers)
        torch.manual_seed(seed)
        for parameter in model.parameters():  # build_model seeds 0: re-draw the weights for this seed
            if parameter.dim() > 1:
                torch.nn.init.normal_(parameter, std=0.02)
        warm = warm_start(model, tokenizer, samples, rows, args, seed, log)
        log(
            f"seed {seed}: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, SFT "
            f"{len(warm['losses'])} steps, loss {warm['losses'][0]:.2f} -> {warm['losses'][-1]:.2f}"
        )
        runs = {}
        for run, shuffle in (("grpo", False), ("control", True)):
            runs[run] = grpo(copy.deepcopy(model), tokenizer, rows, args, seed, shuffle, log)
        report["seeds"].append({"seed": seed, "sft": warm, **runs})
    report["seconds"] = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps(report, indent=1))
    plot(report, args.out / "learning.png")
    for run in ("grpo", "control"):
        first = sum(s[run][0] for s in report["seeds"]) / len(report["seeds"])
        last = sum(sum(s[run][-3:]) / len(s[run][-3:]) for s in report["seeds"]) / len(report["seeds"])
        print(f"{run}: mean reward {first:.3f} at the SFT start -> {last:.3f} over the last 3 steps")
    print(f"wrote {args.out / 'report.json'} and {args.out / 'learning.png'}; {report['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
