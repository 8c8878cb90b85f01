"""Clocks: durations, main time, byoyomi, increment, flags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban.play.clock import ClockSettings, GameClock, InvalidDurationError, format_seconds, parse_duration


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("45", 45),
        ("45s", 45),
        ("10m", 600),
        ("1h", 3600),
        ("1m30s", 90),
        ("1:30", 90),
        ("1:00:05", 3605),
        ("0.25", 0.25),
        (".5s", 0.5),
        (" 2m ", 120),
    ],
)
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "ten", "10x", "-5", "1:2:3:4", "m"])
def test_bad_durations_are_refused(text: str) -> None:
    with pytest.raises(InvalidDurationError, match=repr(text)):
        parse_duration(text)


@given(st.integers(min_value=0, max_value=10**6))
def test_format_then_parse_whole_seconds(seconds: int) -> None:
    if seconds >= 10:
        assert parse_duration(format_seconds(seconds)) == seconds


def test_main_time_then_byoyomi_then_flag() -> None:
    time = FakeTime()
    clock = GameClock(ClockSettings(main=60, byoyomi=10), now=time)
    clock.start(0)
    time.now += 50
    assert clock.time_for_move(0) == pytest.approx(20)
    assert clock.stop()
    assert clock.main_left(0) == pytest.approx(10)
    assert not clock.in_byoyomi(0)
    clock.start(0)
    time.now += 19  # 10 s of main time and 9 s of byoyomi
    assert clock.stop()
    assert clock.in_byoyomi(0)
    clock.start(0)
    time.now += 9.5  # within byoyomi again: it is renewed each move
    assert clock.stop()
    clock.start(0)
    time.now += 10.5
    assert not clock.stop()
    assert clock.flagged == 0
    assert clock.main_left(1) == 60  # the other side's clock never ran


def test_increment_is_added_after_each_move() -> None:
    time = FakeTime()
    clock = GameClock(ClockSettings(main=30, increment=5), now=time)
    clock.start(1)
    time.now += 10
    assert clock.stop()
    assert clock.main_left(1) == pytest.approx(25)


def test_no_clock_never_flags() -> None:
    time = FakeTime()
    clock = GameClock(ClockSettings(), now=time)
    clock.start(0)
    time.now += 10**6
    assert clock.time_for_move(0) is None
    assert clock.stop()
