"""``shogiban analyse``: analyse game records with an engine, one file or a whole folder.

    shogiban analyse game.kif                      # game-analysis.kif and game-analysis.svg
    shogiban analyse game.csa out.kif --depth 8    # the annotated record as KIF
    shogiban analyse games/ out/ --jobs 4          # a folder, in 4 worker processes
    shogiban analyse games/ out/ --cluster ray     # a folder on a local Ray (pip install "shogiban[cluster]")
    shogiban analyse games/ out/ --cluster ray://head:10001   # ... on a running Ray cluster
    shogiban analyse game.kif --json --nodes 20000 # one JSON object per game on standard output
    shogiban analyse game.kif --engine "/usr/bin/yaneuraou" --movetime 1 --multipv 3
    shogiban analyse game.kif --engine auto        # $SHOGIBAN_ENGINE, else fairy-stockfish, else built-in

Every position of the main line (``--all-lines``: of every line) is searched to the limit,
and the position before each candidate mistake again to a larger limit, which decides its label;
the record is written with the analysis in its comments (ShogiHome's form in KIF, KI2 and
JKF, floodgate's ``'**`` lines in CSA) in the input's format unless OUT's suffix names
another, with an evaluation graph (SVG) beside it and a summary per game.  Positions and
records already analysed to the same engine and limit are found in the cache file
(``--cache``, default ``.shogiban-analysis.sqlite`` in the output folder) and not searched
again: a folder run again only analyses what is new.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shogiban.analysis.batch import (
    DEFAULT_MAX_POSITIONS,
    BatchOptions,
    EngineSpec,
    FileResult,
    record_jobs,
    run_batch,
)
from shogiban.analysis.cluster import parse_cluster, run_on_ray
from shogiban.analysis.report import summary_headers
from shogiban.commands._options import float_in, inputs_overwritten, int_in
from shogiban.engines.limit import MAX_MULTIPV, Limit
from shogiban.errors import ShogibanError
from shogiban.i18n import detect_language, language_tag, normalize_language, translate
from shogiban.notation.excerpt import excerpt

CACHE_NAME = ".shogiban-analysis.sqlite"
MAX_MOVETIME = 3600.0
MAX_DEPTH = 128
MAX_NODES = 10**12
MAX_JOBS = 256
MAX_POSITIONS = 1_000_000


class AnalyseUsageError(ShogibanError):
    """Options of ``shogiban analyse`` that do not fit together."""

    code = "bad_option"


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse game records with an engine: annotated records, graphs and summaries",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", type=Path, help="a record file, or a folder of records")
    p.add_argument("output", type=Path, nargs="?",
                   help="output file or folder (default: NAME-analysis.EXT, FOLDER-analysis/)")
    p.add_argument("--engine", default="builtin",
                   help="builtin, builtin:LEVEL (1..8), a USI engine's command, or auto: $SHOGIBAN_ENGINE if set, "
                        "else /usr/games/fairy-stockfish if installed, else the built-in engine")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--movetime", type=float_in(0.0, MAX_MOVETIME, low_open=True), metavar="S",
                       help=f"seconds per position (above 0, at most {MAX_MOVETIME:g})")
    group.add_argument("--depth", type=int_in(1, MAX_DEPTH), metavar="N", help=f"plies per position (1..{MAX_DEPTH})")
    group.add_argument("--nodes", type=int_in(1, MAX_NODES), metavar="N", help=f"nodes per position (1..{MAX_NODES})")
    p.add_argument("--multipv", type=int_in(1, MAX_MULTIPV), default=1, metavar="N",
                   help=f"lines per position (1..{MAX_MULTIPV}, default 1)")
    p.add_argument("--jobs", type=int_in(1, MAX_JOBS), metavar="N",
                   help=f"worker processes for a folder (1..{MAX_JOBS}, default: the cores)")
    p.add_argument("--cluster", metavar="ray|ray://HOST:PORT",
                   help="analyse on Ray, one engine per Ray worker (--jobs of them; default: the cluster's CPUs): "
                        "ray starts a local Ray, ray://HOST:PORT joins a running cluster; the files, outputs and "
                        "cache must be at the same paths on every machine")
    p.add_argument("--max-positions", type=int_in(1, MAX_POSITIONS), default=DEFAULT_MAX_POSITIONS, metavar="N",
                   help=f"refuse a record with more positions to analyse (1..{MAX_POSITIONS}, "
                        f"default {DEFAULT_MAX_POSITIONS})")
    p.add_argument("--db", metavar="URL",
                   help="also store each game's analysis in this database (the web server's: the record viewer "
                        "then shows it for the same record at once)")
    p.add_argument("--overwrite", action="store_true", help="allow writing over an input file")
    p.add_argument("--json", action="store_true", help="print one JSON object per game on standard output")
    p.add_argument("--all-lines", action="store_true", help="analyse the variations too")
    p.add_argument("--cache", type=Path, help=f"the cache file (default: {CACHE_NAME} in the output folder)")
    p.add_argument("--no-cache", action="store_true", help="keep the cache in memory only")
    p.add_argument("--csa-version", choices=("2.2", "3.0"), default="2.2", help="CSA version to write")
    p.add_argument("--lang", help="language of the summary and graph (default: from the locale)")
    p.set_defaults(run=run)


def _limit(args: argparse.Namespace) -> Limit:
    try:
        if args.movetime is not None:
            return Limit(time=args.movetime)
        if args.nodes is not None:
            return Limit(nodes=args.nodes)
        return Limit(depth=args.depth if args.depth is not None else 6)
    except ValueError as error:
        raise AnalyseUsageError(str(error)) from None


def _cache_path(args: argparse.Namespace, jobs_output: Path) -> str | None:
    if args.no_cache:
        return None
    if args.cache is not None:
        return str(args.cache)
    folder = jobs_output if args.input.is_dir() else jobs_output.parent
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / CACHE_NAME)


def run(args: argparse.Namespace) -> int:
    """Analyse; returns 1 if any record failed."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    if not args.input.exists():
        raise AnalyseUsageError(f"no such file or folder: {args.input}")
    language = language_tag(normalize_language(args.lang) if args.lang else detect_language())
    engine = EngineSpec.parse(args.engine)
    address = parse_cluster(args.cluster) if args.cluster is not None else None
    jobs = record_jobs(args.input, args.output)
    if not jobs:
        raise AnalyseUsageError(f"no records in {args.input}")
    if not args.overwrite:
        sources = [job.source for job in jobs]
        outputs = [path for job in jobs for path in (job.output, job.svg)]
        if args.cache is not None and not args.no_cache:
            outputs.append(args.cache)
        clash = inputs_overwritten(outputs, sources)
        if clash:
            raise AnalyseUsageError(f"refusing to write over the input {excerpt(str(clash[0]))} "
                                    "(give another output, or --overwrite)")
    if args.input.is_dir():
        out_root = args.output or args.input.with_name(args.input.name + "-analysis")
    else:
        out_root = jobs[0].output
    options = BatchOptions(
        engine=engine, limit=_limit(args), multipv=args.multipv, max_positions=args.max_positions,
        lines="all" if args.all_lines else "main", cache_path=_cache_path(args, out_root),
        csa_version=args.csa_version, language=language,
    )
    console = Console(stderr=True)
    database = _database(args.db) if args.db else None
    failures = 0
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        overall = progress.add_task(translate("analysis.progress.analysing", language), total=len(jobs))
        tasks: dict[str, Any] = {}

        def on_progress(name: str, done: int, total: int) -> None:
            if name not in tasks:
                tasks[name] = progress.add_task(Path(name).name, total=total)
            progress.update(tasks[name], completed=done, total=total)

        if args.cluster is not None:
            results = run_on_ray(jobs, options, address=address, workers=args.jobs, on_progress=on_progress)
        else:
            results = run_batch(jobs, options, workers=1 if len(jobs) == 1 else args.jobs, on_progress=on_progress)
        for result in results:
            if result.source in tasks:
                progress.remove_task(tasks.pop(result.source))
            progress.advance(overall)
            failures += result.status == "failed"
            _report(result, args, console, language, Table)
            if database is not None and result.data is not None:
                failures += not _store(database, result, args.max_positions, console)
    if database is not None:
        database.close()
    return 1 if failures else 0


def _database(url: str) -> Any:
    """The web server's store at *url* (its tables made if new)."""
    from sqlalchemy.exc import SQLAlchemyError

    from shogiban.web.store import GameStore

    try:
        return GameStore(url)
    except (SQLAlchemyError, ValueError) as error:
        raise AnalyseUsageError(f"cannot open the database: {excerpt(str(error), 200)}") from None


def _store(database: Any, result: FileResult, max_positions: int, console: Any) -> bool:
    """Store *result*'s analysis as the web stores a record's; False (said) when it cannot."""
    from sqlalchemy.exc import SQLAlchemyError

    from shogiban.web.game_analysis import batch_record_analysis

    assert result.data is not None
    try:
        record, analysis = batch_record_analysis(result.data, max_positions)
        database.add_record(record)
        database.save_record_analysis(analysis)
    except (SQLAlchemyError, ValueError) as error:
        console.print(f"[red]{Path(result.source).name}: {excerpt(str(error), 200)}[/red]", highlight=False)
        return False
    return True


def _report(result: FileResult, args: argparse.Namespace, console: Any, language: str, table_type: Any) -> None:
    name = Path(result.source).name
    if result.status == "failed":
        console.print(f"[red]{translate('analysis.progress.failed', language, name=name, error=result.error)}[/red]",
                      highlight=False)
        return
    if result.status == "skipped":
        console.print(translate("analysis.progress.skipped", language, name=name), highlight=False)
        return
    if args.json and result.data is not None:
        sys.stdout.write(json.dumps(result.data, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    table = table_type(title=translate("analysis.summary.title", language, name=name))
    for header in summary_headers(language):
        table.add_column(header)
    for row in result.summary:
        table.add_row(*row)
    console.print(table)
    if result.data is not None:
        moves = {p["ply"]: p["move"] for p in result.data["positions"]}
        moments = ", ".join(f"{ply}. {moves.get(ply)}" for ply in result.data["key_moments"])
        console.print(translate("analysis.summary.key_moments", language,
                                moves=moments or translate("analysis.summary.none", language)), highlight=False)
        limit = str(result.data.get("limit"))
        if result.data.get("confirm_limit"):
            limit = translate("analysis.summary.confirmed", language, limit=limit,
                              confirm=result.data["confirm_limit"])
        console.print(translate("analysis.summary.engine", language, engine=result.data.get("engine"),
                                limit=limit), highlight=False)
