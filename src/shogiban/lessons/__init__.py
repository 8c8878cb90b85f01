"""Lessons and mate problems for learners (the web "Learn" and "Puzzles" pages).

* :mod:`shogiban.lessons.content` -- the rules lessons (``lessons.toml``): pieces, promotion,
  drops and the forbidden drops, check and mate, repetition, entering king.
* :mod:`shogiban.lessons.puzzles` -- 1-, 3-, 5- and 7-move tsume checked with the solver.
* :mod:`shogiban.lessons.targets` -- the move targets the web board offers.

>>> from shogiban.lessons import lesson_index
>>> [lesson["id"] for lesson in lesson_index("en")][:3]
['king', 'rook', 'bishop']
"""

from __future__ import annotations

from shogiban.lessons.content import UnknownLessonError, get_lesson, lesson_index, load_lessons, render_lesson, try_move
from shogiban.lessons.puzzles import (
    BadLineError,
    Puzzle,
    PuzzleChecker,
    UnknownPuzzleError,
    get_puzzle,
    load_puzzles,
    puzzles_by_length,
)

__all__ = [
    "BadLineError",
    "Puzzle",
    "PuzzleChecker",
    "UnknownLessonError",
    "UnknownPuzzleError",
    "get_lesson",
    "get_puzzle",
    "lesson_index",
    "load_lessons",
    "load_puzzles",
    "puzzles_by_length",
    "render_lesson",
    "try_move",
]
