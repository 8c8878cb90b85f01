"""The BuiltinSearch API: limits, stop, threads, rules (repetition, perpetual check, declaration),
legality over random positions, levels."""

from __future__ import annotations

import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban import Board, EnteringKingRule, Move
from shogiban.engine import BuiltinSearch
from shogiban.engine.evaluate import evaluate
from shogiban.engine.levels import profile
from shogiban.engines import InfoDict, Limit

MIDGAME = "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51"
#: Sente can declare under the 27-point rule: king in the camp, 11 pieces there, 28 points.
DECLARABLE = "+P+P+P+P+P+P+P+P+P/+R+B2K4/9/9/9/9/9/9/4k4 b B4P 1"
#: Gote is far ahead; sente has a rook that can check or shuffle next to gote's king.
BEHIND = "gggg4k/ss7/9/9/9/9/9/9/K6R1 b - 1"


def test_search_leaves_the_callers_board_alone() -> None:
    board = Board()
    board.push_usi("7g7f")
    before = (board.sfen(), board.move_stack, board.repetition_count())
    BuiltinSearch(seed=0).search(board, Limit(depth=2))
    assert (board.sfen(), board.move_stack, board.repetition_count()) == before


def test_depth_limit_and_info() -> None:
    infos: list[InfoDict] = []
    result = BuiltinSearch(seed=0).search(Board(MIDGAME), Limit(depth=3), on_info=infos.append)
    # Reports from inside a long iteration (a loaded machine) may come besides the completed ones.
    depths = [info["depth"] for info in infos]
    assert sorted(set(depths)) == [1, 2, 3]
    assert depths == sorted(depths)
    assert result.info is infos[-1]
    assert result.info["pv"]
    assert result.info["pv"][0] == result.move
    assert result.info["nodes"] >= infos[0]["nodes"]
    assert "multipv" not in result.info  # a single line is not ranked


def test_node_limit() -> None:
    result = BuiltinSearch(seed=0).search(Board(MIDGAME), Limit(nodes=500))
    assert result.info["nodes"] <= 500
    assert result.move in Board(MIDGAME).legal_moves


def test_stop_ends_an_infinite_search_quickly() -> None:
    engine = BuiltinSearch(seed=0)
    handle = engine.start(Board(MIDGAME), Limit(infinite=True))
    time.sleep(0.3)
    assert not handle.done()
    began = time.perf_counter()
    handle.stop()
    result = handle.result(timeout=5)
    assert time.perf_counter() - began < 1.0  # about 50 ms needed; a shared machine may stall
    assert handle.done()
    assert result.move in Board(MIDGAME).legal_moves


def test_a_stop_already_set_still_gives_a_legal_move() -> None:
    stop = threading.Event()
    stop.set()
    result = BuiltinSearch(seed=0).search(Board(MIDGAME), Limit(infinite=True), stop=stop)
    assert result.move in Board(MIDGAME).legal_moves


def test_result_timeout() -> None:
    handle = BuiltinSearch(seed=0).start(Board(MIDGAME), Limit(infinite=True))
    with pytest.raises(TimeoutError):
        handle.result(timeout=0.05)
    handle.stop()
    assert handle.result(timeout=5).move is not None


def test_checkmated_side_resigns() -> None:
    board = Board("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
    assert board.is_checkmate()
    result = BuiltinSearch(seed=0).search(board, Limit(depth=2))
    assert result.move is None
    assert result.resigned
    assert not result.declared_win


def test_engine_finds_and_plays_the_mate_it_sees() -> None:
    board = Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    result = BuiltinSearch(seed=0).search(board, Limit(depth=2))
    assert result.move == Move.from_usi("G*5b")
    assert result.info["score"].relative.mate == 1


def test_declares_the_entering_king_win() -> None:
    board = Board(DECLARABLE)
    assert board.can_declare_win()
    result = BuiltinSearch(seed=0).search(board, Limit(depth=2))
    assert result.declared_win
    assert result.move is None
    # Without the rule the same position is played on.
    board = Board(DECLARABLE, entering_king_rule=EnteringKingRule.NONE)
    result = BuiltinSearch(seed=0).search(board, Limit(depth=2))
    assert not result.declared_win
    assert result.move in board.legal_moves


def _with_history(moves: list[str], rounds: int) -> Board:
    board = Board(BEHIND)
    for _ in range(rounds):
        for usi in moves:
            board.push_usi(usi)
    return board


def test_perpetual_check_is_avoided_as_a_loss() -> None:
    # Sente checked with every move of the cycle: repeating it again would lose by rule.
    board = _with_history(["2i1i", "1a2a", "1i2i", "2a1a"], 2)
    assert board.repetition_count() == 3
    assert evaluate(board) < -1500  # sente would welcome a plain draw here
    result = BuiltinSearch(seed=0).search(board, Limit(depth=3))
    assert result.move is not None
    assert result.move != Move.from_usi("2i1i")


def test_repetition_draw_is_taken_when_behind() -> None:
    board = _with_history(["2i3i", "1a1b", "3i2i", "1b1a"], 2)
    result = BuiltinSearch(seed=0).search(board, Limit(depth=3))
    assert result.move == Move.from_usi("2i3i")
    assert result.info["score"].relative.cp == 0


def _random_board(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    return board


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 160), level=st.integers(1, 8))
def test_never_an_illegal_move(seed: int, plies: int, level: int) -> None:
    board = _random_board(seed, plies)
    result = BuiltinSearch(level, seed=seed).search(board, Limit(nodes=300, depth=3))
    if result.declared_win:
        assert board.can_declare_win()
    elif result.move is None:
        assert result.resigned
        assert not board.legal_moves or (result.info["score"].relative.mate or 0) < 0
    else:
        assert board.is_legal(result.move), (board.sfen(), result.move)
        if result.ponder is not None:
            board.push(result.move)
            assert board.is_legal(result.ponder)


def test_levels_are_validated_and_settable() -> None:
    engine = BuiltinSearch(level=3)
    assert engine.level == 3
    engine.level = 8
    assert engine.level == 8
    for bad in (0, 9, -1):
        with pytest.raises(ValueError, match="level"):
            BuiltinSearch(level=bad)
        with pytest.raises(ValueError, match="level"):
            engine.level = bad
    with pytest.raises(ValueError, match="hash"):
        BuiltinSearch(hash_mb=0)


def _play(black: BuiltinSearch, white: BuiltinSearch, limits: Limit, max_plies: int) -> float:
    """Sente's score: 1 win, 0 loss, else the sign of the static evaluation at the end."""
    board = Board()
    for _ in range(max_plies):
        engine = black if board.turn == 0 else white
        result = engine.search(board, limits)
        if result.move is None:
            return 0.0 if board.turn == 0 else 1.0
        assert board.is_legal(result.move)
        board.push(result.move)
        outcome = board.outcome()
        if outcome is not None:
            return 0.5 if outcome.winner is None else 1.0 - int(outcome.winner)
    score = evaluate(board) * (1 if board.turn == 0 else -1)
    return 1.0 if score > 200 else 0.0 if score < -200 else 0.5


def test_level_eight_beats_level_one_at_tiny_limits() -> None:
    strong, weak = BuiltinSearch(8, seed=1), BuiltinSearch(1, seed=2)
    limits = Limit(depth=2, nodes=1500)
    total = _play(strong, weak, limits, 120) + (1.0 - _play(weak, strong, limits, 120))
    assert total >= 1.5


def test_level_depths_and_node_budgets() -> None:
    board = Board()
    for level, depth in ((1, 1), (3, 1), (4, 2)):
        result = BuiltinSearch(level, seed=0).search(board, Limit(nodes=200_000))
        assert result.info["depth"] == depth, level
    # Levels 5 to 7 stop at their node budget, mid-iteration if need be, whatever the clock allows.
    for level in (5, 6, 7):
        budget = profile(level).max_nodes
        assert budget is not None
        result = BuiltinSearch(level, seed=0).search(board, Limit(time=30.0))
        assert budget <= result.info["nodes"] <= budget + 64, level
    assert (profile(5).max_nodes or 0) < (profile(6).max_nodes or 0) < (profile(7).max_nodes or 0)
    # A tighter limit than the level's own still wins.
    assert BuiltinSearch(7, seed=0).search(board, Limit(nodes=2_000)).info["nodes"] <= 2_000 + 64


def test_node_budgets_make_the_levels_repeatable() -> None:
    """The same position and seed give the same move: the budget, not the clock, ends the search.
    (Level 5 only: levels 6 and 7 stop the same way, over more nodes.)"""
    board = Board("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
    first = BuiltinSearch(5, seed=4).search(board, Limit(byoyomi=10.0, btime=0, wtime=0))
    again = BuiltinSearch(5, seed=4).search(board, Limit(time=20.0))
    assert first.move == again.move
    assert first.info["nodes"] == again.info["nodes"] == profile(5).max_nodes
