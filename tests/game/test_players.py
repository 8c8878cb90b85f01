"""The one player protocol: engines and humans decide alike; engine failures become actions."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from shogiban.board import Board
from shogiban.engines import Limit, PlayResult
from shogiban.engines.builtin import BuiltinEngine
from shogiban.errors import EngineError, EngineMoveError, EngineTerminatedError, EngineTimeoutError
from shogiban.game import (
    Clock,
    Declare,
    EngineFailure,
    FlagFall,
    GameState,
    Mode,
    PlayMove,
    Resign,
    TimeControl,
    apply,
    choose_in_time,
    evolve,
)
from shogiban.game.players import EnginePlayer, QueuedPlayer, decision_from_error, decision_from_result
from shogiban.move import Move as BoardMove
from shogiban.outcome import Termination
from shogiban.pieces import Color


class ScriptedEngine:
    """Answers from a script: a PlayResult, or an error to raise."""

    name = "scripted"

    def __init__(self, *answers: PlayResult | EngineError) -> None:
        self.answers = list(answers)
        self.limits: list[Limit] = []

    async def play(self, board: Board, limit: Limit, **_: Any) -> PlayResult:
        self.limits.append(limit)
        answer = self.answers.pop(0)
        if isinstance(answer, EngineError):
            raise answer
        return answer


def choose(engine: ScriptedEngine, state: GameState, **kwargs: Any) -> object:
    return asyncio.run(EnginePlayer(engine, **kwargs).choose(state))  # type: ignore[arg-type]


def test_results_become_actions() -> None:
    state = GameState.new()
    assert decision_from_result(state, PlayResult(BoardMove.from_usi("7g7f"))) == PlayMove("7g7f")
    assert decision_from_result(state, PlayResult(None, resigned=True)) == Resign(Color.BLACK)
    assert decision_from_result(state, PlayResult(None, declared_win=True)) == Declare()


def test_the_clock_goes_to_the_engine_as_byoyomi_not_movetime() -> None:
    engine = ScriptedEngine(PlayResult(BoardMove.from_usi("7g7f")), PlayResult(BoardMove.from_usi("7g7f")))
    assert choose(engine, GameState.new(clock=Clock(TimeControl.of(30, byoyomi=5)))) == PlayMove("7g7f")
    assert engine.limits[0].go_args() == ["btime", "30000", "wtime", "30000", "byoyomi", "5000"]
    choose(engine, GameState.new(), movetime=0.5)
    assert engine.limits[1].go_args() == ["btime", "0", "wtime", "0", "byoyomi", "500"]


def test_a_crash_loses_for_the_engine_side() -> None:
    state, _ = apply(GameState.new(mode=Mode.COMPUTER, engines=(False, True)), PlayMove("7g7f"), 1.0)
    decision = choose(ScriptedEngine(EngineTerminatedError("exited with code 1")), state)
    assert isinstance(decision, EngineFailure)
    assert decision.color == Color.WHITE
    over, _ = apply(state, decision, 2.0)
    assert over.outcome is not None
    assert (over.outcome.termination, over.outcome.winner) == (Termination.ABANDONED, Color.BLACK)
    assert "crashed" in over.outcome.detail


def test_other_failures() -> None:
    clocked = GameState.new(clock=Clock(TimeControl.of(1)))
    assert decision_from_error(clocked, EngineTimeoutError("silent")) == FlagFall()
    assert isinstance(decision_from_error(GameState.new(), EngineTimeoutError("silent")), EngineFailure)
    assert isinstance(decision_from_error(GameState.new(), EngineError("garbage")), EngineFailure)
    foul = EngineMoveError("bad", "7g7e")
    assert decision_from_error(GameState.new(tournament=True), foul) == PlayMove("7g7e")
    # Played as sent in any mode: the front end adjudicates it (game.adjudicate) as a foul.
    assert decision_from_error(GameState.new(), foul) == PlayMove("7g7e")


def test_queued_human() -> None:
    async def scenario() -> object:
        human = QueuedPlayer("me")
        waiting = asyncio.ensure_future(human.choose(GameState.new()))
        await asyncio.sleep(0)
        assert not waiting.done()
        human.submit(PlayMove("2g2f"))
        return await waiting

    assert asyncio.run(scenario()) == PlayMove("2g2f")


@pytest.mark.timeout(60)
def test_the_builtin_engine_plays_through_the_protocol() -> None:
    async def scenario() -> object:
        engine = BuiltinEngine(1, seed=1)
        try:
            return await EnginePlayer(engine, movetime=0.1).choose(GameState.new())
        finally:
            await engine.quit()

    decision = asyncio.run(scenario())
    assert isinstance(decision, PlayMove)
    assert Board().is_legal(BoardMove.from_usi(decision.usi))


def test_a_queued_persons_sender_hears_whether_its_decision_was_taken() -> None:
    async def scenario() -> tuple[object, ...]:
        person = QueuedPlayer("me")
        applied = person.submit(PlayMove("7g7f"))
        refused = person.submit(PlayMove("7g7e"))
        left = person.submit(PlayMove("2g2f"))
        assert await person.choose(GameState.new()) == PlayMove("7g7f")
        person.settle(None)
        assert await person.choose(GameState.new()) == PlayMove("7g7e")
        person.settle(ValueError("illegal"))
        person.withdraw(LookupError("the game ended"))  # never taken: refused too
        results = await asyncio.gather(applied, refused, left, return_exceptions=True)
        return tuple(type(r).__name__ if isinstance(r, Exception) else r for r in results)

    assert asyncio.run(scenario()) == (None, "ValueError", "LookupError")


def test_the_running_clock_is_every_players_deadline() -> None:
    async def scenario() -> tuple[object, object, object]:
        loop = asyncio.get_running_loop()
        clocked = GameState.new(clock=Clock(TimeControl.of(0.05)))
        clocked = evolve(clocked, clock=clocked.clock.start(Color.BLACK, loop.time()))
        silent = QueuedPlayer("silent")
        flagged = await choose_in_time(silent, clocked, loop.time)
        answering = QueuedPlayer("quick")
        answering.submit(PlayMove("7g7f"))
        in_time = await choose_in_time(answering, clocked, loop.time)
        # Without a running clock a player may take as long as it likes.
        waiting = asyncio.ensure_future(choose_in_time(silent, GameState.new(), loop.time))
        await asyncio.sleep(0.1)
        untimed = waiting.done()
        waiting.cancel()
        return flagged, in_time, untimed

    assert asyncio.run(scenario()) == (FlagFall(), PlayMove("7g7f"), False)
