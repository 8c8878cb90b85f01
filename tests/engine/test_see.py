"""Static exchange evaluation (shogiban.engine.see) on positions whose exchange is worked out by
hand, its compiled twin (shogiban._speedups.see) on every legal move of many positions, and the
quiescence search's use of it.

Values (evaluate.MATERIAL): P 90, L 315, N 405, S 495, G 540, B 855, R 990, +S 540, D 1395.  A
capture gains the board value plus the value in hand: P 180, S 990, G 1080, R 1980, +P 630,
+S 1035, D 2385.  Promotion gains P 450, S 45, R 405."""

from __future__ import annotations

import random

import pytest
from tests.engine.positions_support import benchmark_sfens, random_game

from shogiban import Board
from shogiban.engine.levels import profile
from shogiban.engine.search import INF, Searcher
from shogiban.engine.see import ORDER, see
from shogiban.engine.timeman import TimePlan
from shogiban.move import Move
from shogiban.position import SPEEDUPS

compiled = pytest.mark.skipif(SPEEDUPS is None, reason="the C accelerator is not built or not used")

_CASES = [
    # A pawn defended by a gold, taken by a rook: +180 - 1980.
    ("8k/9/5g3/4p4/9/9/9/4R4/K8 b - 1", "5h5d", -1800),
    # The same for gote: the rook takes a pawn the gold on 6g defends.
    ("k8/4r4/9/9/9/4P4/3G5/9/8K w - 1", "5b5f", -1800),
    # An undefended silver: its value.
    ("8k/9/9/4s4/9/9/9/4R4/K8 b - 1", "5h5d", 990),
    # The silver defended by a gold: the rook is lost, +990 - 1980.
    ("8k/9/5g3/4s4/9/9/9/4R4/K8 b - 1", "5h5d", -990),
    # ... with a lance behind the rook, which takes the gold back: +990 - 1980 + 1080.
    ("8k/9/5g3/4s4/9/9/9/4R4/K3L4 b - 1", "5h5d", 90),
    # A gold defended by a silver, a second rook behind the first: +1080 - 1980 + 990.
    ("8k/9/5s3/4g4/9/9/9/4R4/K3R4 b - 1", "5h5d", 90),
    # Gote's x-ray: S takes P (+180), L takes S (-990), G would take L (+630) but the rook behind
    # the lance takes the gold (-1080): sente stops after losing the silver, +180 - 990.
    ("8k/4r4/4l4/4p4/3G1S3/9/9/9/K8 b - 1", "4e5d", -810),
    # Without the rook, sente wins the exchange back: +180 - 990 + 630.
    ("8k/9/4l4/4p4/3G1S3/9/9/9/K8 b - 1", "4e5d", -180),
    # The rook takes the pawn next to the king promoting (+180 + 405); the king may not take the
    # dragon while the gold on 6c still attacks it.
    ("4k4/4p4/3G5/9/9/9/9/4R4/K8 b - 1", "5h5b+", 585),
    # Without the gold the king takes the dragon: +585 - 2385.
    ("4k4/4p4/9/9/9/9/9/4R4/K8 b - 1", "5h5b+", -1800),
    # A pawn takes promoting (+180 + 450), a silver promoting or not.
    ("8k/9/5p3/5P3/9/9/9/9/K8 b - 1", "4d4c+", 630),
    ("8k/9/5p3/5S3/9/9/9/9/K8 b - 1", "4d4c+", 225),
    ("8k/9/5p3/5S3/9/9/9/9/K8 b - 1", "4d4c", 180),
    # The recapture promotes too: the gote silver takes the rook on 5g, in its zone: +180 - 2025.
    ("8k/9/9/9/9/5s3/4p4/9/4R3K b - 1", "5i5g", -1845),
    # ... and a gold takes the promoted silver back: +180 - 2025 + 1035.
    ("8k/9/9/9/9/5s3/4p4/3G5/4R3K b - 1", "5i5g", -810),
    # An even trade (silver for silver) is worth 0.
    ("8k/9/5s3/4s4/5S3/9/9/9/K8 b - 1", "4e5d", 0),
    # A drop on a square the enemy attacks loses the piece: -990.
    ("8k/9/5g3/9/9/9/9/9/K8 b S 1", "S*5d", -990),
]


def _code(board: Board, usi: str) -> int:
    move = Move.from_usi(usi)
    assert board.is_legal(move), (board.sfen(), usi)
    return move.code


@pytest.mark.parametrize(("sfen", "usi", "value"), _CASES)
def test_exchange_values_worked_out_by_hand(sfen: str, usi: str, value: int) -> None:
    board = Board(sfen)
    assert see(board, _code(board, usi)) == value


@compiled
@pytest.mark.parametrize(("sfen", "usi", "value"), _CASES)
def test_compiled_exchange_values_worked_out_by_hand(sfen: str, usi: str, value: int) -> None:
    assert SPEEDUPS is not None
    board = Board(sfen)
    assert SPEEDUPS.see(board, _code(board, usi)) == value


def test_the_king_recaptures_last() -> None:
    assert ORDER[-1] == 8
    assert ORDER[0] == 1  # the pawn first


def _sfens() -> list[str]:
    rng = random.Random(3)
    return benchmark_sfens(150) + [
        board.sfen() for _ in range(8) for ply, board in random_game(rng, 150, 0.5) if ply % 3 == 0
    ]


@compiled
def test_compiled_see_matches_python_on_every_legal_move() -> None:
    assert SPEEDUPS is not None
    checked = 0
    for sfen in _sfens():
        board = Board(sfen)
        for code in board._legal_codes():
            assert SPEEDUPS.see(board, code) == see(board, code), (sfen, code)
            checked += 1
    assert checked > 10_000


def _qsearch_nodes(sfen: str, python: bool) -> int:
    searcher = Searcher(
        Board(sfen), profile(8), {}, 1 << 16, [0] * 65536, random.Random(0),
        plan=TimePlan(None, None), max_depth=None, max_nodes=None, stop=None, on_info=None,
    )
    if python:
        searcher.compiled_qsearch = None
    searcher.qsearch(-INF, INF, 0, 0)
    return searcher.nodes


@pytest.mark.parametrize("python", [True, False])
def test_qsearch_skips_a_losing_exchange_and_plays_a_winning_one(python: bool) -> None:
    # The rook's only capture loses it (SEE -1800): the quiescence search stands pat.
    assert _qsearch_nodes("8k/9/5g3/4p4/9/9/9/4R4/K8 b - 1", python) == 1
    # A rook taking a defended silver wins with the lance behind it (SEE 90): it is searched.
    assert _qsearch_nodes("8k/9/5g3/4s4/9/9/9/4R4/K3L4 b - 1", python) > 1
