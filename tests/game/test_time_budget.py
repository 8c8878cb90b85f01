"""The clock as an engine limit."""

from __future__ import annotations

from shogiban.game import Clock, TimeControl
from shogiban.game.time_budget import clock_limit
from shogiban.pieces import Color


def go(clock: Clock, **kwargs: object) -> str:
    return " ".join(clock_limit(clock, **kwargs).go_args())  # type: ignore[arg-type]


def test_byoyomi_and_sudden_death_always_send_byoyomi() -> None:
    assert go(Clock(TimeControl.of(60, byoyomi=10))) == "btime 60000 wtime 60000 byoyomi 10000"
    assert go(Clock(TimeControl.of(60))) == "btime 60000 wtime 60000 byoyomi 0"


def test_increment_is_sent_apart() -> None:
    clock, _ = Clock(TimeControl.of(60, increment=5)).start(Color.BLACK, 0.0).press(20.0)
    assert go(clock) == "btime 45000 wtime 60000 binc 5000 winc 5000"


def test_time_spent_in_the_turn_is_taken_off() -> None:
    clock = Clock(TimeControl.of(60, byoyomi=10)).start(Color.WHITE, 0.0)
    assert go(clock, now=15.0) == "btime 60000 wtime 45000 byoyomi 10000"
    assert go(clock, now=65.0) == "btime 60000 wtime 0 byoyomi 5000"  # 5 s into the byoyomi
    assert go(clock, now=100.0) == "btime 60000 wtime 0 byoyomi 0"  # out of time


def test_no_clock_is_byoyomi_never_movetime() -> None:
    assert go(Clock()) == "btime 0 wtime 0 byoyomi 1000"
    assert go(Clock(), movetime=0.2) == "btime 0 wtime 0 byoyomi 200"
    assert go(Clock(), depth=3) == "depth 3"
    assert go(Clock(TimeControl.of(0, byoyomi=1)), nodes=500) == "btime 0 wtime 0 byoyomi 1000 nodes 500"
