"""A game's analysis: :class:`GameAnalysis` holds a :class:`PositionAnalysis` for each node of
the record that was analysed and a :class:`MoveAnalysis` for each move between two of them.

How a move's loss is measured (:func:`judge_move`), in this order:

1. a :class:`Confirmation` (the position before re-searched to a larger limit, see
   :class:`~shogiban.analysis.Analyser`): the best line's score minus the played move's, both
   from that search;
2. else, when the move played is one of the position's MultiPV lines: the best line's score
   minus that line's, both from the same search;
3. else the best line's score minus the score of the position after the move.

A move that is the best line's first move loses nothing.

Key moments are the moves of the main line with the largest swings of sente's win rate (of at
least 5 points).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from shogiban.analysis.classify import (
    DEFAULT_THRESHOLDS,
    Label,
    Thresholds,
    classify,
    mean_accuracy,
    missed_mate,
    move_accuracy,
)
from shogiban.analysis.positions import Line, PositionAnalysis, score_to_json
from shogiban.board import Board
from shogiban.engines.score import DEFAULT_WIN_RATE, WinRateModel
from shogiban.errors import ShogibanError
from shogiban.kifu.game import Game, GameNode
from shogiban.move import Move
from shogiban.pieces import Color


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """The judgment of one move played: win rates are the mover's."""

    node: GameNode = field(repr=False, compare=False)
    """The record's node of the move."""
    ply: int
    move: Move
    mover: Color
    before: PositionAnalysis = field(repr=False)
    after: PositionAnalysis = field(repr=False)
    win_rate_before: float
    win_rate_after: float
    loss: float
    """Win rate lost by the move (0..1, never negative)."""
    label: Label | None
    missed_mate: bool
    accuracy: float
    """The move's accuracy, 0..100 (see :func:`~shogiban.analysis.classify.move_accuracy`)."""
    first_loss: float | None = None
    """The loss measured by the first searches, when a :class:`Confirmation` replaced it."""
    confirmation: Confirmation | None = field(default=None, repr=False)
    """The re-search that decided the loss and the label, if the move was a candidate mistake."""

    @property
    def best_move(self) -> Move | None:
        """The engine's move in the position before."""
        return self.before.best_move

    @property
    def is_best(self) -> bool:
        """Whether the move played is the engine's."""
        return self.before.best_move == self.move

    @property
    def swing(self) -> float:
        """The change of sente's win rate across the move (signed)."""
        sign = 1.0 if self.mover == Color.BLACK else -1.0
        return sign * (self.win_rate_after - self.win_rate_before)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A candidate mistake's position before, searched again to a larger *limit*: its best line
    and the played move's line, both from one search where the engine allows it (scores are
    sente's, as in :class:`Line`)."""

    limit: str
    """The larger limit, as text (``depth 8``)."""
    best: Line
    played: Line
    same_search: bool = True
    """Whether both lines come from one search (MultiPV, or ``searchmoves`` with the best move
    and the move played); else *played* is the search of the position after the move."""

    def loss(self, mover: Color, model: WinRateModel = DEFAULT_WIN_RATE) -> float:
        """The mover's loss of win rate by this search (0 when the move played is its best)."""
        if self.best.pv and self.played.pv and self.best.pv[0] == self.played.pv[0]:
            return 0.0
        sign = 1 if mover == Color.BLACK else -1
        best = model.win_rate(self.best.score if sign > 0 else -self.best.score)
        played = model.win_rate(self.played.score if sign > 0 else -self.played.score)
        return max(0.0, best - played)

    def to_json(self) -> dict[str, Any]:
        return {"limit": self.limit, "best": self.best.to_json(), "played": self.played.to_json(),
                "same_search": self.same_search}


def played_line(before: PositionAnalysis, move: Move) -> Line | None:
    """The line of *before*'s search that starts with *move*, if the search gave one."""
    return next((line for line in before.lines if line.pv and line.pv[0] == move), None)


def first_loss(before: PositionAnalysis, after: PositionAnalysis, move: Move,
               model: WinRateModel = DEFAULT_WIN_RATE) -> float | None:
    """The loss by the first searches (steps 2 and 3 of the module docstring), None if a score
    is unknown."""
    mover = before.turn
    score_before = before.pov(mover)
    if score_before is None:
        return None
    if before.best_move == move:
        return 0.0
    line = played_line(before, move)
    if line is not None:
        played = line.score if mover == Color.BLACK else -line.score
    else:
        after_score = after.pov(mover)
        if after_score is None:
            return None
        played = after_score
    return max(0.0, model.win_rate(score_before) - model.win_rate(played))


def judge_move(
    node: GameNode, before: PositionAnalysis, after: PositionAnalysis, *,
    model: WinRateModel = DEFAULT_WIN_RATE, thresholds: Thresholds = DEFAULT_THRESHOLDS, ply: int | None = None,
    confirmation: Confirmation | None = None,
) -> MoveAnalysis | None:
    """The judgment of *node*'s move between the analyses of the positions around it, or None
    if either score is unknown.  *ply* is the node's, when known (else counted).  With a
    *confirmation* the loss, the label and a missed mate are that search's (see the module
    docstring)."""
    move = node.move
    if move is None:
        return None
    mover = before.turn
    score_before, score_after = before.pov(mover), after.pov(mover)
    if score_before is None or score_after is None:
        return None
    rate_before, rate_after = model.win_rate(score_before), model.win_rate(score_after)
    loss = first_loss(before, after, move, model)
    assert loss is not None
    best = before.best_move == move
    missed = not best and missed_mate(score_before, score_after)
    earlier: float | None = None
    if confirmation is not None:
        earlier, loss = loss, confirmation.loss(mover, model)
        sign = 1 if mover == Color.BLACK else -1
        confirmed_best = confirmation.best.score if sign > 0 else -confirmation.best.score
        confirmed_played = confirmation.played.score if sign > 0 else -confirmation.played.score
        missed = loss > 0 and missed_mate(confirmed_best, confirmed_played)
    return MoveAnalysis(
        node=node, ply=node.ply() if ply is None else ply, move=move, mover=mover, before=before, after=after,
        win_rate_before=rate_before, win_rate_after=rate_after, loss=loss,
        label=classify(loss, thresholds), missed_mate=missed, accuracy=move_accuracy(loss),
        first_loss=earlier, confirmation=confirmation,
    )


class GameAnalysis:
    """The analysis of a record: positions by node, and the judged moves."""

    def __init__(
        self,
        game: Game,
        positions: Mapping[GameNode, PositionAnalysis],
        *,
        engine: str | None = None,
        limit: str | None = None,
        model: WinRateModel = DEFAULT_WIN_RATE,
        thresholds: Thresholds = DEFAULT_THRESHOLDS,
        cancelled: bool = False,
        confirmations: Mapping[GameNode, Confirmation] | None = None,
        confirm_limit: str | None = None,
    ) -> None:
        self.game = game
        self.positions: dict[GameNode, PositionAnalysis] = dict(positions)
        """The analysis of each analysed node (the root is the start position)."""
        self.engine = engine
        self.limit = limit
        """The per-position limit, as text (``depth 4``), when known."""
        self.model = model
        self.thresholds = thresholds
        self.cancelled = cancelled
        """The analysis was stopped before the end: some positions are missing (and candidate
        mistakes may be left unconfirmed)."""
        self.confirm_limit = confirm_limit
        """The larger limit candidate mistakes were searched again to, as text (None: no re-search)."""
        self.confirmations: dict[GameNode, Confirmation] = dict(confirmations or {})
        self.moves: dict[GameNode, MoveAnalysis] = {}
        """The judgment of each move whose positions before and after were analysed."""
        plies = plies_of(self.positions)
        for node, after in self.positions.items():
            parent = node.parent
            if parent is None or node.move is None or parent not in self.positions:
                continue
            judged = judge_move(node, self.positions[parent], after, model=model, thresholds=thresholds,
                                ply=plies[node], confirmation=self.confirmations.get(node))
            if judged is not None:
                self.moves[node] = judged

    # -- the main line -------------------------------------------------------------------------

    def mainline_nodes(self) -> list[GameNode]:
        """The root and the main line's move nodes (results left out)."""
        return [self.game.root, *(n for n in self.game.mainline() if n.move is not None)]

    def mainline_positions(self) -> list[tuple[GameNode, PositionAnalysis | None]]:
        """Each main-line node with its analysis (None where missing)."""
        return [(node, self.positions.get(node)) for node in self.mainline_nodes()]

    def mainline_moves(self) -> list[MoveAnalysis]:
        """The judged moves of the main line, in order."""
        return [self.moves[n] for n in self.mainline_nodes() if n in self.moves]

    def win_rates(self) -> list[float | None]:
        """Sente's win rate at each main-line position (None where not analysed)."""
        return [None if p is None else p.win_rate(Color.BLACK, model=self.model) for _, p in self.mainline_positions()]

    # -- figures -------------------------------------------------------------------------------

    def accuracy(self, color: Color) -> float | None:
        """*color*'s accuracy over its judged main-line moves (0..100), None without any."""
        return mean_accuracy([m.loss for m in self.mainline_moves() if m.mover == color])

    def label_counts(self, color: Color) -> dict[Label, int]:
        """How many main-line moves of *color* got each label."""
        counts = dict.fromkeys(Label, 0)
        for m in self.mainline_moves():
            if m.mover == color and m.label is not None:
                counts[m.label] += 1
        return counts

    def missed_mates(self, color: Color | None = None) -> list[MoveAnalysis]:
        """Main-line moves (of *color*, or both) that let a mate go."""
        return [m for m in self.mainline_moves() if m.missed_mate and (color is None or m.mover == color)]

    def worst_move(self, color: Color | None = None) -> MoveAnalysis | None:
        """The main-line move (of *color*, or either) that lost the most, if any lost anything."""
        moves = [m for m in self.mainline_moves() if (color is None or m.mover == color) and m.loss > 0]
        return max(moves, key=lambda m: (m.loss, -m.ply)) if moves else None

    def key_moments(self, count: int = 3, minimum: float = 0.05) -> list[MoveAnalysis]:
        """The *count* main-line moves with the largest swings of sente's win rate (at least
        *minimum*: a quiet game has none), in game order."""
        moves = [m for m in self.mainline_moves() if abs(m.swing) >= minimum]
        moves.sort(key=lambda m: (-abs(m.swing), m.ply))
        return sorted(moves[:count], key=lambda m: m.ply)

    # -- data ----------------------------------------------------------------------------------

    def to_json(self, *, name: str | None = None) -> dict[str, Any]:
        """The main line's analysis as JSON data (see ``analysis.schema.json``)."""
        positions: list[dict[str, Any]] = []
        for ply, (node, pos) in enumerate(self.mainline_positions()):
            entry: dict[str, Any] = {"ply": ply, "move": node.move.usi() if node.move else None}
            if pos is not None:
                entry["sfen"] = pos.key
                entry["score"] = score_to_json(pos.score) if pos.score is not None else None
                rate = pos.win_rate(Color.BLACK, model=self.model)
                entry["win_rate"] = None if rate is None else round(rate, 4)
                entry["best_move"] = pos.best_move.usi() if pos.best_move else None
                entry["pv"] = [m.usi() for m in pos.pv]
                entry["depth"] = pos.depth
                entry["nodes"] = pos.nodes
                entry["lines"] = [line.to_json() for line in pos.lines]
            judged = self.moves.get(node)
            if judged is not None:
                entry["loss"] = round(judged.loss, 4)
                entry["label"] = judged.label.value if judged.label else None
                entry["missed_mate"] = judged.missed_mate
                entry["accuracy"] = round(judged.accuracy, 2)
                if judged.confirmation is not None:
                    entry["first_loss"] = None if judged.first_loss is None else round(judged.first_loss, 4)
                    entry["confirmation"] = judged.confirmation.to_json()
            positions.append(entry)
        players: dict[str, Any] = {}
        for color, side in ((Color.BLACK, "black"), (Color.WHITE, "white")):
            accuracy = self.accuracy(color)
            worst = self.worst_move(color)
            players[side] = {
                "accuracy": None if accuracy is None else round(accuracy, 2),
                "labels": {label.value: n for label, n in self.label_counts(color).items()},
                "missed_mates": len(self.missed_mates(color)),
                "worst_move": None if worst is None else {"ply": worst.ply, "move": worst.move.usi(),
                                                          "loss": round(worst.loss, 4)},
            }
        return {
            "name": name,
            "engine": self.engine,
            "limit": self.limit,
            "confirm_limit": self.confirm_limit,
            "cancelled": self.cancelled,
            "positions": positions,
            "players": players,
            "key_moments": [m.ply for m in self.key_moments()],
        }


class AnalysisLimitError(ShogibanError):
    """A record with more positions to analyse than allowed (``max_positions``)."""

    code = "too_large"


def nodes_to_analyse(game: Game, lines: str = "main", *, max_positions: int | None = None) -> list[GameNode]:
    """The nodes whose positions an analysis searches: the root and every move node of the main
    line (*lines* ``"main"``) or of the whole tree (``"all"``), in the order to search them.
    Only the main line is visited for ``"main"``; the variations are not walked.

    :raises AnalysisLimitError: if there are more than *max_positions* (counting stops there).
    """
    if lines not in ("main", "all"):
        raise ValueError(f"invalid lines: {lines!r} (expected 'main' or 'all')")
    found = (game.mainline() if lines == "main" else game.walk())
    nodes: list[GameNode] = [game.root]
    for node in found:
        if node.move is None or node.parent is None:
            continue
        if max_positions is not None and len(nodes) >= max_positions:
            raise AnalysisLimitError(
                f"too many positions to analyse: more than {max_positions} (the limit; see --max-positions)")
        nodes.append(node)
    return nodes


def iter_boards(game: Game, nodes: Iterable[GameNode]) -> Iterator[tuple[GameNode, Board]]:
    """``(node, board)`` for each of *nodes* that can be reached, in depth-first order (main
    continuation first: the order of :func:`nodes_to_analyse`).

    One board is walked down and back (each move pushed and popped once) over the part of the
    tree that leads to *nodes* only, and each board given out is a copy without history: memory
    stays in proportion to the record, whatever its length or its nesting of variations.
    """
    wanted = set(nodes)
    needed: set[GameNode] = set()  # the wanted nodes and their ancestors
    for node in wanted:
        step: GameNode | None = node
        while step is not None and step not in needed:
            needed.add(step)
            step = step.parent
    if game.root not in needed:
        return
    board = game.root.board()
    # (node, entering): a node is entered (its move pushed) and left (popped) once.
    stack: list[tuple[GameNode, bool]] = [(game.root, True)]
    while stack:
        node, entering = stack.pop()
        if not entering:
            board.pop()
            continue
        if node is not game.root:
            assert node.move is not None
            board.push(node.move)
            stack.append((node, False))
        if node in wanted:
            yield node, board.copy(stack=False)
        stack.extend((child, True) for child in reversed(node.variations)
                     if child.move is not None and child in needed)


def boards_of(game: Game, nodes: list[GameNode]) -> dict[GameNode, Board]:
    """The position at each of *nodes* (see :func:`iter_boards`), boards without history."""
    return dict(iter_boards(game, nodes))


def plies_of(nodes: Iterable[GameNode]) -> dict[GameNode, int]:
    """Each node's ply (:meth:`GameNode.ply`), counting each parent link once in all."""
    plies: dict[GameNode, int] = {}
    for node in nodes:
        path: list[GameNode] = []
        step: GameNode | None = node
        while step is not None and step not in plies:
            path.append(step)
            step = step.parent
        base = -1 if step is None else plies[step]
        plies.update((visited, ply) for ply, visited in enumerate(reversed(path), base + 1))
    return plies


__all__ = [
    "AnalysisLimitError",
    "Confirmation",
    "GameAnalysis",
    "MoveAnalysis",
    "boards_of",
    "first_loss",
    "iter_boards",
    "judge_move",
    "nodes_to_analyse",
    "played_line",
    "plies_of",
]
