"""The optional C move generator (``shogiban._speedups``) against the pure-Python reference.

Every comparison is of whole lists, order included: the engine, the tsume solver and the notation
modules give order-dependent results, which must not depend on whether the extension was built.
The reference is ``Position._py_legal_codes`` with the accelerator switched off (its pawn-drop-mate
test calls ``_has_legal_move``, which would otherwise dispatch to C as well).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shogiban import Board, Move, position
from shogiban.handicaps import HANDICAPS
from shogiban.move import move_usi

speedups = pytest.importorskip(
    "shogiban._speedups", reason="the C accelerator was not compiled (no C compiler at install time?)"
)

POSITIONS = Path(__file__).resolve().parents[1] / "benchmarks" / "positions.sfen"
PERFT_LIMIT = 2_000_000


@contextmanager
def pure_python() -> Iterator[None]:
    """Switch the dispatch in shogiban.position to the Python code for the duration."""
    saved = position._c_legal_codes, position._c_has_legal_move, position._c_count_legal
    position._c_legal_codes = position._c_has_legal_move = position._c_count_legal = None
    try:
        yield
    finally:
        position._c_legal_codes, position._c_has_legal_move, position._c_count_legal = saved


def reference(board: Board) -> list[int]:
    with pure_python():
        return board._legal_codes()


def check(board: Board) -> list[int]:
    """Assert that every compiled function agrees with the reference on *board*; return its codes."""
    expected = reference(board)
    got = speedups.legal_codes(board)
    if got != expected:
        missing = [move_usi(c) for c in expected if c not in got]
        extra = [move_usi(c) for c in got if c not in expected]
        pytest.fail(f"{board.sfen()}: lists differ (missing {missing}, extra {extra}, or order)")
    assert speedups.count_legal(board) == len(expected), board.sfen()
    assert speedups.has_legal_move(board) is bool(expected), board.sfen()
    return expected


def check_with_children(board: Board) -> int:
    count = 0
    for code in check(board):
        if code >> 7 & 127 < 81 and board._board[code & 127] & 15 == 8:
            continue  # lenient positions may let a king be taken; a hand cannot hold it
        board._push(code)
        check(board)
        board._pop()
        count += 1
    return count


def test_dispatch_follows_the_environment() -> None:
    forced = os.environ.get("SHOGIBAN_PURE_PYTHON", "") not in ("", "0")
    assert (position.SPEEDUPS is None) is forced
    if not forced:
        assert Board()._legal_codes() == speedups.legal_codes(Board())
        assert position._c_legal_codes is speedups.legal_codes


def test_pure_python_variable_switches_it_off() -> None:
    code = "import shogiban.position as p; print(p.SPEEDUPS is None, p._c_legal_codes is None)"
    env = {**os.environ, "SHOGIBAN_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]


def test_benchmark_positions() -> None:
    sfens = [line for line in POSITIONS.read_text().splitlines() if line]
    assert len(sfens) == 1000
    for sfen in sfens:
        check(Board(sfen))


def _perft_rows(directory: Path) -> list[tuple[str, int, int]]:
    rows = []
    for line in (directory / "perft" / "perft.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        rows.append((fields[0], int(fields[2]), int(fields[3])))
    return rows


def test_perft_positions_and_their_children(shared_data: Path) -> None:
    sfens = sorted({sfen for sfen, _, _ in _perft_rows(shared_data)})
    assert len(sfens) > 300
    children = sum(check_with_children(Board(sfen, lenient=True)) for sfen in sfens)
    assert children > 10_000


def test_benchmark_children() -> None:
    sfens = [line for line in POSITIONS.read_text().splitlines() if line][::10]
    assert sum(check_with_children(Board(sfen)) for sfen in sfens) > 5_000


def test_perft_rows_through_the_accelerator(shared_data: Path) -> None:
    if position.SPEEDUPS is None:
        pytest.skip("SHOGIBAN_PURE_PYTHON is set: Board.perft runs the Python generator")
    rows = [row for row in _perft_rows(shared_data) if row[2] <= PERFT_LIMIT]
    assert len(rows) > 300
    for sfen, depth, nodes in rows:
        assert Board(sfen, lenient=True).perft(depth) == nodes, (sfen, depth)


def _walk(board: Board, depth: int) -> int:
    """Every node of a small tree: count and early exit agree with the list (C only, no reference)."""
    codes = speedups.legal_codes(board)
    assert speedups.count_legal(board) == len(codes)
    assert speedups.has_legal_move(board) is bool(codes)
    if depth == 0:
        return 1
    total = 1
    for code in codes:
        board._push(code)
        total += _walk(board, depth - 1)
        board._pop()
    return total


def test_count_and_early_exit_agree_with_the_list() -> None:
    board = Board("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
    assert _walk(board, 2) > 20_000


# -- rules that are easy to get subtly wrong ---------------------------------------------------


@pytest.mark.parametrize(
    ("sfen", "drop", "legal"),
    [
        # 打ち歩詰め: the king cannot take the pawn (gold on 2c) nor step aside (own knight on 2a)
        ("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", False),
        # the silver on 2a can take the pawn: no mate, the drop is legal
        ("7sk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", True),
        # the same silver pinned by the rook on 5a cannot take it: mate, so the drop is illegal
        ("4R2sk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", False),
        # gote's side of the board
        ("4k4/9/9/9/9/9/1g7/9/KN7 w p 1", "P*9h", False),
        ("4k4/9/9/9/9/9/1g7/9/KS7 w p 1", "P*9h", True),
        ("4k4/9/9/9/9/9/1g7/9/KS2r4 w p 1", "P*9h", False),
        # 二歩: a pawn already on the file
        ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", False),
        # a promoted pawn on the file does not count
        ("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e", True),
    ],
)
def test_pawn_drop_rules(sfen: str, drop: str, legal: bool) -> None:
    board = Board(sfen, lenient=True)
    codes = check(board)
    assert (Move.from_usi(drop).code in codes) is legal


@pytest.mark.parametrize(
    "sfen",
    [
        "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",  # no sente king (tsume): every drop everywhere
        "9/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",  # no king at all
        "4k4/9/4r4/9/9/9/4B4/9/4K4 w - 1",  # a pinned bishop
        "4k4/9/9/9/4r4/9/2b6/9/4K4 b G 1",  # double check by rook and bishop
        "k8/9/9/9/9/9/9/9/K7P b - 1",  # a dead pawn (lenient)
        "Pk7/9/9/9/9/9/9/9/KK7 b - 1",  # two sente kings (lenient)
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",  # gote to move at the start
    ],
)
def test_special_positions(sfen: str) -> None:
    check_with_children(Board(sfen, lenient=True))


def test_bad_input_raises() -> None:
    with pytest.raises(AttributeError):
        speedups.legal_codes(object())
    board = Board()
    board._board[40] = 15  # no such piece
    with pytest.raises(ValueError, match="piece code"):
        speedups.legal_codes(board)
    board._board[40] = 0
    board._turn = 2
    with pytest.raises(ValueError, match="_turn"):
        speedups.count_legal(board)


# -- random positions ------------------------------------------------------------------------


@st.composite
def playouts(draw: st.DrawFn) -> tuple[str, int, int]:
    start = draw(st.sampled_from([h.sfen for h in HANDICAPS]))
    return start, draw(st.integers(0, 200)), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(playouts())
def test_random_playouts(game: tuple[str, int, int]) -> None:
    """Every position of a random game from a handicap start (captures preferred, so hands fill)."""
    start, plies, seed = game
    rng = random.Random(seed)
    board = Board(start)
    for _ in range(plies):
        codes = check(board)
        if not codes:
            break
        captures = [c for c in codes if c >> 7 & 127 < 81 and board._board[c & 127]]
        board._push(rng.choice(captures if captures and rng.random() < 0.6 else codes))
    check(board)


_PIECES = "PLNSBRGK"
_PROMOTED = "PLNSBR"


@st.composite
def lenient_positions(draw: st.DrawFn) -> Board:
    """Random boards: any piece anywhere (dead pieces, several kings, no king), random hands."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.floats(0.05, 0.6))
    kings = draw(st.sampled_from(["none", "one side", "both", "any"]))
    rows = []
    for _ in range(9):
        row, empty = "", 0
        for _ in range(9):
            if rng.random() < density:
                letter = rng.choice(_PIECES if kings == "any" else _PIECES[:-1])
                text = "+" + letter if letter in _PROMOTED and rng.random() < 0.3 else letter
                text = text.lower() if rng.random() < 0.5 else text
                row += (str(empty) if empty else "") + text
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    hands = "".join(
        f"{rng.randint(1, 3)}{letter if rng.random() < 0.5 else letter.lower()}"
        for letter in _PIECES[:-1]
        if rng.random() < 0.5
    )
    board = Board(f"{'/'.join(rows)} {rng.choice('bw')} {hands or '-'} 1", lenient=True)
    squares = [sq for sq in range(81) if not board._board[sq]]
    if kings in ("one side", "both") and squares:
        sides = [rng.randint(0, 1)] if kings == "one side" else [0, 1]
        for color in sides:
            if squares:
                board._put(squares.pop(rng.randrange(len(squares))), 8 | color << 4)
        board.set_sfen(board.sfen(), lenient=True)
    return board


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lenient_positions())
def test_random_lenient_positions(board: Board) -> None:
    check_with_children(board)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(playouts(), st.sampled_from([(0,), (1,), (0, 1)]))
def test_random_positions_without_kings(game: tuple[str, int, int], removed: tuple[int, ...]) -> None:
    """Tsume-like positions: a random game's position with one or both kings taken off."""
    start, plies, seed = game
    rng = random.Random(seed)
    board = Board(start)
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
    for color in removed:
        board._remove(board._kings[color])
    check_with_children(Board(board.sfen(), lenient=True))
