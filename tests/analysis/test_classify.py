from __future__ import annotations

import pytest

from shogiban.analysis import (
    DEFAULT_THRESHOLDS,
    SHOGIHOME_THRESHOLDS,
    Label,
    Thresholds,
    classify,
    mean_accuracy,
    missed_mate,
    move_accuracy,
)
from shogiban.analysis.classify import ThresholdError
from shogiban.engines import Score


@pytest.mark.parametrize(("loss", "label"), [
    (0.0, None), (0.0999, None), (0.10, Label.INACCURACY), (0.1999, Label.INACCURACY),
    (0.20, Label.MISTAKE), (0.2999, Label.MISTAKE), (0.30, Label.BLUNDER), (1.0, Label.BLUNDER),
])
def test_default_thresholds(loss: float, label: Label | None) -> None:
    assert classify(loss) is label


def test_shogihome_thresholds_make_fewer_blunders() -> None:
    assert classify(0.35, SHOGIHOME_THRESHOLDS) is Label.MISTAKE
    assert classify(0.50, SHOGIHOME_THRESHOLDS) is Label.BLUNDER
    assert DEFAULT_THRESHOLDS.blunder < SHOGIHOME_THRESHOLDS.blunder


def test_thresholds_must_increase() -> None:
    with pytest.raises(ThresholdError) as caught:
        Thresholds(0.3, 0.2, 0.1)
    assert caught.value.code == "bad_option"
    assert isinstance(caught.value, ValueError)


def test_japanese_words() -> None:
    assert [label.japanese for label in Label] == ["疑問手", "悪手", "大悪手"]
    assert Label.from_japanese("大悪手") is Label.BLUNDER
    assert Label.from_japanese("緩手") is None


def test_accuracy_falls_with_the_loss() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    values = [move_accuracy(loss / 20) for loss in range(21)]
    assert values == sorted(values, reverse=True)
    assert move_accuracy(1.0) == 0.0
    assert mean_accuracy([]) is None
    assert mean_accuracy([0.0, 1.0]) == pytest.approx(50.0, abs=0.01)


def test_missed_mate() -> None:
    assert missed_mate(Score(mate=1), Score(cp=800))
    assert missed_mate(Score(mate=3), Score(mate=-2))
    assert not missed_mate(Score(mate=3), Score(mate=2))  # still mating
    assert not missed_mate(Score(mate=3), Score(winning=True))
    assert not missed_mate(Score(cp=3000), Score(cp=100))
    assert not missed_mate(Score(mate=-3), Score(cp=100))  # being mated is no mate to miss
    assert not missed_mate(None, Score(cp=0))
