"""What a search reports: progress (:class:`SearchInfo`) and its answer (:class:`SearchResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from shogiban.move import Move


@dataclass
class SearchInfo:
    """Progress of a search (USI ``info``): after each completed iteration, at least every second
    in a long one, and the line of the move chosen, last."""

    depth: int
    """Nominal depth of the iteration, plies."""
    seldepth: int
    """Deepest ply reached, quiescence included."""
    nodes: int
    """Nodes searched so far."""
    time: float
    """Seconds since the search started."""
    nps: int
    """Nodes per second."""
    score_cp: int | None
    """Score in centipawns for the side to move (None when a mate is announced)."""
    score_mate: int | None
    """Mate in plies: positive when the side to move mates, negative when it is mated."""
    pv: list[Move] = field(default_factory=list)
    """Principal variation, starting with the best move."""
    lowerbound: bool = False
    """The score is only a lower bound (the move failed high in an interrupted iteration)."""
    complete: bool = True
    """Whether the iteration *depth* finished; False for a report from inside one (the best move
    so far of an interrupted or long iteration)."""


@dataclass
class SearchResult:
    """The engine's answer for one position."""

    move: Move | None
    """The move to play; None means resign."""
    ponder: Move | None = None
    """The expected reply, if known."""
    declare_win: bool = False
    """Declare an entering-king win instead of moving (USI ``bestmove win``)."""
    info: SearchInfo | None = None
    """The last progress report."""
