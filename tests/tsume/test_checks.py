"""The attacker's check generator against the slow definition: every legal move that checks."""

from __future__ import annotations

import random

import pytest

from shogiban import Board, Move
from shogiban.tsume import generate_checks
from shogiban.tsume.checks import check_codes, gives_check_codes_slow

from .helpers import corpus_rows


def _by_filter(board: Board) -> set[str]:
    return {move.usi() for move in board.legal_moves if board.gives_check(move)}


def _generated(board: Board) -> set[str]:
    codes = check_codes(board)
    assert len(codes) == len(set(codes)), "a check was generated twice"
    return {m.usi() for m in generate_checks(board)}


def _agrees(board: Board) -> bool:
    """The generator and the filter agree (int codes: fast enough for thousands of positions)."""
    codes = check_codes(board)
    return len(codes) == len(set(codes)) and sorted(codes) == sorted(gives_check_codes_slow(board))


@pytest.mark.parametrize(
    ("sfen", "expected"),
    [
        # Drops only from where the piece reaches the king, and no dead knight on ranks a-b.
        ("4k4/9/9/9/9/9/9/9/9 b N 1", {"N*6c", "N*4c"}),
        # Discovered check: the silver blocking the lance may go anywhere off the file.
        ("4k4/9/9/9/4S4/9/9/9/4L4 b - 1", {"5e6d", "5e4d", "5e6f", "5e4f"}),
        # A piece pinned to its own king only moves along the pin line: no check here.
        ("4k4/9/9/9/9/9/4r4/4G4/4K4 b - 1", set()),
        # 二歩: the pawn drop on the king's file is illegal, and the pawn push does not check.
        ("4k4/9/9/4P4/9/9/9/9/9 b P 1", set()),
        # Only the promoted silver (moving like a gold) attacks sideways.
        ("9/4k4/6S2/9/9/9/9/9/9 b - 1", {"3c4b+"}),
    ],
)
def test_specific_positions(sfen: str, expected: set[str]) -> None:
    board = Board(sfen, lenient=True)
    assert _generated(board) == _by_filter(board) == expected


def test_pawn_drop_mate_is_not_generated() -> None:
    # P*9b would mate (gold guards the pawn and 8b, silver guards 8a): 打ち歩詰め.
    board = Board("k8/2S6/1G7/9/9/9/9/9/9 b P 1", lenient=True)
    generated = _generated(board)
    assert "P*9b" not in generated
    assert generated == _by_filter(board)
    assert "8c8b" in generated
    # Without the silver the king escapes to 8a, so the same drop is a legal check.
    assert "P*9b" in _generated(Board("k8/9/1G7/9/9/9/9/9/9 b P 1", lenient=True))


def test_discovered_check_by_the_king() -> None:
    # The king is the only piece between our rook and the enemy king: stepping aside checks.
    board = Board("4k4/9/9/9/4K4/9/9/9/4R4 b - 1", lenient=True)
    generated = _generated(board)
    assert generated == _by_filter(board)
    assert {"5e6e", "5e4e"} <= generated


def test_attacker_in_check_falls_back_to_filtering() -> None:
    board = Board("4k4/9/9/9/9/9/9/4r4/4K4 b G 1", lenient=True)
    assert board.is_check()
    assert _generated(board) == _by_filter(board)


def test_no_enemy_king_means_no_checks() -> None:
    board = Board("9/9/9/9/4K4/9/9/9/9 b 2R 1", lenient=True)
    assert generate_checks(board) == []


def test_returns_moves() -> None:
    board = Board("3k5/9/3P5/9/9/9/9/9/9 b G 1", lenient=True)
    assert all(isinstance(m, Move) for m in generate_checks(board))


def _walk(sfens: list[str], seed: int, steps: int) -> list[str]:
    """Positions reached by random walks that prefer checks, so checks are plentiful."""
    rng = random.Random(seed)
    out = []
    for sfen in sfens:
        board = Board(sfen, lenient=True)
        for _ in range(steps):
            out.append(board.sfen())
            codes = board._legal_codes()
            if not codes:
                break
            checks = gives_check_codes_slow(board)
            board._push(rng.choice(checks if checks and rng.random() < 0.4 else codes))
    return out


def test_random_walks_from_game_positions() -> None:
    starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ]
    for sfen in _walk(starts * 4, seed=7, steps=40):
        assert _agrees(Board(sfen, lenient=True)), sfen


def test_corpus_positions_and_their_lines() -> None:
    rows = corpus_rows()
    if not rows:
        pytest.skip("the shared tsume corpus is absent")
    sample = rows[::15]
    for sfen in _walk([row.sfen for row in sample], seed=11, steps=6):
        assert _agrees(Board(sfen, lenient=True)), sfen
