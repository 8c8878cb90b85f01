"""Finding 10 of issue 21: an analysis takes memory in proportion to the record, and refuses a
record with more positions than its limit."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from shogiban.analysis import Analyser
from shogiban.analysis.game import AnalysisLimitError, iter_boards, nodes_to_analyse
from shogiban.board import Board
from shogiban.cli import main
from shogiban.engines import InfoDict, Limit
from shogiban.engines.score import PovScore, Score
from shogiban.kifu import read_game

_CYCLE = ("+2818HI", "-8272HI", "+1828HI", "-7282HI")


def long_csa(moves: int) -> str:
    return "PI\n+\n" + "\n".join(_CYCLE[i % 4] for i in range(moves)) + "\n"


def nested_kif(variations: int) -> str:
    """A record whose variations nest *variations* deep (each one branches off the last)."""
    path = ["１八飛(28)", "７二飛(82)", "２八飛(18)", "８二飛(72)"]
    leaf = ["５八玉(59)", "５二玉(51)"]
    out = ["手合割：平手", "手数----指手---------消費時間--", f"   1 {path[0]}", f"   2 {leaf[1]}"]
    for k in range(2, variations + 2):
        out += ["", f"変化：{k}手", f"{k:4} {path[(k - 1) % 4]}", f"{k + 1:4} {leaf[k % 2]}"]
    return "\n".join(out) + "\n"


class StubEngine:
    """Answers at once: only the analysis' own memory is measured."""

    name = "stub"

    def analyse(self, board: Board, limit: Limit, *, multipv: int) -> list[InfoDict]:
        return [{"score": PovScore(Score(cp=10), board.turn), "depth": 1, "nodes": 1}]

    def new_game(self) -> None:
        pass


def _peak(call: object) -> int:
    tracemalloc.start()
    try:
        assert callable(call)
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_analysis_memory_is_linear_in_a_long_record() -> None:
    game = read_game(long_csa(6_000))
    analyser = Analyser(StubEngine(), Limit(depth=1))
    peak = _peak(lambda: analyser.game(game, max_positions=10_000))
    # A history copied for each position took some 160 MB here (4 GB at 30,000 moves).
    assert peak < 40_000_000, peak


def test_analysis_boards_hold_no_history() -> None:
    game = read_game(long_csa(500))
    seen = 0
    for _, board in iter_boards(game, nodes_to_analyse(game)):
        assert len(board.move_stack) == 0
        seen += 1
    assert seen == 501


def test_main_line_analysis_does_not_walk_nested_variations() -> None:
    game = read_game(nested_kif(5_000))
    analyser = Analyser(StubEngine(), Limit(depth=1))
    analysis = analyser.game(game, max_positions=10_000)
    assert len(analysis.positions) == 3
    assert _peak(lambda: analyser.game(game, lines="all", max_positions=20_000)) < 60_000_000


def test_analysis_refuses_a_record_past_max_positions() -> None:
    game = read_game(long_csa(300))
    with pytest.raises(AnalysisLimitError) as error:
        nodes_to_analyse(game, max_positions=100)
    assert error.value.code == "too_large"
    assert isinstance(error.value, ValueError)


def test_analyse_refuses_a_record_past_max_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "long.csa"
    source.write_text(long_csa(300))
    assert main(["analyse", str(source), "--depth", "1", "--no-cache", "--max-positions", "100"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "too many positions to analyse: more than 100" in err
    assert "Traceback" not in err
