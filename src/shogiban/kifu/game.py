"""The game record model: a :class:`Game` with headers and a tree of :class:`GameNode`.

Each node below the root is either a move or a *result* (a special final move such as 投了,
holding a :class:`~shogiban.kifu.results.Result`).  ``variations[0]`` continues the main line,
the others are alternatives to it.  Nodes carry a comment, the time the move took (``elapsed``,
seconds), the player's total time after it (``total``) and an optional bookmark.

>>> from shogiban import Move
>>> game = Game()
>>> node = game.add_variation(Move.from_usi("7g7f"), comment="角道を開ける")
>>> node = node.add_variation(Move.from_usi("3c3d"))
>>> _ = node.add_result("投了")
>>> [m.usi() for m in game.mainline_moves()]
['7g7f', '3c3d']
>>> game.outcome().winner
<Color.WHITE: 1>
"""

from __future__ import annotations

from collections.abc import Iterator

from shogiban.board import Board
from shogiban.errors import KifuParseError
from shogiban.handicaps import Handicap, handicap_of_sfen
from shogiban.kifu.headers import BLACK_KEYS, WHITE_KEYS, Headers
from shogiban.kifu.results import Result, ResultKind, make_result, result_from_outcome, with_board_evidence
from shogiban.kifu.timecontrol import TimeControl, time_control
from shogiban.move import Move
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import Color
from shogiban.sfen import STARTING_SFEN
from shogiban.squares import Square


class GameNode:
    """A position in the record: the move (or result) that led to it, and what follows."""

    __slots__ = ("bookmark", "comment", "elapsed", "move", "parent", "result", "total", "variations")

    def __init__(
        self,
        parent: GameNode | None = None,
        move: Move | None = None,
        *,
        result: Result | None = None,
        comment: str = "",
        elapsed: float | None = None,
        total: float | None = None,
        bookmark: str | None = None,
    ) -> None:
        self.parent = parent
        """The node before this one (None for the start)."""
        self.move = move
        """The move that led here (None for the start and for results)."""
        self.result = result
        """For a special final move: what it was."""
        self.variations: list[GameNode] = []
        """Following nodes: ``[0]`` is the main continuation."""
        self.comment = comment
        """Comment on this node (lines joined by ``\\n``)."""
        self.elapsed = elapsed
        """Seconds the move (or result) took, if recorded."""
        self.total = total
        """The player's total seconds after this move, if recorded."""
        self.bookmark = bookmark
        """A bookmark name (KIF ``&``), if any."""

    # -- shape --------------------------------------------------------------------------------

    @property
    def is_result(self) -> bool:
        """Whether this node is a special final move."""
        return self.result is not None

    def root(self) -> GameNode:
        """The start node."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ply(self) -> int:
        """Number of moves from the start (a result counts as a ply, like KIF numbers it)."""
        n = 0
        node = self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def path(self) -> list[GameNode]:
        """Nodes from the start to this one, the start included."""
        nodes = []
        node: GameNode | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def moves(self) -> list[Move]:
        """Moves from the start to this node."""
        return [n.move for n in self.path() if n.move is not None]

    def is_mainline(self) -> bool:
        """Whether this node is on the main line."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def next(self) -> GameNode | None:
        """The main continuation, if any."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main continuation from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """Nodes of the main continuation after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """Moves of the main continuation after this one."""
        return [n.move for n in self.mainline() if n.move is not None]

    def start_sfen(self) -> str:
        """SFEN of the record's start position."""
        root = self.root()
        return root.sfen if isinstance(root, RootNode) else STARTING_SFEN

    # -- positions ------------------------------------------------------------------------------

    def board(self) -> Board:
        """The position at this node (a new :class:`Board` in tournament mode, so a recorded
        illegal move shows in its :meth:`~shogiban.Board.outcome`)."""
        path = self.path()
        board = Board(path[0].start_sfen(), lenient=True, tournament=True)
        for node in path[1:]:
            if node.move is not None:
                board.push(node.move)
            elif node.result is not None and node.result.illegal_move is not None:
                board.push_legal(node.result.illegal_move)
        return board

    def turn(self) -> Color:
        """Side to move at this node."""
        root = self.root()
        start = Color.WHITE if root.start_sfen().split()[1] == "w" else Color.BLACK
        moves = sum(1 for n in self.path() if n.move is not None)
        return Color(start ^ (moves & 1))

    def last_to_square(self) -> Square | None:
        """Destination of the move that led here (for ``同``), if any."""
        return self.move.to_square if self.move is not None else None

    # -- editing --------------------------------------------------------------------------------

    def add_variation(
        self,
        move: Move,
        *,
        comment: str = "",
        elapsed: float | None = None,
        total: float | None = None,
    ) -> GameNode:
        """Append a move after this node (a new main line if there is none) and return it."""
        if self.result is not None:
            raise ValueError(f"cannot add a move after the result {self.result.word or self.result.kind.value!r}")
        node = GameNode(self, move, comment=comment, elapsed=elapsed, total=total)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """Add a move as the new main continuation."""
        node = self.add_variation(move, comment=comment)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_result(self, result: Result | str, *, comment: str = "", elapsed: float | None = None) -> GameNode:
        """Append a special final move (a :class:`Result`, a KIF word or a CSA token) after this
        node; the winner follows from the side to move here."""
        if self.result is not None:
            raise ValueError("cannot add a result after a result")
        if isinstance(result, str):
            board = self.board()
            result = make_result(result, board.turn)
            if board.is_repetition(4):
                from shogiban import rules

                result = with_board_evidence(result, rules.repetition_outcome(board))
        node = GameNode(self, None, result=result, comment=comment, elapsed=elapsed)
        self.variations.append(node)
        return node

    def promote_to_main(self, node: GameNode) -> None:
        """Make the child *node* the main continuation."""
        self.variations.remove(node)
        self.variations.insert(0, node)

    def remove_variation(self, node: GameNode) -> None:
        """Remove the child *node* and everything after it."""
        self.variations.remove(node)

    def walk(self) -> Iterator[GameNode]:
        """This node and every node below it, depth first, main continuation first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def __repr__(self) -> str:
        if self.move is not None:
            what = self.move.usi()
        else:
            what = (self.result.word or self.result.kind.value) if self.result else "start"
        return f"<GameNode ply={self.ply()} {what}>"


class RootNode(GameNode):
    """The start of a record: its position."""

    __slots__ = ("sfen",)

    def __init__(self, sfen: str = STARTING_SFEN, *, comment: str = "") -> None:
        super().__init__(None, None, comment=comment)
        self.sfen = sfen
        """SFEN of the start position (its move number says which ply the record starts at)."""

    def start_sfen(self) -> str:
        """SFEN of the start position."""
        return self.sfen

    def turn(self) -> Color:
        """Side to move at the start."""
        return Color.WHITE if self.sfen.split()[1] == "w" else Color.BLACK


class Game:
    """A game record: headers, a start position and a tree of moves.

    Readers are lenient: problems found while reading are kept in :attr:`errors` (with line
    numbers) and everything read before them stays in the tree.
    """

    def __init__(self, sfen: str = STARTING_SFEN, headers: Headers | None = None) -> None:
        self.headers = headers if headers is not None else Headers()
        """Header pairs, KIF key names (先手, 後手, 棋戦, 開始日時, 手合割, ...)."""
        self.root = RootNode(sfen)
        """The start node."""
        self.errors: list[KifuParseError] = []
        """Problems found while reading, in order."""

    # -- start position ---------------------------------------------------------------------

    @property
    def start_sfen(self) -> str:
        """SFEN of the start position."""
        return self.root.sfen

    def setup(self, sfen: str) -> None:
        """Set the start position (only before any move is added)."""
        if self.root.variations:
            raise ValueError("cannot change the start position of a record that has moves")
        Board(sfen, lenient=True)  # validates the syntax
        self.root.sfen = sfen

    def start_board(self) -> Board:
        """The start position."""
        return Board(self.root.sfen, lenient=True, tournament=True)

    @property
    def handicap(self) -> Handicap | None:
        """The standard handicap (平手 included) whose position the record starts from, if any."""
        return handicap_of_sfen(self.root.sfen)

    def time_control(self) -> TimeControl | None:
        """The time control the headers state (CSA ``$TIME``/``$TIME_LIMIT``, KIF 持ち時間/秒読み)."""
        return time_control(self.headers)

    @property
    def event(self) -> str | None:
        """The event (棋戦), if recorded."""
        return self.headers.get("棋戦")

    @property
    def date(self) -> str | None:
        """The start date and time as written (開始日時, or 対局日), if recorded."""
        return self.headers.first(("開始日時", "対局日"))

    @property
    def black(self) -> str | None:
        """Sente's name (先手 or 下手), if recorded."""
        return self.headers.first(BLACK_KEYS)

    @property
    def white(self) -> str | None:
        """Gote's name (後手 or 上手), if recorded."""
        return self.headers.first(WHITE_KEYS)

    # -- tree shortcuts ---------------------------------------------------------------------

    @property
    def comment(self) -> str:
        """Comment on the start position."""
        return self.root.comment

    @comment.setter
    def comment(self, text: str) -> None:
        self.root.comment = text

    @property
    def variations(self) -> list[GameNode]:
        """First moves: ``[0]`` starts the main line."""
        return self.root.variations

    def add_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """Add a first move."""
        return self.root.add_variation(move, comment=comment)

    def mainline(self) -> Iterator[GameNode]:
        """Nodes of the main line."""
        return self.root.mainline()

    def mainline_moves(self) -> list[Move]:
        """Moves of the main line."""
        return self.root.mainline_moves()

    def end(self) -> GameNode:
        """Last node of the main line."""
        return self.root.end()

    def walk(self) -> Iterator[GameNode]:
        """Every node, depth first."""
        return self.root.walk()

    def board(self) -> Board:
        """The final position of the main line."""
        return self.end().board()

    @property
    def result(self) -> Result | None:
        """The main line's special final move, if it has one."""
        return self.end().result

    def outcome(self) -> Outcome | None:
        """How the main line ended: the recorded result, or what the final position shows
        (checkmate, repetition) when the record names none."""
        end = self.end()
        board = end.board()
        if end.result is not None:
            outcome = end.result.outcome()
            if outcome is not None and end.result.kind is ResultKind.CHECKMATE:
                shown = board.outcome()
                if shown is not None and shown.termination is Termination.NO_LEGAL_MOVES:
                    return shown
            return outcome
        return board.outcome()

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def from_board(cls, board: Board, headers: Headers | None = None) -> Game:
        """The record of *board*'s moves from its starting position, ending with its outcome
        (checkmate, repetition, a recorded illegal move or declaration) when it has one."""
        game = cls(board.starting_sfen, headers)
        node: GameNode = game.root
        for move in board.move_stack:
            node = node.add_variation(move)
        outcome = board.outcome()
        if outcome is not None:
            node.add_result(result_from_outcome(outcome, board.turn, board.illegal_move))
        return game

    def __repr__(self) -> str:
        return f"<Game {self.black or '?'} vs {self.white or '?'}, {len(self.mainline_moves())} moves>"
