"""What engines answer: search information (:class:`InfoDict`), a move (:class:`PlayResult`) and a
mate search's result (:class:`MateResult`), the same for the built-in engine and USI engines."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias, TypedDict

from shogiban.engines.score import PovScore
from shogiban.move import Move


class InfoDict(TypedDict, total=False):
    """What an engine said about a line (USI ``info``); every key is optional.

    ``score`` is relative to the side to move of the searched position (a :class:`PovScore`:
    ``info["score"].black()`` is sente's view); ``time`` is in seconds; ``multipv`` is the rank of
    the line (1 is the best), present when several lines were asked for.
    """

    score: PovScore
    pv: list[Move]
    depth: int
    seldepth: int
    time: float
    nodes: int
    nps: int
    hashfull: int
    multipv: int
    currmove: Move
    currmovenumber: int
    tbhits: int
    cpuload: int
    string: str


@dataclass(slots=True)
class PlayResult:
    """An engine's answer for one position: a move, or a resignation, or an entering-king declaration."""

    move: Move | None
    """The move played, or None for a resignation (``bestmove resign``) or a declaration (``bestmove win``)."""
    ponder: Move | None = None
    """The reply the engine expects (checked to be legal after ``move``)."""
    info: InfoDict = field(default_factory=lambda: InfoDict())
    """The last information about the line played (principal variation 1)."""
    resigned: bool = False
    """The engine resigns (``bestmove resign``)."""
    declared_win: bool = False
    """``bestmove win``: the engine declares an entering-king (入玉) win; the caller checks the rule."""

    def usi(self) -> str:
        """The ``bestmove`` argument: a USI move, ``'resign'`` or ``'win'``."""
        if self.resigned:
            return "resign"
        if self.declared_win:
            return "win"
        return self.move.usi() if self.move is not None else "resign"


MateStatus: TypeAlias = Literal["mate", "nomate", "timeout", "notimplemented"]


@dataclass(frozen=True, slots=True)
class MateResult:
    """The answer to a mate search (USI ``go mate``, or the built-in tsume solver)."""

    status: MateStatus
    """``'mate'`` (``moves`` is the mating line), ``'nomate'`` (the engine proved there is none),
    ``'timeout'`` or ``'notimplemented'``."""
    moves: tuple[Move, ...] = ()
    """The mating line from the position, attacker's moves first (checked to be legal and to mate)."""

    @property
    def length(self) -> int:
        """Number of plies of the mating line (0 unless ``status == 'mate'``)."""
        return len(self.moves)


__all__ = ["InfoDict", "MateResult", "MateStatus", "PlayResult"]
