"""``shogiban convert``: convert game records between formats, one file or a whole folder.

    shogiban convert game.kif game.csa            # format from the output's extension
    shogiban convert game.csa --to kif            # KIF text to standard output
    shogiban convert game.kif --to usi            # the USI position line
    shogiban convert game.kif board.svg --ply 40  # the position after 40 moves, as SVG
    shogiban convert records/ out/ --to kifu      # every record in a folder, with a progress bar

Formats: kif (CP932), kifu (UTF-8), ki2, ki2u, csa (V2.2; ``--csa-version 3.0``), jkf, sfen, usi,
usen, bod, svg.  The input format is detected from the content.  A record read with problems is
still written (everything before the problem is kept) but counted as failed; ``--strict`` stops
at the first problem instead.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from shogiban.commands._options import inputs_overwritten, int_in
from shogiban.errors import KifuParseError, ShogibanError
from shogiban.kifu.api import read_game, read_games, write_game
from shogiban.kifu.csa import csa_encoding
from shogiban.kifu.detect import EXTENSIONS, FORMATS, format_of_filename
from shogiban.kifu.game import Game
from shogiban.kifu.read_limits import DEFAULT_LIMITS, ReadLimits
from shogiban.notation.excerpt import excerpt

_EXTENSION_OF = {"kif": ".kif", "kifu": ".kifu", "ki2": ".ki2", "ki2u": ".ki2u", "csa": ".csa", "jkf": ".jkf",
                 "sfen": ".sfen", "usi": ".usi", "usen": ".usen", "bod": ".bod", "svg": ".svg"}
MAX_PLY = 10_000_000
#: Moves (all lines together) a record may have to be converted, by default: far beyond any real
#: game or study, and it keeps a conversion's memory to a few hundred MB (about 1.5 KB a move).
DEFAULT_MAX_MOVES = 200_000
_TEXT_ENCODING = {"kif": "cp932", "ki2": "cp932", "kifu": "utf-8", "ki2u": "utf-8"}


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "convert",
        help="convert game records between KIF, KI2, CSA, JKF, SFEN, USI, USEN, BOD and SVG",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", type=Path, help="a record file, or a folder of records")
    p.add_argument("output", type=Path, nargs="?", help="output file or folder (default: standard output)")
    p.add_argument("--to", choices=FORMATS, help="output format (default: from the output's extension)")
    p.add_argument("--from", dest="source_format", choices=[f for f in FORMATS if f != "svg"],
                   help="input format (default: detected from the content)")
    p.add_argument("--ply", type=int_in(0, MAX_PLY), metavar="N",
                   help="for bod and svg: the position after this many moves (0 to the main line's length)")
    p.add_argument("--max-moves", type=int_in(1, DEFAULT_LIMITS.max_moves), default=DEFAULT_MAX_MOVES, metavar="N",
                   help=f"refuse records of more than N moves, all lines together (default {DEFAULT_MAX_MOVES:,}; "
                        "memory grows about 1.5 KB a move)")
    p.add_argument("--overwrite", action="store_true", help="allow writing over an input file")
    p.add_argument("--csa-version", choices=("2.2", "3.0"), default="2.2", help="CSA version to write")
    p.add_argument("--strict", action="store_true", help="refuse records with any problem")
    p.set_defaults(run=run)


def _limits(args: argparse.Namespace) -> ReadLimits:
    return replace(DEFAULT_LIMITS, max_moves=args.max_moves)


def _options(fmt: str, args: argparse.Namespace) -> dict[str, Any]:
    if fmt == "csa":
        return {"version": args.csa_version}
    if fmt in ("bod", "svg") and args.ply is not None:
        return {"ply": args.ply}
    return {}


def _as_text(data: str | bytes, fmt: str, args: argparse.Namespace) -> str:
    if isinstance(data, str):
        return data
    encoding = csa_encoding(args.csa_version) if fmt == "csa" else _TEXT_ENCODING[fmt]
    return data.decode(encoding)


def run(args: argparse.Namespace) -> int:
    """Convert; returns 1 if any record failed."""
    if args.input.is_dir():
        return _convert_folder(args)
    fmt = args.to or (format_of_filename(args.output.name) if args.output else None)
    if fmt is None:
        raise KifuParseError("give --to FORMAT, or an output file with a known extension")
    if args.output is not None and not args.overwrite and inputs_overwritten([args.output], [args.input]):
        raise KifuParseError(f"refusing to write over the input {excerpt(str(args.input))} "
                             "(give another output, or --overwrite)")
    game = read_game(args.input, format=args.source_format, strict=args.strict, limits=_limits(args))
    _check_ply(game, fmt, args)
    for error in game.errors:
        print(f"{args.input}: {error}", file=sys.stderr)
    if args.output is None:
        if fmt == "usi":
            from shogiban.kifu.usi import write_usi

            print(write_usi(game))
        else:
            sys.stdout.write(_as_text(write_game(game, fmt, **_options(fmt, args)), fmt, args))
        return 1 if game.errors else 0
    _write(game, args.output, fmt, args)
    return 1 if game.errors else 0


def _check_ply(game: Game, fmt: str, args: argparse.Namespace) -> None:
    if fmt in ("bod", "svg") and args.ply is not None:
        length = sum(1 for node in game.mainline() if node.move is not None)
        if args.ply > length:
            raise KifuParseError(f"invalid --ply: {args.ply} (the main line has {length} moves)")


def _write(game: Game, path: Path, fmt: str, args: argparse.Namespace) -> None:
    data = write_game(game, fmt, **_options(fmt, args))
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", newline="\n")
    else:
        path.write_bytes(data)


def _convert_folder(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    if args.output is None:
        raise KifuParseError("converting a folder needs an output folder")
    if args.to is None:
        raise KifuParseError("converting a folder needs --to FORMAT")
    fmt = args.to
    extension = _EXTENSION_OF[fmt]
    files = sorted(p for p in args.input.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS
                   and p.suffix.lower() != ".svg")
    args.output.mkdir(parents=True, exist_ok=True)
    failures: list[tuple[Path, str]] = []
    written = 0
    console = Console(stderr=True)
    columns = (TextColumn("[bold]converting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("convert", total=len(files))
        for path in files:
            relative = path.relative_to(args.input)
            try:
                games = read_games(path, format=args.source_format, strict=args.strict, limits=_limits(args))
                for index, game in enumerate(games):
                    suffix = f"-{index + 1}" if len(games) > 1 else ""
                    target = args.output / relative.parent / f"{relative.stem}{suffix}{extension}"
                    if not args.overwrite and inputs_overwritten([target], [path]):
                        raise KifuParseError(f"refusing to write over the input {excerpt(str(target))} "
                                             "(give another output folder, or --overwrite)")
                    _check_ply(game, fmt, args)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    _write(game, target, fmt, args)
                    written += 1
                    if game.errors:
                        failures.append((relative, f"{len(game.errors)} problem(s), first: {game.errors[0]}"))
            except (ShogibanError, OSError, UnicodeError) as error:
                failures.append((relative, str(error)))
            progress.advance(task)
    console.print(f"{len(files)} files read, {written} records written to {args.output}, {len(failures)} failed")
    for relative, why in failures:
        console.print(f"  [red]failed[/red] {relative}: {why}", markup=True, highlight=False)
    return 1 if failures else 0
