"""Building a :class:`~shogiban.kifu.game.Game` while reading, with lenient error handling.

Every reader feeds a :class:`GameBuilder`: it keeps the running position, validates each move,
adds nodes, and collects problems.  A lenient builder (the default) records each problem as a
:class:`~shogiban.errors.KifuParseError` in ``game.errors`` and goes on; a strict one raises it.
An illegal move in a record is kept: it ends its line as a 反則 result carrying the move.
"""

from __future__ import annotations

from shogiban import rules
from shogiban.board import Board
from shogiban.errors import KifuParseError
from shogiban.kifu._legality import push_if_legal
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.results import Result, ResultKind, make_result, with_board_evidence
from shogiban.move import MOVES, Move
from shogiban.pieces import Color

_ILLEGAL_CONFIRMATIONS = frozenset({
    "反則勝ち", "反則負け", "ILLEGAL_MOVE", "%ILLEGAL_MOVE",
    "+ILLEGAL_ACTION", "-ILLEGAL_ACTION", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION",
})


class GameBuilder:
    """Collects a game from a reader's events.

    :param strict: raise the first problem instead of recording it.
    """

    def __init__(self, *, strict: bool = False, game: Game | None = None) -> None:
        self.game = game if game is not None else Game()
        self.strict = strict
        self.node: GameNode = self.game.root
        """Where the next move goes."""
        self.board = _start_board(self.game.root.sfen)
        """The position at :attr:`node`."""
        self._pending_illegal: KifuParseError | None = None

    # -- problems -----------------------------------------------------------------------------

    def error(self, message: str, lineno: int | None = None, line: str | None = None) -> None:
        """Record (or, when strict, raise) a problem."""
        error = _problem(message, lineno, line)
        if self.strict:
            raise error
        self.game.errors.append(error)

    # -- set-up -------------------------------------------------------------------------------

    def setup(self, sfen: str) -> None:
        """Set the start position (before any move).

        :raises InvalidSfenError: if *sfen* cannot be read even leniently.
        """
        board = _start_board(sfen)
        if self.game.root.variations:
            raise ValueError("cannot change the start position of a record that has moves")
        self.game.root.sfen = board.sfen()
        self.board = board
        self.node = self.game.root

    def _flush_pending(self) -> None:
        """A strict reader raises an unconfirmed illegal move once the record moves on."""
        pending, self._pending_illegal = self._pending_illegal, None
        if pending is not None and self.strict:
            raise pending

    def goto(self, node: GameNode) -> None:
        """Continue reading after *node* (for variations)."""
        self._flush_pending()
        self.node = node
        board = _start_board(self.game.root.sfen)
        for n in node.path()[1:]:
            if n.move is not None:
                board._push(n.move.code)
        self.board = board

    @property
    def ended(self) -> bool:
        """Whether the current line already ended with a result."""
        return self.node.result is not None

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
            self.error(f"move {shown!r} after the end of the game", lineno, line)
            return None
        if push_if_legal(self.board, code):
            node = GameNode(parent, MOVES[code])
            if elapsed is not None or total is not None:
                node.elapsed = elapsed
                node.total = total
            parent.variations.append(node)
            self.node = node
            return node
        mv = MOVES[code]
        assert mv is not None
        reason = self.board.illegal_reason(mv) or "illegal move"
        shown = text or mv.usi()
        mover = self.board.turn
        result = Result(ResultKind.ILLEGAL, mover.other, "", mv, f"{_side(mover)}: {mv.usi()} ({reason})")
        node = GameNode(parent, None, result=result, elapsed=elapsed, total=total)
        parent.variations.append(node)
        self.node = node
        error = _problem(f"illegal move {shown!r} ({reason}), recorded as a foul (反則)", lineno, line)
        # Kept pending: a following 反則勝ち / %ILLEGAL_MOVE confirms the foul and withdraws it.
        self._pending_illegal = error
        if not self.strict:
            self.game.errors.append(error)
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
    ) -> GameNode | None:
        """Add the special final move *word* (KIF word or CSA token) after the current node.

        *winner* overrides the winner derived from the side to move (for KI2 まで lines).
        A foul word right after a recorded illegal move confirms it.
        """
        node = self.node
        if node.result is not None:
            if node.result.illegal_move is not None and word in _ILLEGAL_CONFIRMATIONS:
                if self._pending_illegal is not None and not self.strict:
                    self.game.errors.remove(self._pending_illegal)
                self._pending_illegal = None
                if elapsed is not None and node.elapsed is None:
                    node.elapsed = elapsed
                return node
            if word == node.result.word:
                return node  # floodgate repeats a declaration (%KACHI) after its time line
            self._flush_pending()
            self.error(f"result {word!r} after the end of the game", lineno, line)
            return None
        result = make_result(word, self.board.turn)
        if winner is not False:
            result = Result(result.kind, winner if isinstance(winner, Color) else None, result.word)
        if self.board._rep.get(self.board._hash, 0) >= 4:
            result = with_board_evidence(result, rules.repetition_outcome(self.board))
        child = GameNode(node, None, result=result, elapsed=elapsed, total=total)
        node.variations.append(child)
        self.node = child
        return child

    def comment(self, text: str) -> None:
        """Add a comment line to the current node."""
        node = self.node
        node.comment = f"{node.comment}\n{text}" if node.comment else text

    def finish(self) -> Game:
        """The game read so far (a strict builder raises an unconfirmed illegal move here)."""
        self._flush_pending()
        return self.game


_START_BOARDS: dict[str, Board] = {}


def _start_board(sfen: str) -> Board:
    """A fresh board at *sfen* (copied from a small cache: most records start the same way)."""
    board = _START_BOARDS.get(sfen)
    if board is None:
        board = Board(sfen, lenient=True)
        if len(_START_BOARDS) < 64:
            _START_BOARDS[sfen] = board
    return board.copy()


def _problem(message: str, lineno: int | None, line: str | None) -> KifuParseError:
    """*message* as an error located at *line* (number *lineno*) when there is one."""
    where = f"line {lineno}: " if lineno is not None else ""
    return KifuParseError(f"{where}{message}", lineno, line)


def _side(color: Color) -> str:
    return "sente" if color == Color.BLACK else "gote"
