"""Perft: the number of move sequences of each depth, against the published tables.

Rows come from ``../shared/data/perft/perft.tsv`` (367 rows re-verified with cshogi).  Rows up to
5 M nodes run by default, rows up to 30 M are marked slow (CI runs them); the 0.5-billion-node rows
are in ``benchmarks/deep_perft.py``.
"""

from __future__ import annotations

import pytest

from corpus import shared_data_dir
from shogiban import Board

DEFAULT_LIMIT = 5_000_000
SLOW_LIMIT = 30_000_000


@pytest.mark.parametrize(("depth", "nodes"), [(0, 1), (1, 30), (2, 900), (3, 25_470), (4, 719_731)])
def test_start_position(depth: int, nodes: int) -> None:
    assert Board().perft(depth) == nodes


def _rows() -> list[object]:
    directory = shared_data_dir()
    if directory is None:
        return [pytest.param(None, 0, 0, marks=pytest.mark.skip(reason="../shared/data is absent"))]
    params: list[object] = []
    for number, line in enumerate((directory / "perft/perft.tsv").read_text().splitlines()):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        sfen, depth, nodes = fields[0], int(fields[2]), int(fields[3])
        if nodes > SLOW_LIMIT:
            continue
        marks = [pytest.mark.slow] if nodes > DEFAULT_LIMIT else []
        params.append(pytest.param(sfen, depth, nodes, marks=marks, id=f"row{number}-d{depth}"))
    return params


@pytest.mark.parametrize(("sfen", "depth", "nodes"), _rows())
def test_published_perft(sfen: str, depth: int, nodes: int) -> None:
    # lenient: some published positions are not reachable in a game (e.g. more pawns than a set)
    assert Board(sfen, lenient=True).perft(depth) == nodes


def test_perft_leaves_the_board_unchanged() -> None:
    board = Board("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
    before = (board.sfen(), board.zobrist_hash())
    assert board.perft(2) == 28_684
    assert (board.sfen(), board.zobrist_hash()) == before


def test_negative_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        Board().perft(-1)
