"""One way of driving external engines: every front end (web, terminal, match) turns the same clock
into the same ``go``, through :func:`engine_limit`, and never sends ``go movetime``."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from datetime import timedelta

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board
from shogiban.engines import Limit
from shogiban.game import Clock, GameState, TimeControl, clock_limit
from shogiban.game import Move as GameMove
from shogiban.play.players import UsiEnginePlayer
from shogiban.usi.clocks import DEFAULT_MOVETIME, ClockState, engine_limit
from shogiban.web.players import ThinkRequest, UsiEngines

FakeFactory = Callable[[str], Fake]


def go(limit: Limit) -> str:
    return " ".join(["go", *limit.go_args()])


def test_a_byoyomi_clock() -> None:
    assert go(engine_limit(ClockState(60.0, 45.0, byoyomi=10.0))) == "go btime 60000 wtime 45000 byoyomi 10000"


def test_sudden_death_still_sends_byoyomi_zero() -> None:
    assert go(engine_limit(ClockState(60.0, 30.5))) == "go btime 60000 wtime 30500 byoyomi 0"


def test_an_increment_is_sent_apart_from_the_main_time_as_usi_counts() -> None:
    # The clock shows what each side may spend on its coming move: USI's btime leaves out that move's increment.
    assert go(engine_limit(ClockState(60.0, 20.0, increment=5.0))) == "go btime 55000 wtime 15000 binc 5000 winc 5000"
    # A clock holding less than one increment: the engine may still spend only what the clock shows.
    limit = engine_limit(ClockState(2.0, 60.0, increment=5.0))
    assert go(limit) == "go btime 0 wtime 55000 binc 2000 winc 5000"
    assert limit.budget(Board().turn) == pytest.approx(2.0)


def test_a_fixed_time_is_byoyomi_never_movetime() -> None:
    for limit in (engine_limit(movetime=1.5), engine_limit(ClockState(60, 60), movetime=1.5)):
        assert go(limit) == "go btime 0 wtime 0 byoyomi 1500"
        assert limit.time is None
    assert go(engine_limit()) == f"go btime 0 wtime 0 byoyomi {round(DEFAULT_MOVETIME * 1000)}"


def test_the_game_clock_sends_the_same_go() -> None:
    # The match runner (and every front end) converts the game clock with game.clock_limit.
    clock = Clock(TimeControl.of(60, byoyomi=10), (timedelta(seconds=60), timedelta(seconds=45)), (1, 1))
    assert go(clock_limit(clock)) == go(engine_limit(ClockState(60, 45, byoyomi=10)))
    inc = Clock(TimeControl.of(60, increment=5), (timedelta(seconds=60), timedelta(seconds=15)), (1, 1))
    assert go(clock_limit(inc)) == "go btime 60000 wtime 15000 binc 5000 winc 5000"
    assert go(clock_limit(Clock(), movetime=0.2, depth=7)) == "go btime 0 wtime 0 byoyomi 200 depth 7"
    assert go(clock_limit(Clock(), depth=3)) == "go depth 3"


def game_clock(clock: ClockState | None) -> Clock:
    """The game clock showing *clock* (whose main times include the coming increment)."""
    if clock is None:
        return Clock()
    control = TimeControl.of(60, byoyomi=clock.byoyomi, increment=clock.increment)
    inc = timedelta(seconds=clock.increment)
    remaining = (timedelta(seconds=clock.black_main) - inc, timedelta(seconds=clock.white_main) - inc)
    return Clock(control, remaining, (1, 1))


SCENARIOS = [
    # (clock, fixed time, the go every front end must send)
    (ClockState(60.0, 45.0, byoyomi=10.0), None, "go btime 60000 wtime 45000 byoyomi 10000"),
    (ClockState(60.0, 45.0, increment=5.0), None, "go btime 55000 wtime 40000 binc 5000 winc 5000"),
    (None, 1.5, "go btime 0 wtime 0 byoyomi 1500"),
    (None, None, "go btime 0 wtime 0 byoyomi 1000"),
]


def script(expected_go: str) -> str:
    return HANDSHAKE + f"""\
        < isready
        > readyok
        < usinewgame
        < position startpos
        < {expected_go}
        > bestmove 7g7f
        < quit
        """


@pytest.mark.parametrize(("clock", "fixed", "expected"), SCENARIOS)
def test_the_terminal_game_sends_it(fake: FakeFactory, clock: ClockState | None, fixed: float | None,
                                    expected: str) -> None:
    engine_fake = fake(script(expected))
    player = UsiEnginePlayer(shlex.join(engine_fake.command), movetime=fixed)
    try:
        if clock is None and fixed is not None:
            move = player.suggest(Board(), fixed)  # a hint takes the same path as a game without a clock
            assert move is not None
            played = move.usi()
        else:
            decision = asyncio.run(player.choose(GameState.new(clock=game_clock(clock))))
            assert isinstance(decision, GameMove)
            played = decision.usi
    finally:
        player.close()
    assert played == "7g7f"
    engine_fake.assert_complete()


@pytest.mark.parametrize(("clock", "fixed", "expected"), SCENARIOS)
def test_the_web_server_sends_it(fake: FakeFactory, clock: ClockState | None, fixed: float | None,
                                 expected: str) -> None:
    engine_fake = fake(script(expected))
    # The room sends its game clock (sente to move), or the fixed time, never bare seconds.
    request = ThinkRequest(Board().sfen(), (), movetime=fixed, game_id="g",
                           clock=game_clock(clock).to_dict() if clock is not None else None)

    async def main() -> str | None:
        engines = UsiEngines(shlex.join(engine_fake.command))
        try:
            return (await engines.think(request)).move
        finally:
            await engines.close()

    assert asyncio.run(main()) == "7g7f"
    engine_fake.assert_complete()
