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


def _command_names() -> list[str]:
    infos = sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name)
    return [i.name for i in infos if not i.name.startswith("_")]


def _command_modules(only: str | None = None) -> list[ModuleType]:
    names = [only] if only else _command_names()
    return [importlib.import_module(f"shogiban.commands.{name}") for name in names]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command (or just *only*, which starts faster: a GUI waiting
    for ``usiok`` should not pay for importing the web server)."""
    parser = argparse.ArgumentParser(
        prog="shogiban",
        description="shogiban: shogi (将棋) rules, game records, engine and play.",
    )
    parser.add_argument("--version", action="version", version=f"shogiban {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in _command_modules(only):
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in _command_names() else None
    parser = build_parser(only)
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
