"""The computer players: the built-in engine in workers and an external USI engine."""

from __future__ import annotations

import asyncio
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from shogiban import Board, Color
from shogiban.errors import EngineError, IllegalMoveError
from shogiban.game import Clock, TimeControl
from shogiban.web.thinking import BuiltinEngines, ThinkRequest, ThinkResult, UsiEngines, builtin_think

START = Board().sfen()
FAKE = Path(__file__).with_name("fake_usi_engine.py")


def test_request_rebuilds_the_position_and_refuses_bad_moves() -> None:
    request = ThinkRequest(START, ("7g7f", "3c3d"))
    assert request.board().sfen() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    with pytest.raises(IllegalMoveError):
        ThinkRequest(START, ("7g7f", "7g7f")).board()


@pytest.mark.parametrize("limits", [
    {"movetime": 0.05}, {"clock": Clock(TimeControl.of(1)).to_dict()},
    {"clock": Clock(TimeControl.of(0, byoyomi=0.1)).to_dict()}, {},
])
def test_builtin_engine_answers_legal_moves(limits: dict) -> None:
    request = ThinkRequest(START, ("7g7f",), level=1, seed=3, **limits)
    result = builtin_think(request)
    assert result.move is not None
    assert request.board().is_legal(request.board().parse_usi(result.move))


def test_builtin_engines_in_a_thread_pool() -> None:
    async def main() -> ThinkResult:
        engines = BuiltinEngines(executor=ThreadPoolExecutor(1))
        try:
            return await engines.think(ThinkRequest(START, (), level=1, movetime=0.05))
        finally:
            await engines.close()

    assert asyncio.run(main()).move is not None


def test_a_crashing_thinker_becomes_an_engine_error() -> None:
    def broken(request: ThinkRequest) -> ThinkResult:
        raise ZeroDivisionError("bug")

    async def main() -> None:
        engines = BuiltinEngines(executor=ThreadPoolExecutor(1), think=broken)
        try:
            await engines.think(ThinkRequest(START, ()))
        finally:
            await engines.close()

    with pytest.raises(EngineError, match="ZeroDivisionError"):
        asyncio.run(main())


def usi_think(mode: str, moves: tuple[str, ...] = ("7g7f",), **limits: object) -> ThinkResult:
    async def main() -> ThinkResult:
        engines = UsiEngines(f"{sys.executable} {FAKE} {mode}", name="fake")
        try:
            return await engines.think(ThinkRequest(START, moves, game_id="g", **limits))  # type: ignore[arg-type]
        finally:
            await engines.release("g")
            await engines.close()

    return asyncio.run(main())


@pytest.mark.parametrize("limits", [
    {}, {"clock": Clock(TimeControl.of(60, byoyomi=10)).to_dict()}, {"movetime": 1.0},
])
def test_usi_engine_moves(limits: dict) -> None:
    result = usi_think("first", **limits)
    assert result.move is not None
    board = Board()
    board.push_usi("7g7f")
    assert board.is_legal(board.parse_usi(result.move))


def test_usi_engine_resigns() -> None:
    assert usi_think("resign") == ThinkResult(move=None)


def test_usi_engine_illegal_move_is_reported_by_name_and_reason() -> None:
    # Issue "One player, one stored game state", bug 1: the game recorded an "unreadable move".
    from shogiban.game import GameState, Mode, PlayMove, apply, evolve
    from shogiban.outcome import Termination

    result = usi_think("illegal")
    assert result.move is None
    assert result.illegal == "5a5e"
    state, _ = apply(GameState.new(mode=Mode.COMPUTER, now=0.0, engines=(False, True)), PlayMove("7g7f"), 1.0)
    over, _ = apply(evolve(state, tournament=True), PlayMove(result.illegal), 2.0)
    assert over.outcome is not None
    assert over.outcome.termination is Termination.ILLEGAL_MOVE
    assert over.outcome.detail == "gote: 5a5e (a king on 5a cannot move to 5e)"


def test_usi_engine_crash_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        usi_think("crash")


def test_usi_engine_command_must_not_be_empty() -> None:
    with pytest.raises(ValueError, match="invalid engine command"):
        UsiEngines("   ")


def test_worker_processes_stop_promptly_even_mid_search() -> None:
    async def main() -> float:
        engines = BuiltinEngines(workers=1)
        thinking = asyncio.ensure_future(engines.think(ThinkRequest(START, (), level=8, movetime=60.0)))
        await asyncio.sleep(3.0)  # the worker has started and is searching
        started = time.monotonic()
        await engines.close(grace=0.5)
        thinking.cancel()
        return time.monotonic() - started

    assert asyncio.run(main()) < 5.0


def test_the_request_limit_comes_from_the_game_clock() -> None:
    clock = Clock(TimeControl.of(60, byoyomi=10)).start(Color.BLACK, 100.0)
    request = ThinkRequest(Board().sfen(), (), clock=clock.to_dict(), now=115.0)
    limit = request.limit()
    assert limit is not None
    assert limit.go_args() == ["btime", "45000", "wtime", "60000", "byoyomi", "10000"]
    hint = ThinkRequest(Board().sfen(), (), movetime=1.0).limit()
    assert hint is not None
    assert hint.time is None
    assert hint.go_args() == ["btime", "0", "wtime", "0", "byoyomi", "1000"]
    assert ThinkRequest(Board().sfen(), ()).limit() is None


def test_a_request_has_no_legacy_clock_fields() -> None:
    with pytest.raises(TypeError):
        ThinkRequest(START, (), time_left=60.0)  # type: ignore[call-arg]
