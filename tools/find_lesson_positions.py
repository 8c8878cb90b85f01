"""Search small positions for the 角不成 (unpromoted bishop) exercise of the ``tactics`` lesson.

    python tools/find_lesson_positions.py [--seconds 600] [--seed 1] [--length 7]

The only real reason to keep a bishop unpromoted is 打ち歩詰め: a horse also guards the squares
next to it orthogonally, which can make a later pawn drop a mate (and so illegal) or take the
king's square the mating line needs.  The script generates sparse positions around that motif
(gote's king near an edge with a few gote pieces, sente's bishop, a pawn and maybe one more
piece in hand, sente's king far away), solves each with :func:`shogiban.tsume.solve`, and prints
those where the shortest mate is unique, starts with a bishop move that does not promote, and the
same move with promotion mates in no number of moves up to the limit.  A printed ``uchifuzume``
means that replaying the line after the promoted twin meets a pawn drop the rules refuse as
打ち歩詰め.

Runs so far (about 100,000 positions, mates up to 7 plies) found none: wherever a bishop check
without promotion mated, the horse mated too.  The lesson therefore teaches the rule directly
(section ``bishop_unpromoted``: after the horse's check the pawn drop would be 打ち歩詰め).

MIT licence, as the rest of shogiban.
"""

from __future__ import annotations

import argparse
import random
import time

from shogiban.board import Board
from shogiban.move import Move
from shogiban.pieces import Color, Piece, PieceType
from shogiban.squares import SQUARE_NAMES, square_file, square_rank
from shogiban.tsume import TsumeError, solve

GOTE_PIECES = ("p", "l", "n", "s", "g", "g", "s", "p", "r", "b")
EXTRA_HAND = ("", "", "G", "S", "N", "L", "R", "P")
SENTE_HELPERS = ("", "", "P", "L", "N", "S", "G", "+P")
#: The solver's node budget per position (a position needing more is skipped).
NODES = 20_000


def _square(file: int, rank: int) -> int:
    """The square on *file* (1..9) and *rank* (1..9, ``a`` is 1), as the squares module counts."""
    return next(sq for sq in range(81) if square_file(sq) == file and square_rank(sq) == rank)


def random_position(rng: random.Random) -> Board | None:
    """A sparse position around the 打ち歩詰め motif, or None when the draw is not a legal one."""
    board = Board(None)
    king = _square(rng.choice((1, 1, 2, 3)), rng.choice((1, 1, 2, 3)))
    board.set_piece_at(king, Piece.from_symbol("k"))
    board.set_piece_at(_square(9, 9), Piece.from_symbol("K"))
    near = [sq for sq in range(81) if sq != king and abs(square_file(sq) - square_file(king)) <= 2
            and abs(square_rank(sq) - square_rank(king)) <= 2]
    for symbol in rng.sample(GOTE_PIECES, rng.randint(1, 4)):
        board.set_piece_at(rng.choice(near), Piece.from_symbol(symbol))
    helper = rng.choice(SENTE_HELPERS)
    if helper:
        board.set_piece_at(rng.choice(near), Piece.from_symbol(helper))
    # The bishop stands where a move of it can promote: in the camp or a few ranks below it.
    free = [sq for sq in range(81) if board.piece_at(sq) is None and square_rank(sq) <= 6]
    board.set_piece_at(rng.choice(free), Piece.from_symbol("B"))
    board.set_hand_count(Color.BLACK, PieceType.PAWN, 1)
    extra = rng.choice(EXTRA_HAND)
    if extra:
        piece_type = Piece.from_symbol(extra).piece_type
        board.set_hand_count(Color.BLACK, piece_type, board.hand_count(Color.BLACK, piece_type) + 1)
    try:
        checked = Board(board.sfen())
    except ValueError:
        return None
    if not checked.is_valid() or checked.is_check() or checked.is_attacked_by(Color.BLACK, king):
        return None
    return checked if bishop_checks(checked) else None


def bishop_checks(board: Board) -> list[Move]:
    """The bishop's checking moves that do not promote but could."""
    found = []
    for move in board.legal_moves:
        piece = board.piece_at(move.from_square) if move.from_square is not None else None
        if piece is None or piece.symbol() != "B" or move.promotion or not board.gives_check(move):
            continue
        if board.is_legal(Move(from_square=move.from_square, to_square=move.to_square, promotion=True)):
            found.append(move)
    return found


def mates_within(board: Board, move: Move, length: int) -> bool:
    """Whether *move* (legal on *board*, sente to move) mates by continuous checks in *length* plies."""
    board = board.copy()
    board.push(move)
    if board.is_checkmate():
        return True
    if length < 3 or not board.is_check():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        result = solve(board, max_length=length - 2, check_unique=False, max_nodes=NODES)
        board.pop()
        if result.status != "mate":
            return False
    return True


def meets_uchifuzume(board: Board, line: list[Move], twin: Move) -> bool:
    """Whether the mate line, with *twin* as its first move, meets a pawn drop refused as 打ち歩詰め."""
    board = board.copy()
    for move in [twin, *line[1:]]:
        if move.drop == PieceType.PAWN and board.is_uchifuzume(move):
            return True
        if not board.is_legal(move):
            return False
        board.push(move)
    return False


def examine(board: Board, length: int) -> str | None:
    """A report line when *board* fits the exercise, else None."""
    try:
        result = solve(board, max_length=length, max_nodes=NODES)
    except TsumeError:
        return None
    if result.status != "mate" or not result.unique:
        return None
    first = result.moves[0]
    piece = board.piece_at(first.from_square) if first.from_square is not None else None
    if piece is None or piece.symbol() != "B" or first.promotion:
        return None
    twin = Move(from_square=first.from_square, to_square=first.to_square, promotion=True)
    if not board.is_legal(twin) or mates_within(board, twin, length + 2):
        return None
    motif = "uchifuzume" if meets_uchifuzume(board, result.moves, twin) else "-"
    return f"{board.sfen()}\t{result.usi()}\t{twin.usi()}\t{motif}\t{SQUARE_NAMES[first.to_square]}"


def main(argv: list[str] | None = None) -> None:
    """Search for *seconds* and print each position found (SFEN, line, promoted twin, motif)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--length", type=int, default=7, help="longest mate searched, in plies")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    end, tried, seen = time.monotonic() + args.seconds, 0, set()
    while time.monotonic() < end:
        board = random_position(rng)
        if board is None:
            continue
        tried += 1
        found = examine(board, args.length)
        if found and found not in seen:
            seen.add(found)
            print(found, flush=True)
    print(f"# {tried} positions tried", flush=True)


if __name__ == "__main__":
    main()
