"""What an analysis knows about one position: :class:`Line` (one principal variation) and
:class:`PositionAnalysis` (the lines of a position, best first), with scores from sente's side.

Scores are stored from sente's (先手) point of view, whoever is to move, as records write them
(``#評価値=``, floodgate ``'**``): a graph of the game is then one curve.

>>> line = Line(Score(cp=-35), (Move.from_usi("3c3d"),), depth=4, nodes=900)
>>> pos = PositionAnalysis("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", Color.WHITE, (line,))
>>> pos.score, pos.best_move, round(pos.win_rate(), 3)
(Score(cp=-35), Move.from_usi('3c3d'), 0.485)
>>> PositionAnalysis.from_json(pos.to_json()) == pos
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shogiban.board import Board
from shogiban.engines.results import InfoDict
from shogiban.engines.score import DEFAULT_WIN_RATE, Score, WinRateModel
from shogiban.errors import ShogibanError
from shogiban.move import Move
from shogiban.notation.excerpt import excerpt
from shogiban.pieces import Color


class AnalysisDataError(ShogibanError):
    """Analysis data (JSON, a cache entry) that cannot be read."""

    code = "bad_record"


def position_key(board: Board) -> str:
    """The position's SFEN without the move number: the same position reached at another ply
    (or in another game) has the same key."""
    return board.sfen(move_number=False)


@dataclass(frozen=True, slots=True)
class Line:
    """One principal variation: its score from sente's side, its moves, and the search's size."""

    score: Score
    """The score from sente's point of view."""
    pv: tuple[Move, ...] = ()
    """The moves of the line, from the position."""
    depth: int | None = None
    nodes: int | None = None
    multipv: int = 1
    """The line's rank (1 is the best)."""

    def to_json(self) -> dict[str, Any]:
        """The line as JSON data (moves in USI)."""
        data: dict[str, Any] = {"score": score_to_json(self.score), "pv": [m.usi() for m in self.pv]}
        if self.depth is not None:
            data["depth"] = self.depth
        if self.nodes is not None:
            data["nodes"] = self.nodes
        data["multipv"] = self.multipv
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Line:
        """The line *data* holds (see :meth:`to_json`).

        :raises AnalysisDataError: if it is not a line.
        """
        try:
            pv = tuple(Move.from_usi(text) for text in data.get("pv", ()))
            depth, nodes = data.get("depth"), data.get("nodes")
            return cls(score_from_json(data["score"]), pv, depth=None if depth is None else int(depth),
                       nodes=None if nodes is None else int(nodes), multipv=int(data.get("multipv", 1)))
        except (AttributeError, KeyError, OverflowError, TypeError, ValueError) as error:
            raise AnalysisDataError(f"invalid analysis line: {excerpt(repr(data))}") from error


def score_to_json(score: Score) -> dict[str, Any]:
    """``{"cp": 35}``, ``{"mate": 3}``, or ``{"mate": null, "winning": true}`` for an unknown distance."""
    if score.cp is not None:
        return {"cp": score.cp}
    return {"mate": score.mate, "winning": bool(score.winning)}


def score_from_json(data: Mapping[str, Any]) -> Score:
    """The score :func:`score_to_json` wrote.

    :raises AnalysisDataError: if it is not one.
    """
    try:
        if data.get("cp") is not None:
            return Score(cp=int(data["cp"]))
        mate = data.get("mate")
        if mate is None:
            return Score(winning=bool(data["winning"]))
        return Score(mate=int(mate), winning=bool(data.get("winning", int(mate) > 0)))
    except (AttributeError, KeyError, OverflowError, TypeError, ValueError) as error:
        raise AnalysisDataError(f"invalid score: {excerpt(repr(data))}") from error


@dataclass(frozen=True, slots=True)
class PositionAnalysis:
    """The analysis of one position: its lines, best first (empty when nothing is known)."""

    key: str
    """The position (:func:`position_key`)."""
    turn: Color
    """The side to move."""
    lines: tuple[Line, ...] = ()
    engine: str | None = None
    """The engine's name, when known."""
    terminal: bool = field(default=False, compare=False)
    """The side to move is checkmated: nothing was searched."""

    @property
    def best(self) -> Line | None:
        """The best line, if any."""
        return self.lines[0] if self.lines else None

    @property
    def score(self) -> Score | None:
        """The score from sente's side, if known."""
        return self.lines[0].score if self.lines else None

    @property
    def best_move(self) -> Move | None:
        """The engine's move, if it gave one."""
        return self.lines[0].pv[0] if self.lines and self.lines[0].pv else None

    @property
    def pv(self) -> tuple[Move, ...]:
        """The best line's moves."""
        return self.lines[0].pv if self.lines else ()

    @property
    def depth(self) -> int | None:
        return self.lines[0].depth if self.lines else None

    @property
    def nodes(self) -> int | None:
        return self.lines[0].nodes if self.lines else None

    def pov(self, color: Color) -> Score | None:
        """The score from *color*'s side, if known."""
        score = self.score
        if score is None:
            return None
        return score if color == Color.BLACK else -score

    def win_rate(self, color: Color = Color.BLACK, *, model: WinRateModel = DEFAULT_WIN_RATE) -> float | None:
        """*color*'s win rate (0..1) by *model*, if the score is known."""
        score = self.pov(color)
        return None if score is None else model.win_rate(score)

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON data."""
        data: dict[str, Any] = {"sfen": self.key, "lines": [line.to_json() for line in self.lines]}
        if self.engine is not None:
            data["engine"] = self.engine
        if self.terminal:
            data["terminal"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PositionAnalysis:
        """The analysis :meth:`to_json` wrote.

        :raises AnalysisDataError: if it is not one.
        """
        try:
            key = str(data["sfen"])
            turn = Color.WHITE if key.split()[1] == "w" else Color.BLACK
            lines = tuple(Line.from_json(line) for line in data.get("lines", ()))
        except (AttributeError, KeyError, IndexError, TypeError) as error:
            raise AnalysisDataError(f"invalid position analysis: {excerpt(repr(data))}") from error
        engine = data.get("engine")
        return cls(key, turn, lines, None if engine is None else str(engine), terminal=bool(data.get("terminal")))


def lines_from_infos(board: Board, infos: Iterable[InfoDict]) -> tuple[Line, ...]:
    """Lines (sente's side) from an engine's final infos for *board*, best first; infos without a
    score are left out, and moves of a line that are not legal end it (engines send stale PVs)."""
    lines: list[Line] = []
    for rank, info in enumerate(infos, 1):
        pov = info.get("score")
        if pov is None:
            continue
        lines.append(Line(pov.black(), checked_pv(board, info.get("pv", ())), depth=info.get("depth"),
                          nodes=info.get("nodes"), multipv=info.get("multipv", rank)))
    lines.sort(key=lambda line: line.multipv)
    return tuple(lines)


def checked_pv(board: Board, moves: Iterable[Move]) -> tuple[Move, ...]:
    """The longest start of *moves* that is legal from *board*."""
    copy = board.copy(stack=False)
    kept: list[Move] = []
    for move in moves:
        if not copy.is_legal(move):
            break
        copy.push(move)
        kept.append(move)
    return tuple(kept)


def terminal_analysis(board: Board, engine: str | None = None) -> PositionAnalysis | None:
    """The analysis of a checkmated position (the side to move is mated now), else None."""
    if not board.is_checkmate():
        return None
    lost = Score(mate=0, winning=False)
    score = lost if board.turn == Color.BLACK else -lost
    return PositionAnalysis(position_key(board), board.turn, (Line(score),), engine, terminal=True)


__all__ = [
    "AnalysisDataError",
    "Line",
    "PositionAnalysis",
    "checked_pv",
    "lines_from_infos",
    "position_key",
    "score_from_json",
    "score_to_json",
    "terminal_analysis",
]
