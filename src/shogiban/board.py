"""The board: a position with its move stack, legal moves, rules and game end.

>>> board = Board()
>>> board.push_usi("7g7f")
Move.from_usi('7g7f')
>>> board.sfen()
'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from shogiban import rules
from shogiban.bitboard import squares_of
from shogiban.errors import IllegalMoveError, InvalidSfenError, Refusal
from shogiban.move import MOVES, Move
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.pieces import ENGLISH_NAMES, PIECE_COUNTS, Color, Piece, PieceType
from shogiban.position import DEAD_END, SPEEDUPS, Position, _PyPositionState
from shogiban.sfen import STARTING_SFEN, make_sfen, parse_sfen
from shogiban.squares import SQUARE_NAMES, Square, square_file
from shogiban.zobrist import HAND as _Z_HAND
from shogiban.zobrist import PIECE_SQUARE as _Z_SQ
from shogiban.zobrist import WHITE_TO_MOVE as _Z_WHITE

_MOVES_GET = MOVES.__getitem__
# The compiled set-up of a well-formed SFEN (None: the Python code below does it all).
_c_legal_codes: Callable[[Position], list[int]] | None = SPEEDUPS.legal_codes if SPEEDUPS else None
_c_set_sfen: Callable[[Position, str, bool], int | None] | None = SPEEDUPS.set_sfen if SPEEDUPS else None


class LegalMoveGenerator:
    """A live view of the legal moves: iterate it, test ``move in``, ``count()`` it."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return map(_MOVES_GET, self._board._legal_codes())  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return self._board._has_legal_move()

    def count(self) -> int:
        """Number of legal moves."""
        return len(self._board._legal_codes())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(m.usi() for m in self)})>"


class _PyBoardState(_PyPositionState):
    """Board's field that the compiled pop reads, for the pure-Python core (with the accelerator,
    its ``BoardState``: the same field in its C struct)."""

    __slots__ = ("_ending",)


if TYPE_CHECKING:
    _BoardState = _PyBoardState
else:
    _BoardState = _PyBoardState if SPEEDUPS is None else SPEEDUPS.BoardState


class Board(Position, _BoardState):
    """A shogi position with its history.

    ``Board()`` is the start position; ``Board(sfen)`` sets up any position.  Impossible positions
    raise :class:`InvalidSfenError` unless ``lenient=True`` (a side without a king, as in tsume,
    is always accepted).

    :param entering_king_rule: the declaration rule in force (27-point by default).
    :param max_moves: end the game as a draw after this many plies (counted from the start of
        the game, as the SFEN move number does), or None for no limit.
    :param tournament: record an illegal move played with :meth:`push_usi` or :meth:`push_legal`
        as a loss for its player instead of refusing it.
    """

    # (_ending is the base's, with the Position fields: _PyBoardState or the compiled BoardState)
    __slots__ = ("_start_number", "_start_sfen", "entering_king_rule", "max_moves", "tournament")

    def __init__(
        self,
        sfen: str | None = STARTING_SFEN,
        *,
        lenient: bool = False,
        entering_king_rule: EnteringKingRule = EnteringKingRule.POINTS_27,
        max_moves: int | None = None,
        tournament: bool = False,
    ) -> None:
        self.entering_king_rule = entering_king_rule
        self.max_moves = max_moves
        self.tournament = tournament
        self._ending: tuple[int, Outcome, Move | None, str] | None = None
        self._start_number = 1
        self._start_sfen: str | tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]], int, int] = ""
        # clear() and set_sfen() set every Position field: Position.__init__ would be overwritten.
        if sfen is None:
            self.clear()
        else:
            self.set_sfen(sfen, lenient=lenient)

    # -- set-up ---------------------------------------------------------------------------------

    def set_sfen(self, sfen: str, *, lenient: bool = False) -> None:
        """Set up the position *sfen* and clear the move stack.  On error the board is unchanged.

        :raises InvalidSfenError: if *sfen* is malformed, or impossible and *lenient* is false.
        """
        if _c_set_sfen is not None:
            # The compiled fast path sets every Position field at once, or declines (returns None,
            # position untouched) for anything unusual or wrong, which the code below explains.
            number = _c_set_sfen(self, sfen, lenient)
            if number is not None:
                self._start_number = number
                self._mark_start()
                return
        parts = parse_sfen(sfen)
        candidate = Position()
        board = candidate._board = parts.board
        bb = candidate._bb
        occ = candidate._occ
        key = _Z_WHITE if parts.turn else 0
        z = _Z_SQ
        for sq in range(81):
            piece = board[sq]
            if piece:
                bb[piece] |= 1 << sq
                occ[piece >> 4] |= 1 << sq
                key ^= z[piece][sq]
        for color in (0, 1):
            hand = parts.hands[color]
            zh = _Z_HAND[color]
            for pt in (1, 2, 3, 4, 5, 6, 7):
                if hand[pt]:
                    key ^= zh[pt][hand[pt]]
        for color in (0, 1):
            kings = bb[8 | color << 4]
            candidate._kings[color] = kings.bit_length() - 1 if kings else -1
        candidate._hands = parts.hands
        candidate._turn = parts.turn
        if not lenient:
            problem = _position_problem(candidate)
            if problem:
                raise InvalidSfenError(f"impossible position: {sfen!r} ({problem})")
        self._board, self._bb, self._occ, self._kings = board, bb, occ, candidate._kings
        self._hands, self._turn = parts.hands, parts.turn
        self._start_number = parts.move_number
        self._reset_history(key)

    @classmethod
    def from_handicap(cls, name: str, **options: object) -> Board:
        """The start position of the handicap *name* (``"香落ち"``, ``"two-piece"``, ...); the giver,
        gote, moves first.  *options* are passed to :class:`Board`.

        :raises ValueError: if the handicap is unknown.
        """
        from shogiban.handicaps import find_handicap

        return cls(find_handicap(name).sfen, **options)  # type: ignore[arg-type]

    def reset(self) -> None:
        """Back to the start position."""
        self.set_sfen(STARTING_SFEN)

    def clear(self) -> None:
        """An empty board, empty hands, sente to move."""
        self._clear()
        self._start_number = 1
        self._reset_history()

    def is_valid(self) -> bool:
        """Whether the current position is possible (see ``lenient``)."""
        return _position_problem(self) is None

    def sfen(self, *, move_number: bool = True) -> str:
        """The canonical SFEN of the position."""
        return make_sfen(self._board, self._turn, self._hands, self.move_number if move_number else None)

    @property
    def starting_sfen(self) -> str:
        """SFEN of the position the move stack starts from."""
        if isinstance(self._start_sfen, tuple):
            board, hands, turn, number = self._start_sfen
            self._start_sfen = make_sfen(list(board), turn, [list(hands[0]), list(hands[1])], number)
        return self._start_sfen

    def _reset_history(self, key: int | None = None) -> None:
        super()._reset_history(key)
        self._mark_start()

    def _mark_start(self) -> None:
        """The move stack starts here: no recorded ending, and a snapshot of the position."""
        self._ending = None
        # A snapshot, written as SFEN only when asked for.
        self._start_sfen = (tuple(self._board), (tuple(self._hands[0]), tuple(self._hands[1])), self._turn,
                            self._start_number)

    def piece_at(self, square: Square) -> Piece | None:
        """The piece on *square*, if any."""
        code = self._board[square]
        return Piece.from_code(code) if code else None

    def set_piece_at(self, square: Square, piece: Piece | None) -> None:
        """Put *piece* on *square* (or empty it); clears the move stack."""
        self._remove(square)
        if piece is not None:
            self._put(square, piece.code)
        self._reset_history()

    def hand(self, color: Color | int) -> dict[PieceType, int]:
        """Pieces in *color*'s hand, in R B G S N L P order, with zero counts left out."""
        hand = self._hands[color]
        return {PieceType(pt): hand[pt] for pt in (6, 5, 7, 4, 3, 2, 1) if hand[pt]}

    def hand_count(self, color: Color | int, piece_type: PieceType | int) -> int:
        """How many *piece_type* *color* holds."""
        return self._hands[color][piece_type]

    def set_hand_count(self, color: Color | int, piece_type: PieceType | int, count: int) -> None:
        """Set how many *piece_type* *color* holds; clears the move stack."""
        if not 1 <= piece_type <= 7 or count < 0:
            raise ValueError(f"invalid hand set-up: {piece_type!r} x {count!r}")
        self._hands[color][piece_type] = count
        self._reset_history()

    def king_square(self, color: Color | int) -> Square | None:
        """Square of *color*'s king, or None when it has none (tsume attacker)."""
        sq = self._kings[color]
        return sq if sq >= 0 else None

    def pieces(self, color: Color | int | None = None) -> dict[Square, Piece]:
        """Pieces on the board by square (of one colour, or all)."""
        return {
            sq: Piece.from_code(p) for sq, p in enumerate(self._board) if p and (color is None or p >> 4 == color)
        }

    # -- state ----------------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """Side to move."""
        return Color(self._turn)

    @property
    def ply(self) -> int:
        """Moves pushed since the starting position."""
        return len(self._stack)

    @property
    def move_number(self) -> int:
        """The SFEN move number: the ply about to be played, counted from the start of the game."""
        return self._start_number + len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since the starting position."""
        return [_MOVES_GET(entry[0]) for entry in self._stack]  # type: ignore[misc]

    def peek(self) -> Move:
        """The last move pushed.

        :raises IndexError: if there is none.
        """
        return _MOVES_GET(self._stack[-1][0])  # type: ignore[return-value]

    def zobrist_hash(self) -> int:
        """64-bit key of board, both hands and side to move."""
        return self._hash

    def copy(self, *, stack: bool = True) -> Board:
        """A copy; with ``stack=False`` the copy starts from the current position."""
        board = Board.__new__(Board)
        board._board = self._board[:]
        board._bb = self._bb[:]
        board._occ = self._occ[:]
        board._kings = self._kings[:]
        board._hands = [self._hands[0][:], self._hands[1][:]]
        board._turn = self._turn
        board.entering_king_rule = self.entering_king_rule
        board.max_moves = self.max_moves
        board.tournament = self.tournament
        if stack:
            board._stack = self._stack[:]
            board._hash = self._hash
            board._rep = dict(self._rep)
            board._start_number = self._start_number
            board._start_sfen = self._start_sfen
            board._ending = self._ending
        else:
            board._start_number = self.move_number
            board._reset_history()
        return board

    def __copy__(self) -> Board:
        return self.copy()

    # -- moves ----------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """Every legal move, including non-promotions wherever they are allowed."""
        return LegalMoveGenerator(self)

    def is_legal(self, move: Move) -> bool:
        """Whether *move* is legal here."""
        return move.code in self._legal_codes()

    def check_move(self, move: Move) -> Refusal | None:
        """Why the rules refuse *move* here (a :class:`~shogiban.errors.Refusal` with a stable
        code: ``nifu``, ``uchifuzume``, ``self_check`` ...), or None if it is legal."""
        return rules.check_move(self, move)

    def illegal_reason(self, move: Move) -> str | None:
        """Deprecated: use :meth:`check_move`, whose :class:`~shogiban.errors.Refusal` carries
        the code and parameters too.  Why *move* is illegal ("two pawns on file 7", ...), or None."""
        warnings.warn("Board.illegal_reason is deprecated: use Board.check_move", DeprecationWarning, stacklevel=2)
        found = rules.check_move(self, move)
        return found.message if found else None

    def is_nifu(self, move: Move) -> bool:
        """Whether *move* drops a pawn on a file that holds an unpromoted pawn of the mover."""
        found = rules.check_move(self, move)
        return found is not None and found.code == "nifu"

    def is_uchifuzume(self, move: Move) -> bool:
        """Whether *move* is a pawn drop that mates (打ち歩詰め), which the rules forbid."""
        found = rules.check_move(self, move)
        return found is not None and found.code == "uchifuzume"

    def push(self, move: Move) -> None:
        """Play *move* without checking it (fast); use :meth:`push_legal` or :meth:`push_usi` to validate."""
        self._push(move.code)

    def push_legal(self, move: Move) -> Move:
        """Play *move* after checking it is legal.

        In tournament mode an illegal move is recorded as a loss for its player (see
        :meth:`outcome`) and the position stays as it was.

        :raises IllegalMoveError: with the refusal, outside tournament mode, or when the game has
            already ended with an illegal move or a declaration.
        """
        if self._ending is not None:
            raise IllegalMoveError.from_refusal(
                Refusal("game_over", {}, f"the game is over: {self._ending[1].detail}"), move, where=self.sfen()
            )
        code = move.code
        if _c_legal_codes is not None:
            if code in _c_legal_codes(self):
                self._push(code)
                return move
            refused = rules.play_checked(self, code)
            if refused is None:  # pragma: no cover - the checker and the move list agree
                self._pop()
                refused = "illegal"
        else:
            refused = rules.play_checked(self, code)
            if refused is None:
                return move
        refusal = rules.describe_refusal(self, move, refused)
        if self.tournament:
            loser = self._turn
            detail = f"{rules.SIDE_NAMES[loser]}: {move.usi()} ({refusal.message})"
            outcome = Outcome(Termination.ILLEGAL_MOVE, Color(loser ^ 1), detail)
            self._ending = (len(self._stack), outcome, move, refusal.code)
            return move
        raise IllegalMoveError.from_refusal(refusal, move, where=self.sfen())

    def parse_usi(self, usi: str) -> Move:
        """Parse USI move text and check that it is legal here.

        :raises InvalidMoveError: if the text is malformed.
        :raises IllegalMoveError: with the refusal, if the move is illegal.
        """
        move = Move.from_usi(usi)
        refusal = rules.check_move(self, move)
        if refusal is not None:
            raise IllegalMoveError.from_refusal(refusal, move, where=self.sfen())
        return move

    def push_usi(self, usi: str) -> Move:
        """Parse, validate and play a USI move (see :meth:`push_legal` for tournament mode).

        :raises InvalidMoveError: if the text is malformed.
        :raises IllegalMoveError: if the move is illegal (outside tournament mode).
        """
        return self.push_legal(Move.from_usi(usi))

    def japanese(self, move: Move, *, previous_to: Square | None = None) -> str:
        """*move* (legal here) in Japanese KI2 notation (``▲７六歩``); see :mod:`shogiban.notation.japanese`."""
        from shogiban.notation.japanese import make_japanese

        return make_japanese(self, move, previous_to=previous_to)

    def parse_japanese(self, text: str) -> Move:
        """The legal move Japanese text (``７六歩``, ``同歩``, ``76歩``) names here.

        :raises InvalidMoveError: if *text* is not a move.
        :raises IllegalMoveError: with the refusal (the same code as :meth:`push_usi`).
        :raises AmbiguousMoveError: if several legal moves fit.
        """
        from shogiban.notation.japanese import parse_japanese

        return parse_japanese(self, text)

    def push_japanese(self, text: str) -> Move:
        """Parse Japanese move text (see :meth:`parse_japanese`), play it and return it."""
        move = self.parse_japanese(text)
        self._push(move.code)
        return move

    def western(self, move: Move, *, style: str = "hodges") -> str:
        """*move* (legal here) in western notation (``P-7f``); see :mod:`shogiban.notation.western`."""
        from shogiban.notation.western import make_western

        return make_western(self, move, style=style)  # type: ignore[arg-type]

    def parse_western(self, text: str) -> Move:
        """The legal move western text (``P-7f``, ``Bx3c+``, ``S*5b``) names here.

        :raises InvalidMoveError: if *text* is not a move.
        :raises IllegalMoveError: with the refusal (the same code as :meth:`push_usi`).
        :raises AmbiguousMoveError: if several legal moves fit.
        """
        from shogiban.notation.western import parse_western

        return parse_western(self, text)

    def push_western(self, text: str) -> Move:
        """Parse western move text (see :meth:`parse_western`), play it and return it."""
        move = self.parse_western(text)
        self._push(move.code)
        return move

    def pop(self) -> Move:
        """Undo the last move and return it.  A recorded illegal move, declaration or impasse
        settlement made after the last move is withdrawn first (an illegal move is returned alone).

        :raises IndexError: if there is nothing to undo.
        """
        ending = self._ending
        if ending is not None and ending[0] == len(self._stack):
            self._ending = None
            if ending[2] is not None:
                return ending[2]
        return _MOVES_GET(self._pop())  # type: ignore[return-value]

    @property
    def illegal_move(self) -> Move | None:
        """The illegal move recorded in tournament mode, if any."""
        return self._ending[2] if self._ending is not None else None

    # -- check, game end ------------------------------------------------------------------------

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return self._in_check()

    def checkers(self) -> list[Square]:
        """Squares of the pieces giving check."""
        ksq = self._kings[self._turn]
        if ksq < 0:
            return []
        return squares_of(self._attackers(ksq, self._turn ^ 1, self._occ[0] | self._occ[1]))

    def attackers(self, color: Color | int, square: Square) -> list[Square]:
        """Squares of *color*'s pieces that attack *square*."""
        return squares_of(self._attackers(square, color, self._occ[0] | self._occ[1]))

    def is_attacked_by(self, color: Color | int, square: Square) -> bool:
        """Whether *color* attacks *square*."""
        return self._is_attacked(square, color, self._occ[0] | self._occ[1])

    def gives_check(self, move: Move) -> bool:
        """Whether *move* (assumed legal) checks the opponent."""
        self._push(move.code)
        try:
            return self._in_check()
        finally:
            self._pop()

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check with no legal move."""
        return self._in_check() and not self._has_legal_move()

    def repetition_count(self) -> int:
        """How many times the current position (board, hands, side to move) has occurred."""
        return self._rep.get(self._hash, 0)

    def is_repetition(self, count: int = 4) -> bool:
        """Whether the current position has occurred at least *count* times."""
        return self._rep.get(self._hash, 0) >= count

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        Checks, in order: a recorded illegal move, declaration or impasse settlement; four-fold
        repetition (perpetual check loses for the checker); no legal move (checkmate or not, a
        loss); the move limit.
        """
        if self._ending is not None:
            return self._ending[1]
        repeated = rules.repetition_outcome(self)
        if repeated is not None:
            return repeated
        if not self._has_legal_move():
            loser = rules.SIDE_NAMES[self._turn]
            if self._in_check():
                return Outcome(Termination.CHECKMATE, Color(self._turn ^ 1), f"{loser} is checkmated")
            return Outcome(Termination.NO_LEGAL_MOVES, Color(self._turn ^ 1), f"{loser} has no legal move")
        if self.max_moves is not None and self.move_number - 1 >= self.max_moves:
            return Outcome(Termination.MAX_MOVES, None, f"the limit of {self.max_moves} moves was reached")
        return None

    def is_game_over(self) -> bool:
        """Whether :meth:`outcome` is not None."""
        return self.outcome() is not None

    def declaration_points(self, color: Color | int) -> int:
        """Entering-king points of *color*: its hand plus its pieces in the enemy camp (king excluded)."""
        return rules.declaration_points(self, color)[0]

    def impasse_points(self, color: Color | int) -> int:
        """24-point-rule count of *color*: all its pieces on the board and in hand (king excluded)."""
        return rules.material(self, color)

    def can_declare_win(self, rule: EnteringKingRule | None = None) -> bool:
        """Whether the side to move would win by declaring under *rule* (default: the board's)."""
        return rules.declaration_status(self, rule or self.entering_king_rule).wins

    def declaration_status(self, rule: EnteringKingRule | None = None) -> rules.DeclarationStatus:
        """Where a declaration by the side to move stands under *rule* (default: the board's):
        see :func:`shogiban.rules.declaration_status`."""
        return rules.declaration_status(self, rule or self.entering_king_rule)

    def declare_win(self) -> Outcome:
        """Declare an entering-king win (USI ``bestmove win``, CSA ``%KACHI``) for the side to move.

        Under the 24-point rule 24 to 30 points give a draw.  A declaration that fails the rule is
        refused, or recorded as a loss in tournament mode.

        :raises IllegalMoveError: if the declaration fails the rule (outside tournament mode).
        """
        status = rules.declaration_status(self, self.entering_king_rule)
        result, refusal = status.outcome, status.refusal
        side = rules.SIDE_NAMES[self._turn]
        if result is None:
            assert refusal is not None
            if not self.tournament:
                # The code names the unmet condition (king_not_in_camp, too_few_points ...).
                raise IllegalMoveError(f"illegal declaration in {self.sfen()} ({refusal.message})", refusal=refusal)
            result = Outcome(
                Termination.ILLEGAL_MOVE, Color(self._turn ^ 1), f"{side}: failed declaration ({refusal.message})"
            )
        self._ending = (len(self._stack), result, None, "declaration")
        return result

    def settle_impasse(self) -> Outcome:
        """End the game by the 24-point count (持将棋 by agreement) and return the outcome."""
        result = rules.impasse_outcome(self)
        self._ending = (len(self._stack), result, None, "impasse")
        return result

    # -- counting -------------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Number of move sequences of *depth* plies, counting promotions and non-promotions."""
        if depth < 0:
            raise ValueError(f"invalid perft depth: {depth!r}")
        return self._perft(depth)

    # -- dunder ---------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._board == other._board
            and self._hands == other._hands
            and self._turn == other._turn
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Board({self.sfen()!r})"

    def __str__(self) -> str:
        hands = []
        for color in (1, 0):
            held = " ".join(
                f"{Piece(pt, Color(color)).symbol()}{n if n > 1 else ''}" for pt, n in self.hand(color).items()
            )
            hands.append(f"{rules.SIDE_NAMES[color]} hand: {held or '-'}")
        lines = [hands[0], "  9  8  7  6  5  4  3  2  1"]
        for r in range(9):
            cells = [f"{Piece.from_code(code).symbol():>2}" if code else " ." for code in self._board[r * 9:r * 9 + 9]]
            lines.append(" " + " ".join(cells) + "  " + "abcdefghi"[r])
        lines.append(hands[1])
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """SVG picture of the board, so that Jupyter shows boards as pictures."""
        from shogiban.svg import board_svg

        return board_svg(self)


#: The Python Board.push and Board.pop: references for the compiled ones installed below.
_py_push = Board.push
_py_pop = Board.pop
if SPEEDUPS is not None:
    # Method descriptors of Board: ``board.push(move)`` runs C directly (no Python frame in between);
    # the compiled pop calls the Python one when a game end is recorded.
    SPEEDUPS.set_moves(Move, MOVES, _py_pop)
    _COMPILED = SPEEDUPS.methods_for(Board)
    Board.push = _COMPILED["push"]  # type: ignore[method-assign]
    Board.pop = _COMPILED["pop"]  # type: ignore[method-assign]


def position_problems(position: Position) -> list[Refusal]:
    """Every reason why *position* could not arise in a game, each a :class:`Refusal` with a stable
    code (``dead_piece``, ``two_kings``, ``two_pawns``, ``too_many_pieces``, ``not_to_move_in_check``)
    and the squares, files, pieces and sides it names: what a position editor explains.

    >>> [p.code for p in position_problems(Board("4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1", lenient=True))]
    ['two_pawns']
    """
    found: list[Refusal] = []
    bb = position._bb
    for code in (1, 2, 3, 17, 18, 19):
        found.extend(
            Refusal("dead_piece", {"piece": int(code & 15), "square": SQUARE_NAMES[sq], "side": code >> 4},
                    f"the {ENGLISH_NAMES[code & 15]} on {SQUARE_NAMES[sq]} could never move")
            for sq in squares_of(bb[code] & DEAD_END[code])
        )
    for color in (0, 1):
        side = rules.SIDE_NAMES[color]
        if bb[8 | color << 4].bit_count() > 1:
            found.append(Refusal("two_kings", {"side": color}, f"{side} has more than one king"))
        files = [square_file(sq) for sq in squares_of(bb[1 | color << 4])]
        found.extend(Refusal("two_pawns", {"side": color, "file": file}, f"two {side} pawns on file {file}")
                     for file in sorted({f for f in files if files.count(f) > 1}))
    for pt, most in PIECE_COUNTS.items():
        total = bb[pt].bit_count() + bb[pt | 16].bit_count()
        if pt <= 6:
            total += bb[pt + 8].bit_count() + bb[pt + 24].bit_count()
        if pt != 8:
            total += position._hands[0][pt] + position._hands[1][pt]
        if total > most:
            found.append(Refusal("too_many_pieces", {"piece": int(pt), "count": total, "most": most},
                                 f"{total} {ENGLISH_NAMES[pt]}s (a set has {most})"))
    other = position._turn ^ 1
    ksq = position._kings[other]
    if ksq >= 0 and position._is_attacked(ksq, position._turn, position._occ[0] | position._occ[1]):
        mover = rules.SIDE_NAMES[position._turn]
        found.append(Refusal("not_to_move_in_check", {"side": other},
                             f"{rules.SIDE_NAMES[other]} is in check but it is {mover}'s turn"))
    return found


def start_problems(position: Position) -> list[Refusal]:
    """Why a game cannot start from *position*: its :func:`position_problems`, a side without a
    king (``missing_king``) and a game that is already over (``game_over``).  The one check the editor's
    "playable" and every new game use.

    >>> [p.code for p in start_problems(Board("9/9/9/9/9/9/9/9/4K4 b - 1", lenient=True))]
    ['missing_king']
    """
    found = position_problems(position)
    for color in (0, 1):
        if position._kings[color] < 0:
            found.append(Refusal("missing_king", {"side": color}, f"{rules.SIDE_NAMES[color]} has no king"))
    if not found and isinstance(position, Board) and position.outcome() is not None:
        found.append(Refusal("game_over", {}, f"the game is already over in that position ({position.outcome()})"))
    return found


def _position_problem(position: Position) -> str | None:
    """Why *position* is impossible (the first reason), or None."""
    problems = position_problems(position)
    return problems[0].message if problems else None
