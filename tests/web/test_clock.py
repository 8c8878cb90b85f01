"""The web's view of the game clock: the time controls it accepts, what clients see, the pause
after a restart, storage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban import Color
from shogiban.web.clock import Clock, ClockView, TimeControl, TimeControlError, parse_time_control, snapshot
from shogiban.web.rooms import _pause_stored_clock

S = timedelta(seconds=1)


def test_byoyomi_main_time_then_a_period_per_move() -> None:
    clock = Clock(parse_time_control({"main": 60, "byoyomi": 10})).start(Color.BLACK, 0.0)
    assert clock.deadline() == 70.0
    clock, spent = clock.press(50.0)
    assert spent == 50 * S
    assert clock.remaining == (10 * S, 60 * S)
    clock, _ = clock.press(51.0)
    assert snapshot(clock, 69.0)["black_byoyomi"] == 2000  # 10 s main, then 8 of 10
    assert not clock.is_flagged(70.999)
    assert clock.is_flagged(71.0)


def test_fischer_credits_the_increment_of_the_move() -> None:
    clock = Clock(parse_time_control({"main": 30, "increment": 5})).start(Color.BLACK, 100.0)
    assert snapshot(clock, 100.0)["black"] == 35000  # what sente may spend on this move
    clock, _ = clock.press(110.0)
    assert clock.remaining[Color.BLACK] == 25 * S
    assert clock.deadline() == 110.0 + 35.0


def test_no_clock() -> None:
    clock = Clock(parse_time_control(None)).start(Color.WHITE, 5.0)
    assert clock.deadline() is None
    assert snapshot(clock, 13.0) == {
        "enabled": False, "black": 0, "white": 0, "black_byoyomi": 0, "white_byoyomi": 0, "byoyomi": 0,
        "increment": 0, "running": "w",
    }


def test_snapshot_reports_milliseconds() -> None:
    clock = Clock(TimeControl.of(10, byoyomi=3)).start(Color.BLACK, 0.0)
    snap = snapshot(clock, 11.5)
    assert (snap["black"], snap["black_byoyomi"], snap["white"], snap["running"]) == (0, 1500, 10000, "b")
    assert (snap["byoyomi"], snap["increment"]) == (3000, 0)


def test_the_record_writer_reads_durations() -> None:
    view = ClockView(Clock(TimeControl.of(600, byoyomi=30))).control
    assert (view.main, view.byoyomi, view.increment, view.enabled) == (600 * S, 30 * S, timedelta(0), True)


def test_the_restart_pause_charges_up_to_the_last_sign_of_life() -> None:
    clock = Clock(TimeControl.of(100)).start(Color.BLACK, 1000.0)
    paused = Clock.from_dict(_pause_stored_clock(clock.to_dict(), 1030.0, 5000.0))
    assert paused.time_left(Color.BLACK, 5010.0)[0] == 60 * S
    # A clock that ran out before the server stopped is left for the room to end the game.
    late = Clock(TimeControl.of(10)).start(Color.BLACK, 1000.0).to_dict()
    assert _pause_stored_clock(late, 1030.0, 5000.0) == late
    assert _pause_stored_clock({"remaining": "damaged", "running": 0}, 1.0, 2.0) == {"remaining": "damaged",
                                                                                        "running": 0}


def test_clocks_stored_by_earlier_versions_still_load() -> None:
    old = {"control": {"main": 60.0, "byoyomi": 10.0, "increment": 0.0}, "remaining": [50.0, 60.0], "running": 1,
           "since": 123.0}
    clock = Clock.from_dict(old)
    assert clock.remaining == (50 * S, 60 * S)
    assert clock.periods == (1, 1)
    assert clock.deadline() == 193.0


@pytest.mark.parametrize("data", [
    {"main": -1}, {"main": "5"}, {"main": True}, {"main": float("nan")}, {"byoyomi": 10, "increment": 5},
    {"main": 10 ** 7}, {"speed": 1}, [1, 2], "fast",
])
def test_bad_time_controls(data: object) -> None:
    with pytest.raises(TimeControlError):
        parse_time_control(data)


@given(
    main=st.integers(0, 3600), byoyomi=st.integers(0, 60), start=st.floats(0, 1e9),
    moves=st.lists(st.floats(0, 100), max_size=10), running=st.booleans(),
)
def test_storage_round_trip(main: int, byoyomi: int, start: float, moves: list[float], running: bool) -> None:
    clock = Clock(TimeControl.of(main, byoyomi=byoyomi)).start(Color.BLACK, start)
    now = start
    for spent in moves:
        now += spent
        clock, _ = clock.press(now)
    if not running:
        clock = clock.stop(now)
    restored = Clock.from_dict(clock.to_dict())
    assert restored == clock
    assert snapshot(restored, now + 1) == snapshot(clock, now + 1)
