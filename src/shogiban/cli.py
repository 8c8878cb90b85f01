"""The ``shogiban`` command line.

Each command lives in its own module in :mod:`shogiban.commands` with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``; they are found automatically, so adding a
command never touches this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from shogiban import __version__, commands
from shogiban.errors import EngineError, ShogibanError


def _command_modules() -> list[ModuleType]:
    infos = sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name)
    return [importlib.import_module(f"shogiban.commands.{i.name}") for i in infos if not i.name.startswith("_")]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command."""
    parser = argparse.ArgumentParser(
        prog="shogiban",
        description="shogiban: shogi (将棋) rules, game records, engine and play.",
    )
    parser.add_argument("--version", action="version", version=f"shogiban {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in _command_modules():
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return run(args)
    except (ShogibanError, EngineError, OSError) as error:
        print(f"shogiban {args.command}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
