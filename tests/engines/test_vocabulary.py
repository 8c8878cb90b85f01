"""The engines vocabulary on its own: limits and their deadlines, scores relative to a side, win
rates and their replaceable model, results, options and the engine errors' codes."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shogiban.usi
from shogiban import Color, Move
from shogiban.engines import (
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_WIN_RATE,
    EngineError,
    EngineMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    LogisticWinRate,
    MateResult,
    Option,
    Options,
    PlayResult,
    PovScore,
    Score,
)
from shogiban.engines.interface import mate_seconds

# -- Limit -----------------------------------------------------------------------------------------


def test_limit_validates_its_fields() -> None:
    for bad in ({"depth": 0}, {"nodes": -1}, {"depth": 2.5}, {"depth": True}, {"time": -1}, {"btime": math.inf},
                {"byoyomi": math.nan}, {"binc": timedelta(seconds=-1)}):
        with pytest.raises(ValueError, match="invalid"):
            Limit(**bad)  # type: ignore[arg-type]


def test_the_clock_counts_the_increment_of_the_move_for_the_side_to_move() -> None:
    limit = Limit(btime=30, wtime=timedelta(seconds=20), byoyomi=2, binc=5, winc=3)
    assert limit.main_time(Color.BLACK) == 35.0
    assert limit.main_time(Color.WHITE) == 23.0
    assert limit.budget(Color.BLACK) == 37.0
    assert limit.budget(Color.WHITE) == 25.0
    assert Limit(time=1.5, btime=60).budget(Color.BLACK) == 1.5  # the fixed time is tighter
    assert Limit(depth=3).budget(Color.BLACK) is None


def test_every_limit_but_an_infinite_one_has_a_deadline() -> None:
    assert Limit(byoyomi=1).deadline(Color.BLACK) == 2.0  # its time plus a second of grace
    assert Limit(btime=10, wtime=60).deadline(Color.WHITE, grace=0.5) == 60.5
    for timeless in (Limit(), Limit(depth=30), Limit(nodes=10**9)):
        assert timeless.deadline(Color.BLACK) == DEFAULT_SEARCH_TIMEOUT
        assert timeless.deadline(Color.BLACK, default=7.0) == 7.0  # the caller's choice
    assert Limit(infinite=True).deadline(Color.BLACK) is None
    assert Limit(infinite=True, time=5).deadline(Color.BLACK) is None  # stopped by its caller


def test_bounded_limits_are_the_ones_analyse_can_wait_for() -> None:
    assert all(limit.is_bounded() for limit in (Limit(depth=1), Limit(nodes=5), Limit(time=0.1), Limit(byoyomi=0)))
    assert not Limit().is_bounded()
    assert not Limit(depth=3, infinite=True).is_bounded()


def test_go_arguments() -> None:
    assert Limit(btime=60, byoyomi=timedelta(milliseconds=500)).go_args() == [
        "btime", "60000", "wtime", "0", "byoyomi", "500"]
    assert Limit(binc=1).go_args() == ["btime", "0", "wtime", "0", "binc", "1000", "winc", "0"]
    assert Limit(time=0.25, depth=4, nodes=9, infinite=True).go_args() == [
        "movetime", "250", "depth", "4", "nodes", "9", "infinite"]
    assert Limit().go_args() == []


def test_the_time_of_a_mate_search() -> None:
    assert mate_seconds(None) is None
    assert mate_seconds(3) == 3.0
    assert mate_seconds(timedelta(milliseconds=250)) == 0.25
    assert mate_seconds(Limit(time=2)) == 2.0
    assert mate_seconds(Limit(depth=5)) is None  # no time: as long as it takes
    with pytest.raises(ValueError, match="invalid duration"):
        mate_seconds(-1)


# -- Score and PovScore ----------------------------------------------------------------------------


def test_a_pov_score_from_either_side() -> None:
    score = PovScore(Score(cp=-120, lowerbound=True), Color.WHITE)
    assert score.relative == Score(cp=-120, lowerbound=True)
    assert score.turn == Color.WHITE
    assert score.white() == Score(cp=-120, lowerbound=True)
    assert score.black() == Score(cp=120, upperbound=True)  # a bound turns round with the side
    assert score.pov(Color.BLACK) == score.black()
    assert not score.is_mate()
    mate = PovScore(Score(mate=-3), Color.BLACK)
    assert mate.is_mate()
    assert mate.white() == Score(mate=3)
    assert mate.white().winning
    assert (-mate).black() == Score(mate=3)


def test_pov_scores_are_equal_when_they_say_the_same_for_sente() -> None:
    assert PovScore(Score(cp=40), Color.BLACK) == PovScore(Score(cp=-40), Color.WHITE)
    assert PovScore(Score(cp=40), Color.BLACK) != PovScore(Score(cp=40), Color.WHITE)
    assert len({PovScore(Score(mate=2), Color.BLACK), PovScore(Score(mate=-2), Color.WHITE)}) == 1
    assert PovScore(Score(cp=1), Color.BLACK) != Score(cp=1)
    assert repr(PovScore(Score(mate=1), Color.WHITE)) == "PovScore(Score(mate=1), Color.WHITE)"


def test_scores_are_centipawns_or_mates() -> None:
    with pytest.raises(ValueError, match="neither"):
        Score()
    with pytest.raises(ValueError, match="with a mate"):
        Score(cp=3, mate=2)
    assert Score(mate=0).winning is False  # mated now
    assert Score(winning=True).usi() == "mate +"
    assert Score(mate=5).score(mate_score=32000) == 31995
    assert Score(cp=-7).score() == -7


# -- win rates -------------------------------------------------------------------------------------


def test_the_default_win_rate_is_the_600_cp_logistic() -> None:
    assert Score(cp=0).win_rate() == 0.5
    assert Score(cp=600).win_rate() == pytest.approx(1 / (1 + math.e**-1))
    assert Score(cp=300).win_rate() == pytest.approx(0.6225, abs=1e-4)
    assert Score(cp=-800).win_rate() == pytest.approx(0.2086, abs=1e-4)
    assert Score(cp=10**9).win_rate() == 1.0  # no overflow
    assert Score(cp=-(10**9)).win_rate() == pytest.approx(0.0, abs=1e-12)
    assert LogisticWinRate(scale=600) == DEFAULT_WIN_RATE


def test_a_mate_is_a_certain_win_or_loss() -> None:
    assert Score(mate=7).win_rate() == 1.0
    assert Score(mate=-1).win_rate() == 0.0
    assert Score(winning=True).win_rate() == 1.0
    assert Score(mate=0).win_rate() == 0.0


@given(st.integers(-50_000, 50_000), st.integers(-50_000, 50_000))
def test_win_rates_rise_with_the_score_and_sum_to_one(a: int, b: int) -> None:
    low, high = sorted((a, b))
    assert 0.0 <= Score(cp=low).win_rate() <= Score(cp=high).win_rate() <= 1.0
    assert Score(cp=a).win_rate() + Score(cp=-a).win_rate() == pytest.approx(1.0)
    pov = PovScore(Score(cp=a), Color.WHITE)
    assert pov.win_rate(Color.WHITE) + pov.win_rate(Color.BLACK) == pytest.approx(1.0)


def test_the_win_rate_model_can_be_replaced() -> None:
    steep = LogisticWinRate(scale=200)
    assert Score(cp=200).win_rate(model=steep) == pytest.approx(Score(cp=600).win_rate())

    class Coin:
        def win_rate(self, score: Score) -> float:
            return 0.5

    assert PovScore(Score(mate=1), Color.BLACK).win_rate(Color.BLACK, model=Coin()) == 0.5
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="scale"):
            LogisticWinRate(scale=bad)


# -- results, options, errors ----------------------------------------------------------------------


def test_results() -> None:
    assert PlayResult(Move.from_usi("7g7f")).usi() == "7g7f"
    assert PlayResult(None, resigned=True).usi() == "resign"
    assert PlayResult(None, declared_win=True).usi() == "win"
    assert PlayResult(None).info == {}
    mate = MateResult("mate", (Move.from_usi("G*5b"),))
    assert mate.length == 1
    assert MateResult("nomate").length == 0


def test_options_ignore_case_and_check_values() -> None:
    options = Options()
    options.add(Option("MultiPV", "spin", 1, 1, 64))
    assert options["multipv"].max == 64
    assert list(options) == ["MultiPV"]
    assert options["MULTIPV"].value_text("3") == "3"
    with pytest.raises(EngineError, match=r"range 1\.\.64") as raised:
        options["MultiPV"].value_text(65)
    assert raised.value.code == "engine_error"


def test_engine_errors_have_stable_codes() -> None:
    assert EngineError("x").code == "engine_error"
    assert EngineTerminatedError("x").code == "engine_terminated"
    assert EngineTimeoutError("x").code == "engine_timeout"
    foul = EngineMoveError("illegal", "7g7g")
    assert foul.code == "engine_move"
    assert (foul.text, foul.move) == ("7g7g", None)
    for error in (EngineTerminatedError, EngineTimeoutError, EngineMoveError):
        assert issubclass(error, EngineError)
    assert not issubclass(EngineError, ValueError)  # engine trouble, not bad input


def test_the_usi_package_re_exports_the_vocabulary() -> None:
    import shogiban.engines as engines

    for name in ("Limit", "Score", "PovScore", "InfoDict", "PlayResult", "MateResult", "Option", "Options",
                 "SimpleEngine", "AnalysisResult", "AnalysisComplete", "EngineError", "EngineTimeoutError"):
        assert getattr(shogiban.usi, name) is getattr(engines, name), name
