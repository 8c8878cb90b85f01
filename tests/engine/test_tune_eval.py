"""The pure functions of tools/tune_eval.py on tiny inputs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from shogiban import Board
from shogiban.engine.evaluate import DEFAULT_PARAMS, build_tables, evaluate


def _tool() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "tune_eval.py"
    spec = importlib.util.spec_from_file_location("tune_eval", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_eval"] = module
    spec.loader.exec_module(module)
    return module


te = _tool()
SFEN = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"


def test_fit_k_recovers_the_scale() -> None:
    scores = list(range(-1000, 1001, 50))
    results = [te.sigmoid(s / 400) for s in scores]
    assert abs(te.fit_k(scores, results) - 400) < 1


def test_mse() -> None:
    assert te.mse([0.0, 0.0], [0.5, 1.0], 100.0) == 0.125


def test_sample_plies_and_clamp() -> None:
    assert list(te.sample_plies(20)) == [12, 15, 18]
    assert te.clamp_score(5000) == te.MATE_CP
    assert te.clamp_score(None, winning=False) == -te.MATE_CP


def test_literal_parses_back() -> None:
    params = te.with_value(DEFAULT_PARAMS, ("material", 1), 95)
    text = te.params_literal(params)
    assert te.parse_params(text) == params
    assert te.get(params, ("material", 1)) == 95


def test_features_match_evaluate() -> None:
    for sfen in (SFEN, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"):
        board = Board(sfen)
        rows = te.features(board)
        for params in (DEFAULT_PARAMS, te.with_value(DEFAULT_PARAMS, ("attack_gold", 1), 97)):
            value = sum(coef * te.derived(params, key) for key, coef in rows.items())
            assert value == evaluate(board, build_tables(params))


def test_local_search_lowers_the_training_error() -> None:
    board = Board(SFEN)
    rows = [te.features(board)]
    target = te.sigmoid((evaluate(board) + 40) / 600)
    model = te.Model(rows, [target], 600.0, DEFAULT_PARAMS)
    before = model.loss()
    te.local_search(model, [("tempo", None)], steps=(8, 4), passes=3, log=lambda _: None)
    assert model.loss() < before
    assert model.params.tempo > DEFAULT_PARAMS.tempo
