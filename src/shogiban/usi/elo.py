"""Elo difference from a match score, with a 95% error margin and the likelihood of superiority.

The model is the usual one of engine testers (cutechess-cli, fishtest's trinomial): the mean
score per game ``s`` gives ``elo = -400 log10(1/s - 1)``; the margin comes from the standard error
of the per-game scores (wins 1, draws 1/2, losses 0) mapped through the same curve; LOS is
``Phi((W - L) / sqrt(W + L))`` (draws carry no information about who is better).

>>> e = elo_estimate(wins=60, losses=40, draws=0)
>>> round(e.elo, 1), round(e.margin, 1), round(e.los, 3)
(70.4, 70.6, 0.977)
>>> elo_estimate(2, 0, 0).elo
inf

A score near 100% has no upper bound: the interval says so instead of an infinite margin.

>>> str(elo_estimate(18, 2, 0))
'Elo difference: +381.7 (95%: +208.5 to +inf), LOS: 100.0 %'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def elo_of_score(score: float) -> float:
    """Elo difference that gives the mean *score* (0..1); ±inf at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0" for an even score


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference (first player minus second) and how sure it is."""

    elo: float
    """Estimated difference (±inf after a shut-out, 0 with no games)."""
    margin: float
    """Half the width of the 95% interval (inf when it cannot be bounded, nan with no games)."""
    los: float
    """Likelihood of superiority: the probability that the first player is the stronger, 0..1."""
    score: float
    """Mean score per game of the first player (0..1; nan with no games)."""
    low: float = math.nan
    """Lower end of the 95% interval (-inf when unbounded, nan with no games)."""
    high: float = math.nan
    """Upper end of the 95% interval (+inf when unbounded, nan with no games)."""

    def interval(self, digits: int = 1) -> str:
        """The estimate with its 95% interval: ``+70.4 +/- 70.6`` when it has a margin, else
        ``+381.7 (95%: +208.5 to +inf)`` when one end only is unbounded (the other still informs)."""
        if math.isfinite(self.low) == math.isfinite(self.high):
            return f"{_signed(self.elo, digits)} +/- {_plain(self.margin, digits)}"
        return f"{_signed(self.elo, digits)} (95%: {_signed(self.low, digits)} to {_signed(self.high, digits)})"

    def __str__(self) -> str:
        return f"Elo difference: {self.interval()}, LOS: {100 * self.los:.1f} %"


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate:
    """The :class:`EloEstimate` of a score of *wins*, *losses* and *draws* (first player's view)."""
    games = wins + losses + draws
    decisive = wins + losses
    los = 0.5 if decisive == 0 else 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * decisive)))
    if games == 0:
        return EloEstimate(0.0, math.nan, los, math.nan)
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    spread = Z95 * math.sqrt(variance / games)
    low, high = elo_of_score(score - spread), elo_of_score(score + spread)
    margin = (high - low) / 2 if math.isfinite(low) and math.isfinite(high) else math.inf
    return EloEstimate(elo_of_score(score), margin, los, score, low, high)


def _signed(value: float, digits: int = 1) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.{digits}f}"


def _plain(value: float, digits: int = 1) -> str:
    return "inf" if math.isinf(value) else ("nan" if math.isnan(value) else f"{value:.{digits}f}")
