"""Clocks: durations, main time, byoyomi, increment, flags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogiban.play.clock import InvalidDurationError, format_seconds, parse_duration


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
