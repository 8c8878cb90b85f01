"""Mate problems (詰将棋) for the learner: the attacker's moves are checked with the tsume solver.

The problems are machine-generated ones from tanuki-tsume-shogi (MIT, see ``PUZZLES.md``), each
re-checked by ``tools/make_puzzles.py`` with the solver, rated and tagged with themes.  The
learner plays the attacker.  A move is accepted when it is legal, gives check, and still mates
within the moves left -- any such move, not only the stored solution.  The defender then plays
the reply that resists longest according to the solver.

>>> puzzle = puzzles_by_length()[1][0]
>>> puzzle.length, Board(puzzle.sfen).turn
(1, <Color.BLACK: 0>)
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Protocol

from shogiban.board import Board
from shogiban.errors import IllegalMoveError, InvalidMoveError
from shogiban.i18n import Language, translate
from shogiban.lessons.targets import legal_targets
from shogiban.move import Move
from shogiban.notation import words as explain
from shogiban.squares import SQUARE_NAMES

#: The lengths offered, in plies.
LENGTHS = (1, 3, 5, 7, 9, 11)
#: What a solution may teach (``tools/make_puzzles.py`` finds them from the line): 捨て駒, 合駒,
#: avoiding 打ち歩詰め, declining promotion (不成), and a first move from the hand.
THEMES = ("sacrifice", "interposition", "no_pawn_drop_mate", "no_promotion", "drop_first")
#: The daily puzzle is drawn from problems rated in this range (neither trivial nor very long).
DAILY_RATINGS = (1000, 2000)
#: Seconds the solver may spend on one position while checking a move.
SOLVE_TIMEOUT = 10.0


class UnknownPuzzleError(LookupError):
    """No puzzle with that id."""


class BadLineError(ValueError):
    """The moves sent with a request are not a line of the puzzle (illegal, or too long)."""

    code = "bad_line"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One mate problem."""

    id: str
    """Stable id, e.g. ``tanuki-3-12``."""
    sfen: str
    """Start position, attacker (sente) to move; the defender holds all remaining pieces."""
    length: int
    """Mate length in plies (odd)."""
    solution: tuple[str, ...]
    """The stored solution line, USI."""
    source: str
    """Where the problem comes from."""
    number: int = 0
    """1-based position within its length group."""
    effort: int = 0
    """The solver's nodes under the tsume conventions: how much searching the problem needs."""
    rating: int = 1500
    """Starting puzzle rating (Glicko-2 scale) from the length and the effort (see PUZZLES.md)."""
    themes: tuple[str, ...] = ()
    """What the solution teaches, from :data:`THEMES`."""


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle, grouped by length, in file order."""
    text = resources.files("shogiban.lessons").joinpath("puzzles.tsv").read_text("utf-8")
    rows = [r for r in csv.reader(text.splitlines(), delimiter="\t") if r and not r[0].startswith("#")]
    counters: dict[int, int] = {}
    found = []
    for row in rows:
        length = int(row[2])
        counters[length] = counters.get(length, 0) + 1
        effort, rating, themes = (int(row[5]), int(row[6]), row[7]) if len(row) >= 8 else (0, 1500, "")
        found.append(Puzzle(row[0], row[1], length, tuple(row[3].split()), row[4], counters[length],
                            effort, rating, tuple(t for t in themes.split(",") if t)))
    return tuple(found)


def puzzles_by_theme() -> dict[str, list[Puzzle]]:
    """The puzzles of each theme of :data:`THEMES`, easiest first."""
    groups: dict[str, list[Puzzle]] = {theme: [] for theme in THEMES}
    for puzzle in sorted(load_puzzles(), key=lambda p: p.rating):
        for theme in puzzle.themes:
            groups.setdefault(theme, []).append(puzzle)
    return groups


def daily_puzzle(day: datetime.date) -> Puzzle:
    """The puzzle of *day*: the same for everybody, drawn by a hash of the date from the problems
    rated within :data:`DAILY_RATINGS` (so consecutive days do not walk through the file)."""
    low, high = DAILY_RATINGS
    pool = [p for p in load_puzzles() if low <= p.rating <= high] or list(load_puzzles())
    digest = hashlib.sha256(day.isoformat().encode("ascii")).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def puzzles_by_length() -> dict[int, list[Puzzle]]:
    """The puzzles of each length."""
    groups: dict[int, list[Puzzle]] = {n: [] for n in LENGTHS}
    for puzzle in load_puzzles():
        groups.setdefault(puzzle.length, []).append(puzzle)
    return groups


def get_puzzle(puzzle_id: str) -> Puzzle:
    """The puzzle *puzzle_id*.

    :raises UnknownPuzzleError: if there is none.
    """
    for puzzle in load_puzzles():
        if puzzle.id == puzzle_id:
            return puzzle
    raise UnknownPuzzleError(f"unknown puzzle: {puzzle_id!r}")


# -- the solver -----------------------------------------------------------------------------------


class SolveResult(Protocol):
    """What this module needs from :class:`shogiban.tsume.TsumeResult`."""

    @property
    def status(self) -> str:
        """``mate``, ``nomate``, ``timeout`` or ``unknown`` (no mate within the length limit)."""

    @property
    def moves(self) -> list[Move]:
        """The mate line."""

    @property
    def length(self) -> int:
        """Plies of the mate line."""


#: ``solver(board, timeout, max_length)``: the shortest mate for the side to move of *board*,
#: looked for up to *max_length* plies.
Solver = Callable[[Board, float | None, int], SolveResult]


def default_solver(board: Board, timeout: float | None, max_length: int) -> SolveResult:
    """:func:`shogiban.tsume.solve` by game rules, with a timeout and a length limit.

    The learner plays the problem as a game: the defender may interpose even where the tsume
    convention would call it futile (無駄合), so lengths count every interposition and a final
    move must really checkmate.  The shipped problems have the same length both ways.
    """
    from shogiban.tsume import solve

    return solve(board, timeout=timeout, max_length=max_length, conventions=False)


@dataclass
class _Verdict:
    """The solver's view of a position after an attacker's check (defender to move)."""

    mates: bool | None
    """Mate within the budget for every defence (None: the solver ran out of time)."""
    reply: Move | None = None
    """The longest defence."""
    length: int = 0
    """Plies to mate after the longest defence."""


@dataclass
class PuzzleChecker:
    """Checks learners' moves with a solver, remembering what it worked out.

    :param solver: ``solver(board, timeout, max_length)`` returns a result with ``status``
        (``"mate"``, ``"nomate"``, ``"timeout"``, or ``"unknown"`` when there is no mate within
        *max_length*), ``moves`` and ``length``.
    """

    solver: Solver = default_solver
    timeout: float = SOLVE_TIMEOUT
    cache_size: int = 4096
    _cache: OrderedDict[tuple[str, int], SolveResult] = field(default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def solve(self, board: Board, max_length: int) -> SolveResult:
        """The solver's answer for *board* (attacker to move) within *max_length* plies, cached."""
        key = (board.sfen(move_number=False), max_length)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        result = self.solver(board.copy(stack=False), self.timeout, max_length)
        with self._lock:
            self._cache[key] = result
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return result

    def _verdict(self, board: Board, budget: int, preferred: Move | None) -> _Verdict:
        """Whether every defence on *board* (defender to move, in check) is mated within
        *budget* plies, and which defence lasts longest."""
        best: _Verdict = _Verdict(True)
        replies = list(board.legal_moves)
        if preferred is not None and preferred in replies:
            replies.remove(preferred)
            replies.insert(0, preferred)
        for reply in replies:
            board.push(reply)
            try:
                result = self.solve(board, budget)
            finally:
                board.pop()
            if result.status == "timeout":
                return _Verdict(None)
            if result.status != "mate" or result.length > budget:
                return _Verdict(False, reply, result.length)
            # Longest resistance; on a tie keep the earlier one (the stored line's reply first,
            # then board moves before drops, as legal_moves lists them).
            if best.reply is None or result.length > best.length:
                best = _Verdict(True, reply, result.length)
        return best

    def attempt(self, puzzle: Puzzle, line: list[str], usi: str, language: Language) -> dict[str, Any]:
        """Check the attacker's move *usi* after the moves *line* (attacker and defender
        alternating, as this method returned them before).

        Returns ``accepted``; on refusal ``code`` (``illegal``, ``not_check``, ``no_mate``,
        ``unverified``) and ``message``; on acceptance ``reply`` (the defender's answer, None
        when mated), ``solved``, the position to show (``sfen``, ``lastMove``, ``dests``,
        ``dropDests``, ``check``), the new ``line`` and, before a reply, ``afterMove`` (the
        position after the learner's move).

        :raises BadLineError: if *line* is not a legal line of the puzzle with the attacker to move.
        :raises InvalidMoveError: if *usi* is not a USI move.
        """
        board = replay(puzzle, line)
        move = Move.from_usi(usi)
        left = puzzle.length - len(line)
        refusal = board.check_move(move)
        if refusal is not None:
            reason = explain.refusal_reason(refusal, language)
            return _refused("illegal", translate("puzzle.illegal", language, reason=reason), refusal.code)
        if not board.gives_check(move):
            return _refused("not_check", translate("puzzle.not_check", language))
        board.push(move)
        new_line = [*line, move.usi()]
        after_move = {"sfen": board.sfen(), "lastMove": move.usi(), "check": True}
        if board.is_checkmate():
            return _accepted(board, new_line, None, solved=True, language=language)
        if left <= 1:
            return _refused("no_mate", translate("puzzle.no_mate", language, moves=_moves_text(left, language)))
        stored = _stored_reply(puzzle, new_line)
        verdict = self._verdict(board, left - 2, stored)
        if verdict.mates is None:
            if stored is None:
                return _refused("unverified", translate("puzzle.unverified", language))
            verdict = _Verdict(True, stored)
        if not verdict.mates or verdict.reply is None:
            return _refused("no_mate", translate("puzzle.no_mate", language, moves=_moves_text(left, language)))
        reply_text = explain.format_move(board, verdict.reply, language)
        board.push(verdict.reply)
        new_line.append(verdict.reply.usi())
        answer = _accepted(board, new_line, verdict.reply, solved=False, language=language)
        answer["afterMove"] = after_move
        answer["replyText"] = reply_text
        return answer

    def hint(self, puzzle: Puzzle, line: list[str]) -> Move | None:
        """A mating move for the attacker after *line*: the stored one while the learner follows
        the stored solution, else the solver's."""
        board = replay(puzzle, line)
        if list(puzzle.solution[: len(line)]) == line and len(line) < len(puzzle.solution):
            return Move.from_usi(puzzle.solution[len(line)])
        result = self.solve(board, puzzle.length - len(line))
        return result.moves[0] if result.status == "mate" and result.moves else None


def replay(puzzle: Puzzle, line: list[str]) -> Board:
    """The position after *line* (attacker to move).

    :raises BadLineError: if a move is illegal, the line is too long, or it is the defender's turn.
    """
    board = Board(puzzle.sfen)
    if len(line) % 2 or len(line) >= puzzle.length:
        raise BadLineError(f"invalid line for {puzzle.id!r}: {line!r} (the attacker must be to move, before the end)")
    for usi in line:
        try:
            board.push_usi(usi)
        except (InvalidMoveError, IllegalMoveError) as error:
            raise BadLineError(f"invalid line for {puzzle.id!r}: {usi!r} ({error})") from error
    return board


def position_view(board: Board) -> dict[str, Any]:
    """The board fields of a response: SFEN, targets of the side to move, check, last move."""
    dests, drops = legal_targets(board)
    return {
        "sfen": board.sfen(),
        "dests": dests,
        "dropDests": drops,
        "check": board.is_check(),
        "lastMove": board.peek().usi() if board.ply else None,
    }


def hint_payload(move: Move | None) -> dict[str, Any]:
    """A hint in two steps: ``square`` (the piece to move: ``7g``, or ``P*`` for a hand piece)
    and ``move`` (USI)."""
    if move is None:
        return {"square": None, "move": None}
    if move.drop is not None:
        from shogiban.pieces import piece_type_symbol

        square = f"{piece_type_symbol(move.drop)}*"
    else:
        assert move.from_square is not None
        square = SQUARE_NAMES[move.from_square]
    return {"square": square, "move": move.usi()}


def _stored_reply(puzzle: Puzzle, line: list[str]) -> Move | None:
    if list(puzzle.solution[: len(line)]) == line and len(line) < len(puzzle.solution):
        return Move.from_usi(puzzle.solution[len(line)])
    return None


def _moves_text(count: int, language: Language) -> str:
    return translate("puzzle.moves", language, count=count)


def _refused(code: str, message: str, reason_code: str | None = None) -> dict[str, Any]:
    return {"accepted": False, "code": code, "reasonCode": reason_code, "message": message}


def _accepted(board: Board, line: list[str], reply: Move | None, *, solved: bool, language: Language) -> dict[str, Any]:
    view = position_view(board)
    if solved:
        view["dests"], view["dropDests"] = {}, {}
    return {
        "accepted": True,
        "solved": solved,
        "reply": reply.usi() if reply is not None else None,
        "line": line,
        "message": translate("puzzle.solved" if solved else "puzzle.correct", language),
        **view,
    }
