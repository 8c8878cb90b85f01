"""The one time control."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shogiban.game import TimeControl, TimeControlError
from shogiban.kifu import timecontrol as kifu_timecontrol


def test_of_repr_and_durations() -> None:
    control = TimeControl.of(600, byoyomi=30, periods=2)
    assert eval(repr(control), {"TimeControl": TimeControl}) == control
    assert control.main_time == timedelta(minutes=10)
    assert control.byoyomi_time == timedelta(seconds=30)
    assert control.describe() == "600 s + 30 s byoyomi x2"
    assert repr(TimeControl()) == "TimeControl.of(0)"
    assert not TimeControl().enabled
    assert TimeControl.of(0, increment=1).enabled
    assert TimeControl.of(0, increment=1).describe() == "0 s + 1 s increment"


def test_kifu_reexports_the_one_time_control() -> None:
    assert kifu_timecontrol.TimeControl is TimeControl


def test_dict_round_trip() -> None:
    control = TimeControl.of(300, byoyomi=10, increment=2, periods=3)
    assert TimeControl.from_dict(control.to_dict()) == control
    assert TimeControl.from_dict(None) == TimeControl()
    assert TimeControl.from_dict({"main": 60}) == TimeControl.of(60)


@pytest.mark.parametrize("data", [
    {"main": -1}, {"main": "5"}, {"main": True}, {"main": float("nan")}, {"main": 10 ** 7}, {"main": 10 ** 400},
    {"speed": 1}, [1, 2], "fast", {"periods": 0}, {"periods": True}, {"periods": 2.0},
])
def test_bad_time_controls(data: object) -> None:
    with pytest.raises(TimeControlError) as info:
        TimeControl.from_dict(data)
    assert info.value.code == "bad_time_control"


@pytest.mark.parametrize("kwargs", [{"main": -1.0}, {"byoyomi": float("inf")}, {"periods": 0}])
def test_construction_is_checked(kwargs: dict[str, float]) -> None:
    with pytest.raises(TimeControlError):
        TimeControl(**kwargs)  # type: ignore[arg-type]
