"""check_mate_line: the independent replay that every solver answer goes through."""

from __future__ import annotations

from shogiban import Board, Move
from shogiban.tsume import check_mate_line

# tanuki-3-150 (tanuki-tsume-shogi, MIT): 1d2c+ discovers the lance's check; every drop on
# 1b-1d is taken by the lance next to the king, guarded by the horse -- mate by convention.
SFEN = "8k/6S2/9/8B/8L/9/9/9/9 b P2rb4g3s4n3l17p 1"


def _line(text: str) -> list[Move]:
    return [Move.from_usi(usi) for usi in text.split()]


def test_accepts_a_mate_line_and_restores_the_board() -> None:
    board = Board(SFEN)
    assert check_mate_line(board, _line("1d2c+")) is None
    assert check_mate_line(board, _line("P*1b 1a2b 1d2c+")) is None
    assert board.sfen() == SFEN


def test_futile_interpositions_only_count_without_conventions() -> None:
    board = Board(SFEN)
    problem = check_mate_line(board, _line("1d2c+"), conventions=False)
    assert problem is not None
    assert "not mate" in problem
    assert check_mate_line(board, _line("P*1b 1a2b 1d2c+"), conventions=False) is None


def test_rejects_a_futile_interposition_as_a_reply() -> None:
    problem = check_mate_line(Board(SFEN), _line("1d2c+ P*1c 1e1c"))
    assert problem is not None
    assert "futile" in problem
    assert "ply 2" in problem


def test_rejects_bad_lines() -> None:
    board = Board(SFEN)
    assert check_mate_line(board, []) == "the line is empty"
    assert "ends with an attacker move" in (check_mate_line(board, _line("P*1b 1a2b")) or "")
    assert "illegal" in (check_mate_line(board, _line("P*1a")) or "")
    assert "does not give check" in (check_mate_line(board, _line("1d2c+ P*1c 1e1c+"), conventions=False) or "")
    assert "not mate" in (check_mate_line(board, _line("P*1b")) or "")
    assert board.sfen() == SFEN
