"""Strength levels 1 (beginner) to 8 (strongest): what each may search and how it errs.

Levels 1 to 7 search to a fixed depth, so they play alike at any time control that lets them
finish; they differ in depth, in the noise added to the evaluation, in how often a capture at
the root goes unseen and in how often level 6 looks a ply less.  Level 8 searches as deep as
the time allows.

The spacing is measured, not guessed: at 1 s a move each level scores at least 70% against the
one below (``benchmarks/strength.md``).  One more ply is worth far more at shallow depth (2
plies beat 1 in every game) than deep (4 against 3 scored 70%), so the lower levels split the
1-ply searcher by noise and oversights, and the upper ones are a ply or more apart.
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
    hurry: float = 0.0
    """Chance of searching one ply less than ``max_depth`` for a move (a hasty look)."""


LEVELS: dict[int, LevelProfile] = {
    # level, depth, nodes, noise, miss capture, quiescence, max time, resigns, hurry
    1: LevelProfile(1, 1, None, 400, 0.40, 0, 0.3, False),
    2: LevelProfile(2, 1, None, 150, 0.15, 1, 0.5, False),
    3: LevelProfile(3, 1, None, 130, 0.08, 8, 1.0, False),
    4: LevelProfile(4, 1, None, 0, 0.0, 8, 1.0, False),
    5: LevelProfile(5, 2, None, 0, 0.0, 8, 2.0, True),
    6: LevelProfile(6, 3, None, 0, 0.0, 8, None, True, hurry=0.4),
    7: LevelProfile(7, 4, None, 0, 0.0, 10, None, True),
    8: LevelProfile(8, None, None, 0, 0.0, 12, None, True),
}


def profile(level: int) -> LevelProfile:
    """The profile of *level*.

    :raises ValueError: if *level* is not 1..8.
    """
    if not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"invalid engine level: {level!r} (expected {MIN_LEVEL}..{MAX_LEVEL})")
    return LEVELS[level]
