"""Analysing record files, one or a folder, in worker processes: what ``shogiban analyse`` runs.

Each worker process starts its own engine (:class:`EngineSpec`) once and analyses whole files;
workers die with the parent (:func:`shogiban.children.die_with_parent`; USI engines are in the
reaper's care).  Every search starts from a fresh engine state (``independent``), so the result
of a folder does not depend on how its files were shared out.  With an on-disk cache the
positions searched before are not searched again, and a record already analysed to the same
engine, limit and MultiPV, whose output is still there, is skipped.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import queue
import shlex
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from shogiban.analysis.analyser import Analyser, Progress
from shogiban.analysis.cache import AnalysisCache, SqliteAnalysisCache, limit_text, open_cache
from shogiban.analysis.comments import annotate_game
from shogiban.analysis.game import GameAnalysis
from shogiban.analysis.report import evaluation_svg, summary_cells, summary_rows
from shogiban.engines.limit import Limit
from shogiban.errors import EngineError, ShogibanError
from shogiban.kifu.read_limits import ReadLimits
from shogiban.notation.excerpt import excerpt

#: The default of :attr:`BatchOptions.max_positions`: far more than any real game's main line
#: (a few hundred), room for a well-studied record's variations.
DEFAULT_MAX_POSITIONS = 10_000
#: The default of :attr:`BatchOptions.max_bytes`.
DEFAULT_MAX_BYTES = 16_000_000

#: Extensions of the files a folder run reads.
RECORD_SUFFIXES = (".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf")


class EngineSpecError(ShogibanError):
    """An ``--engine`` that names no engine."""

    code = "bad_option"


#: The environment variable ``--engine auto`` takes a USI engine's command line from.
ENGINE_VARIABLE = "SHOGIBAN_ENGINE"
#: Where ``--engine auto`` looks for a USI engine when the variable is not set (Debian's package).
KNOWN_ENGINES = ("/usr/games/fairy-stockfish",)


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """Which engine to run: ``builtin`` / ``builtin:LEVEL``, ``auto``, or a USI engine's command line.

    ``auto`` is the strongest engine at hand: the engine ``$SHOGIBAN_ENGINE`` names when it is
    set (a USI engine's command line, or ``builtin[:LEVEL]``), else the first of :data:`KNOWN_ENGINES`
    that is an executable file, else the built-in engine at level 8.  It is resolved when
    parsed, so every worker runs the same engine.
    """

    command: tuple[str, ...] = ()
    """The USI engine's command (empty for the built-in engine)."""
    level: int = 8
    """The built-in engine's level."""

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """The engine *text* names.

        :raises EngineSpecError: for a bad level or an empty command.
        """
        if text == "auto":
            return cls.auto()
        name, _, level = text.partition(":")
        if name == "builtin":
            if not level:
                return cls()
            if not level.isdigit() or not 1 <= int(level) <= 8:
                raise EngineSpecError(f"invalid built-in engine level: {level!r} (expected 1..8)")
            return cls(level=int(level))
        try:
            command = tuple(shlex.split(text))
        except ValueError as error:  # an unclosed quote
            raise EngineSpecError(f"invalid engine command: {excerpt(text)} ({error})") from None
        if not command:
            raise EngineSpecError("empty engine command")
        return cls(command=command)

    @classmethod
    def auto(cls, environ: Mapping[str, str] | None = None, known: Sequence[str] | None = None) -> EngineSpec:
        """The engine ``auto`` names (see the class docstring); *environ* default: ``os.environ``,
        *known* default: :data:`KNOWN_ENGINES`.

        :raises EngineSpecError: for a variable that is not a command line.
        """
        configured = (os.environ if environ is None else environ).get(ENGINE_VARIABLE, "").strip()
        if configured and configured != "auto":
            return cls.parse(configured)  # a command line, or builtin[:LEVEL]
        for path in KNOWN_ENGINES if known is None else known:
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return cls(command=(path,))
        return cls()

    @property
    def builtin(self) -> bool:
        return not self.command

    def display_name(self, name: str) -> str:
        """The name outputs give the engine: a USI engine's ``id name`` (*name*), or
        ``shogiban built-in level N``."""
        return f"shogiban built-in level {self.level}" if self.builtin else name

    def start(self) -> Any:
        """Start the engine (a :class:`~shogiban.engines.SimpleEngine`)."""
        from shogiban.engines.simple import SimpleEngine

        if self.builtin:
            return SimpleEngine.builtin(level=self.level, seed=0, hash_mb=16)
        return SimpleEngine.popen_usi(list(self.command))

    def engine_id(self, name: str) -> str:
        """The name positions are cached under, for an engine that calls itself *name*."""
        return f"{name} level {self.level}" if self.builtin else name


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """How to analyse each file."""

    engine: EngineSpec
    limit: Limit
    multipv: int = 1
    lines: str = "main"
    cache_path: str | None = None
    """The SQLite cache file shared by the workers, or None for a cache in memory."""
    csa_version: str = "2.2"
    language: str = "en"
    max_positions: int = DEFAULT_MAX_POSITIONS
    """The most positions of one record to analyse: a record with more is refused (failed)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """The largest record file read (bytes)."""

    def read_limits(self) -> ReadLimits:
        """What the reader accepts of one record: *max_bytes*, and moves in proportion to
        *max_positions* (variations the analysis skips still take memory to read)."""
        return ReadLimits(max_input=self.max_bytes, max_moves=max(200_000, 4 * self.max_positions))


@dataclass(frozen=True, slots=True)
class FileJob:
    """One record to analyse, and where its results go."""

    source: Path
    output: Path
    """The annotated record (its suffix says the format)."""
    svg: Path
    """The evaluation graph."""


@dataclass(slots=True)
class FileResult:
    """What became of one :class:`FileJob`."""

    source: str
    status: str
    """``"done"``, ``"skipped"`` or ``"failed"``."""
    output: str | None = None
    svg: str | None = None
    error: str | None = None
    data: dict[str, Any] | None = None
    """The game's analysis as JSON data (see ``analysis.schema.json``)."""
    summary: list[list[str]] = field(default_factory=list)
    """The summary table's rows (sente, gote)."""
    searched: int = 0
    """Positions the engine searched (not from the cache)."""
    positions: int = 0


def record_jobs(source: Path, output: Path | None, suffix: str | None = None) -> list[FileJob]:
    """The jobs for *source* (a file or a folder, read recursively) into *output* (a file or a
    folder; default: beside the source, ``NAME-analysis.EXT`` / ``FOLDER-analysis/``).
    *suffix* replaces the records' own suffix."""
    if source.is_dir():
        root = output if output is not None else source.with_name(source.name + "-analysis")
        files = sorted(p for p in source.rglob("*") if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
                       and root not in p.parents)
        jobs = []
        for path in files:
            target = root / path.relative_to(source)
            if suffix:
                target = target.with_suffix(suffix)
            jobs.append(FileJob(path, target, target.with_suffix(".svg")))
        return jobs
    if output is None:
        output = source.with_name(f"{source.stem}-analysis{suffix or source.suffix}")
    elif output.is_dir():
        output = output / (source.stem + (suffix or source.suffix))
    return [FileJob(source, output, output.with_suffix(".svg"))]


def _output_format(job: FileJob, text: str) -> str:
    from shogiban.kifu.detect import detect_format, format_of_filename

    fmt = format_of_filename(job.output.name)
    if fmt is None or fmt in ("svg", "bod"):
        fmt = format_of_filename(job.source.name) or detect_format(text, job.source.name)
    return fmt


def record_key(data: bytes, options: BatchOptions, engine_id: str, output: Path) -> str:
    """The key under which a record's analysis is remembered as done."""
    digest = hashlib.sha256(data).hexdigest()
    return "|".join([digest, engine_id, limit_text(options.limit), str(options.multipv), options.lines,
                     str(output)])


def analyse_file(
    job: FileJob, options: BatchOptions, engine: Any, cache: AnalysisCache,
    progress: Callable[[Progress], bool | None] | None = None, cancel: threading.Event | None = None,
) -> FileResult:
    """Analyse one record with the running *engine*; write the annotated record and the graph."""
    from shogiban.kifu.api import read_game, write_game
    from shogiban.kifu.detect import detect_format
    from shogiban.kifu.encoding import decode, read_input_file

    try:
        limits = options.read_limits()
        data = read_input_file(job.source, limits.max_input)  # read once, size and kind checked first
        text = decode(data)
        engine_id = options.engine.engine_id(engine.name)
        key = record_key(data, options, engine_id, job.output)
        if (isinstance(cache, SqliteAnalysisCache) and cache.is_done(key) == str(job.output)
                and job.output.exists() and job.svg.exists()):
            return FileResult(str(job.source), "skipped", output=str(job.output), svg=str(job.svg))
        game = read_game(text, format=detect_format(text, job.source.name), limits=limits)
        del data
        analyser = Analyser(engine, options.limit, multipv=options.multipv, cache=cache, engine_id=engine_id,
                            engine_name=options.engine.display_name(engine.name), independent=True)
        analysis = analyser.game(game, lines=options.lines, progress=progress, cancel=cancel,
                                 max_positions=options.max_positions)
        fmt = _output_format(job, text)
        annotate_game(analysis, style="floodgate" if fmt == "csa" else "shogihome",
                      csa_nodes=options.csa_version == "3.0")
        extra = {"version": options.csa_version} if fmt == "csa" else {}
        record = write_game(game, fmt, **extra)
        job.output.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(record, str):
            job.output.write_text(record, encoding="utf-8", newline="\n")
        else:
            job.output.write_bytes(record)
        job.svg.write_text(evaluation_svg(analysis, title=job.source.name, language=options.language),
                           encoding="utf-8", newline="\n")
        if isinstance(cache, SqliteAnalysisCache) and not analysis.cancelled:
            cache.mark_done(key, str(job.output))
        return _result(job, analysis, options, analyser.searches)
    except (ShogibanError, EngineError, OSError) as error:
        return FileResult(str(job.source), "failed", error=str(error))


def _result(job: FileJob, analysis: GameAnalysis, options: BatchOptions, searched: int) -> FileResult:
    return FileResult(
        str(job.source), "done", output=str(job.output), svg=str(job.svg),
        data=analysis.to_json(name=job.source.name),
        summary=[summary_cells(row) for row in summary_rows(analysis, options.language)],
        searched=searched, positions=len(analysis.positions),
    )


# -- worker processes ---------------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(options: BatchOptions, updates: Any) -> None:
    from shogiban.children import die_with_parent

    die_with_parent()
    _worker["options"] = options
    _worker["updates"] = updates
    engine = _worker["engine"] = options.engine.start()
    cache = _worker["cache"] = open_cache(options.cache_path)
    # Pool workers end by os._exit, past atexit: multiprocessing's finalizers still run.
    from multiprocessing.util import Finalize

    Finalize(engine, engine.quit, exitpriority=10)
    Finalize(cache, cache.close, exitpriority=5)


def _work(job: FileJob) -> FileResult:
    updates = _worker["updates"]

    def progress(p: Progress) -> None:
        updates.put((str(job.source), p.done, p.total))

    return analyse_file(job, _worker["options"], _worker["engine"], _worker["cache"], progress)


ProgressUpdate = Callable[[str, int, int], None]
"""Called with (file, positions done, positions in all) as a file's analysis goes."""


def shared_cache(options: BatchOptions) -> BatchOptions:
    """*options* for workers in other processes: a cache file that cannot be used is reported
    once, here, and the workers keep theirs in memory (else each worker's start would fail, and
    with it every file)."""
    if options.cache_path is None:
        return options
    probe = open_cache(options.cache_path)
    probe.close()
    return options if isinstance(probe, SqliteAnalysisCache) else replace(options, cache_path=None)


def run_batch(
    jobs: Sequence[FileJob], options: BatchOptions, *, workers: int | None = None,
    on_progress: ProgressUpdate | None = None, cancel: threading.Event | None = None,
) -> Iterator[FileResult]:
    """Analyse *jobs*, in this process (*workers* 1) or in that many worker processes (default:
    the number of cores, at most the number of files); yields the results in the jobs' order."""
    count = workers or os.cpu_count() or 1
    count = max(1, min(count, len(jobs)))
    if count == 1:
        yield from _run_here(jobs, options, on_progress, cancel)
        return
    options = shared_cache(options)
    context = multiprocessing.get_context("spawn")  # a fork of a process running threads is not safe
    updates: Any = context.Queue()
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                item = updates.get(timeout=0.1)
            except queue.Empty:
                continue
            if on_progress is not None:
                on_progress(*item)

    reader = threading.Thread(target=drain, name="shogiban-analysis-progress", daemon=True)
    reader.start()
    executor = ProcessPoolExecutor(max_workers=count, mp_context=context, initializer=_init_worker,
                                   initargs=(options, updates))
    try:
        futures: list[Future[FileResult]] = [executor.submit(_work, job) for job in jobs]
        for job, future in zip(jobs, futures, strict=True):
            if cancel is not None and cancel.is_set():
                break
            try:
                yield future.result()
            except Exception as error:  # a worker that died (its engine crashed it) fails its file only
                yield FileResult(str(job.source), "failed", error=f"worker failed: {error!r}")
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        stop.set()
        reader.join()


def _run_here(
    jobs: Sequence[FileJob], options: BatchOptions, on_progress: ProgressUpdate | None,
    cancel: threading.Event | None,
) -> Iterator[FileResult]:
    cache = open_cache(options.cache_path)
    engine = options.engine.start()
    try:
        for job in jobs:
            if cancel is not None and cancel.is_set():
                break

            def progress(p: Progress, name: str = str(job.source)) -> None:
                if on_progress is not None:
                    on_progress(name, p.done, p.total)

            yield analyse_file(job, options, engine, cache, progress, cancel)
    finally:
        engine.quit()
        cache.close()


__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_POSITIONS",
    "ENGINE_VARIABLE",
    "KNOWN_ENGINES",
    "RECORD_SUFFIXES",
    "BatchOptions",
    "EngineSpec",
    "EngineSpecError",
    "FileJob",
    "FileResult",
    "analyse_file",
    "record_jobs",
    "run_batch",
    "shared_cache",
]
