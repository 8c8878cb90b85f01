"""The game clock: byoyomi with periods, Fischer, the CSA time-out rule, pauses, storage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban.game import Clock, TimeControl, TimeControlError, Timing
from shogiban.pieces import Color

S = timedelta(seconds=1)
B, W = Color.BLACK, Color.WHITE


def test_a_fresh_clock_takes_the_control() -> None:
    clock = Clock(TimeControl.of(90, byoyomi=10, periods=3))
    assert clock.remaining == (90 * S, 90 * S)
    assert clock.periods == (3, 3)
    assert clock.running is None
    assert clock.deadline() is None
    assert not clock.is_flagged(1e9)


def test_main_time_then_byoyomi() -> None:
    clock = Clock(TimeControl.of(60, byoyomi=10)).start(B, 1000.0)
    assert clock.deadline() == 1070.0
    clock, spent = clock.press(1065.0)
    assert spent == 65 * S
    assert clock.remaining[B] == timedelta(0)
    assert clock.running == W
    clock, _ = clock.press(1066.0)
    # Sente is in byoyomi now: each move has 10 s, afresh.
    assert clock.deadline() == 1076.0
    assert not clock.is_flagged(1075.9)
    assert clock.is_flagged(1076.0)  # CSA: remaining - t + byoyomi <= 0 loses


def test_flag_during_byoyomi_with_periods() -> None:
    clock = Clock(TimeControl.of(0, byoyomi=10, periods=3)).start(B, 0.0)
    assert clock.deadline() == 30.0
    assert clock.time_left(B, 25.0) == (timedelta(0), 5 * S, 1)
    clock, _ = clock.press(25.0)  # two periods used up entirely
    assert clock.periods == (1, 3)
    clock, _ = clock.press(25.0)
    assert clock.deadline() == 35.0  # the last period
    assert clock.is_flagged(35.0)
    assert not clock.is_flagged(34.99)
    flagged = clock.flag()
    assert flagged.running is None
    assert flagged.periods == (0, 3)
    assert flagged.remaining[B] == timedelta(0)


def test_a_period_used_exactly_is_lost() -> None:
    clock = Clock(TimeControl.of(0, byoyomi=10, periods=2)).start(B, 0.0)
    clock, _ = clock.press(10.0)
    assert clock.periods == (1, 2)


def test_fischer_increment_is_credited_before_the_move() -> None:
    clock = Clock(TimeControl.of(30, increment=5)).start(B, 0.0)
    assert clock.allowance(B) == 35 * S
    assert clock.deadline() == 35.0
    clock, _ = clock.press(10.0)
    assert clock.remaining[B] == 25 * S  # 30 + 5 - 10
    clock, _ = clock.press(10.0)
    clock, _ = clock.press(44.0)  # 34 of the 25 + 5 allowed: the caller checks the flag first
    assert clock.remaining[B] == timedelta(0)
    # Gote spent nothing on its move: 30 + 5, and the increment of its coming move shown too.
    assert clock.remaining[W] == 35 * S
    assert clock.time_left(W, 44.0) == (40 * S, timedelta(0), 0)


def test_fischer_flag() -> None:
    clock = Clock(TimeControl.of(0, increment=2)).start(W, 0.0)
    assert not clock.is_flagged(1.9)
    assert clock.is_flagged(2.0)


def test_csa_timing_counts_whole_seconds() -> None:
    clock = Clock(TimeControl.of(0, byoyomi=10), timing=Timing.CSA).start(B, 0.0)
    assert not clock.is_flagged(9.999)  # floor(9.999) = 9
    assert clock.is_flagged(10.0)
    assert clock.deadline() == 10.0
    clock = Clock(TimeControl.of(60), timing=Timing.CSA).start(B, 0.0)
    clock, spent = clock.press(2.7)
    assert spent == timedelta(seconds=2.7)
    assert clock.remaining[B] == 58 * S
    # A fractional allowance: floor(t) >= 58.5 happens at t = 59.
    half = Clock(TimeControl.of(58.5), timing=Timing.CSA).start(B, 0.0)
    assert half.deadline() == 59.0
    assert not half.is_flagged(58.99)
    assert half.is_flagged(59.0)


def test_tolerance_absorbs_latency() -> None:
    clock = Clock(TimeControl.of(0, byoyomi=1), tolerance=timedelta(seconds=0.5)).start(B, 0.0)
    assert not clock.is_flagged(1.4)
    assert clock.is_flagged(1.5)
    assert clock.deadline() == 1.5


def test_downtime_is_charged_to_nobody() -> None:
    clock = Clock(TimeControl.of(100)).start(B, 0.0)
    paused = clock.pause(30.0)
    assert paused.paused
    assert paused.deadline() is None
    assert not paused.is_flagged(10_000.0)
    assert paused.elapsed(10_000.0) == 30 * S
    resumed = paused.resume(5000.0)
    assert resumed.deadline() == 5070.0
    after, spent = resumed.press(5010.0)
    assert spent == 40 * S
    assert after.remaining[B] == 60 * S
    assert clock.pause(-5.0).used == timedelta(0)  # a pause before the turn began charges nothing
    assert Clock().pause(3.0) == Clock()
    assert clock.resume(1.0) == clock


def test_no_control_measures_and_never_flags() -> None:
    clock = Clock().start(B, 0.0)
    clock, spent = clock.press(1e6)
    assert spent == timedelta(seconds=1e6)
    assert not clock.is_flagged(1e9)
    assert clock.deadline() is None
    assert clock.allowance(B) is None


def test_stop_charges_without_increment_and_press_needs_a_turn() -> None:
    clock = Clock(TimeControl.of(30, increment=5)).start(B, 0.0).stop(4.0)
    assert clock.remaining[B] == 26 * S
    assert clock.running is None
    assert clock.stop(9.0) == clock
    with pytest.raises(RuntimeError):
        clock.press(1.0)


def test_restart_turn_keeps_the_times() -> None:
    clock = Clock(TimeControl.of(30)).start(W, 0.0)
    again = clock.restart_turn(20.0)
    assert again.since == 20.0
    assert again.remaining == clock.remaining
    assert again.running == W


def test_time_left_while_running() -> None:
    clock = Clock(TimeControl.of(10, byoyomi=5)).start(B, 0.0)
    assert clock.time_left(B, 4.0) == (6 * S, 5 * S, 1)
    assert clock.time_left(B, 12.0) == (timedelta(0), 3 * S, 1)
    assert clock.time_left(B, 16.0) == (timedelta(0), timedelta(0), 0)
    assert clock.time_left(W, 16.0) == (10 * S, 5 * S, 1)


@pytest.mark.parametrize("data", [
    None, [1], {"remaining": [1], "running": 0}, {"remaining": [1, 2], "running": 7},
    {"control": {}, "since": 1.0}, {"remaining": [1, -2]}, {"remaining": [1, 2], "since": "x"},
    {"remaining": [1, 2], "timing": "slow"}, {"remaining": [1, float("nan")]},
])
def test_damaged_stored_clock(data: object) -> None:
    with pytest.raises(TimeControlError):
        Clock.from_dict(data)


@given(
    main=st.integers(0, 3600), byoyomi=st.integers(0, 60), increment=st.integers(0, 10), periods=st.integers(1, 5),
    start=st.floats(0, 1e9), moves=st.lists(st.floats(0, 100), max_size=10), csa=st.booleans(),
    state=st.sampled_from(["running", "stopped", "paused"]),
)
def test_storage_round_trip(
    main: int, byoyomi: int, increment: int, periods: int, start: float, moves: list[float], csa: bool, state: str,
) -> None:
    control = TimeControl.of(main, byoyomi=byoyomi, increment=increment, periods=periods)
    clock = Clock(control, timing=Timing.CSA if csa else Timing.EXACT).start(B, start)
    now = start
    for spent in moves:
        now += spent
        clock, _ = clock.press(now)
        assert min(clock.remaining) >= timedelta(0)
        assert min(clock.periods) >= 0
    if state == "stopped":
        clock = clock.stop(now)
    elif state == "paused":
        clock = clock.pause(now)
    assert Clock.from_dict(clock.to_dict()) == clock
