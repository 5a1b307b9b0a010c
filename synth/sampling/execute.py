"""From a sampled chain and a snapshot to ground-truth calls: execute the chain in a real ToolSession."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from envfactory_gym.database import DEFAULT_CLOCK
from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall

from .account import Account, sign_in as sign_in_user
from .chain import Chain
from .filling import ChainFiller, blamed_by
from .values import ValuePool

ATTEMPTS = 6


@dataclass
class ChainExecution:
    """What executing a chain gave: the successful calls (ground truth) with their outputs, the final state
    (canonical dump and serialized bytes), and where and why it stopped if a tool failed."""

    calls: list[GroundTruthCall] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    final_state: CanonicalState = field(default_factory=dict)
    final_snapshot: bytes = b""
    ok: bool = True
    failed_tool: str | None = None
    error: str | None = None
    tries: int = 0
    account: Account = field(default_factory=Account)


def _run_tool(session: ToolSession, filler: ChainFiller, spec: EnvironmentSpec, tool: str, attempts: int,
              result: ChainExecution) -> str | None:
    """Try one tool up to `attempts` times, each attempt redrawing the arguments the last error blamed; record
    the first success in `result`. Returns None on success, else the last error."""
    caller = "user" if spec.tools[tool].user_only else "agent"
    error = f"{tool} was not tried"
    previous: dict[str, Any] | None = None
    blamed: set[str] | None = None
    for attempt in range(attempts):
        arguments, reason = filler.arguments(tool, attempt, previous, blamed)
        if arguments is None:
            return reason
        before = session.clock.now()
        outcome = session.call(tool, arguments, caller)
        result.tries += 1
        if outcome.ok:
            result.calls.append(GroundTruthCall(name=tool, arguments=arguments, caller=caller))
            result.outputs.append(outcome.output)
            filler.record(tool, arguments, outcome.output)
            return None
        session.clock.reset(before)
        error = outcome.error or "tool error"
        previous, blamed = arguments, blamed_by(error, arguments)
    return error


def execute_chain(
    spec: EnvironmentSpec,
    chain: Chain,
    snapshot: str | bytes = "seed",
    seed: int = 0,
    *,
    clock: datetime = DEFAULT_CLOCK,
    attempts: int = ATTEMPTS,
    internal_from_state: bool = True,
    sign_in: bool = False,
) -> ChainExecution:
    """Execute `chain` from `snapshot` (a snapshot name or serialized state) and return the ground truth.

    Arguments are filled from the conversation so far (`filling.ChainFiller`): internal inputs from earlier
    outputs (else, with `internal_from_state`, from ids of the state), external inputs from what the user can
    know. Each tool gets up to `attempts` tries; a failed try changes nothing (calls are atomic and the clock is
    set back), so the returned calls replay exactly. Stops at the first tool that fails every try.
    With `sign_in`, the scenario's user first signs in with one of the seed's accounts (`account.sign_in`: the
    environment's user-only sign-in tool, every optional scope granted); that call leads the returned calls and
    the user's own records come first among the values they can give.
    """
    rng = np.random.default_rng(seed)
    session = ToolSession(spec)
    try:
        if isinstance(snapshot, bytes):
            session.restore_bytes(snapshot, clock)
        else:
            session.reset(snapshot, clock)
        tables = session.state.dump_snapshot()["tables"]
        result = ChainExecution()
        if sign_in:
            result.account = sign_in_user(session, spec, tables)
            if result.account.table is not None:
                result.calls.append(GroundTruthCall(name=result.account.tool, arguments=result.account.arguments,
                                                    caller="user"))
                result.outputs.append(result.account.output)
        entities = chain.graph.graph.graph.get("entities", [])
        pool = ValuePool({"tables": tables}, entities, clock, result.account.own_with_account())
        filler = ChainFiller(spec, chain.graph, pool, rng, internal_from_state)
        for tool in chain.tools:
            error = _run_tool(session, filler, spec, tool, attempts, result)
            if error is not None:
                result.ok, result.failed_tool, result.error = False, tool, error
                break
        result.final_state = session.dump()
        result.final_snapshot = session.state.snapshot()
        return result
    finally:
        session.close()
