"""Building a :class:`~shogiban.kifu.game.Game` while reading, with lenient error handling.

Every reader feeds a :class:`GameBuilder`: it keeps the running position, validates each move,
adds nodes, and collects problems.  A lenient builder (the default) records each problem as a
:class:`~shogiban.errors.KifuParseError` in ``game.errors`` and goes on; a strict one raises it.
An illegal move in a record is kept: it ends its line as a 反則 result carrying the move.

The builder is linear in the record, however it is laid out: comment lines are collected and
joined once; jumping to a variation's start replays at most a few moves (from the nearest of the
positions it keeps every :data:`CHECKPOINT_EVERY` plies, or by taking moves back); and the
repetition verdict of results read after such a jump is settled in one walk over the tree at the
end.  :class:`~shogiban.kifu.read_limits.ReadLimits` bound the moves, variations, comments and
problems.
"""

from __future__ import annotations

from typing import Final

from shogiban import rules
from shogiban.board import Board
from shogiban.errors import KifuParseError
from shogiban.kifu._legality import CHECK, LEGAL, push_if_legal
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadBudget, ReadLimits, too_large
from shogiban.kifu.results import Result, ResultKind, make_result, with_board_evidence
from shogiban.kifu.walk import positions_before
from shogiban.move import MOVES, Move
from shogiban.notation._legal import refusal_of
from shogiban.notation.excerpt import excerpt
from shogiban.notation.positions import board_from_sfen
from shogiban.pieces import Color

#: Plies between the positions a builder keeps for jumping to a variation.
CHECKPOINT_EVERY: Final = 32

# Whether the side to move is in check after a move push_if_legal played (unknown: absent).
_IN_CHECK_AFTER = {LEGAL: False, CHECK: True}

_ILLEGAL_CONFIRMATIONS = frozenset({
    "反則勝ち", "反則負け", "ILLEGAL_MOVE", "%ILLEGAL_MOVE",
    "+ILLEGAL_ACTION", "-ILLEGAL_ACTION", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION",
})


class GameBuilder:
    """Collects a game from a reader's events.

    :param strict: raise the first problem instead of recording it.
    :param limits: the bounds to enforce (:class:`~shogiban.kifu.read_limits.KifuLimitError` when one
        is exceeded, strict or not).
    :param budget: what the other games of the same file used of *limits* (a new budget when
        not given).
    :param sfen: the start position (as :meth:`setup` sets it).
    :raises InvalidSfenError: if *sfen* cannot be read even leniently.
    """

    def __init__(
        self,
        *,
        strict: bool = False,
        game: Game | None = None,
        limits: ReadLimits = DEFAULT_LIMITS,
        budget: ReadBudget | None = None,
        sfen: str | None = None,
    ) -> None:
        self.game = game if game is not None else Game()
        self.strict = strict
        self.budget = budget if budget is not None else ReadBudget(limits)
        self.limits = self.budget.limits
        self._max_moves = self.limits.max_moves
        self.node: GameNode = self.game.root
        """Where the next move goes."""
        if sfen is not None:
            self.board, self.game.root.sfen = _start(sfen)
        else:
            self.board = _start_board(self.game.root.sfen)
        """The position at :attr:`node`."""
        self._pending_illegal: KifuParseError | None = None
        self._depth = 0  # plies from the start to self.node
        self._checkpoints: dict[GameNode, tuple[int, str]] = {self.game.root: (0, self.game.root.sfen)}
        self._history_from_start = True  # the board's move stack holds every move since the start
        self._in_check: bool | None = None  # whether the side to move is in check, when known
        self._verdicts = REPETITION_VERDICTS  # repetition verdicts left to work out
        self._unsettled: dict[GameNode, str | None] = {}  # results whose repetition is not known yet
        self._comment_node: GameNode | None = None
        self._comment_parts: list[str] = []
        self._comment_size = 0

    # -- problems -----------------------------------------------------------------------------

    def error(self, message: str, lineno: int | None = None, line: str | None = None) -> None:
        """Record (or, when strict, raise) a problem.

        :raises KifuLimitError: when more than ``limits.max_errors`` problems were recorded.
        """
        error = _problem(message, lineno, line)
        if self.strict:
            raise error
        self._record(error)

    def _record(self, error: KifuParseError) -> None:
        self.budget.add_error(error.lineno, error.line)
        self.game.errors.append(error)

    # -- set-up -------------------------------------------------------------------------------

    def setup(self, sfen: str) -> None:
        """Set the start position (before any move).

        :raises InvalidSfenError: if *sfen* cannot be read even leniently.
        :raises ValueError: if the record already has moves.
        """
        board, normal = _start(sfen)
        if self.game.root.variations:
            raise ValueError("cannot change the start position of a record that has moves")
        root = self.game.root
        root.sfen = normal
        self.board = board
        self.node = root
        self._depth = 0
        self._checkpoints = {root: (0, root.sfen)}
        self._history_from_start = True
        self._in_check = None

    def _flush_pending(self) -> None:
        """A strict reader raises an unconfirmed illegal move once the record moves on."""
        pending, self._pending_illegal = self._pending_illegal, None
        if pending is not None and self.strict:
            raise pending

    def goto(self, node: GameNode) -> None:
        """Continue reading after *node* (for variations)."""
        self._flush_pending()
        if node is self.node:
            return
        if not self._take_back_to(node):
            self._restore(node)
        self.node = node
        self._in_check = None

    def _take_back_to(self, node: GameNode) -> bool:
        """Take moves back if *node* is a near ancestor of the current node; whether it was."""
        steps = moves = 0
        current = self.node
        while current is not node:
            if current.parent is None or steps >= CHECKPOINT_EVERY:
                return False
            moves += current.move is not None
            current = current.parent
            steps += 1
        if moves > self.board.ply:
            return False  # the board was rebuilt from a checkpoint after that point
        for _ in range(moves):
            self.board.pop()
        self._depth -= steps
        return True

    def _restore(self, node: GameNode) -> None:
        """Rebuild the board at *node* from the nearest kept position before it."""
        path: list[GameNode] = []
        current = node
        while current not in self._checkpoints:
            path.append(current)
            assert current.parent is not None
            current = current.parent
        depth, sfen = self._checkpoints[current]
        board = _start_board(sfen) if current.parent is None else Board(sfen, lenient=True)
        for passed in reversed(path):
            if passed.move is not None:
                board.push_code(passed.move.code)
        self.board = board
        self._depth = depth + len(path)
        self._history_from_start = current.parent is None

    @property
    def ended(self) -> bool:
        """Whether the current line already ended with a result."""
        return self.node.result is not None

    def _append(self, parent: GameNode, node: GameNode, lineno: int | None, line: str | None) -> None:
        """Add *node* below *parent* and make it current, within the limits."""
        self.budget.add_node(alternative=bool(parent.variations), lineno=lineno, line=line)
        parent.variations.append(node)
        self.node = node
        self._depth += 1
        if node.move is not None and not self._depth % CHECKPOINT_EVERY:
            self._checkpoints[node] = (self._depth, self.board.sfen())

    # -- moves --------------------------------------------------------------------------------

    def move(
        self,
        move: Move | int,
        lineno: int | None = None,
        line: str | None = None,
        *,
        elapsed: float | None = None,
        total: float | None = None,
        text: str | None = None,
    ) -> GameNode | None:
        """Validate and add *move* (a :class:`Move` or its code) after the current node.

        An illegal move ends the line with a 反則 result that keeps the move; a move after a
        result is a problem.  Returns the new node, or None when nothing was added.
        """
        code = move if isinstance(move, int) else move.code
        parent = self.node
        if parent.result is not None:
            self._flush_pending()
            shown = text or MOVES[code].usi()  # type: ignore[union-attr]
            self.error(f"move {excerpt(shown)} after the end of the game", lineno, line)
            return None
        pushed = push_if_legal(self.board, code, self._in_check)
        if pushed:
            self._in_check = _IN_CHECK_AFTER.get(pushed)
            node = GameNode(parent, MOVES[code])
            if elapsed is not None or total is not None:
                node.elapsed = elapsed
                node.total = total
            variations = parent.variations
            budget = self.budget
            if variations or budget.nodes >= self._max_moves:
                budget.add_node(alternative=bool(variations), lineno=lineno, line=line)
            else:
                budget.nodes += 1  # the common case of add_node, inline: this is the hot path
            variations.append(node)
            self.node = node
            depth = self._depth = self._depth + 1
            if not depth % CHECKPOINT_EVERY:
                self._checkpoints[node] = (depth, self.board.sfen())
            return node
        mv = MOVES[code]
        assert mv is not None
        reason = refusal_of(self.board, mv).message
        shown = text or mv.usi()
        mover = self.board.turn
        result = Result(ResultKind.ILLEGAL, mover.other, "", mv, f"{_side(mover)}: {mv.usi()} ({reason})")
        node = GameNode(parent, None, result=result, elapsed=elapsed, total=total)
        self._append(parent, node, lineno, line)
        error = _problem(f"illegal move {excerpt(shown)} ({reason}), recorded as a foul (反則)", lineno, line)
        # Kept pending: a following 反則勝ち / %ILLEGAL_MOVE confirms the foul and withdraws it.
        self._pending_illegal = error
        if not self.strict:
            self._record(error)
        return node

    def result(
        self,
        word: str,
        lineno: int | None = None,
        line: str | None = None,
        *,
        elapsed: float | None = None,
        total: float | None = None,
        winner: Color | bool | None = False,
        if_repeated: str | None = None,
    ) -> GameNode | None:
        """Add the special final move *word* (KIF word or CSA token) after the current node.

        *winner* overrides the winner derived from the side to move (for KI2 まで lines).
        *if_repeated* is the word to record instead when the position occurred four times (a
        format without a word for 千日手).  A foul word right after a recorded illegal move
        confirms it.
        """
        node = self.node
        if node.result is not None:
            if node.result.illegal_move is not None and word in _ILLEGAL_CONFIRMATIONS:
                pending = self._pending_illegal
                if pending is not None and not self.strict:
                    errors = self.game.errors
                    if errors and errors[-1] is pending:
                        errors.pop()
                        self.budget.forget_error()
                    elif pending in errors:
                        errors.remove(pending)
                        self.budget.forget_error()
                self._pending_illegal = None
                if elapsed is not None and node.elapsed is None:
                    node.elapsed = elapsed
                return node
            if word == node.result.word:
                return node  # floodgate repeats a declaration (%KACHI) after its time line
            self._flush_pending()
            self.error(f"result {excerpt(word)} after the end of the game", lineno, line)
            return None
        board = self.board
        result = stated_result(word, winner, board.turn)
        child = GameNode(node, None, result=result, elapsed=elapsed, total=total)
        if self._verdicts <= 0 or (if_repeated is None and result.kind not in _SETTLED_BY_REPETITION):
            pass  # a repetition changes nothing here, or past REPETITION_VERDICTS: as stated
        elif not self._history_from_start:
            self._unsettled[child] = if_repeated
            self._verdicts -= 1
        elif board.repetition_count() >= 4:
            child.result = _with_repetition(result, board, if_repeated, winner)
            self._verdicts -= 1
        self._append(node, child, lineno, line)
        return child

    def comment(self, text: str) -> None:
        """Add a comment line to the current node (leading empty lines are dropped).

        :raises KifuLimitError: past ``limits.max_comment`` or ``limits.max_comments``.
        """
        node = self.node
        if node is not self._comment_node:
            self._flush_comment()
            self._comment_node = node
            self._comment_parts = [node.comment] if node.comment else []
            self._comment_size = len(node.comment)
        parts = self._comment_parts
        if not parts and not text:
            return
        size = len(text) + (1 if parts else 0)
        self._comment_size += size
        if self._comment_size > self.limits.max_comment:
            raise too_large("characters in one comment", "max_comment", self.limits.max_comment)
        self.budget.add_comment(size)
        parts.append(text)

    def _flush_comment(self) -> None:
        node = self._comment_node
        if node is not None:
            node.comment = "\n".join(self._comment_parts)
            self._comment_node = None
            self._comment_parts = []

    def finish(self) -> Game:
        """The game read so far (a strict builder raises an unconfirmed illegal move here)."""
        self._flush_comment()
        self._flush_pending()
        if self._unsettled:
            self._settle_repetitions()
        return self.game

    def _settle_repetitions(self) -> None:
        """Give the results read after a jump their repetition verdict, in one walk of the tree
        (only the branches that lead to such results)."""
        for node, board in positions_before(self.game, self._unsettled):
            assert node.result is not None
            node.result = _with_repetition(node.result, board, self._unsettled[node], False)
        self._unsettled.clear()


def stated_result(word: str, winner: Color | bool | None, turn: Color) -> Result:
    """The result *word* states when *turn* is to move; *winner* overrides the winner derived
    from the word unless it is False (a KI2 まで line names the winner)."""
    result = make_result(word, turn)
    if winner is not False:
        result = Result(result.kind, winner if isinstance(winner, Color) else None, result.word)
    return result


def _with_repetition(result: Result, board: Board, if_repeated: str | None, winner: Color | bool | None) -> Result:
    """*result* corrected by the repetition verdict of *board* (the position it was stated in)."""
    if board.repetition_count() < 4:
        return result
    if if_repeated is not None:
        result = stated_result(if_repeated, winner, board.turn)
    if result.kind not in _SETTLED_BY_REPETITION:
        return result  # the verdict changes nothing (and walking back the history costs)
    return with_board_evidence(result, rules.repetition_outcome(board))


# The results a repetition's verdict can change (a perpetual check gives its loser).
_SETTLED_BY_REPETITION = frozenset({ResultKind.PERPETUAL_CHECK, ResultKind.ILLEGAL, ResultKind.REPETITION})
#: A record's first this many results at a four-fold repetition get its verdict; working it out
#: walks back the whole line, so more would make a record of repeated results quadratic.
REPETITION_VERDICTS = 256


_START_BOARDS: dict[str, tuple[Board, str]] = {}


def _start(sfen: str) -> tuple[Board, str]:
    """A fresh board at *sfen* and its SFEN as the board writes it (from a small cache: most
    records start the same way).

    :raises InvalidSfenError: if *sfen* cannot be read even leniently.
    """
    cached = _START_BOARDS.get(sfen)
    if cached is None:
        board = board_from_sfen(sfen, lenient=True)
        cached = (board, board.sfen())
        if len(_START_BOARDS) < 64:
            _START_BOARDS[sfen] = cached
    return cached[0].copy(), cached[1]


def _start_board(sfen: str) -> Board:
    """A fresh board at *sfen* (:func:`_start`)."""
    return _start(sfen)[0]


def _problem(message: str, lineno: int | None, line: str | None) -> KifuParseError:
    """*message* as an error located at *line* (number *lineno*) when there is one."""
    where = f"line {lineno}: " if lineno is not None else ""
    return KifuParseError(f"{where}{message}", lineno, line)


def _side(color: Color) -> str:
    return "sente" if color == Color.BLACK else "gote"


__all__ = ["CHECKPOINT_EVERY", "REPETITION_VERDICTS", "GameBuilder", "stated_result"]
