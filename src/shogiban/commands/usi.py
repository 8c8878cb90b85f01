"""``shogiban usi``: run the built-in engine as a USI engine (for ShogiGUI, 将棋所, ShogiHome)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the command."""
    from shogiban.usi.server import add_arguments

    p = sub.add_parser(
        "usi",
        help="run the built-in engine as a USI engine on stdin/stdout",
        description="Speak USI on stdin/stdout. Register 'shogiban usi' (or 'shogiban-usi') as an engine in your GUI.",
    )
    add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until ``quit``."""
    from shogiban.usi.backend import BuiltinBackend
    from shogiban.usi.server import serve

    return serve(BuiltinBackend(level=args.level, seed=args.seed), log=args.log)
