"""Explicit bounds on what a reader accepts: :class:`ReadLimits` and :class:`KifuLimitError`.

Every reader takes ``limits=ReadLimits(...)``; the defaults (:data:`DEFAULT_LIMITS`) are generous
(far beyond any real record) and a server passes tighter ones.  Exceeding a limit stops reading
with a :class:`KifuLimitError` (``code == "too_large"``, ``limit`` naming the bound) in lenient
mode too: a record is never silently cut short.

>>> limits = ReadLimits(max_moves=2)
>>> from shogiban.kifu import read_game
>>> read_game("position startpos moves 7g7f 3c3d 2g2f", limits=limits)
Traceback (most recent call last):
...
shogiban.kifu.read_limits.KifuLimitError: line 1: record too large: more than 2 moves (max_moves)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shogiban.errors import KifuParseError

__all__ = ["DEFAULT_LIMITS", "KifuLimitError", "ReadBudget", "ReadLimits"]


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """Bounds a reader enforces.  Each is a maximum; exceeding one raises :class:`KifuLimitError`."""

    max_input: int = 64_000_000
    """Characters of text (bytes, when the record is given as bytes or a file)."""
    max_line: int = 1_000_000
    """Characters of one line, for the line-based formats (KIF, KI2, CSA, USI, SFEN, BOD; a USEN
    record and a JKF document may be one long line and are bounded by :attr:`max_input`)."""
    max_moves: int = 2_000_000
    """Moves and results in the whole tree, every variation included."""
    max_variations: int = 200_000
    """Alternatives (nodes that are not the first continuation of their parent)."""
    max_comment: int = 4_000_000
    """Characters of the comment of one node."""
    max_comments: int = 32_000_000
    """Characters of all comments together."""
    max_errors: int = 10_000
    """Problems a lenient reader records before it gives up."""


#: The library's defaults.
DEFAULT_LIMITS: Final = ReadLimits()


class KifuLimitError(KifuParseError):
    """A record exceeds one of the :class:`ReadLimits`; ``limit`` is the field's name."""

    code = "too_large"

    def __init__(self, message: str, limit: str, lineno: int | None = None, line: str | None = None) -> None:
        super().__init__(message, lineno, line)
        self.limit = limit


def too_large(what: str, limit: str, bound: int, lineno: int | None = None, line: str | None = None) -> KifuLimitError:
    """The error for exceeding *limit* (a :class:`ReadLimits` field, at most *bound* of *what*)."""
    where = f"line {lineno}: " if lineno is not None else ""
    return KifuLimitError(f"{where}record too large: more than {bound} {what} ({limit})", limit, lineno, line)


class ReadBudget:
    """What one read has used of its :class:`ReadLimits`, shared by the games of a file that
    holds several (CSA ``/`` sections, USI lines, SFEN lists)."""

    __slots__ = ("comments", "errors", "limits", "nodes", "variations")

    def __init__(self, limits: ReadLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.nodes = 0
        self.variations = 0
        self.comments = 0
        self.errors = 0

    def add_node(self, *, alternative: bool, lineno: int | None = None, line: str | None = None) -> None:
        """Count a move or result (*alternative*: not its parent's first continuation) read
        from *line*.

        :raises KifuLimitError: past ``max_moves`` or ``max_variations``.
        """
        limits = self.limits
        self.nodes += 1
        if self.nodes > limits.max_moves:
            raise too_large("moves", "max_moves", limits.max_moves, lineno, line)
        if alternative:
            self.variations += 1
            if self.variations > limits.max_variations:
                raise too_large("variations", "max_variations", limits.max_variations, lineno, line)

    def add_comment(self, size: int) -> None:
        """Count *size* characters of comments.

        :raises KifuLimitError: past ``max_comments``.
        """
        self.comments += size
        if self.comments > self.limits.max_comments:
            raise too_large("characters of comments", "max_comments", self.limits.max_comments)

    def add_error(self, lineno: int | None = None, line: str | None = None) -> None:
        """Count a recorded problem.

        :raises KifuLimitError: past ``max_errors``.
        """
        self.errors += 1
        if self.errors > self.limits.max_errors:
            raise too_large("problems", "max_errors", self.limits.max_errors, lineno, line)

    def forget_error(self) -> None:
        """A recorded problem was withdrawn."""
        self.errors -= 1
