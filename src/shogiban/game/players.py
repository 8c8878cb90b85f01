"""One player protocol for every front end: ``async choose(state) -> Decision``.

An engine (the built-in one or any USI engine, through :class:`shogiban.engines.Engine`) and a
person (typing at the terminal: ``play.human.HumanPlayer``; in a browser: :class:`QueuedPlayer`,
fed by the web room) answer alike: with the action the front end applies.  A running clock is
every player's deadline (:func:`choose_in_time`: :class:`FlagFall` when it runs out first).

An engine's troubles become actions too, the same way for every front end
(:func:`decision_from_error`): a crash is :class:`EngineFailure` (that side loses: ABANDONED,
the other side winning), no answer in time is :class:`FlagFall` when a clock runs, and an
unreadable or illegal move is returned as sent, for the front end to apply with
:func:`adjudicate` (in tournament mode: a foul that loses, naming the move and why).

A person's decision is applied as it is (:func:`~shogiban.game.apply` refuses what the rules
forbid, and the front end explains the refusal); an engine's goes through :func:`adjudicate`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from shogiban.engines import Engine, PlayResult
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError, EngineTimeoutError
from shogiban.game.actions import Abandon, Declare, EngineFailure, FlagFall, ImpasseAgreement, PlayMove, Resign, Undo
from shogiban.game.core import allowed, apply
from shogiban.game.events import Event
from shogiban.game.state import GameState, Role
from shogiban.game.time_budget import clock_limit

Decision: TypeAlias = PlayMove | Resign | Declare | ImpasseAgreement | Undo | Abandon | EngineFailure | FlagFall
"""What a player decides: an action for the side to move."""


class Player(Protocol):
    """Anyone who plays a side."""

    name: str

    async def choose(self, state: GameState) -> Decision:
        """The decision for the side to move in *state*."""
        ...  # pragma: no cover - protocol


def decision_from_result(state: GameState, result: PlayResult) -> Decision:
    """An engine's answer as an action: its move, ``bestmove resign``, or ``bestmove win``."""
    if result.resigned or (result.move is None and not result.declared_win):
        return Resign(state.turn)
    if result.declared_win:
        return Declare()
    assert result.move is not None
    return PlayMove(result.move.usi())


def decision_from_error(
    state: GameState, error: EngineError, name: str = "the engine", *, now: float | None = None
) -> Decision:
    """An engine's failure as an action (see the module docstring).  With *now*, a silent engine
    loses on time only if its clock has run out by then (else it failed)."""
    color = state.turn
    if isinstance(error, EngineMoveError):
        return PlayMove(error.text)  # played as sent: adjudicate() makes it a foul that loses
    if isinstance(error, EngineTerminatedError):
        return EngineFailure(color, f"{name} crashed ({error})")
    if isinstance(error, EngineTimeoutError) and state.clock.control.enabled and (
        now is None or state.clock.is_flagged(now)
    ):
        return FlagFall()
    return EngineFailure(color, f"{name} did not answer ({error})")


def adjudicate(
    state: GameState, decision: Decision, now: float, name: str = "the engine"
) -> tuple[GameState, list[Event]]:
    """Apply an engine's *decision* at *now* as the rules adjudicate an engine (every front end):
    an illegal or unreadable move, or a declaration that fails, loses (``apply(...,
    adjudicate=True)``: judged on a copy of the position; the state keeps its own mode).  A
    decision the game cannot take now (a :class:`FlagFall` with time left, an action only a
    person may take) loses as the engine's failure; a clock already run out ends the game on
    time whatever was decided.
    """
    color = state.turn
    if state.clock.is_flagged(now):
        decision = FlagFall()  # as a room that finds the time up before it applies a decision
    elif isinstance(decision, FlagFall):
        decision = EngineFailure(color, f"{name} did not answer")
    if allowed(state, Role.SYSTEM, decision, adjudicate=True) is not None:
        decision = EngineFailure(color, f"{name}: {type(decision).__name__} cannot be played now")
    return apply(state, decision, now, adjudicate=True)


class EnginePlayer:
    """An engine behind :class:`shogiban.engines.Engine` (built-in or USI).

    :param movetime: seconds per move when the game has no clock.
    :param now: the time line of the game's clock (to take the turn's time so far off the limit).
    """

    def __init__(
        self, engine: Engine, *, name: str | None = None, movetime: float | None = None, depth: int | None = None,
        nodes: int | None = None, now: Callable[[], float] | None = None,
    ) -> None:
        self.engine = engine
        self.name = name or engine.name
        self.movetime, self.depth, self.nodes = movetime, depth, nodes
        self._now = now

    async def choose(self, state: GameState) -> Decision:
        """The engine's decision; its failures become actions (:func:`decision_from_error`)."""
        now = self._now() if self._now is not None else None
        limit = clock_limit(state.clock, now=now, movetime=self.movetime, depth=self.depth, nodes=self.nodes)
        try:
            result = await self.engine.play(state.board(), limit)
        except EngineError as error:
            return decision_from_error(state, error, self.name, now=self._now() if self._now is not None else None)
        return decision_from_result(state, result)


class QueuedPlayer:
    """A person whose decisions arrive from outside (a browser's messages): :meth:`submit` hands
    one over and gives the sender a future, which the front end answers (:meth:`settle`) once it
    has applied the decision or refused it; :meth:`choose` takes the next one."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._queue: asyncio.Queue[_Submission] = asyncio.Queue()
        self._taken: _Submission | None = None

    def submit(self, decision: Decision) -> asyncio.Future[None]:
        """Hand over the person's next decision; the future is answered when it is applied (or
        raises the front end's refusal)."""
        submission = _Submission(decision, asyncio.get_running_loop().create_future())
        self._queue.put_nowait(submission)
        return submission.answer

    async def choose(self, state: GameState) -> Decision:
        """Wait for the next submitted decision (the front end settles the one taken before)."""
        self._taken = await self._queue.get()
        return self._taken.decision

    def settle(self, error: BaseException | None = None) -> None:
        """Answer the sender of the decision :meth:`choose` returned last: applied (*error*
        None) or refused with *error*."""
        taken, self._taken = self._taken, None
        if taken is None or taken.answer.done():
            return  # nothing taken, or its sender stopped waiting
        if error is None:
            taken.answer.set_result(None)
        else:
            taken.answer.set_exception(error)


    def withdraw(self, error: BaseException) -> None:
        """Refuse with *error* every decision submitted and not taken (the game ended, or this
        front end no longer runs the person's turn)."""
        while not self._queue.empty():
            submission = self._queue.get_nowait()
            if not submission.answer.done():
                submission.answer.set_exception(error)


@dataclass(frozen=True)
class _Submission:
    decision: Decision
    answer: asyncio.Future[None]


async def choose_in_time(player: Player, state: GameState, now: Callable[[], float]) -> Decision:
    """*player*'s decision for *state*, or :class:`FlagFall` when the side's clock runs out first
    (*now* is the clock's time line): the deadline every player gets when a clock runs."""
    deadline = state.clock.deadline() if state.clock.control.enabled else None
    if deadline is None:
        return await player.choose(state)
    try:
        # A hair past the deadline, so that the clock reads as run out when the flag is applied.
        async with asyncio.timeout(max(0.0, deadline - now()) + 0.005):
            return await player.choose(state)
    except TimeoutError:
        return FlagFall()


__all__ = [
    "Decision", "EnginePlayer", "Player", "QueuedPlayer", "adjudicate", "choose_in_time", "decision_from_error",
    "decision_from_result",
]
