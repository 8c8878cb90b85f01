"""One way of driving external engines: every front end (web, terminal, match) turns the same clock
into the same ``go``, through :func:`shogiban.game.clock_limit` (the only conversion), and never
sends ``go movetime``."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from datetime import timedelta

import pytest
from usi_fakes import HANDSHAKE, Fake

from shogiban import Board
from shogiban.engines import Limit
from shogiban.engines.limit import DEFAULT_MOVETIME
from shogiban.game import Clock, EnginePlayer, GameState, PlayMove, TimeControl, clock_limit
from shogiban.usi import popen_usi
from shogiban.web.thinking import ThinkRequest, UsiEngines

FakeFactory = Callable[[str], Fake]


def go(limit: Limit) -> str:
    return " ".join(["go", *limit.go_args()])


def clock(black: float, white: float, *, byoyomi: float = 0.0, increment: float = 0.0) -> Clock:
    """A game clock showing *black* and *white* seconds of main time (sente to move)."""
    control = TimeControl.of(60, byoyomi=byoyomi, increment=increment)
    return Clock(control, (timedelta(seconds=black), timedelta(seconds=white)), (1, 1))


def test_a_byoyomi_clock() -> None:
    assert go(clock_limit(clock(60.0, 45.0, byoyomi=10.0))) == "go btime 60000 wtime 45000 byoyomi 10000"
    assert go(clock_limit(Clock())) == f"go btime 0 wtime 0 byoyomi {round(DEFAULT_MOVETIME * 1000)}"


def test_sudden_death_still_sends_byoyomi_zero() -> None:
    assert go(clock_limit(clock(60.0, 30.5))) == "go btime 60000 wtime 30500 byoyomi 0"


def test_an_increment_is_sent_apart_from_the_main_time_as_usi_counts() -> None:
    # The game clock adds a move's increment after it, as USI counts btime: it goes out as it is.
    limit = clock_limit(clock(55.0, 15.0, increment=5.0))
    assert go(limit) == "go btime 55000 wtime 15000 binc 5000 winc 5000"
    assert limit.budget(Board().turn) == pytest.approx(60.0)


def test_a_fixed_time_is_byoyomi_never_movetime() -> None:
    limit = clock_limit(Clock(), movetime=1.5)
    assert go(limit) == "go btime 0 wtime 0 byoyomi 1500"
    assert limit.time is None


def test_the_game_clock_sends_the_same_go() -> None:
    inc = Clock(TimeControl.of(60, increment=5), (timedelta(seconds=60), timedelta(seconds=15)), (1, 1))
    assert go(clock_limit(inc)) == "go btime 60000 wtime 15000 binc 5000 winc 5000"
    assert go(clock_limit(Clock(), movetime=0.2, depth=7)) == "go btime 0 wtime 0 byoyomi 200 depth 7"
    assert go(clock_limit(Clock(), depth=3)) == "go depth 3"


SCENARIOS = [
    # (clock, fixed time, the go every front end must send)
    (clock(60.0, 45.0, byoyomi=10.0), None, "go btime 60000 wtime 45000 byoyomi 10000"),
    (clock(55.0, 40.0, increment=5.0), None, "go btime 55000 wtime 40000 binc 5000 winc 5000"),
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


@pytest.mark.parametrize(("game_clock", "fixed", "expected"), SCENARIOS)
def test_the_terminal_game_sends_it(fake: FakeFactory, game_clock: Clock | None, fixed: float | None,
                                    expected: str) -> None:
    engine_fake = fake(script(expected))

    async def main() -> str:
        _, engine = await popen_usi(engine_fake.command)
        # The terminal's engine player: game.EnginePlayer, as every front end's.
        player = EnginePlayer(engine, movetime=fixed)
        try:
            decision = await player.choose(GameState.new(clock=game_clock or Clock()))
        finally:
            await engine.quit()
        assert isinstance(decision, PlayMove)
        return decision.usi

    assert asyncio.run(main()) == "7g7f"
    engine_fake.assert_complete()


@pytest.mark.parametrize(("game_clock", "fixed", "expected"), SCENARIOS)
def test_the_web_server_sends_it(fake: FakeFactory, game_clock: Clock | None, fixed: float | None,
                                 expected: str) -> None:
    engine_fake = fake(script(expected))
    # The room sends its game clock (sente to move), or the fixed time, never bare seconds.
    request = ThinkRequest(Board().sfen(), (), movetime=fixed, game_id="g",
                           clock=game_clock.to_dict() if game_clock is not None else None)

    async def main() -> str | None:
        engines = UsiEngines(shlex.join(engine_fake.command))
        try:
            return (await engines.think(request)).move
        finally:
            await engines.close()

    assert asyncio.run(main()) == "7g7f"
    engine_fake.assert_complete()
