"""The clock: byoyomi, Fischer, no clock, flags, storage and the restart pause."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban import Color
from shogiban.web.clock import Clock, TimeControl, TimeControlError

S = timedelta(seconds=1)


def test_byoyomi_uses_main_time_then_a_period_per_move() -> None:
    clock = Clock(TimeControl(main=60 * S, byoyomi=10 * S))
    clock.start(Color.BLACK, 0.0)
    assert clock.deadline() == 70.0
    assert clock.press(50.0) == 50 * S
    assert clock.remaining == [10 * S, 60 * S]
    assert clock.running == Color.WHITE
    clock.press(51.0)
    assert clock.time_left(Color.BLACK, 69.0) == (timedelta(0), 2 * S)  # 10 s main, then 8 of 10
    assert not clock.is_flagged(71.0)
    assert clock.is_flagged(71.001)
    clock.press(70.0)
    # Byoyomi starts afresh each move once the main time is gone.
    clock.press(71.0)
    assert clock.deadline() == 81.0


def test_fischer_adds_the_increment_after_each_move() -> None:
    clock = Clock(TimeControl(main=30 * S, increment=5 * S))
    clock.start(Color.BLACK, 100.0)
    clock.press(110.0)
    assert clock.remaining[Color.BLACK] == 25 * S
    clock.press(111.0)
    assert clock.remaining[Color.WHITE] == 34 * S
    assert clock.deadline() == 111.0 + 25.0


def test_no_clock_never_flags_but_measures() -> None:
    clock = Clock(TimeControl())
    clock.start(Color.WHITE, 5.0)
    assert clock.deadline() is None
    assert not clock.is_flagged(1e12)
    assert clock.press(12.5) == 7.5 * S
    assert clock.snapshot(13.0)["enabled"] is False


def test_stop_charges_and_snapshot_reports_milliseconds() -> None:
    clock = Clock(TimeControl(main=10 * S, byoyomi=3 * S))
    clock.start(Color.BLACK, 0.0)
    snap = clock.snapshot(11.5)
    assert snap["black"] == 0
    assert snap["black_byoyomi"] == 1500
    assert snap["white"] == 10000
    assert snap["running"] == "b"
    clock.stop(4.0)
    assert clock.running is None
    assert clock.remaining[Color.BLACK] == 6 * S


def test_pause_charges_up_to_the_last_sign_of_life() -> None:
    clock = Clock(TimeControl(main=100 * S))
    clock.start(Color.BLACK, 1000.0)
    clock.pause(1030.0)
    clock.resume(5000.0)
    assert clock.time_left(Color.BLACK, 5010.0)[0] == 60 * S


def test_press_without_a_running_clock_raises() -> None:
    with pytest.raises(RuntimeError):
        Clock(TimeControl(main=S)).press(1.0)


@pytest.mark.parametrize("data", [
    {"main": -1}, {"main": "5"}, {"main": True}, {"main": float("nan")}, {"byoyomi": 10, "increment": 5},
    {"main": 10 ** 7}, {"speed": 1}, [1, 2], "fast",
])
def test_bad_time_controls(data: object) -> None:
    with pytest.raises(TimeControlError):
        TimeControl.from_json(data)


def test_damaged_stored_clock() -> None:
    with pytest.raises(TimeControlError):
        Clock.from_json({"remaining": [1], "running": 0})
    with pytest.raises(TimeControlError):
        Clock.from_json({"remaining": [1, 2], "running": 7})
    with pytest.raises(TimeControlError):
        Clock.from_json({"control": {}, "since": 1.0})


@given(
    main=st.integers(0, 3600), byoyomi=st.integers(0, 60), start=st.floats(0, 1e9),
    moves=st.lists(st.floats(0, 100), max_size=10), running=st.booleans(),
)
def test_storage_round_trip(main: int, byoyomi: int, start: float, moves: list[float], running: bool) -> None:
    clock = Clock(TimeControl(main=main * S, byoyomi=byoyomi * S))
    now = start
    clock.start(Color.BLACK, now)
    for spent in moves:
        now += spent
        clock.press(now)
    if not running:
        clock.stop(now)
    restored = Clock.from_json(clock.to_json())
    assert restored == clock
    assert restored.snapshot(now + 1) == clock.snapshot(now + 1)
