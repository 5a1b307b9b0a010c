"""verl's own agent-loop worker runs zoo samples through `envfactory_training.verl_agent` on the CPU.

Everything from the parquet rows to the padded batch is verl's code (RLHFDataset, `AgentLoopWorker` with the loop
registered through `agent_loop_config_path`, the Continuous Token builder, verl's GRPO advantage); only the
generation server is a test double that answers with scripted actions.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("verl.experimental.agent_loop")
pytest.importorskip("trl")  # Qwen2.5's chat template with tools, as trl ships it

from envfactory_gym.agents import format_call  # noqa: E402
from envfactory_gym.registry import load_zoo_environment  # noqa: E402
from envfactory_gym.state import state_hash  # noqa: E402
from envfactory_gym.tasks import load_tasks  # noqa: E402
from envfactory_training.datasets import prompt_records  # noqa: E402
from envfactory_training.episode import EpisodeLabel  # noqa: E402
from envfactory_training.export import write_dataset  # noqa: E402
from envfactory_training.renderers import verl_prompt  # noqa: E402
from envfactory_training.tiny import chatml_tokenizer, tiny_qwen2  # noqa: E402

pytestmark = pytest.mark.verl

AGENT_LOOPS = Path(__file__).parents[2] / "training" / "configs" / "verl_agent.yaml"
WRONG = format_call("no_such_tool", {})
CLOSING = "Done."


def rows_where(env: str, mode: str, keep, count: int) -> list[dict]:
    """verl rows of the first `count` train-split samples whose turn (or task) passes `keep`."""
    tasks = load_tasks(load_zoo_environment(env))
    rows = []
    for record in prompt_records(env, mode, "train"):
        label = EpisodeLabel.from_json(record["label"])
        if keep(tasks[label.task_id], label.turn):
            rows.append(verl_prompt(record))
        if len(rows) == count:
            return rows
    raise AssertionError(f"{env}: too few {mode} samples")


class ScriptedServer:
    """Stands in for verl's rollout server (`LLMServerClient.generate`: token ids in, `TokenOutput` out). The first
    sample to reach a request makes the turn's ground-truth calls one by one, then closes the turn; the other
    sample calls an unknown tool, then closes the turn (and keeps doing so in later turns). Token ids end with eos,
    as a stop on eos does; `max_tokens` is honored."""

    def __init__(self, tokenizer, turns: dict[str, list[str]]) -> None:
        self.tokenizer, self.turns = tokenizer, turns
        self.first: dict[str, int] = {}
        self.max_tokens: list[int] = []

    def reply(self, text: str) -> str:
        requests = [block.split("<|im_end|>")[0] for block in text.split("<|im_start|>user\n")[1:]]
        query = next(q for q in reversed(requests) if not q.startswith("<tool_response>"))
        after = text.rsplit("<|im_start|>user\n" + query, 1)[1]
        made = after.count("<tool_call>")
        if WRONG in text:
            return WRONG if made == 0 else CLOSING
        if made == 0:
            self.first[query] = self.first.get(query, 0) + 1
            if self.first[query] % 2 == 0:
                return WRONG
        calls = self.turns[query]
        return calls[made] if made < len(calls) else CLOSING

    async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs):
        from verl.workers.rollout.replica import TokenOutput

        await asyncio.sleep(0)
        self.max_tokens.append(sampling_params["max_tokens"])
        reply = self.reply(self.tokenizer.decode(prompt_ids))
        ids = self.tokenizer(reply, add_special_tokens=False)["input_ids"] + [self.tokenizer.eos_token_id]
        ids = ids[: sampling_params["max_tokens"]]
        return TokenOutput(token_ids=ids, log_probs=[-0.5] * len(ids), stop_reason="completed")


@pytest.fixture(scope="module")
def verl_setup(tmp_path_factory):
    """A model folder (the in-process tokenizer with Qwen2.5's template and a tiny Qwen2), parquet rows written by
    the project's exporter (one-call turns of Notion and Stripe; two-turn Notion conversations), and verl's composed
    trainer config."""
    import verl
    from hydra import compose, initialize_config_dir
    from trl.chat_template_utils import qwen2_5_chat_template

    folder = tmp_path_factory.mktemp("verl")
    one_call = lambda task, turn: len(task.turns[turn].agent_calls) == 1  # noqa: E731
    turn_rows = rows_where("notion", "turn", one_call, 1) + rows_where("stripe", "turn", one_call, 1)
    conversation_rows = rows_where("notion", "conversation", lambda task, turn: len(task.turns) == 2, 1)
    corpus = [json.dumps(r["prompt"], ensure_ascii=False) for r in turn_rows + conversation_rows]
    tokenizer = chatml_tokenizer(corpus, vocab_size=400, chat_template=qwen2_5_chat_template)
    model_dir = folder / "model"
    tokenizer.save_pretrained(model_dir)
    tiny_qwen2(tokenizer, width=32, layers=1).save_pretrained(model_dir)
    for name, rows in (("turns", turn_rows), ("conversations", conversation_rows)):
        write_dataset(rows, folder / name, trajectory_format=False)
    with initialize_config_dir(config_dir=str(Path(verl.__file__).parent / "trainer" / "config"), version_base=None):
        config = compose(
            config_name="ppo_trainer",
            overrides=[
                f"actor_rollout_ref.model.path={model_dir}",
                f"actor_rollout_ref.rollout.agent.agent_loop_config_path={AGENT_LOOPS}",
                "actor_rollout_ref.rollout.name=vllm",
                "actor_rollout_ref.rollout.prompt_length=16384",
                "actor_rollout_ref.rollout.response_length=16384",
                "actor_rollout_ref.rollout.n=2",
                "data.max_prompt_length=16384",
            ],
        )
    turns = {}
    for env in ("notion", "stripe"):
        for task in load_tasks(load_zoo_environment(env)).values():
            turns.update({t.query: [format_call(c.name, c.arguments) for c in t.agent_calls] for t in task.turns})
    parquet = {name: folder / name / "data" / "train-00000-of-00001.parquet" for name in ("turns", "conversations")}
    return config, parquet, {"turns": turn_rows, "conversations": conversation_rows}, turns


def generate(config, parquet: Path, turns: dict, monkeypatch, response_length: int | None = None):
    """verl's RLHFDataset over the parquet, `rollout.n` samples per row, through a real AgentLoopWorker; returns
    the output batch, the worker's tokenizer, the server and the start-state digest of each sample's env."""
    import numpy as np
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.protocol import DataProto
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    import envfactory_training.verl_agent as verl_agent

    config = OmegaConf.create(OmegaConf.to_container(config))
    if response_length is not None:
        config.actor_rollout_ref.rollout.response_length = response_length
    starts: list[tuple[str, str]] = []

    class RecordedSample(verl_agent.SampleEnv):  # records the state each sample starts from
        def __init__(self, label, settings=None):
            super().__init__(label, settings)
            starts.append((label.to_json(), state_hash(self.base.session.dump())))

    monkeypatch.setattr(verl_agent, "SampleEnv", RecordedSample)
    worker = AgentLoopWorker(config, llm_client=None)
    server = ScriptedServer(worker.tokenizer, turns)
    worker.llm_client = server
    dataset = RLHFDataset([str(parquet)], worker.tokenizer, config.data)
    batch = DataProto.from_single_dict(collate_fn([dataset[i] for i in range(len(dataset))]))
    batch.non_tensor_batch["uid"] = np.array([f"row{i}" for i in range(len(batch))], dtype=object)
    batch = batch.repeat(repeat_times=config.actor_rollout_ref.rollout.n, interleave=True)
    return asyncio.run(worker.generate_sequences(batch)), worker.tokenizer, server, starts


def responses(output, tokenizer) -> list[tuple[str, str]]:
    """Each sample's response tokens decoded in two parts: the model's (mask 1) and the context's (mask 0)."""
    lengths = output.batch["attention_mask"][:, output.batch["prompts"].shape[1] :].sum(-1)
    out = []
    for i, length in enumerate(lengths.tolist()):
        tokens, mask = output.batch["responses"][i][:length], output.batch["response_mask"][i][:length].bool()
        out.append((tokenizer.decode(tokens[mask]), tokenizer.decode(tokens[~mask])))
    return out


def test_verl_worker_plays_turn_samples_with_the_composite_reward(verl_setup, monkeypatch):
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage

    config, parquet, rows, turns = verl_setup
    output, tokenizer, server, starts = generate(config, parquet["turns"], turns, monkeypatch)
    assert len(output) == 4 and list(output.non_tensor_batch["agent_name"]) == ["envfactory_agent"] * 4
    # the two samples of a row start from the same replayed state
    labels = [row["extra_info"]["label"] for row in rows["turns"]]
    assert sorted(label for label, _ in starts) == sorted(labels * 2)
    assert all(len({digest for name, digest in starts if name == label}) == 1 for label in labels)
    # which sample of a group the script made play the ground truth depends on arrival order: read it back
    decoded = responses(output, tokenizer)
    good = [not actions.startswith(WRONG) for actions, _ in decoded]
    assert good[0] != good[1] and good[2] != good[3]
    # the composite reward sits on the last response token: the ground-truth call scores 1, the unknown tool less
    rm = output.batch["rm_scores"]
    scores = rm.sum(-1).tolist()
    assert all(score == pytest.approx(1.0) if ok else score < 1.0 for score, ok in zip(scores, good))
    lengths = output.batch["attention_mask"][:, output.batch["prompts"].shape[1] :].sum(-1)
    assert all(rm[i, lengths[i] - 1] == scores[i] for i in range(4))
    # every component reaches verl's reward_extra_info
    keys = output.meta_info["reward_extra_keys"]
    assert {"trajectory", "state", "length_penalty", "format_penalty", "user_error"} <= set(keys)
    assert output.non_tensor_batch["trajectory"].tolist() == [float(ok) for ok in good]
    # the response mask covers exactly the model's actions (each ending with eos); the rest is the env's
    for i, (actions, context) in enumerate(decoded):
        label = EpisodeLabel.from_json(labels[i // 2])
        query = load_tasks(load_zoo_environment(label.env))[label.task_id].turns[label.turn].query
        first = turns[query][0] if good[i] else WRONG
        assert actions == first + "<|im_end|>" + CLOSING + "<|im_end|>"
        assert "<tool_response>" in context and (good[i] or "unknown tool" in context)
    # verl's GRPO advantage over the row groups: the ground-truth sample is favoured in each group
    advantages, _ = compute_grpo_outcome_advantage(rm, output.batch["response_mask"], output.non_tensor_batch["uid"])
    assert all((advantages[i].max() > 0) if good[i] else (advantages[i].min() < 0) for i in range(4))
    assert all(limit <= 4096 for limit in server.max_tokens)  # the YAML's max_new_tokens caps every action


def test_conversation_samples_get_the_next_request_as_context(verl_setup, monkeypatch):
    config, parquet, rows, turns = verl_setup
    output, tokenizer, _, _ = generate(config, parquet["conversations"], turns, monkeypatch)
    label = EpisodeLabel.from_json(rows["conversations"][0]["extra_info"]["label"])
    task = load_tasks(load_zoo_environment(label.env))[label.task_id]
    scores = output.batch["rm_scores"].sum(-1).tolist()
    decoded = responses(output, tokenizer)
    (good, good_context), (bad, _) = sorted(decoded, key=lambda d: d[0].startswith(WRONG))
    assert sorted(scores)[1] == pytest.approx(1.0) and sorted(scores)[0] < 1.0  # the episode's composite reward
    expected = "".join(call + "<|im_end|>" for turn in task.turns for call in turns[turn.query] + [CLOSING])
    assert good == expected and task.turns[1].query in good_context  # the second request came as context
    assert bad == (WRONG + "<|im_end|>" + CLOSING + "<|im_end|>") * 2


def test_a_budget_stop_pays_the_partial_score(verl_setup, monkeypatch):
    config, parquet, _, turns = verl_setup
    output, _, server, _ = generate(config, parquet["turns"], turns, monkeypatch, response_length=8)
    lengths = output.batch["attention_mask"][:, output.batch["prompts"].shape[1] :].sum(-1)
    assert lengths.max() <= 8 and server.max_tokens[0] == 8
    # the cut call could not run: the score is the turn's score without it (never the full reward)
    assert (output.batch["rm_scores"].sum(-1) < 1.0).all()
