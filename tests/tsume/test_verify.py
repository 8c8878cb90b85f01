"""check_mate_line: the independent replay that every solver answer goes through."""

from __future__ import annotations

from shogiban import Board, Move
from shogiban.tsume import check_mate_line

SFEN = "8k/6+b2/7pB/8L/9/9/9/9/9 b G2r3g4s4n3l17p 1"  # tsumemi 3te-3: G*1b 1a1b 1c3a+


def _line(text: str) -> list[Move]:
    return [Move.from_usi(usi) for usi in text.split()]


def test_accepts_a_mate_line_and_restores_the_board() -> None:
    board = Board(SFEN)
    assert check_mate_line(board, _line("G*1b 1a1b 1c3a+")) is None
    assert board.sfen() == SFEN


def test_the_final_futile_interposition_only_counts_without_conventions() -> None:
    board = Board(SFEN)
    problem = check_mate_line(board, _line("G*1b 1a1b 1c3a+"), conventions=False)
    assert problem is not None
    assert "not mate" in problem
    assert check_mate_line(board, _line("G*1b 1a1b 1c3a+ P*1c 1d1c"), conventions=False) is None


def test_rejects_a_futile_interposition_as_a_reply() -> None:
    board = Board(SFEN)
    problem = check_mate_line(board, _line("G*1b 1a1b 1c3a+ P*1c 1d1c"))
    assert problem is not None
    assert "futile" in problem
    assert "ply 4" in problem


def test_rejects_bad_lines() -> None:
    board = Board(SFEN)
    assert check_mate_line(board, []) == "the line is empty"
    assert "ends with an attacker move" in (check_mate_line(board, _line("G*1b 1a1b")) or "")
    assert "illegal" in (check_mate_line(board, _line("G*1a")) or "")
    assert "does not give check" in (check_mate_line(board, _line("G*3c")) or "")
    assert "not mate" in (check_mate_line(board, _line("G*1b")) or "")
    assert board.sfen() == SFEN
