"""From a sampled chain and a snapshot to ground-truth calls: execute the chain in a real ToolSession."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall

from .account import PICK_AMONG, Account, candidates, next_pick, own_records, owner_beyond
from .account import sign_in as sign_in_user
from .chain import Chain
from .clock import scenario_clock
from .filling import ChainFiller, blamed_by
from .values import ValuePool

ATTEMPTS = 10
BACKTRACKS = 4
LOOKAHEAD = 3  # trials of other arguments for a call whose output starves a later tool of the chain
EXHAUSTED = "every choice of arguments was tried before"
USERS = 3
STARVED = re.compile(r"no earlier output provides required input '(?P<name>[^']+)' of ")


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
    backtracks: int = 0
    account: Account = field(default_factory=Account)


def _run_tool(
    session: ToolSession,
    filler: ChainFiller,
    spec: EnvironmentSpec,
    tool: str,
    attempts: int,
    result: ChainExecution,
    avoid: set[str],
) -> tuple[str | None, dict[str, Any] | None]:
    """Try one tool up to `attempts` times, each attempt redrawing the arguments the last error blamed (and never
    arguments in `avoid`, tried before a backtrack); record the first success in `result`. Returns (None, the
    arguments) on success, else (the last error, the arguments last tried or None)."""
    caller = "user" if spec.tools[tool].user_only else "agent"
    error = EXHAUSTED
    previous: dict[str, Any] | None = None
    blamed: set[str] | None = None
    for attempt in range(attempts):
        arguments, reason = filler.arguments(tool, attempt, previous, blamed)
        if arguments is not None and _stuck(arguments, previous, blamed):
            # the inputs the error blamed have no other value: the others are what does not go with them
            arguments, reason = filler.arguments(tool, attempt, previous, set(previous or {}) - (blamed or set()))
        if arguments is None:
            return reason, None
        if _key(arguments) in avoid:
            previous, blamed = arguments, set(arguments)
            continue
        before = session.clock.now()
        outcome = session.call(tool, arguments, caller)
        result.tries += 1
        if outcome.ok:
            result.calls.append(GroundTruthCall(name=tool, arguments=arguments, caller=caller))
            result.outputs.append(outcome.output)
            filler.record(tool, arguments, outcome.output)
            return None, arguments
        session.clock.reset(before)
        error = outcome.error or "tool error"
        filler.refuse(tool, arguments, error)
        previous, blamed = arguments, blamed_by(error, arguments)
    return error, previous


def _stuck(arguments: dict[str, Any], previous: dict[str, Any] | None, blamed: set[str] | None) -> bool:
    """Whether a redraw of the arguments an error blamed gave each of them its failed value again while other
    arguments were kept ("Offer X not found for this event", and X is the one offer the chain has seen: the
    event is what to change)."""
    if not previous or not blamed or not set(previous) - blamed:
        return False
    return all(n in arguments and arguments[n] == previous[n] for n in blamed if n in previous)


def _replay(
    session: ToolSession,
    filler: ChainFiller,
    spec: EnvironmentSpec,
    tool: str,
    arguments: dict[str, Any],
    result: ChainExecution,
) -> str | None:
    """Call `tool` once more with arguments that ran from this same state before; the error if it fails now."""
    caller = "user" if spec.tools[tool].user_only else "agent"
    before = session.clock.now()
    outcome = session.call(tool, arguments, caller)
    result.tries += 1
    if not outcome.ok:
        session.clock.reset(before)
        return outcome.error or "tool error"
    result.calls.append(GroundTruthCall(name=tool, arguments=arguments, caller=caller))
    result.outputs.append(outcome.output)
    filler.record(tool, arguments, outcome.output)
    return None


def _blames_earlier(filler: ChainFiller, tool: str, error: str, tried: dict[str, Any] | None) -> bool:
    """Whether a failure may come from an earlier call's choice: no earlier output had a value it needs, or
    the error names an internal input (the reservation it was given is completed). An error about what the
    user said (a made-up loyalty number) is not mended by going back."""
    if error.startswith("no earlier output provides"):
        return True
    internal = {i["name"] for i in filler.graph.inputs(tool) if filler.graph.role(tool, i["name"]) == "internal"}
    return bool(internal & blamed_by(error, tried or {})) if tried else True


def _key(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, sort_keys=True, default=str)


@dataclass
class _Frame:
    """The state before a step that succeeded, to go back to: state bytes, clock, how much was recorded, and
    the arguments the step used."""

    state: bytes
    clock: datetime
    calls: int
    done: int
    arguments: dict[str, Any]


def _run_steps(
    session: ToolSession,
    filler: ChainFiller,
    spec: EnvironmentSpec,
    tools: list[str],
    attempts: int,
    backtracks: int,
    result: ChainExecution,
    lookahead: int = LOOKAHEAD,
) -> None:
    """Run the chain's tools in order. When a tool fails every attempt and the failure may come from an earlier
    choice (`_blames_earlier`), go back one step (restore the state before it, forget its call) and have it
    choose other arguments, at most `backtracks` times in all: a reservation that turns out to be completed is
    swapped for another one the listing showed. A call whose output gives a later tool of the chain none of the
    values it needs from it (`ChainFiller.starved`: a search that found no hotel, for `book_hotel`) is undone
    and tried with other arguments, `lookahead` times at most per step; when none feeds it, the last that ran
    is kept, and when no other choice runs at all, the first one that did. Undone trials leave no call."""
    frames: list[_Frame] = []
    avoid: list[set[str]] = [set() for _ in tools]
    looked = [0 for _ in tools]  # look-ahead trials made per step
    first: list[dict[str, Any] | None] = [None for _ in tools]  # a step's first working arguments during trials
    failure = (tools[0] if tools else "", EXHAUSTED)  # the last real failure, reported if all fails
    index = 0
    while index < len(tools):
        state, clock, calls, done = session.state.snapshot(), session.clock.now(), len(result.calls), len(filler.done)
        filler.later = tools[index + 1 :]
        error, used = _run_tool(session, filler, spec, tools[index], attempts, result, avoid[index])
        if error is None and looked[index] < lookahead and filler.starved(tools[index], tools[index + 1 :]):
            # its output gives a later tool nothing it needs: undo the call and try other arguments
            first[index] = first[index] if first[index] is not None else dict(used or {})
            looked[index] += 1
            session.restore_bytes(state, clock)
            del result.calls[calls:], result.outputs[calls:], filler.done[done:]
            avoid[index].add(_key(used or {}))
            continue
        if error is not None and first[index] is not None:  # no other choice ran: back to the first that did
            used, first[index], looked[index] = first[index], None, lookahead
            error = _replay(session, filler, spec, tools[index], used or {}, result)
        if error is None:
            first[index] = None
            frames.append(_Frame(state, clock, calls, done, used or {}))
            index += 1
            continue
        exhausted = error == EXHAUSTED  # nothing left to try here: going further back costs nothing
        if not exhausted:
            failure = (tools[index], error)
        earlier = exhausted or _blames_earlier(filler, tools[index], error, used)
        if (backtracks == 0 and not exhausted) or not frames or not earlier:
            result.ok, (result.failed_tool, result.error) = False, failure
            return
        if not exhausted:
            backtracks -= 1
            result.backtracks += 1
        avoid[index] = set()
        index -= 1
        frame = frames.pop()
        session.restore_bytes(frame.state, frame.clock)
        del result.calls[frame.calls :], result.outputs[frame.calls :], filler.done[frame.done :]
        avoid[index].add(_key(frame.arguments))


@dataclass(frozen=True, eq=False)
class _SeedState:
    """What every execution from one snapshot reads alike: its tables, its ranked accounts, its values."""

    tables: dict[str, list[dict[str, Any]]]
    accounts: list[tuple[str, dict[str, Any]]]
    pool: ValuePool

    @classmethod
    def of(cls, spec: EnvironmentSpec, session: ToolSession, entities: list[str], clock: datetime) -> "_SeedState":
        """Read the state `session` holds now."""
        tables = session.state.dump_snapshot()["tables"]
        return cls(tables, candidates(spec, tables), ValuePool({"tables": tables}, entities, clock))


@lru_cache(maxsize=8)
def _seed_state(
    spec: EnvironmentSpec, snapshot: str, entities: tuple[str, ...] | list[str], clock: datetime
) -> _SeedState:
    session = ToolSession(spec)
    try:
        session.reset(snapshot, clock)
        return _SeedState.of(spec, session, list(entities), clock)
    finally:
        session.close()


def execute_chain(
    spec: EnvironmentSpec,
    chain: Chain,
    snapshot: str | bytes = "seed",
    seed: int = 0,
    *,
    clock: datetime | None = None,
    attempts: int = ATTEMPTS,
    backtracks: int = BACKTRACKS,
    internal_from_state: bool = True,
    sign_in: bool = False,
    users: int = USERS,
) -> ChainExecution:
    """Execute `chain` from `snapshot` (a snapshot name or serialized state) and return the ground truth.

    Arguments are filled from the conversation so far (`filling.ChainFiller`): internal inputs from earlier
    outputs (else, with `internal_from_state`, from ids of the state), external inputs from what the user can
    know. The session runs at `clock`, by default the scenario's (`clock.scenario_clock`: the moment the
    environment's tasks from that snapshot use). Each tool gets up to `attempts` tries; a failed try changes
    nothing (calls are atomic and the clock is set back), so the returned calls replay exactly. A tool that
    fails every try sends the chain one step back for another choice there (`backtracks` times in all;
    `_run_steps`); then it stops there.
    With `sign_in`, the scenario's user first signs in with one of the seed's accounts (`account.sign_in`: the
    environment's user-only sign-in tool, every optional scope granted), and that call leads the returned
    calls; where nobody signs in, the user is one of the seed's people (`account.persona`). The user is drawn
    with `seed` among the five accounts with the most varied records, and their own records come first among
    the values they can give; when the chain fails for them, another of those accounts is the scenario's user
    (`users` in all: a task's user is whoever has the records it is about), the one whose row fills the most
    columns the failure names (`account.next_pick`: a member with a partner when points go only to a partner).
    Where no earlier output gave a required input and none of the five owns records of its kind (holds, for a
    `hold_id` the cart did not give; or of what the chain's tools that were to give it list), the next user is the
    first account after them that owns one (`account.owner_beyond`).
    """
    if clock is None:
        clock = scenario_clock(spec, snapshot if isinstance(snapshot, str) else "seed")
    result = ChainExecution()
    tries = users if sign_in else 1
    ranked, owned = None, None
    if isinstance(snapshot, str):
        seed_state = _seed_state(spec, snapshot, tuple(chain.graph.graph.graph.get("entities", [])), clock)
        ranked = seed_state.accounts
        owned = [own_records(spec, seed_state.tables, t, r) for t, r in ranked[:PICK_AMONG]] if sign_in else None
    picks = [seed]
    beyond: list[tuple[str, dict]] | None = None  # the accounts with one after the first five first, for one try
    went_beyond = False
    for user in range(tries):
        result = _execute(
            spec,
            chain,
            snapshot,
            seed,
            clock,
            attempts,
            backtracks,
            internal_from_state,
            sign_in,
            picks[-1] if beyond is None else 0,
            final=user == tries - 1,
            ranked=beyond,
        )
        if result.ok or user == tries - 1:
            break
        if ranked is None:  # no seed accounts to read: the next in turn
            picks.append(seed + user + 1)
            continue
        head = min(PICK_AMONG, len(ranked))
        if owned and not went_beyond:  # a kind none of the five owns: its owner comes next
            found = owner_beyond(
                spec,
                seed_state.tables,
                ranked,
                owned,
                result.error or "",
                _listed(chain, result.failed_tool, result.error or ""),
            )
            if found is not None:
                beyond, went_beyond = [ranked[found], *ranked[:found], *ranked[found + 1 :]], True
                continue
        beyond = None
        following = next_pick(ranked, [p % head for p in picks], result.error or "", owned=owned) if head else None
        if following is None:
            break
        picks.append(following)
    return result


def _listed(chain: Chain, tool: str | None, error: str) -> list[str]:
    """The tools before `tool` in the chain that were to give the required input an error says no earlier output
    provided (`list_evouchers`, for the `reservation_number` of `get_reservation`); none for other errors."""
    found = STARVED.match(error)
    if tool not in chain.tools or not found:
        return []
    before = chain.tools[: chain.tools.index(tool)]
    return [u for u in dict.fromkeys(before) if chain.graph.provides(u, tool, found.group("name"))]


def _execute(
    spec: EnvironmentSpec,
    chain: Chain,
    snapshot: str | bytes,
    seed: int,
    clock: datetime,
    attempts: int,
    backtracks: int,
    internal_from_state: bool,
    sign_in: bool,
    user: int,
    final: bool = True,
    ranked: list[tuple[str, dict]] | None = None,
) -> ChainExecution:
    """One execution of `chain` (see `execute_chain`), the `user`-th account signed in; the final state is read
    when it worked or when no other user will try (`final`)."""
    rng = np.random.default_rng(seed)
    session = ToolSession(spec)
    try:
        if isinstance(snapshot, bytes):
            session.restore_bytes(snapshot, clock)
        else:
            session.reset(snapshot, clock)
        entities = tuple(chain.graph.graph.graph.get("entities", []))
        if isinstance(snapshot, str):
            seed_state = _seed_state(spec, snapshot, entities, clock)
        else:
            seed_state = _SeedState.of(spec, session, list(entities), clock)
        tables = seed_state.tables
        result = ChainExecution()
        if sign_in:
            accounts = seed_state.accounts if ranked is None else ranked
            result.account = sign_in_user(session, spec, tables, pick=user, ranked=accounts)
            if result.account.tool is not None and result.account.table is not None:
                result.calls.append(
                    GroundTruthCall(name=result.account.tool, arguments=result.account.arguments, caller="user")
                )
                result.outputs.append(result.account.output)
        own = result.account.own_with_account()
        pool = seed_state.pool.mine(own)
        filler = ChainFiller(spec, chain.graph, pool, rng, internal_from_state, set(chain.links), tables, own)
        _run_steps(session, filler, spec, chain.tools, attempts, backtracks, result)
        if result.ok or final:
            result.final_state = session.dump()
            result.final_snapshot = session.state.snapshot()
        return result
    finally:
        session.close()
