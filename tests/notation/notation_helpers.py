"""Helpers for the notation tests: small positions written as piece lists, and the lishogi games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from shogiban import AmbiguousMoveError, Board, InvalidSfenError, Move, Piece, parse_square
from shogiban.notation.japanese import parse_ki2_move
from shogiban.sfen import make_sfen


def board_from(pieces: str, turn: str = "b", hand: str = "-", *, lenient: bool = False) -> Board:
    """A board from ``"K5i k5a G6i +r2a"`` (SFEN letters, upper case for sente) plus side and hands."""
    squares = [0] * 81
    for item in pieces.split():
        squares[parse_square(item[-2:])] = Piece.from_symbol(item[:-2]).code
    sfen = make_sfen(squares, 0 if turn == "b" else 1, [[0] * 8, [0] * 8], 1)
    fields = sfen.split()
    fields[2] = hand
    return Board(" ".join(fields), lenient=lenient)


def lishogi_games(shared_data: Path) -> list[list[str]]:
    """The 500 lishogi games as lists of USI moves."""
    path = shared_data / "usi_games" / "lishogi_prod_500.usi"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def positions(games: list[list[str]]) -> Iterator[tuple[Board, Move]]:
    """Every (board before the move, move) of *games*; the board object is reused."""
    for game in games:
        board = Board()
        for token in game:
            move = Move.from_usi(token)
            yield board, move
            board.push(move)


def read_kifu_text(path: Path) -> str:
    """A KIF/KI2 file's text: UTF-8 (BOM stripped) when it decodes, else CP932."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp932")


# Kinds that make KI2 modifiers interesting (several of a kind, pieces that pin), drawn often.
_KINDS = (7, 7, 7, 4, 4, 4, 13, 13, 14, 14, 3, 3, 2, 1, 9, 10, 11, 12, 5, 6)
_RAYS = ((-9, 0), (9, 0), (-1, -1), (1, 1), (-10, -1), (-8, 1), (8, -1), (10, 1))  # (step, file change)


def random_positions(count: int, seed: int) -> Iterator[Board]:
    """*count* random legal positions with several pieces of a kind near each other, and in half
    of them a piece pinned to its king by an enemy rook, bishop or lance."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        squares = [0] * 81
        turn = rng.randint(0, 1)
        king = rng.randrange(81)
        squares[king] = 8 | turn << 4
        pinned = _add_pin(rng, squares, king, turn) if rng.random() < 0.5 else None
        for sq in rng.sample(range(81), rng.randint(5, 14)):
            if not squares[sq]:
                squares[sq] = rng.choice(_KINDS) | (turn if rng.random() < 0.6 else turn ^ 1) << 4
        if not any(p == 8 | (turn ^ 1) << 4 for p in squares):
            free = [sq for sq in range(81) if not squares[sq]]
            squares[rng.choice(free)] = 8 | (turn ^ 1) << 4
        hands = [[0] * 8, [0] * 8]
        for color in (0, 1):
            for pt in range(1, 8):
                hands[color][pt] = int(rng.random() < 0.3)
        if pinned is not None and pinned <= 7:
            hands[turn][pinned] = 1  # a drop that the pinned piece could rival
        try:
            board = Board(make_sfen(squares, turn, hands, 1))
        except InvalidSfenError:
            continue
        if board.legal_moves.count():
            made += 1
            yield board


def _add_pin(rng: random.Random, squares: list[int], king: int, turn: int) -> int | None:
    """Put a piece of *turn* next to *king* along a ray, an enemy slider behind it, and a second
    piece of the kind near the first; the pinned kind, or None when the ray was too short."""
    step, file_change = rng.choice(_RAYS)
    path = []
    sq = king
    while True:
        nxt = sq + step
        if not 0 <= nxt < 81 or (nxt % 9) - (sq % 9) != file_change:
            break
        path.append(nxt)
        sq = nxt
    if len(path) < 3:
        return None
    kind = rng.choice((7, 4, 13, 14, 3, 9))
    squares[path[0]] = kind | turn << 4
    slider = 6 if file_change == 0 or step in (-1, 1) else 5
    if file_change == 0 and rng.random() < 0.3:
        slider = 2  # a lance pins only along its file, looking forward
    promoted = slider + 8 if slider != 2 else slider
    squares[path[rng.randint(1, len(path) - 1)]] = rng.choice((slider, promoted)) | (turn ^ 1) << 4
    near = [sq for sq in range(81) if not squares[sq] and abs(sq // 9 - path[0] // 9) <= 2
            and abs(sq % 9 - path[0] % 9) <= 2]
    if near:
        squares[rng.choice(near)] = kind | turn << 4
    return kind


def cshogi_difference(board: Board, move: Move, mine: str, theirs: str) -> str:
    """Why cshogi's KI2 text *theirs* for *move* differs from ours (*mine*), both without spaces;
    raises AssertionError when no known cshogi deviation from the JSA rules explains it.

    * cshogi decides 打 from the legal moves (its modifiers from the pseudo-legal ones): when
      every board piece of the kind that could reach the square is pinned, it leaves 打 out.
    * cshogi sometimes leaves out the motion after a position that two pieces share
      (``４八金左`` for ``４八金左寄``): its text is ambiguous to a JSA reader.
    """
    if move.drop is not None and mine == theirs + "打":
        rivals = [sq for sq in board.attackers(board.turn, move.to_square) if board._board[sq] & 15 == int(move.drop)]
        legal = {m.from_square for m in board.legal_moves if m.to_square == move.to_square and m.drop is None}
        assert rivals, (board.sfen(), move, mine, theirs)
        assert not set(rivals) & legal, (board.sfen(), move, mine, theirs)
        return "cshogi: 打 from the legal moves"
    try:
        parse_ki2_move(board, theirs)
    except AmbiguousMoveError:
        return "cshogi: ambiguous text"
    raise AssertionError((board.sfen(), move.usi(), mine, theirs))
