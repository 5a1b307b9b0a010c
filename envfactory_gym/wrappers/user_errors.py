"""MEU (AutoForge): a judge flags episodes in which the simulated user erred, so trainers can mask them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsFloat, cast

import gymnasium as gym
from pydantic import BaseModel, Field

from ..llm import ChatModel, LLMError, load_prompt, render_state
from ..users import ScriptedUser
from ..users.llm import LLMUser, dialogue_text

if TYPE_CHECKING:
    from ..env import ToolUseEnv

STAGE = "meu_judge"


class UserError(BaseModel):
    """One user turn the judge blames."""

    turn: int
    kind: str = ""
    explanation: str = ""


class Verdict(BaseModel):
    """The judge's answer."""

    errors: list[UserError] = Field(default_factory=list)


class FlagUserErrors(gym.Wrapper):
    """At the end of each episode, marks whether the simulated user made a mistake.

    The final step's info gets `user_error` (bool) and `user_error_details` (a list of `{"turn", "kind",
    "explanation", "source"}`). Sources: `rules` (the LLM user had to fall back to the scripted turn after
    breaking its rules) and `judge` (the judge model's verdict on the whole dialogue). A scripted user is never
    judged: it cannot err. If the judge itself fails, the episode is flagged (`kind="judge_failed"`), since an
    unchecked episode should not be trusted.
    """

    def __init__(self, env: gym.Env, judge: ChatModel, state_budget: int = 6_000) -> None:
        super().__init__(env)
        self.judge = judge
        self.state_budget = state_budget
        self.prompt = load_prompt(STAGE)

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`env.step`; on the episode's last step, adds the user-error flags to info."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            details = self.user_errors(info["messages"])
            info["user_error"] = bool(details)
            info["user_error_details"] = details
        return observation, reward, terminated, truncated, info

    def user_errors(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The user errors of the finished episode whose messages are given."""
        env = cast("ToolUseEnv", self.env.unwrapped)  # the wrapper is made for ToolUseEnv
        user = env.user
        if isinstance(user, ScriptedUser):
            return []
        details = []
        if isinstance(user, LLMUser):
            for index, record in enumerate(user.log):
                if record.source == "fallback":
                    details.append(
                        {
                            "turn": index,
                            "kind": "broke_rules",
                            "source": "rules",
                            "explanation": "; ".join(record.problems)[:500],
                        }
                    )
        try:
            verdict = Verdict.model_validate(self.judge.complete_json(STAGE, self._request(env, messages), Verdict))
        except LLMError as exc:
            return details + [{"turn": -1, "kind": "judge_failed", "source": "judge", "explanation": str(exc)[:500]}]
        flagged = {d["turn"] for d in details}
        users = sum(1 for m in messages if m["role"] == "user")
        for error in verdict.errors:
            if 0 <= error.turn < users and error.turn not in flagged:
                details.append({**error.model_dump(), "source": "judge"})
        return sorted(details, key=lambda d: d["turn"])

    def _request(self, env: Any, messages: list[dict[str, Any]]) -> list[dict[str, str]]:
        task = env.task
        numbered, count = [], 0
        for message in messages:
            if message["role"] == "user":
                numbered.append({**message, "content": f"[{count}] {message['content']}"})
                count += 1
            elif message["role"] == "assistant":
                numbered.append(message)
        return self.prompt.render(
            product=env.spec_env.product,
            persona=f"{task.user.name}. {task.user.profile}".strip(". "),
            scenario=task.user.scenario or "(none given)",
            goals="\n".join(f"{i + 1}. {t.query}" for i, t in enumerate(task.turns)),
            state=render_state(env.session.dump(), redact=True, budget=self.state_budget),
            dialogue=dialogue_text(numbered),
        )
