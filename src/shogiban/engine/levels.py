"""Strength levels 1 (beginner) to 8 (strongest): what each may search and how it errs.

Levels 1 to 4 search to a fixed depth and levels 5 to 7 a fixed number of nodes, so they play
alike at any time control that lets them finish (and alike in the compiled and the pure-Python
build, whose searches count the same nodes); they differ in depth or nodes, in the noise added
to the evaluation and in how often a capture at the root goes unseen.  Level 8 searches as deep
as the time allows.

The spacing is measured, not guessed (``benchmarks/strength.md``).  Strength grows with the
logarithm of the work: a factor of about five in nodes is one step from 2 plies up, so levels 5
to 7 are node budgets (10,000, 50,000 and 200,000) below level 8's million or more at 1 s, and
the levels below share the 1- and 2-ply searchers, split by noise and oversights.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_LEVEL = 1
MAX_LEVEL = 8


@dataclass(frozen=True, slots=True)
class LevelProfile:
    """How one level searches."""

    level: int
    """The level, 1..8."""
    max_depth: int | None
    """Deepest iteration (plies), or None for no cap."""
    max_nodes: int | None
    """Most nodes per move, or None for no cap."""
    noise: int
    """Amplitude of the evaluation noise, centipawns (0 = exact)."""
    miss_capture: float
    """Chance that each capture at the root goes unseen (a beginner's oversight)."""
    qsearch_plies: int
    """Quiescence depth: how far captures are followed after the nominal depth."""
    max_time: float | None
    """Seconds per move at most (None: what the clock allows)."""
    resigns: bool
    """Whether the level resigns when it sees itself mated."""


LEVELS: dict[int, LevelProfile] = {
    # level, depth, nodes, noise, miss capture, quiescence, max time, resigns
    1: LevelProfile(1, 1, None, 400, 0.40, 0, 0.3, False),
    2: LevelProfile(2, 1, None, 150, 0.15, 1, 0.5, False),
    3: LevelProfile(3, 1, None, 0, 0.0, 8, 1.0, False),
    4: LevelProfile(4, 2, None, 0, 0.0, 8, 2.0, True),
    5: LevelProfile(5, None, 10_000, 0, 0.0, 8, None, True),
    6: LevelProfile(6, None, 50_000, 0, 0.0, 10, None, True),
    7: LevelProfile(7, None, 200_000, 0, 0.0, 10, None, True),
    8: LevelProfile(8, None, None, 0, 0.0, 12, None, True),
}


def profile(level: int) -> LevelProfile:
    """The profile of *level*.

    :raises ValueError: if *level* is not 1..8.
    """
    if not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"invalid engine level: {level!r} (expected {MIN_LEVEL}..{MAX_LEVEL})")
    return LEVELS[level]
