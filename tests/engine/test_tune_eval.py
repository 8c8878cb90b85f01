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


def test_l2_penalty() -> None:
    coords = [("tempo", None), ("material", 2)]
    moved = te.with_value(DEFAULT_PARAMS, ("tempo", None), DEFAULT_PARAMS.tempo + 50)
    moved = te.with_value(moved, ("material", 2), 215)
    assert te.l2_penalty(DEFAULT_PARAMS, DEFAULT_PARAMS, coords, 1.0) == 0.0
    assert te.l2_penalty(moved, DEFAULT_PARAMS, coords, 0.0) == 0.0
    assert abs(te.l2_penalty(moved, DEFAULT_PARAMS, coords, 2.0) - 2.0 * (0.25 + 1.0)) < 1e-12


def test_l2_penalty_holds_a_value_back() -> None:
    board = Board(SFEN)
    target = te.sigmoid((evaluate(board) + 40) / 600)
    free = te.Model([te.features(board)], [target], 600.0, DEFAULT_PARAMS)
    te.local_search(free, [("tempo", None)], steps=(8, 4), passes=3, log=lambda _: None)
    held = te.Model([te.features(board)], [target], 600.0, DEFAULT_PARAMS)
    te.local_search(held, [("tempo", None)], steps=(8, 4), passes=3, log=lambda _: None, lam=1.0)
    assert held.params.tempo == DEFAULT_PARAMS.tempo < free.params.tempo


def test_early_stop_returns_the_best_validated_parameters() -> None:
    board = Board(SFEN)
    target = te.sigmoid((evaluate(board) + 40) / 600)
    model = te.Model([te.features(board)], [target], 600.0, DEFAULT_PARAMS)
    # A validation error that is lowest at the starting tempo: the search must hand that back.
    result = te.local_search(
        model, [("tempo", None)], steps=(8,), passes=5, log=lambda _: None,
        validate=lambda p: abs(p.tempo - DEFAULT_PARAMS.tempo), patience=2,
    )
    assert result.tempo == DEFAULT_PARAMS.tempo
    assert model.params.tempo > DEFAULT_PARAMS.tempo


def test_anchor_and_groups_select_coordinates() -> None:
    coords = te.coordinates(DEFAULT_PARAMS)
    material = te.select(coords, ["material"])
    assert ("material", 1) not in material
    assert ("material", 2) in material
    assert ("material", 1) in te.select(coords, ["material"], anchors=[])
    attack = te.select(coords, ["attack_*"])
    assert attack
    assert all(c[0].startswith("attack_") for c in attack)
    assert len(te.select(coords, [])) == len(coords) - 1
    assert te.parse_coord("material:1") == ("material", 1)
    assert te.parse_coord("tempo") == ("tempo", None)
    assert ("attacked", 0) not in coords
    assert ("exposure", 0) not in coords
    assert ("attacked", 1) in coords


def test_split_by_game() -> None:
    train, valid, test = te.split([0, 1, 2, 3, 4, 5, 6, 10])
    assert test == [0, 5, 7]
    assert valid == [1, 6]
    assert train == [2, 3, 4]


def test_resume_point_drops_the_last_game(tmp_path: Path) -> None:
    out = tmp_path / "positions.tsv"
    assert te.resume_point(out) == 0
    out.write_text("0\t12\tsfen a\t10\n0\t15\tsfen b\t-5\n3\t12\tsfen c\t7\n3\t15\tsfen d\t8\n3\t18\tsf")
    assert te.resume_point(out) == 3
    assert out.read_text() == "0\t12\tsfen a\t10\n0\t15\tsfen b\t-5\n"
    out.write_text("")
    assert te.resume_point(out) == 0


def test_cached_features(tmp_path: Path) -> None:
    data = tmp_path / "positions.tsv"
    data.write_text(f"0\t12\t{SFEN}\t10\n")
    boards = [Board(SFEN)]
    first = te.cached_features(data, boards)
    assert first == [te.features(boards[0])]
    assert (tmp_path / "positions.tsv.features.pickle").exists()
    assert te.cached_features(data, boards) == first
    data.write_text(f"0\t12\t{SFEN}\t11\n")  # another cache: recomputed, not the stale rows
    assert te.cached_features(data, [Board()]) == [te.features(Board())]
