"""Judging the moves played: the loss of win rate, a label, missed mates and accuracy.

*Loss* is what the mover's win rate was before the move (the best line's score) minus what it
is after (the next position's score), in points of 0..1, never below 0.  A move that is the
engine's best move loses nothing: the two searches differ by noise only.

Labels (:class:`Label`), by the loss (:class:`Thresholds`, default :data:`DEFAULT_THRESHOLDS`):

===========  ==========  ========  ========  =======
label        ja          zh-Hant   zh-Hans   loss >=
===========  ==========  ========  ========  =======
inaccuracy   疑問手      疑問手    疑问手    0.10
mistake      悪手        惡手      恶手      0.20
blunder      大悪手      大惡手    大恶手    0.30
===========  ==========  ========  ========  =======

ShogiHome (whose comment form the records use) has 10 / 20 / 50 points for 疑問手 / 悪手 /
大悪手 by the same logistic curve (:data:`SHOGIHOME_THRESHOLDS`); 50 points make a blunder
only of a move that turns a won game into a lost one, and giving away a bishop for nothing in
an even position (about 1200 cp, 50% to 12%) would be a mere 悪手.  The default keeps
ShogiHome's first two steps and takes Lichess's step of 10 more points for a blunder.

Accuracy of a move (Lichess's fit of win-rate loss to accuracy):
``103.1668 * exp(-0.04354 * loss_in_points) - 3.1669``, clamped to 0..100 (a loss of 0 is 100);
a player's accuracy is the mean over their judged moves.

>>> classify(0.38), classify(0.12), classify(0.05)
(<Label.BLUNDER: 'blunder'>, <Label.INACCURACY: 'inaccuracy'>, None)
>>> round(move_accuracy(0.0), 1), round(move_accuracy(0.10), 1), round(move_accuracy(0.40), 1)
(100.0, 63.6, 14.9)
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from shogiban.engines.score import Score
from shogiban.errors import ShogibanError


class Label(enum.Enum):
    """How bad a move was."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def japanese(self) -> str:
        """The word ShogiHome writes in the record (``【悪手】``)."""
        return _JAPANESE[self]

    @classmethod
    def from_japanese(cls, word: str) -> Label | None:
        """The label of a record's word (緩手 and other words: None)."""
        return _FROM_JAPANESE.get(word)


_JAPANESE = {Label.INACCURACY: "疑問手", Label.MISTAKE: "悪手", Label.BLUNDER: "大悪手"}
_FROM_JAPANESE = {word: label for label, word in _JAPANESE.items()}


class ThresholdError(ShogibanError):
    """Thresholds that are not increasing fractions."""

    code = "bad_option"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The win-rate losses (fractions, 0..1) from which a move is each label."""

    inaccuracy: float = 0.10
    mistake: float = 0.20
    blunder: float = 0.30

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 1:
            raise ThresholdError(f"invalid thresholds: {self} (need 0 < inaccuracy <= mistake <= blunder <= 1)")


DEFAULT_THRESHOLDS = Thresholds()
SHOGIHOME_THRESHOLDS = Thresholds(0.10, 0.20, 0.50)


def classify(loss: float, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> Label | None:
    """The label of a move that lost *loss* of win rate, or None for a good enough move."""
    if loss >= thresholds.blunder:
        return Label.BLUNDER
    if loss >= thresholds.mistake:
        return Label.MISTAKE
    if loss >= thresholds.inaccuracy:
        return Label.INACCURACY
    return None


def move_accuracy(loss: float) -> float:
    """The accuracy (0..100) of a move that lost *loss* (0..1) of win rate."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss) * 100) - 3.1669
    return max(0.0, min(100.0, value))


def mean_accuracy(losses: list[float]) -> float | None:
    """A player's accuracy: the mean of :func:`move_accuracy` over *losses* (None without any)."""
    if not losses:
        return None
    return sum(move_accuracy(loss) for loss in losses) / len(losses)


def missed_mate(before: Score | None, after: Score | None) -> bool:
    """Whether a mate was missed: the mover could mate before the move (*before*, the mover's
    side) and does not keep a mate after it (*after*, the mover's side)."""
    if before is None or after is None or not (before.is_mate() and before.winning):
        return False
    return not (after.is_mate() and after.winning)


__all__ = [
    "DEFAULT_THRESHOLDS",
    "SHOGIHOME_THRESHOLDS",
    "Label",
    "ThresholdError",
    "Thresholds",
    "classify",
    "mean_accuracy",
    "missed_mate",
    "move_accuracy",
]
