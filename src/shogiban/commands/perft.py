"""``shogiban perft``: count move sequences, to check move generation."""

from __future__ import annotations

import argparse
import time
from typing import Any

from shogiban.board import Board
from shogiban.sfen import STARTING_SFEN


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser("perft", help="count the move sequences of a given depth (perft)")
    p.add_argument("--depth", type=int, required=True, help="number of plies")
    p.add_argument("--sfen", default=STARTING_SFEN, help="position (default: the start position)")
    p.add_argument("--divide", action="store_true", help="also print the count below each legal move")
    p.add_argument("--time", action="store_true", help="print the time taken to stderr")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the perft count."""
    board = Board(args.sfen, lenient=True)
    if args.depth < 0:
        raise ValueError(f"invalid depth: {args.depth!r} (must be 0 or more)")
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            count = board.perft(args.depth - 1)
            board.pop()
            total += count
            print(f"{move.usi()}: {count}")
        print(total)
    else:
        print(board.perft(args.depth))
    if args.time:
        import sys

        print(f"{time.perf_counter() - start:.3f} s", file=sys.stderr)
    return 0
