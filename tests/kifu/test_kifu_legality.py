"""The readers' one-move legality test against the rules core, with and without the caller
saying whether the side to move is in check (the shortcut that skips most self-check tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from shogiban import Board, rules
from shogiban.kifu._legality import CHECK, ILLEGAL, PLAYED, push_if_legal
from shogiban.move import MOVES

# Pins, checks and a king that may capture nothing: the cases the shortcut must not skip.
_PINNED = [
    "4k4/9/9/9/5b3/6G2/7K1/9/9 b G 1", "4k4/9/9/9/5b3/6G1G/7K1/9/9 b - 1", "4K4/9/9/9/9/9/4R4/4g4/4k4 w - 1",
    "k8/9/9/9/4r4/9/4S4/4K4/9 b - 1", "k8/9/9/9/9/9/4l4/4G4/4K4 b - 1", "4k4/4r4/9/9/9/9/9/4N4/4K4 b P 1",
    "4k4/9/9/9/9/9/9/3+r5/3GK4 b - 1", "8k/9/9/9/9/9/2b6/9/K8 b S 1",
    # In check: only moves that answer it are legal.
    "4k4/9/9/9/4r4/9/9/9/3GK4 b S 1", "4k4/9/9/9/9/9/2b6/9/4K4 b G 1", "4k4/9/9/9/9/9/9/4r4/3SK4 b - 1",
    "4k4/9/9/9/4r4/9/2b6/9/4K4 b GP 1",
]


def _positions(count: int, seed: int) -> Iterator[Board]:
    """The pin positions, then positions along random games (checks come up often)."""
    rng = random.Random(seed)
    for sfen in _PINNED:
        yield Board(sfen)
    made = 0
    while made < count:
        board = Board()
        for _ in range(rng.randint(10, 150)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.legal_moves.count():
            made += 1
            yield board.copy(stack=False)


def _candidates(board: Board, rng: random.Random) -> list[int]:
    """Every legal move and a sample of codes that are not."""
    legal = [m.code for m in board.legal_moves]
    other = [code for code in rng.sample(range(len(MOVES)), 400) if MOVES[code] is not None]
    return legal + other


@pytest.fixture(params=["python", "c"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of testing a move: the Python shortcut, and the C legal-move list."""
    if request.param == "python":
        monkeypatch.setattr(rules, "_c_legal_codes", None)
    elif rules._c_legal_codes is None:
        pytest.skip("the C accelerator is not built (pure Python)")
    return str(request.param)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_push_if_legal_agrees_with_the_rules(seed: int, path: str) -> None:
    rng = random.Random(seed)
    checks = 0
    for board in _positions(150, seed):
        checks += board.is_check()
        legal = {m.code for m in board.legal_moves}
        before = board.sfen()
        for code in _candidates(board, rng):
            for in_check in (None, board.is_check()):
                pushed = push_if_legal(board, code, in_check)
                assert bool(pushed) == (code in legal), (before, MOVES[code], in_check)
                if pushed:
                    if pushed != PLAYED:
                        assert (pushed == CHECK) == board.is_check(), (before, MOVES[code])
                    board.pop()
                else:
                    assert pushed == ILLEGAL
                assert board.sfen() == before
    assert checks >= 4


def test_along_real_games_the_check_answer_feeds_the_next_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "_c_legal_codes", None)
    rng = random.Random(9)
    for _ in range(40):
        board = Board()
        in_check: bool | None = None
        for _ in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            pushed = push_if_legal(board, move.code, in_check)
            assert pushed
            in_check = pushed == CHECK
            assert in_check == board.is_check()
