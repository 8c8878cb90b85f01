"""The evaluation's named parameters (EvalParams) and the tables built from them."""

from __future__ import annotations

import dataclasses
import hashlib

from shogiban import Board
from shogiban.engine import evaluate as ev
from shogiban.engine.evaluate import EvalParams, build_tables

#: The hand-set parameters the engine had before tools/tune_eval.py (issue 28), frozen here.
HAND_SET = EvalParams(
    material=(0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395),
    hand_first=(0, 120, 350, 440, 570, 960, 1110, 620),
    hand_step=(0, 8, 15, 15, 15, 40, 50, 15),
    hand_floor=(0, 85, 300, 380, 500, 860, 1000, 545),
    place_pawn=(0, 0, 0, 5, 10, 15, 20, 25, 0),
    place_lance_home=5,
    place_knight=(0, 0, 10, 15, 10, 0, -20, 0, 0),
    place_silver=(-5, 5, 15, 15, 10, 10, 5, 5, 5),
    place_gold=(0, 10, 5, -5, -10, -10, -10, -10, -10),
    place_king=(0, 10, -25, -60, -90, -110, -100, -80, -60),
    place_king_file=(-25, -10, 15, 25, 10),
    edge_knight=10,
    edge_silver=10,
    edge_gold=10,
    defence_gold=(0, 50, 28, 10),
    defence_gold_behind=35,
    defence_silver=(0, 40, 25, 8),
    defence_knight=10,
    defence_pawn=12,
    defence_rook=-20,
    attack_gold=(0, 80, 50, 25, 8),
    attack_silver=(0, 60, 40, 18, 5),
    attack_knight=20,
    attack_pawn=(0, 25, 12),
    attack_lance=15,
    attack_dragon=(0, 150, 100, 60, 30, 10),
    attack_horse=(0, 110, 70, 40, 20),
    attack_rook=15,
    attack_scale_num=3,
    attack_scale_den=2,
    attacked=(0, 20, 60, 120, 200, 290, 390, 500, 620),
    exposure=(0, 3, 7, 12, 18, 24, 30, 36, 42),
    attacked_hand=8,
    tempo=20,
)

#: SHA-256 of repr() of each table as the hand-written builders made it before the refactor.
HAND_SET_DIGESTS = {
    "own": "10f151fc1ba2fca36cb87271b53ab8ba569c76132bf63962e21cba124e40661a",
    "attack": "084c2d5437a3d900502b570a451364a04c2896962140b5aa9f0c1e4c97e76d9b",
    "hand": "f28b45542caee046923a1c22c24b4e54cab5a0a7fe08a0079b9ea20bdacd869f",
    "hand_sum": "b0157a6ab9cb9917c8d99eee28038206125433990547318401f002c7c78ab6be",
    "material": "704ec34b8f4213346d477682857f366e810bb678a1aed7ebba5ea037a9f759e3",
    "attacked": "b933a765e6862e1f82a5326cdf5bb92e8c00891e1c028acaccce37576c6eb094",
    "exposure": "03328854b032d2decab0f47fc585790b204f5706dba34ee29b05d05a45fd6423",
    "attacked_hand": "2c624232cdd221771294dfbb310aca000a0df6ac8b66b696d90ef06fdefb64a3",
    "tempo": "f5ca38f748a1d6eaf726b8a42fb575c3c71f1864a8143301782de13da2d9202b",
}

SFENS = (
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g3nl/1r1sk1g2/p1pppp1pp/1p4p2/7P1/2P6/PPSPPPP1P/2G2S1R1/LN2KG1NL b Bb 15",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
)


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()


def test_hand_set_parameters_rebuild_the_old_tables() -> None:
    tables = build_tables(HAND_SET)
    for name, digest in HAND_SET_DIGESTS.items():
        assert _digest(getattr(tables, name)) == digest, name


def test_module_tables_are_the_default_parameters() -> None:
    tables = build_tables(ev.DEFAULT_PARAMS)
    assert tables.own == ev.OWN
    assert tables.attack == ev.ATTACK
    assert tables.hand == ev.HAND
    assert tables.hand_sum == ev.HAND_SUM
    assert tables.material == ev.MATERIAL
    assert tables.attacked == ev.ATTACKED
    assert tables.exposure == ev.EXPOSURE
    assert tables.attacked_hand == ev.ATTACKED_HAND
    assert tables.tempo == ev.TEMPO
    assert (
        ev.DEFAULT_PARAMS.hand_first, ev.DEFAULT_PARAMS.hand_step, ev.DEFAULT_PARAMS.hand_floor,
    ) == (ev.HAND_FIRST, ev.HAND_STEP, ev.HAND_FLOOR)
    for sfen in SFENS:
        board = Board(sfen)
        assert ev.evaluate(board) == ev.evaluate(board, tables)


def test_a_parameter_changes_the_tables_where_expected() -> None:
    base = build_tables(HAND_SET)
    pawn = build_tables(dataclasses.replace(HAND_SET, material=(0, 100, *HAND_SET.material[2:])))
    # A sente pawn (code 1) on 5g (square 6 * 9 + 4) with the kings on their squares: +10.
    sq, k = 6 * 9 + 4, 8 * 9 + 4
    assert pawn.own[k][1][sq] == base.own[k][1][sq] + 10
    assert pawn.own[k][16 + 1][80 - sq] == base.own[k][16 + 1][80 - sq] - 10  # gote's, mirrored
    assert pawn.own[k][2] == base.own[k][2]
    assert pawn.attack == base.attack
    assert pawn.hand == base.hand
    hand = build_tables(dataclasses.replace(HAND_SET, hand_first=(0, 130, *HAND_SET.hand_first[2:])))
    assert hand.hand[0][1][1] == 130
    assert hand.hand[1][1][1] == -130
    assert hand.hand_sum[0][1][2] == 130 + 122
    assert hand.own == base.own
    gold = build_tables(dataclasses.replace(HAND_SET, attack_gold=(0, 100, 50, 25, 8)))
    # A sente gold next to gote's king on 5a (square 4): 100 * 3 // 2 instead of 80 * 3 // 2.
    assert gold.attack[4][7][13] == 150
    assert base.attack[4][7][13] == 120
    assert gold.own == base.own
    board = Board(SFENS[2])
    tempo = build_tables(dataclasses.replace(HAND_SET, tempo=25))
    assert ev.evaluate(board, tempo) == ev.evaluate(board, base) + 5
