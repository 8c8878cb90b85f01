"""The pure functions of tools/tune_eval.py on tiny inputs."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shogiban import Board
from shogiban.engine.evaluate import DEFAULT_PARAMS, EvalParams, build_tables, evaluate, king_danger
from shogiban.pieces import BISHOP, GOLD, KNIGHT, LANCE, PAWN, PROM_BISHOP, PROM_PAWN, PROM_ROOK, ROOK, SILVER


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
    moved = te.with_value(moved, ("material", 2), DEFAULT_PARAMS.material[2] - 100)
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


# -- invariants ---------------------------------------------------------------------------------------

#: A vector the synthetic targets come from that breaks the invariants: a pawn in hand worth less
#: than one on the board, a tokin worth less than a gold, exposure of the own king as a bonus.
_BROKEN = dataclasses.replace(
    DEFAULT_PARAMS,
    hand_first=(0, 30, *DEFAULT_PARAMS.hand_first[2:]),
    hand_floor=(0, 20, *DEFAULT_PARAMS.hand_floor[2:]),
    material=(*DEFAULT_PARAMS.material[:9], 250, *DEFAULT_PARAMS.material[10:]),
    exposure=(0, *(-30,) * 8),
)


def _positions() -> list[Board]:
    """The test SFEN, a bare king against a dragon and golds in hand, and seeded random games
    (captures put pieces in hand, promotions make tokins)."""
    boards = [Board(SFEN), Board("4k4/9/9/9/9/9/9/3+r5/4K4 b 2g 1")]
    rng = random.Random(7)
    while len(boards) < 24:
        board = Board()
        for _ in range(rng.randint(40, 140)):
            codes = board._legal_codes()
            if not codes:
                break
            board._push(rng.choice(codes))
        if board._legal_codes():
            boards.append(Board(board.sfen()))
    return boards


def _assert_engine_invariants(params: EvalParams) -> None:
    """What the evaluation's tests check, on the tables *params* build (independent of the tool's
    own :func:`violations`)."""
    tables = build_tables(params)
    for pt in range(1, 8):
        assert tables.hand[0][pt][1] > tables.material[pt], pt
    assert tables.material[PROM_PAWN] == tables.material[GOLD]
    m = tables.material
    assert m[ROOK] > m[BISHOP] > m[GOLD] > m[SILVER] > m[KNIGHT] > m[LANCE] > m[PAWN]
    assert m[PROM_ROOK] > m[ROOK]
    assert m[PROM_BISHOP] > m[BISHOP]
    assert king_danger(Board(), 0, tables) == 0
    assert king_danger(Board("4k4/9/9/9/9/9/9/3+r5/4K4 b 2g 1"), 1, tables) == 0


def test_default_parameters_keep_the_invariants() -> None:
    assert te.violations(DEFAULT_PARAMS) == []
    _assert_engine_invariants(DEFAULT_PARAMS)
    assert te.violations(_BROKEN)
    assert ("material", 9) not in te.coordinates(DEFAULT_PARAMS)  # tied to the gold


def test_tie_moves_the_promoted_minors_with_the_gold() -> None:
    gold = te.with_value(DEFAULT_PARAMS, ("material", GOLD), 560)
    assert te.violations(gold)  # the tokin is left behind ...
    tied = te.admissible(gold)
    assert tied is not None  # ... until tie() moves it along
    assert tied.material[9:13] == (560,) * 4
    assert te.admissible(te.with_value(DEFAULT_PARAMS, ("hand_first", PAWN), 80)) is None


def _synthetic_model() -> Any:
    boards = _positions()
    rows = [te.features(b) for b in boards]
    targets = [te.sigmoid(sum(c * te.derived(_BROKEN, k) for k, c in row.items()) / 600) for row in rows]
    return te.Model(rows, targets, 600.0, DEFAULT_PARAMS)


def test_a_constrained_fit_keeps_the_invariants_a_free_one_breaks() -> None:
    fields = ["material", "hand_*", "exposure", "attacked"]
    coords = te.select(te.coordinates(DEFAULT_PARAMS), fields)
    free = _synthetic_model()
    # Free, with the tokin untied: the targets pull the fit across the invariants.
    te.local_search(free, [*coords, ("material", PROM_PAWN)], log=lambda _: None)
    assert te.violations(free.params)
    assert max(free.params.hand_first[PAWN], free.params.hand_floor[PAWN]) <= free.params.material[PAWN]
    kept = _synthetic_model()
    before = kept.loss()
    result = te.local_search(kept, coords, log=lambda _: None, constrain=te.admissible)
    assert kept.loss() < before  # it did fit, within the invariants
    assert result == kept.params
    assert te.violations(result) == []
    _assert_engine_invariants(result)


def test_a_constrained_fit_refuses_a_broken_start() -> None:
    model = te.Model([te.features(Board(SFEN))], [0.5], 600.0, _BROKEN)
    with pytest.raises(ValueError, match="starting parameters"):
        te.local_search(model, [("tempo", None)], log=lambda _: None, constrain=te.admissible)


def test_tune_on_synthetic_data_keeps_the_invariants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "positions.tsv"
    boards = _positions()
    lines = []
    for i, board in enumerate(boards):
        score = sum(c * te.derived(_BROKEN, k) for k, c in te.features(board).items())
        lines.append(f"{i % 10}\t{12 + i}\t{board.sfen()}\t{score}\n")
    data.write_text("".join(lines))
    out = tmp_path / "tuned.txt"
    fits = te.tune(data, 3, [["material", "hand_*", "exposure"]], out=out, early_stop=False)
    tuned = fits[0.0]
    assert tuned != DEFAULT_PARAMS
    assert te.parse_params(out.read_text()) == tuned
    assert te.violations(tuned) == []
    _assert_engine_invariants(tuned)
    assert "invariants kept" in capsys.readouterr().out
