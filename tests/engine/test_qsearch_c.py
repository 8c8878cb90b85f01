"""The compiled evaluation and quiescence search (shogiban._speedups: eval_parts, attacks_near,
qsearch) give exactly what shogiban.engine.evaluate and Searcher.qsearch give: the same scores,
node counts, principal variations and selective depths, in and out of check, in every window;
and a whole search gives the same answer either way.  Without the accelerator the Searcher runs
the Python quiescence search (these tests then check only that)."""

from __future__ import annotations

import random

import pytest
from tests.engine.positions_support import benchmark_sfens, random_game

from shogiban import Board
from shogiban.engine import search as search_module
from shogiban.engine.evaluate import attacks_near, full_score, king_danger
from shogiban.engine.levels import profile
from shogiban.engine.search import INF, MATE, Searcher, SearchStopped
from shogiban.engine.timeman import TimePlan
from shogiban.position import SPEEDUPS

compiled = pytest.mark.skipif(SPEEDUPS is None, reason="the C accelerator is not built or not used")


def _playout_sfens(games: int, seed: int) -> list[str]:
    """Positions of random games from the start (checks included), every third ply."""
    rng = random.Random(seed)
    return [
        board.sfen()
        for _ in range(games)
        for ply, board in random_game(rng, 160, 0.4)
        if ply % 3 == 0 or board._in_check()
    ]


def _searcher(board: Board, level: int = 8, max_nodes: int | None = None, python: bool = False) -> Searcher:
    searcher = Searcher(
        board, profile(level), {}, 1 << 16, [0] * 65536, random.Random(0),
        plan=TimePlan(None, None), max_depth=None, max_nodes=max_nodes, stop=None, on_info=None,
    )
    if python:
        searcher.compiled_qsearch = None
    return searcher


_SFENS = benchmark_sfens(300) + _playout_sfens(12, 7)
_WINDOWS = [(-INF, INF), (-60, 60), (0, 1), (-301, -300), (150, 400), (-MATE + 5, -MATE + 50)]


def _qsearch(board: Board, alpha: int, beta: int, python: bool, level: int = 8) -> tuple[int, int, list[int], int]:
    searcher = _searcher(Board(board.sfen()), level, python=python)
    score = searcher.qsearch(alpha, beta, 0, 0)
    return score, searcher.nodes, searcher.pv[0], searcher.seldepth


def test_the_positions_include_checks() -> None:
    assert sum(Board(sfen)._in_check() for sfen in _SFENS) >= 20


@compiled
def test_compiled_evaluation_matches_python() -> None:
    assert SPEEDUPS is not None
    for sfen in _SFENS:
        board = Board(sfen)
        assert SPEEDUPS.eval_parts(board) == (full_score(board), king_danger(board, 0), king_danger(board, 1)), sfen
        for by in (0, 1):
            for k in (board._kings[by ^ 1], 40, 0, 80):
                if k >= 0:
                    assert SPEEDUPS.attacks_near(board, by, k) == attacks_near(board, by, k), (sfen, by, k)


@compiled
def test_compiled_qsearch_matches_python_in_every_window() -> None:
    for sfen in _SFENS:
        board = Board(sfen)
        for alpha, beta in _WINDOWS:
            assert _qsearch(board, alpha, beta, False) == _qsearch(board, alpha, beta, True), (sfen, alpha, beta)


@compiled
def test_compiled_qsearch_matches_python_at_other_depths() -> None:
    # Levels 4 to 7 have no noise and quiescence depths 8 and 10; deeper plies reach MAX_PLY.
    for sfen in _SFENS[::5]:
        board = Board(sfen)
        for level in (4, 7):
            assert _qsearch(board, -INF, INF, False, level) == _qsearch(board, -INF, INF, True, level), sfen
        for ply in (0, 50, 97, 100):
            results = []
            for python in (False, True):
                searcher = _searcher(Board(sfen), python=python)
                score = searcher.qsearch(-200, 200, ply, 3)
                results.append((score, searcher.nodes, searcher.pv[ply], searcher.seldepth))
            assert results[0] == results[1], (sfen, ply)


@compiled
def test_noise_keeps_the_python_qsearch() -> None:
    assert _searcher(Board(), level=1).compiled_qsearch is None
    assert _searcher(Board(), level=8).compiled_qsearch is not None


@compiled
def test_a_node_limit_stops_at_the_same_node() -> None:
    for sfen in _SFENS[:40]:
        full = _searcher(Board(sfen))
        full.qsearch(-INF, INF, 0, 0)
        if full.nodes < 3:
            continue
        for limit in (1, 2, full.nodes // 2, full.nodes):
            nodes = []
            for python in (False, True):
                searcher = _searcher(Board(sfen), max_nodes=limit, python=python)
                with pytest.raises(SearchStopped):
                    searcher.qsearch(-INF, INF, 0, 0)
                nodes.append(searcher.nodes)
            assert nodes[0] == nodes[1] == limit, (sfen, limit)


@compiled
def test_whole_searches_give_the_same_answer() -> None:
    for sfen in _SFENS[:300:25]:
        answers = []
        for python in (False, True):
            board = Board(sfen)
            searcher = _searcher(board, max_nodes=3000, python=python)
            searcher.max_depth = 4
            moves = board._legal_codes()
            if not moves:
                break
            code, score, pv, _ = searcher.think(moves)
            answers.append((code, score, pv, searcher.nodes, searcher.seldepth))
            assert board.sfen() == sfen  # the board is left as it was
        if answers:
            assert answers[0] == answers[1], sfen


def test_without_the_accelerator_the_python_qsearch_runs() -> None:
    if SPEEDUPS is None:
        assert search_module._c_qsearch is None
        assert _searcher(Board()).compiled_qsearch is None
    score, nodes, pv, _ = _qsearch(Board(_SFENS[0]), -INF, INF, True)
    assert nodes >= 1
    assert -MATE < score < MATE
    assert all(isinstance(code, int) for code in pv)
