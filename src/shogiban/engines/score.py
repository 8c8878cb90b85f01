"""Evaluations: :class:`Score` (centipawns or a mate, for one side), :class:`PovScore` (a score
with the side it is relative to) and win rates.

>>> score = PovScore(Score(cp=-120), Color.WHITE)  # gote to move, gote 1.2 pawns behind
>>> score.black(), score.white(), score.pov(Color.BLACK).cp
(Score(cp=120), Score(cp=-120), 120)
>>> round(score.win_rate(Color.BLACK), 3), PovScore(Score(mate=-3), Color.BLACK).win_rate(Color.BLACK)
(0.55, 0.0)

Win rates: the default model is the logistic curve ``1 / (1 + exp(-cp / 600))``, the empirical
fit of evaluation to win rate that Ponanza's developer published from engines' fast self-play
games, and that shogi GUIs and engine users quote since: +300 cp is a 62% win rate, +800 cp 79%,
+1500 cp 92%.  A mate is 1.0 for the side that mates and 0.0 for the side mated.  Pass another
:class:`WinRateModel` (``LogisticWinRate(scale=...)``, or your own fit, e.g. for human games) to
change it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from shogiban.pieces import Color


class WinRateModel(Protocol):
    """Turns a :class:`Score` into the probability (0..1) that its side wins."""

    def win_rate(self, score: Score) -> float:
        """The win rate of the side *score* is relative to."""
        ...  # pragma: no cover - protocol


@dataclass(frozen=True, slots=True)
class LogisticWinRate:
    """``1 / (1 + exp(-cp / scale))``; a mate is 1.0 or 0.0 whatever its distance.

    >>> LogisticWinRate(scale=600).win_rate(Score(cp=0))
    0.5
    """

    scale: float = 600.0
    """Centipawns of advantage that make a win rate of 1 / (1 + e^-1), about 73%."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError(f"invalid win-rate scale: {self.scale!r} (must be a positive number)")

    def win_rate(self, score: Score) -> float:
        """See :class:`WinRateModel`."""
        if score.cp is None:
            return 1.0 if score.winning else 0.0
        # exp overflows past about 709: the rate is 0 or 1 to double precision long before.
        x = max(-700.0, min(700.0, -score.cp / self.scale))
        return 1.0 / (1.0 + math.exp(x))


DEFAULT_WIN_RATE = LogisticWinRate()
"""The default win-rate model: logistic, 600 centipawns scale (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Score:
    """An evaluation from the point of view of one side (the side to move, as engines report it).

    Either centipawns (``cp``) or a mate: ``mate`` is the distance in plies, positive when this
    side mates and negative when it is mated.  ``score mate +`` / ``score mate -`` (distance
    unknown, allowed by Shogidokoro) give ``mate=None`` with ``winning`` set.

    >>> Score(cp=-35), Score(mate=3), -Score(mate=3)
    (Score(cp=-35), Score(mate=3), Score(mate=-3))
    """

    cp: int | None = None
    """Centipawns, or None for a mate score."""
    mate: int | None = None
    """Plies to mate (signed), or None for a centipawn score or an unknown distance."""
    winning: bool | None = None
    """For mate scores: whether this side is the one mating; None for centipawn scores."""
    lowerbound: bool = False
    """The true score is at least this (the engine failed high)."""
    upperbound: bool = False
    """The true score is at most this (the engine failed low)."""

    def __post_init__(self) -> None:
        if self.cp is not None and (self.mate is not None or self.winning is not None):
            raise ValueError(f"invalid score: cp={self.cp!r} with a mate")
        if self.mate is not None and self.winning is None:
            object.__setattr__(self, "winning", self.mate > 0)
        if self.cp is None and self.winning is None:
            raise ValueError("invalid score: neither cp nor mate given")

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.cp is None

    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate counts as ``±(mate_score - plies)`` if *mate_score* is given, else None."""
        if self.cp is not None:
            return self.cp
        if mate_score is None:
            return None
        plies = abs(self.mate) if self.mate is not None else 0
        return mate_score - plies if self.winning else -(mate_score - plies)

    def win_rate(self, *, model: WinRateModel = DEFAULT_WIN_RATE) -> float:
        """The probability (0..1) that this side wins, by *model* (see the module docstring).

        >>> round(Score(cp=600).win_rate(), 4), Score(mate=-1).win_rate()
        (0.7311, 0.0)
        """
        return model.win_rate(self)

    def __neg__(self) -> Score:
        if self.cp is not None:
            return Score(cp=-self.cp, lowerbound=self.upperbound, upperbound=self.lowerbound)
        mate = -self.mate if self.mate is not None else None
        return Score(mate=mate, winning=not self.winning, lowerbound=self.upperbound, upperbound=self.lowerbound)

    def usi(self) -> str:
        """The USI text, e.g. ``'cp 35'``, ``'mate -4'``, ``'mate +'``."""
        if self.cp is not None:
            text = f"cp {self.cp}"
        elif self.mate is None:
            text = "mate +" if self.winning else "mate -"
        elif self.mate == 0 and not self.winning:
            text = "mate -0"
        else:
            text = f"mate {self.mate:+d}" if self.mate < 0 else f"mate {self.mate}"
        if self.lowerbound:
            text += " lowerbound"
        if self.upperbound:
            text += " upperbound"
        return text

    def __repr__(self) -> str:
        parts = [f"cp={self.cp}"] if self.cp is not None else []
        if self.cp is None:
            parts.append(f"mate={self.mate}" if self.mate is not None else f"winning={self.winning}")
        if self.lowerbound:
            parts.append("lowerbound=True")
        if self.upperbound:
            parts.append("upperbound=True")
        return f"Score({', '.join(parts)})"


@dataclass(frozen=True, slots=True, eq=False)
class PovScore:
    """A :class:`Score` relative to the side *turn* (engines report scores for the side to move).

    Two PovScores are equal when they say the same for sente, whichever side each is relative to.
    """

    relative: Score
    """The score from *turn*'s point of view."""
    turn: Color
    """The side the score is relative to (the side to move in the searched position)."""

    def pov(self, color: Color) -> Score:
        """The score from *color*'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def black(self) -> Score:
        """The score from sente's (先手) point of view."""
        return self.pov(Color.BLACK)

    def white(self) -> Score:
        """The score from gote's (後手) point of view."""
        return self.pov(Color.WHITE)

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.relative.is_mate()

    def win_rate(self, color: Color, *, model: WinRateModel = DEFAULT_WIN_RATE) -> float:
        """The probability (0..1) that *color* wins, by *model*."""
        return self.pov(color).win_rate(model=model)

    def __neg__(self) -> PovScore:
        return PovScore(-self.relative, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.black() == other.black()

    def __hash__(self) -> int:
        return hash(self.black())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, Color.{Color(self.turn).name})"


__all__ = ["DEFAULT_WIN_RATE", "LogisticWinRate", "PovScore", "Score", "WinRateModel"]
