"""Helpers for the notation tests: small positions written as piece lists, and the lishogi games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from shogiban import Board, Move, Piece, parse_square
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
