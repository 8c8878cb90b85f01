"""The pure parts of tools/spsa_eval.py and tools/spsa_engine.py (no real games)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shogiban.engine.evaluate import DEFAULT_PARAMS, EvalParams, build_tables
from shogiban.position import SPEEDUPS

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))
import spsa_engine  # noqa: E402 - found through the path set above
import spsa_eval  # noqa: E402
import tune_eval  # noqa: E402

KNOBS = spsa_eval.knobs_for(DEFAULT_PARAMS)
START = spsa_eval.start_theta(KNOBS)


def test_the_start_values_give_the_default_vector() -> None:
    assert spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, START) == DEFAULT_PARAMS
    assert len(KNOBS) == len(START) == 9


def test_each_knob_moves_the_evaluation_tables() -> None:
    base = build_tables(DEFAULT_PARAMS)
    for knob in KNOBS:
        theta = dict(START, **{knob.name: START[knob.name] * 1.3 + 5})
        params = spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, theta)
        assert params != DEFAULT_PARAMS, knob.name
        assert build_tables(params) != base, knob.name


def test_knobs_set_what_they_name() -> None:
    theta = dict(START, attacked_pct=50.0, attack_scale_pct=120.0, tempo=33.4, hand_premium_pct=200.0)
    p = spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, theta)
    assert p.attacked == tuple(round(v / 2) for v in DEFAULT_PARAMS.attacked)
    assert (p.attack_scale_num, p.attack_scale_den) == (6, 5)
    assert p.tempo == 33
    # The rook's premium in hand doubles; the pawn has its own knob.
    assert p.hand_first[6] - p.material[6] == 2 * (DEFAULT_PARAMS.hand_first[6] - DEFAULT_PARAMS.material[6])
    assert p.hand_first[1] == DEFAULT_PARAMS.hand_first[1]


def test_schedules_end_at_c_end_and_r_end() -> None:
    schedule = spsa_eval.Schedule(iterations=200, r_end=0.05)
    knob = next(k for k in KNOBS if k.name == "tempo")
    assert schedule.c(knob, 199) == pytest.approx(knob.c_end)
    assert schedule.a(knob, 199) == pytest.approx(0.05 * knob.c_end**2)
    # Both decay: larger at the start, by the Fishtest exponents.
    assert schedule.c(knob, 0) == pytest.approx(knob.c_end * 200**0.101)
    assert schedule.a(knob, 0) == pytest.approx(0.05 * knob.c_end**2 * (220 / 21) ** 0.602)
    assert all(schedule.a(knob, k) > schedule.a(knob, k + 1) for k in range(199))
    assert all(schedule.c(knob, k) > schedule.c(knob, k + 1) for k in range(199))


def test_update_rule_with_a_fixed_delta_and_result() -> None:
    schedule = spsa_eval.Schedule(iterations=100, r_end=0.02)
    delta = {k.name: (1 if i % 2 == 0 else -1) for i, k in enumerate(KNOBS)}
    after = spsa_eval.step(START, KNOBS, schedule, 10, delta, 2.0)
    for knob in KNOBS:
        expected = START[knob.name] + schedule.a(knob, 10) * 2.0 / (schedule.c(knob, 10) * delta[knob.name])
        assert after[knob.name] == pytest.approx(expected)
        # theta+ won: every knob moves towards theta+ (the side of its delta).
        assert (after[knob.name] - START[knob.name]) * delta[knob.name] > 0
    # A drawn pair moves nothing; a lost one moves the other way by as much.
    assert spsa_eval.step(START, KNOBS, schedule, 10, delta, 0.0) == START
    lost = spsa_eval.step(START, KNOBS, schedule, 10, delta, -2.0)
    for name in START:
        assert lost[name] - START[name] == pytest.approx(START[name] - after[name])


def test_perturbation_is_symmetric() -> None:
    schedule = spsa_eval.Schedule(iterations=50)
    delta = {k.name: -1 for k in KNOBS}
    plus, minus = spsa_eval.perturbed(START, KNOBS, schedule, 0, delta)
    for knob in KNOBS:
        assert START[knob.name] - plus[knob.name] == pytest.approx(schedule.c(knob, 0))
        assert minus[knob.name] - START[knob.name] == pytest.approx(schedule.c(knob, 0))


def test_clip_keeps_the_invariants() -> None:
    # A pawn in hand below its board value breaks an invariant: pulled back towards the anchor.
    target = dict(START, hand_pawn=50.0)
    clipped = spsa_eval.clip(DEFAULT_PARAMS, KNOBS, START, target)
    assert tune_eval.admissible(spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, clipped)) is not None
    assert DEFAULT_PARAMS.material[1] < clipped["hand_pawn"] < START["hand_pawn"]
    # Bounds first: a negative scale is clamped to the knob's lower bound.
    low = dict(START, exposure_pct=-40.0)
    knob = next(k for k in KNOBS if k.name == "exposure_pct")
    assert spsa_eval.clip(DEFAULT_PARAMS, KNOBS, START, low)["exposure_pct"] == knob.lo
    # An admissible target stays as it is.
    fine = dict(START, tempo=30.0)
    assert spsa_eval.clip(DEFAULT_PARAMS, KNOBS, START, fine) == fine


def test_clip_falls_back_to_the_anchor() -> None:
    # No hand premium at all breaks "hand > board" whatever the halving: hand premium 0 on the anchor too.
    anchor = dict(START, hand_premium_pct=0.0)
    assert tune_eval.admissible(spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, anchor)) is None
    assert spsa_eval.clip(DEFAULT_PARAMS, KNOBS, anchor, dict(anchor), tries=3) == anchor


def test_parameters_round_trip_through_json() -> None:
    params = spsa_eval.params_of(DEFAULT_PARAMS, KNOBS, dict(START, tempo=41.0, defence_pct=80.0))
    text = spsa_engine.encode(dataclasses.asdict(params))
    assert EvalParams(**spsa_engine.decode(text)) == params  # type: ignore[arg-type]
    assert json.loads(text)["tempo"] == 41


@pytest.mark.parametrize("text", ['[1, 2]', '{"tempo": "20"}', '{"tempo": 1.5}', '{"attacked": [1, "x"]}',
                                  '{"tempo": true}'])
def test_decode_rejects_bad_values(text: str) -> None:
    with pytest.raises(ValueError):
        spsa_engine.decode(text)


def test_decode_checks_names_when_told() -> None:
    known = {f.name for f in dataclasses.fields(EvalParams)}
    with pytest.raises(ValueError, match="tempoo"):
        spsa_engine.decode('{"tempoo": 3}', known)
    assert spsa_engine.decode('{"tempo": 3}', known) == {"tempo": 3}


def test_split_argv() -> None:
    assert spsa_engine.split_argv(["--params", "{}", "--level", "8"]) == ("{}", ["--level", "8"])
    assert spsa_engine.split_argv(["--level", "8", "--params={\"tempo\": 1}"]) == ('{"tempo": 1}', ["--level", "8"])
    assert spsa_engine.split_argv(["--level", "3"]) == (None, ["--level", "3"])


def test_patch_source_replaces_the_one_assignment() -> None:
    source = "A = 1\nDEFAULT_PARAMS = EvalParams(\n    tempo=3,\n)\nB = DEFAULT_PARAMS\n"
    namespace = {"EvalParams": dict, "_SPSA_PARAMS": {"tempo": 9}}
    exec(compile(spsa_engine.patch_source(source), "<test>", "exec"), namespace)
    assert namespace["B"] == {"tempo": 9}
    with pytest.raises(ValueError):
        spsa_engine.patch_source("A = 1\n")


def test_installed_parameters_reach_the_tables_and_the_c_search() -> None:
    # A fresh process: the parameters are process-global, set before evaluate.py is imported.
    code = (
        "import random, sys; sys.path.insert(0, sys.argv[1]); import spsa_engine\n"
        "spsa_engine.install(spsa_engine.decode(sys.argv[2]))\n"
        "from shogiban import Board\n"
        "from shogiban.engine import evaluate as e, search as s\n"
        "from shogiban.engine.levels import profile\n"
        "from shogiban.engine.timeman import TimePlan\n"
        "searcher = s.Searcher(Board(), profile(8), {}, 1024, [0] * 65536, random.Random(0), plan=TimePlan(None, None),"
        " max_depth=None, max_nodes=None, stop=None, on_info=None)\n"
        "print(e.DEFAULT_PARAMS.tempo, e.TEMPO, e.evaluate(Board()), searcher.qsearch(-s.INF, s.INF, 0, 0),"
        " s._c_qsearch is not None)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(spsa_engine.__file__).resolve().parents[1] / "src"))
    out = subprocess.run([sys.executable, "-c", code, str(TOOLS), '{"tempo": 77}'], capture_output=True,
                         text=True, env=env, timeout=30, check=True).stdout.split()
    # The start position is symmetric: the static score and the quiescence score are the tempo,
    # searched in C when this build has the accelerator (the child inherits SHOGIBAN_PURE_PYTHON).
    assert out == ["77", "77", "77", "77", str(SPEEDUPS is not None)]
