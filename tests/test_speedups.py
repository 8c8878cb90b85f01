"""The optional C accelerator (``shogiban._speedups``) against the pure-Python reference.

Move generation: every comparison is of whole lists, order included: the engine, the tsume solver
and the notation modules give order-dependent results, which must not depend on whether the
extension was built.  The reference is ``Position._py_legal_codes`` with the accelerator switched
off (its pawn-drop-mate test calls ``_has_legal_move`` and ``_push``, which would otherwise
dispatch to C as well).

Push/pop and SFEN: after every compiled push and pop the whole state (every attribute the engine,
the solver and the rules read) equals, with the same Python types, what the Python methods
produce; compiled SFEN set-up and writing give the same boards, strings and error messages.

The module itself: only public CPython interfaces in its C sources, multi-phase init with its own
types and state per module object (and per interpreter), and the import check that refuses a module
built from other sources than those beside the package.

The module is compiled from the C files in ``src/shogiban/_speedups_c/``; these tests skip when it
was not built.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from shogiban import Board, InvalidSfenError, Move, _accelerator, position, zobrist
from shogiban import board as board_module
from shogiban import sfen as sfen_module
from shogiban.handicaps import HANDICAPS
from shogiban.move import MOVES, move_usi
from shogiban.position import Position

speedups = pytest.importorskip(
    "shogiban._speedups", reason="the C accelerator was not compiled (no C compiler at install time?)"
)

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "benchmarks" / "positions.sfen"
C_SOURCES = ROOT / "src" / "shogiban" / "_speedups_c"
PERFT_LIMIT = 2_000_000


# Where the package switches between C and Python: (owner, attribute, the Python version).
_SWITCHES = [
    (position, "_c_legal_codes", None),
    (position, "_c_has_legal_move", None),
    (position, "_c_count_legal", None),
    (Position, "_push", Position._py_push),
    (Position, "_pop", Position._py_pop),
    (Board, "push", board_module._py_push),
    (Board, "pop", board_module._py_pop),
    (board_module, "_c_set_sfen", None),
    (sfen_module, "_c_parse_sfen", None),
    (sfen_module, "_c_make_sfen", None),
]


@contextmanager
def pure_python() -> Iterator[None]:
    """Switch every dispatch to the Python code for the duration."""
    saved = [getattr(owner, name) for owner, name, _ in _SWITCHES]
    for owner, name, python in _SWITCHES:
        setattr(owner, name, python)
    try:
        yield
    finally:
        for (owner, name, _), value in zip(_SWITCHES, saved, strict=True):
            setattr(owner, name, value)


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
    compiled = [getattr(owner, name) is not python for owner, name, python in _SWITCHES]
    assert compiled == [not forced] * len(_SWITCHES)
    if not forced:
        assert Board()._legal_codes() == speedups.legal_codes(Board())
        assert position._c_legal_codes is speedups.legal_codes
        assert type(Board.push).__name__ == "method_descriptor"


def test_pure_python_variable_switches_it_off() -> None:
    code = (
        "import shogiban.board as b, shogiban.position as p, shogiban.sfen as s;"
        "print(p.SPEEDUPS is None, p._c_legal_codes is None, p.Position._push is p.Position._py_push,"
        " b.Board.pop is b._py_pop, b._c_set_sfen is None, s._c_make_sfen is None)"
    )
    env = {**os.environ, "SHOGIBAN_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"] * 6


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
    for function in (speedups.legal_codes, speedups.count_legal, speedups.has_legal_move):
        with pytest.raises(AttributeError):
            function(object())  # (objects other than PositionState are read by attribute name)
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


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lenient_positions())
def test_random_lenient_positions(board: Board) -> None:
    check_with_children(board)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


# -- push and pop: the whole state, after every move ------------------------------------------

State = tuple[object, ...]


def state(board: Position) -> State:
    """Every field push and pop change, as the engine and the solver read them."""
    return (board._board, board._bb, board._occ, board._kings, board._hands, board._turn, board._stack,
            board._hash, board._rep)


def assert_same_state(fast: Position, ref: Position) -> None:
    assert state(fast) == state(ref)
    # Same Python types too: plain lists of ints, tuples on the stack, ints as keys and counts.
    for value in (fast._board, fast._bb, fast._occ, fast._kings, *fast._hands, fast._hands, fast._stack):
        assert type(value) is list
    for value in (fast._board, fast._bb, fast._occ, fast._kings, *fast._hands, *fast._stack):
        assert all(type(x) is int for x in value)
    assert all(type(entry) is tuple for entry in fast._stack)
    assert all(len(entry) == 3 for entry in fast._stack)
    assert type(fast._turn) is int
    assert type(fast._hash) is int
    assert type(fast._rep) is dict
    assert all(type(k) is int for k in fast._rep)
    assert all(type(n) is int for n in fast._rep.values())
    assert all(n > 0 for n in fast._rep.values())


class Twins:
    """The same game played by the compiled methods on one board and the Python ones on another."""

    def __init__(self, sfen: str, lenient: bool = False) -> None:
        self.fast = Board(sfen, lenient=lenient)
        with pure_python():
            self.ref = Board(sfen, lenient=lenient)
        assert_same_state(self.fast, self.ref)
        self.seen: set[str] = set()

    def push(self, code: int, via_board: bool) -> None:
        frm = code >> 7 & 127
        if frm >= 81:
            self.seen.add("drop")
        else:
            captured = self.fast._board[code & 127]
            if captured:
                self.seen.add("capture of a promoted piece" if captured & 15 > 8 else "capture")
            if code >> 14:
                self.seen.add("promotion")
            if self.fast._board[frm] & 15 == 8:
                self.seen.add("king move")
        if via_board:
            self.fast.push(MOVES[code])  # type: ignore[arg-type]
            with pure_python():
                self.ref.push(MOVES[code])  # type: ignore[arg-type]
        else:
            self.fast._push(code)
            Position._py_push(self.ref, code)
        if self.fast._rep[self.fast._hash] > 1:
            self.seen.add("repetition")
        assert_same_state(self.fast, self.ref)

    def pop(self, via_board: bool) -> None:
        if via_board:
            got = self.fast.pop()
            with pure_python():
                expected = self.ref.pop()
        else:
            got, expected = MOVES[self.fast._pop()], MOVES[Position._py_pop(self.ref)]
        assert got is expected
        assert_same_state(self.fast, self.ref)

    def null_move(self) -> None:
        """What the engine's null-move search does to the fields between pushes."""
        for board in (self.fast, self.ref):
            board._turn ^= 1
            board._hash ^= position._Z_WHITE
        self.seen.add("null move")

    def random_push(self, rng: random.Random, capture_bias: float) -> bool:
        with pure_python():
            codes = self.ref._legal_codes()
        assert self.fast._legal_codes() == codes
        codes = [c for c in codes if c >> 7 & 127 >= 81 or self.fast._board[c & 127] & 15 != 8]
        if not codes:
            return False
        captures = [c for c in codes if c >> 7 & 127 < 81 and self.fast._board[c & 127]]
        self.push(rng.choice(captures if captures and rng.random() < capture_bias else codes), rng.random() < 0.5)
        return True

    def walk(self, rng: random.Random, plies: int, capture_bias: float = 0.6) -> None:
        """A random game with take-backs, null-move searches and both APIs, checked after every step."""
        for _ in range(plies):
            roll = rng.random()
            if roll < 0.2 and self.fast._stack:
                self.pop(rng.random() < 0.5)
            elif roll < 0.25:
                # As the engine does: pass, search a few moves deep, take them back, pass back.
                self.null_move()
                pushed = sum(self.random_push(rng, capture_bias) for _ in range(rng.randint(1, 3)))
                for _ in range(pushed):
                    self.pop(rng.random() < 0.5)
                self.null_move()
            elif not self.random_push(rng, capture_bias):
                break
        while self.fast._stack and rng.random() < 0.9:
            self.pop(rng.random() < 0.5)


@pytest.mark.parametrize("handicap", HANDICAPS, ids=lambda h: h.english)
def test_push_pop_state_from_every_handicap_start(handicap: object) -> None:
    seen: set[str] = set()
    for seed in range(4):
        twins = Twins(handicap.sfen)  # type: ignore[attr-defined]
        twins.walk(random.Random(seed), 160)
        seen |= twins.seen
    assert {"drop", "capture", "promotion", "king move", "null move"} <= seen


def test_push_pop_state_covers_every_kind_of_move() -> None:
    seen: set[str] = set()
    for seed in range(30):
        twins = Twins(HANDICAPS[seed % len(HANDICAPS)].sfen)
        twins.walk(random.Random(seed), 250, capture_bias=0.9)
        seen |= twins.seen
    assert seen >= {"drop", "capture", "capture of a promoted piece", "promotion", "king move", "null move"}


def test_repetitions_count_up_and_entries_go_at_zero() -> None:
    twins = Twins(Board().sfen())
    shuffle = [Move.from_usi(u).code for u in ("5i4h", "5a4b", "4h5i", "4b5a")]
    for _ in range(3):
        for code in shuffle:
            twins.push(code, via_board=True)
    assert twins.fast._rep[twins.fast._hash] == 4
    while twins.fast._stack:
        twins.pop(via_board=False)
    assert twins.fast._rep == {twins.fast._hash: 1}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lenient_positions(), st.integers(0, 2**32 - 1))
def test_push_pop_state_in_lenient_positions(board: Board, seed: int) -> None:
    """Several kings, none, dead pieces, big hands: the same state after every step."""
    twins = Twins(board.sfen(), lenient=True)
    twins.walk(random.Random(seed), 40)


def test_board_pop_withdraws_a_recorded_ending_first() -> None:
    for tournament_move in ("5a5b", "7g7f"):  # an illegal move, then a legal one (no ending)
        fast = Board(tournament=True)
        fast.push_usi("7g7f")
        with pure_python():
            ref = Board(tournament=True)
            ref.push_usi("7g7f")
        for board in (fast, ref):
            board.push_legal(Move.from_usi(tournament_move))
        got = fast.pop()
        with pure_python():
            expected = ref.pop()
        assert got is expected
        assert_same_state(fast, ref)
        assert fast.outcome() == ref.outcome()
    board = Board("4k4/9/9/9/9/9/9/9/4K4 b - 1")
    with pytest.raises(IndexError):
        board.pop()


def test_board_push_takes_the_move_by_keyword_too() -> None:
    board = Board()
    board.push(move=Move.from_usi("7g7f"))
    assert board.pop() is Move.from_usi("7g7f")
    with pytest.raises(TypeError):
        board.push()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        board.push(Move.from_usi("7g7f"), Move.from_usi("3c3d"))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        board.push(mv=Move.from_usi("7g7f"))  # type: ignore[call-arg]
    assert board._stack == []


def test_push_rejects_what_python_cannot_play_without_changing_anything() -> None:
    """Where the Python method fails half-way (a king taken, a bad code), C fails before changing
    anything, with the same exception type."""
    if position.SPEEDUPS is None:
        pytest.skip("SHOGIBAN_PURE_PYTHON is set: the Python _push is the one in use")
    board = Board("Pk7/9/9/9/9/9/9/9/KK7 b - 1", lenient=True)
    before = [x.copy() if isinstance(x, list | dict) else x for x in state(board)]
    for code in (1 | 9 << 7, Move.from_usi("9a8a").code, 81 | 9 << 7):
        with pytest.raises(IndexError):
            board._push(code)
        with pure_python(), pytest.raises(IndexError):
            board.copy()._push(code)
    assert list(state(board)) == before
    with pytest.raises(TypeError):
        board._push("7g7f")  # type: ignore[arg-type]
    board._turn = 2
    with pytest.raises(ValueError, match="_turn"):
        board._push(Move.from_usi("1i1h").code)


@pytest.mark.parametrize(
    ("damage", "error"),
    [
        (lambda b: setattr(b, "_kings", [None, 4]), TypeError),
        (lambda b: setattr(b, "_board", b._board[:80]), TypeError),
        (lambda b: setattr(b, "_board", tuple(b._board)), TypeError),
        (lambda b: setattr(b, "_rep", {}), KeyError),
        (lambda b: setattr(b, "_hash", -1), KeyError),  # pop looks the key up, as Python does
        (lambda b: setattr(b, "_hash", 1 << 64), KeyError),
        (lambda b: setattr(b, "_hash", 1.5), TypeError),
        (lambda b: setattr(b, "_stack", [(1, 2)]), TypeError),
        (lambda b: b._board.__setitem__(47, "x"), TypeError),  # where the 7f pawn stands
        (lambda b: delattr(b, "_rep"), AttributeError),
    ],
)
def test_damaged_state_raises_instead_of_crashing(damage: object, error: type[Exception]) -> None:
    if position.SPEEDUPS is None:
        pytest.skip("SHOGIBAN_PURE_PYTHON is set: the Python methods are the ones in use")
    board = Board()
    board.push_usi("7g7f")
    damage(board)  # type: ignore[operator]
    with pytest.raises(error):
        _pop_and_push(board)


@pytest.mark.parametrize("key", [-1, 1 << 64, -(1 << 70)])
def test_push_refuses_a_key_outside_64_bits(key: int) -> None:
    if position.SPEEDUPS is None:
        pytest.skip("SHOGIBAN_PURE_PYTHON is set: the Python methods are the ones in use")
    board = Board()
    board._hash = key
    with pytest.raises(OverflowError):
        board.push(Move.from_usi("7g7f"))
    assert board._stack == []
    assert board._board == Board()._board


def _pop_and_push(board: Board) -> None:
    board.pop()
    board.push(Move.from_usi("3c3d"))


def test_plain_positions_use_the_compiled_methods_too() -> None:
    pos = Position()
    pos._put(40, 8)
    pos._reset_history()
    pos._hands[0][1] = 1
    pos._reset_history()
    with pure_python():
        ref = Position()
        ref._put(40, 8)
        ref._hands[0][1] = 1
        ref._reset_history()
    for code in (Move.from_usi("P*5d").code, Move.from_usi("5e4f").code):
        pos._push(code)
        Position._py_push(ref, code)
        assert_same_state(pos, ref)
    assert pos._pop() == Position._py_pop(ref)
    assert_same_state(pos, ref)


# -- SFEN: set-up and writing -------------------------------------------------------------------


def outcome(sfen: object, lenient: bool) -> tuple[object, ...]:
    """What Board(sfen) gives: its whole state and SFEN, or the error and its message."""
    try:
        board = Board(sfen, lenient=lenient)  # type: ignore[arg-type]
    except InvalidSfenError as exc:
        return ("error", str(exc))
    return ("ok", state(board), board._start_number, board._start_sfen, board._ending, board.sfen(),
            board.sfen(move_number=False), board.starting_sfen)


def assert_sfen_agrees(sfen: object, lenient: bool = False) -> tuple[object, ...]:
    got = outcome(sfen, lenient)
    with pure_python():
        expected = outcome(sfen, lenient)
    assert got == expected, sfen
    if got[0] == "ok":
        board = Board(sfen, lenient=lenient)  # type: ignore[arg-type]
        assert_same_state(board, board)  # the Python types of the compiled set-up
    fields = speedups.parse_sfen(sfen)
    if fields is not None:  # the fast path agrees with the Python reader wherever it answers
        assert sfen_module.SfenParts(*fields) == sfen_module._py_parse_sfen(sfen)  # type: ignore[arg-type]
    return got


def test_sfen_benchmark_positions_take_the_fast_path() -> None:
    sfens = [line for line in POSITIONS.read_text().splitlines() if line]
    for sfen in sfens:
        assert speedups.parse_sfen(sfen) is not None
        assert assert_sfen_agrees(sfen)[0] == "ok"
        board = Board(sfen)
        assert speedups.make_sfen(board._board, board._turn, board._hands, 7) == sfen_module._py_make_sfen(
            board._board, board._turn, board._hands, 7)


def test_sfen_perft_positions(shared_data: Path) -> None:
    sfens = sorted({sfen for sfen, _, _ in _perft_rows(shared_data)})
    results = [assert_sfen_agrees(sfen, lenient) for sfen in sfens for lenient in (False, True)]
    assert sum(r[0] == "ok" for r in results) > 300


@pytest.mark.parametrize(
    "sfen",
    [
        "4k4/9/9/9/9/9/9/9/4K4 b pPpPgSb 1",  # repeated letters, any order
        "4k4/9/9/9/9/9/9/9/4K4 b 10p8P 1",  # 2-digit counts
        "4k4/9/9/9/9/9/9/9/4K4 b 0P2p 1",  # a zero count
        "4k4/9/9/9/9/9/9/9/4K4 b 02P 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 81p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 82p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 50p40p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 99999999999999999999p 1",
        "4k4/9/9/9/9/9/9/9/4K4 w -",  # missing move number
        "4k4/9/9/9/9/9/9/9/4K4 b - 0",
        "4k4/9/9/9/9/9/9/9/4K4 b - 007",
        "4k4/9/9/9/9/9/9/9/4K4 b - 123456789012345678",
        "4k4/9/9/9/9/9/9/9/4K4 b - 1234567890123456789012",
        "4k4/9/9/9/9/9/9/9/4K4 b - -1",
        "4k4/9/9/9/9/9/9/9/4K4 b - ١",  # an Arabic-Indic digit: str.isdigit() says yes
        "  4k4/9/9/9/9/9/9/9/4K4   b  -   7 ",
        "\t4k4/9/9/9/9/9/9/9/4K4 b - 7\n",
        "4k4/9/9/9/9/9/9/9/4K4\tb - 7",
        "4k4/9/9/9/9/9/9/9/4K4\x1fb - 7",
        "4k4/9/9/9/9/9/9/9/4K4_b_-_3",
        "4k4/9/9/9/9/9/9/9/4K4 b _ 3",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "sfen",
        "startpos",
        "sfen startpos",
        "",
        "   ",
        "4k4/9/9/9/9/9/9/9/4K4 b - 1 extra",
        "4k4/9/9/9/9/9/9/9/4K4 b",
        "4k4/9/9/9/9/9/9/9 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4/ b - 1",
        "4k4/9/9/9/9/9/9/9/4K4/9 b - 1",
        "/4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K5 b - 1",
        "4k4/9/9/9/9/9/9/9/4K3 b - 1",
        "4k4/9/9/9/9/9/9/9/44K1 b - 1",
        "4k4/9/9/9/9/9/9/9/0K8 b - 1",
        "4k4/9/9/9/9/9/9/9/4X4 b - 1",
        "4k4/9/9/9/9/9/9/9/3+GK4 b - 1",
        "4k4/9/9/9/9/9/9/9/3+kK4 b - 1",
        "4k4/9/9/9/9/9/9/9/3++PK3 b - 1",
        "4k4/9/9/9/9/9/9/9/3+1K4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K3+ b - 1",
        "4k4/9/9/9/9/9/9/+p8/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 x - 1",
        "4k4/9/9/9/9/9/9/9/4K4 bw - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b K 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 3 1",
        "4k4/9/9/9/9/9/9/9/4K4 b -P 1",
        "4k4/9/9/9/9/9/9/9/4K4 b +P 1",
        "4k4/9/9/9/9/9/9/9/4K4 b - x",
        "4k4/9/9/9/9/9/9/9/4K4 b - 1.0",
        "4k4/9/9/9/9/9/9/9/4ｋ4 b - 1",  # a full-width letter
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1",  # impossible: two kings, nifu, dead pieces, counts, check
        "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1",
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/N3K4 w - 1",
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        "4k4/9/9/9/9/9/9/9/R3K4 b - 1",
        "4k4/9/9/9/9/9/9/9/R3K4 w - 1",
        "9/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
        "kkkkkkkkk/9/9/9/9/9/9/9/KKKKKKKKK w 81p 5",
    ],
)
def test_odd_sfens(sfen: str) -> None:
    for lenient in (False, True):
        assert_sfen_agrees(sfen, lenient)


def test_non_strings() -> None:
    for value in (None, 1, b"4k4/9/9/9/9/9/9/9/4K4 b - 1", ["4k4/9/9/9/9/9/9/9/4K4", "b", "-"]):
        assert speedups.parse_sfen(value) is None
        if value is not None:
            assert assert_sfen_agrees(value)[0] == "error"


def test_failed_set_sfen_leaves_the_board_as_it_was() -> None:
    board = Board()
    board.push_usi("7g7f")
    before = state(board)
    for bad in ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "4k4/9/9 b - 1"):
        with pytest.raises(InvalidSfenError):
            board.set_sfen(bad)
        assert state(board) == before


_SFEN_CHARS = "PLNSBRGKplnsbrgk+0123456789/ -_bw\t"


@st.composite
def mangled_sfens(draw: st.DrawFn) -> str:
    """A valid SFEN with a few characters changed, inserted or removed."""
    text = draw(st.sampled_from([h.sfen for h in HANDICAPS] + _SAMPLE_SFENS))
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "replace", "delete"]))
        ch = draw(st.sampled_from(_SFEN_CHARS))
        if kind == "insert":
            text = text[:i] + ch + text[i:]
        elif kind == "replace":
            text = text[:i] + ch + text[i + 1:]
        else:
            text = text[:i] + text[i + 1:]
    return text


_SAMPLE_SFENS = [line for line in POSITIONS.read_text().splitlines() if line][:50]


@settings(max_examples=examples(600), deadline=None)
@given(mangled_sfens(), st.booleans())
def test_mangled_sfens_agree(sfen: str, lenient: bool) -> None:
    assert_sfen_agrees(sfen, lenient)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lenient_positions())
def test_generated_positions_set_up_and_write_the_same(board: Board) -> None:
    sfen = board.sfen()
    for lenient in (False, True):
        assert_sfen_agrees(sfen, lenient)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(playouts())
def test_played_positions_set_up_and_write_the_same(game: tuple[str, int, int]) -> None:
    start, plies, seed = game
    rng = random.Random(seed)
    board = Board(start)
    for _ in range(plies):
        codes = board._legal_codes()
        if not codes:
            break
        board._push(rng.choice(codes))
        if rng.random() < 0.1:
            assert assert_sfen_agrees(board.sfen())[0] == "ok"
    assert assert_sfen_agrees(board.sfen())[0] == "ok"


def _make_outcome(*args: object) -> object:
    try:
        return sfen_module.make_sfen(*args)  # type: ignore[arg-type]
    except (KeyError, IndexError, TypeError) as exc:
        return type(exc)


@pytest.mark.parametrize(
    ("board", "turn", "hands", "number"),
    [
        ([0] * 81, 0, [[0] * 8, [0] * 8], 1),
        ([0] * 81, 1, [[0] * 8, [0] * 8], None),
        (tuple(range(1, 15)) * 5 + (17, 18, 19, 20, 21, 22, 30, 24, 0, 0, 0), True, ((0,) * 8, (0,) * 8), 10**30),
        ([9, 10, 11, 12, 13, 14, 25, 26, 27] * 9, 0, [[0, 1, 2, 3, 4, 5, 6, 7], [0, 10, 0, 0, 0, 0, 0, 99]], 0),
        ([0] * 80 + [15], 0, [[0] * 8, [0] * 8], 1),  # code 15: the Python writer's "+G"
        ([0] * 80 + [16], 0, [[0] * 8, [0] * 8], 1),  # no piece type: KeyError
        ([0] * 80 + [40], 0, [[0] * 8, [0] * 8], 1),
        ([0] * 80 + [-3], 0, [[0] * 8, [0] * 8], 1),
        ([0] * 80 + [True], 0, [[0] * 8, [0] * 8], 1),
        ([0] * 82, 0, [[0] * 8, [0] * 8], 1),
        ([0] * 80, 0, [[0] * 8, [0] * 8], 1),
        ([0] * 81, -1, [[0] * 8, [0] * 8], 1),
        ([0] * 81, 2, [[0] * 8, [0] * 8], 1),
        ([0] * 81, 0, [[0] * 8, [0, 0, 0, 0, 0, 0, 0, -2]], 1),
        ([0] * 81, 0, [[0] * 8, [0, True, 0, 0, 0, 0, 0, 0]], 1),
        ([0] * 81, 0, [[0] * 8, [0] * 8], True),
        ([0] * 81, 0, [[0] * 8, [0] * 8], -5),
        ([0] * 81, 0, [[0] * 8, [0] * 7], 1),
    ],
)
def test_make_sfen_agrees_on_odd_input(board: object, turn: object, hands: object, number: object) -> None:
    got = _make_outcome(board, turn, hands, number)
    with pure_python():
        assert _make_outcome(board, turn, hands, number) == got


# -- the module: public API only, multi-phase init, its own state, the import check -----------------

_SOURCE_FILES = sorted(p for p in C_SOURCES.iterdir() if p.suffix in (".c", ".h"))

# What the sources must not contain: CPython's private names, its structs' insides (lists, ints,
# descriptors, type dicts), layouts found at run time, and hash internals.
_FORBIDDEN = {
    "a private CPython name (_Py...)": r"\b_Py",
    "a type's dict": r"\btp_dict\b",
    "a member descriptor's insides": r"PyMemberDescr|\bd_member\b",
    "a list's or an int's insides": r"PyListObject|PyLongObject|\bob_item\b|->allocated\b|\bob_digit\b|\blv_tag\b",
    "resizing an object by hand": r"Py_SET_SIZE",
    "a slot offset read at run time": r"->offset\b|member_offset|SLOT_PTR|slot_offset",
    "pointer arithmetic on an object": r"\(char \*\)\s*\(?\w+\)?\s*\+",
    "hash internals": r"HASH_BITS|HASH_MODULUS|KnownHash",
    "single-phase init": r"PyModule_Create\b",
}


@pytest.mark.parametrize("path", _SOURCE_FILES, ids=lambda p: p.name)
def test_c_sources_use_only_the_public_api(path: Path) -> None:
    text = path.read_text()
    found = [what for what, pattern in _FORBIDDEN.items() if re.search(pattern, text)]
    assert not found, f"{path.name}: {', '.join(found)}"
    # offsetof only where the module declares its own struct members (the PyMemberDef table)
    for line in text.splitlines():
        if "offsetof(" in line:
            assert re.match(r"#define FIELD\(type, name, member, doc\) \{name, MEMBER_OBJECT, offsetof\(type, member\)",
                            line), line
    # no Python object in a C global (module state holds them); functions are fine
    for line in text.splitlines():
        if re.match(r"(static |INTERNAL )?(extern )?(const )?(PyObject|PyTypeObject)\s*\*", line) and "(" not in line:
            pytest.fail(f"{path.name}: a Python object in a C global: {line}")


def test_module_uses_multi_phase_init_and_heap_types() -> None:
    text = "\n".join(p.read_text() for p in _SOURCE_FILES)
    for needed in ("PyModuleDef_Init", "Py_mod_exec", "PyType_FromModuleAndSpec", "Py_mod_multiple_interpreters"):
        assert needed in text
    heap_type = 1 << 9  # Py_TPFLAGS_HEAPTYPE
    for cls in (speedups.PositionState, speedups.BoardState):
        assert cls.__flags__ & heap_type
        with pytest.raises(TypeError):
            cls.extra = 1  # immutable types
    if position.SPEEDUPS is not None:
        assert Position.__mro__[1] is speedups.PositionState
        assert Board.__mro__[1:4] == (Position, speedups.BoardState, speedups.PositionState)


def _second_instance() -> types.ModuleType:
    """A second module object made from the same compiled file (possible with multi-phase init)."""
    spec = importlib.util.spec_from_file_location("shogiban._speedups", speedups.__file__)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_module_object_has_its_own_types_and_state() -> None:
    other = _second_instance()
    assert other is not speedups
    assert other.PositionState is not speedups.PositionState
    assert other.SOURCE_DIGEST == speedups.SOURCE_DIGEST

    class OtherPosition(other.PositionState):  # type: ignore[name-defined,misc]
        __slots__ = ()

    mine = OtherPosition()
    # The other module's state has no Zobrist tables yet: it refuses, while this one works on.
    with pytest.raises(RuntimeError, match="set_zobrist"):
        other.set_sfen(mine, STARTING, False)
    with pytest.raises(RuntimeError, match="set_zobrist"):
        other.methods_for(OtherPosition)["_push"](mine, 0)
    assert Board().perft(2) == 900
    # A Position of one module object is not one of the other's: it is read by attribute name.
    assert other.legal_codes(Board()) == reference(Board())
    with pytest.raises(TypeError, match="needs a shogiban Position"):
        other.set_sfen(Board(), STARTING, False)
    other.set_zobrist(zobrist.PIECE_SQUARE, zobrist.HAND, zobrist.WHITE_TO_MOVE)
    assert other.set_sfen(mine, STARTING, False) == 1
    board = Board()
    assert other.legal_codes(mine) == reference(board)
    methods = other.methods_for(OtherPosition)
    for usi in ("7g7f", "3c3d", "8h2b+"):
        methods["_push"](mine, Move.from_usi(usi).code)
        board.push_usi(usi)
    assert (mine._board, mine._bb, mine._hands, mine._hash, mine._rep) == (
        board._board, board._bb, board._hands, board._hash, board._rep)
    assert methods["_pop"](mine) == Move.from_usi("8h2b+").code
    assert set(methods) == {"_push", "_pop"}
    assert set(other.methods_for(type("B", (other.BoardState,), {"__slots__": ()}))) == {"_push", "_pop", "push", "pop"}


STARTING = Board().sfen()

_SUBINTERPRETER = """
import sys
try:
    import _interpreters as interpreters  # 3.13
except ImportError:
    import _xxsubinterpreters as interpreters  # 3.11, 3.12
script = '''
import shogiban.position
from shogiban import Board
with open({out!r}, "a") as out:
    out.write(f"{{shogiban.position.SPEEDUPS is not None}} {{Board().perft(3)}}\\\\n")
'''
if sys.version_info >= (3, 13):
    configs = [("isolated", interpreters.new_config("isolated")), ("legacy", interpreters.new_config("legacy"))]
elif sys.version_info >= (3, 12):
    configs = [("legacy", False)]  # (3.12's hashlib, which shogiban imports, crashes isolated ones)
else:
    configs = [("legacy", None)]
for name, config in configs:
    if sys.version_info >= (3, 13):
        interp = interpreters.create(config)
    elif sys.version_info >= (3, 12):
        interp = interpreters.create(isolated=config)
    else:
        interp = interpreters.create()
    with open({out!r}, "a") as out:
        out.write(name + " ")
    failed = interpreters.run_string(interp, script)
    assert failed is None, failed
    interpreters.destroy(interp)
"""


def test_subinterpreters_load_their_own_module(tmp_path: Path) -> None:
    """Each interpreter gets its own module object, also one with its own GIL from 3.13 on (where
    the module says it supports that)."""
    if position.SPEEDUPS is None:
        pytest.skip("SHOGIBAN_PURE_PYTHON is set")
    out = tmp_path / "out.txt"
    run = subprocess.run([sys.executable, "-c", _SUBINTERPRETER.format(out=str(out))], capture_output=True,
                         text=True, timeout=300, check=False)
    if "No module named '_interpreters'" in run.stderr or "No module named '_xxsubinterpreters'" in run.stderr:
        pytest.skip("this Python has no subinterpreter module")
    assert run.returncode == 0, run.stderr
    results = dict(line.split(" ", 1) for line in out.read_text().splitlines())
    assert results["legacy"] == "True 25470"
    if sys.version_info >= (3, 13):
        assert results["isolated"] == "True 25470"


def test_the_module_matches_its_sources() -> None:
    digest = _accelerator.source_digest(C_SOURCES)
    assert digest == speedups.SOURCE_DIGEST
    assert _accelerator.stale_reason(speedups, C_SOURCES) is None
    assert _accelerator.stale_reason(speedups, C_SOURCES / "absent") is None  # a wheel: nothing to compare


def test_a_module_from_other_sources_is_stale(tmp_path: Path) -> None:
    changed = tmp_path / "changed"
    shutil.copytree(C_SOURCES, changed)
    movegen = changed / "movegen.c"
    movegen.write_text(movegen.read_text() + "\n/* edited */\n")
    reason = _accelerator.stale_reason(speedups, changed)
    assert reason is not None
    assert "other sources" in reason
    renamed = tmp_path / "renamed"
    shutil.copytree(C_SOURCES, renamed)
    (renamed / "sfen.c").rename(renamed / "sfen2.c")
    assert _accelerator.stale_reason(speedups, renamed) is not None
    assert "no source digest" in (_accelerator.stale_reason(types.ModuleType("old"), C_SOURCES) or "")


def _package_copy(where: Path) -> Path:
    """The loaded package (with its compiled module) and the C sources, copied under *where*."""
    package = Path(board_module.__file__).parent
    target = where / "shogiban"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__", "_speedups_c"))
    shutil.copytree(C_SOURCES, target / "_speedups_c")
    return target


_PROBE = "import shogiban.position as p; print(p.SPEEDUPS is not None, p.Position.__mro__[1].__name__)"


def _probe(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("SHOGIBAN_PURE_PYTHON", None)
    return subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=120,
                          check=True)


def test_import_refuses_a_stale_module_and_falls_back(tmp_path: Path) -> None:
    target = _package_copy(tmp_path)
    run = _probe(tmp_path)
    assert run.stdout.split() == ["True", "PositionState"], run.stderr
    assert "RuntimeWarning" not in run.stderr
    pushpop = target / "_speedups_c" / "pushpop.c"
    pushpop.write_text(pushpop.read_text().replace("Play the move", "Plays the move"))
    run = _probe(tmp_path)
    assert run.stdout.split() == ["False", "_PyPositionState"]
    assert "RuntimeWarning" in run.stderr
    assert "built from other sources" in run.stderr
    assert "pip install -e ." in run.stderr


def test_copy_and_pickle_keep_every_field() -> None:
    """The compiled base's fields are not __slots__, which copy and pickle would have found alone."""
    import copy
    import pickle

    board = Board(tournament=True)
    for usi in ("7g7f", "3c3d", "8h2b+"):
        board.push_usi(usi)
    board.push_legal(Move.from_usi("5a5b"))  # an illegal move, recorded: _ending is set
    for clone in (copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert type(clone) is Board
        assert state(clone) == state(board)
        assert (clone._ending, clone.tournament, clone.starting_sfen) == (board._ending, True, board.starting_sfen)
        assert clone.pop() == Move.from_usi("5a5b")
        assert clone.pop() == Move.from_usi("8h2b+")
        assert clone.sfen() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    plain = Position()
    plain._put(40, 8)
    plain._reset_history()
    assert state(pickle.loads(pickle.dumps(plain))) == state(plain)
    assert "_board" not in Position.__new__(Position).__getstate__()[1]  # never set: left out, as object does
