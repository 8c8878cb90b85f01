"""Game-record reading benchmark: shogiban side by side with python-shogi and cshogi.

    python benchmarks/bench_kifu.py [--repeat 21] [--clock cpu] [--data ../shared/data]

Reads the real game records in ``shared/data`` (beside the checkout): every ``.kif``/``.kifu``,
``.ki2``/``.ki2u`` and ``.csa`` file there, written by other programs (Kifu for Windows, Kifu
for iPhone, Shogidokoro, ShogiHome, shogi-server, ShogiBoardQ ...; ``shared/data/SOURCES.md``
says where each comes from).  Without that folder it says so and stops.  Each file is decoded
once, before timing (a byte-order mark is dropped, then UTF-8, else CP932), and every library is
handed the same text.  Each library reads a record **and validates every move**:

* shogiban: ``read_kif`` / ``read_ki2`` / ``read_csa`` (validation is part of reading);
* python-shogi: ``shogi.KIF.Parser.parse_str`` / ``shogi.CSA.Parser.parse_str`` (it has no KI2
  reader), then each move replayed with ``Board.is_legal`` + ``push``;
* cshogi: ``cshogi.KIF.Parser.parse_str`` / ``cshogi.KI2.Parser.parse_str`` /
  ``cshogi.CSA.Parser.parse_str``, then each move replayed with ``Board.is_legal`` + ``push``.

A first, untimed pass reads every file with every library.  A library *misreads* a record when it
raises, when a move it gives does not replay legally, or (a peer) when its main line is not as
long as shogiban's; a record shogiban flags with errors is a misread of shogiban's.  Only the
records that every library of the format reads alike (no error, same number of moves) are timed,
so each library does the same work; the misreads are counted and named.  Figures are records and
moves per second, the median of ``--repeat`` passes over those records, the libraries interleaved
within each pass; ratios compare medians of the same run.  ``--clock cpu`` times with the
process's CPU time, which a busy shared machine disturbs less.
"""

from __future__ import annotations

import argparse
import codecs
import gc
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SUFFIXES = {".kif": "kif", ".kifu": "kif", ".ki2": "ki2", ".ki2u": "ki2", ".csa": "csa"}
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}

# A reader takes a record's text and gives the number of moves it read and validated; it raises
# (any exception) when the library cannot read the record or a move does not replay legally.
Reader = Callable[[str], int]


class MisreadError(Exception):
    """A record that a library read wrongly (a move that does not replay, errors flagged)."""


def decode(data: bytes) -> str:
    """The text of a record file: byte-order mark dropped, then UTF-8, else CP932."""
    boms = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
    for bom, name in boms:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp932", errors="replace")


def load_records(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """``{format: [(path relative to folder, text), ...]}`` for every record file under *folder*."""
    records: dict[str, list[tuple[str, str]]] = {"kif": [], "ki2": [], "csa": []}
    for path in sorted(folder.rglob("*")):
        fmt = SUFFIXES.get(path.suffix.lower())
        if fmt and path.is_file():
            records[fmt].append((str(path.relative_to(folder)), decode(path.read_bytes())))
    return records


def shogiban_readers() -> dict[str, Reader]:
    from shogiban.kifu import read_csa, read_ki2, read_kif

    def make(read: Callable[[str], Any]) -> Reader:
        def run(text: str) -> int:
            game = read(text)
            if game.errors:
                raise MisreadError(str(game.errors[0]))
            return len(game.mainline_moves())

        return run

    return {"kif": make(read_kif), "ki2": make(read_ki2), "csa": make(read_csa)}


def replay(board: Any, moves: list[Any]) -> int:
    """Push every move after checking it is legal; the number of moves."""
    for move in moves:
        if not board.is_legal(move):
            raise MisreadError(f"illegal move {move!r}")
        board.push(move)
    return len(moves)


def python_shogi_readers() -> dict[str, Reader] | None:
    try:
        import shogi  # type: ignore[import-untyped]
        import shogi.CSA  # type: ignore[import-untyped]
        import shogi.KIF  # type: ignore[import-untyped]
    except ImportError:
        return None

    def make(parse: Callable[[str], Any]) -> Reader:
        def run(text: str) -> int:
            record = parse(text)[0]
            board = shogi.Board(record["sfen"])
            return replay(board, [shogi.Move.from_usi(usi) for usi in record["moves"]])

        return run

    return {"kif": make(shogi.KIF.Parser.parse_str), "csa": make(shogi.CSA.Parser.parse_str)}


def cshogi_readers() -> dict[str, Reader] | None:
    try:
        import cshogi  # type: ignore[import-untyped]
        import cshogi.CSA  # type: ignore[import-untyped]
        import cshogi.KI2  # type: ignore[import-untyped]
        import cshogi.KIF  # type: ignore[import-untyped]
    except ImportError:
        return None

    def make(parse: Callable[[str], Any]) -> Reader:
        def run(text: str) -> int:
            record = parse(text)
            return replay(cshogi.Board(record.sfen), list(record.moves))

        return run

    return {
        "kif": make(cshogi.KIF.Parser.parse_str),
        "ki2": make(cshogi.KI2.Parser.parse_str),
        "csa": make(lambda text: cshogi.CSA.Parser.parse_str(text)[0]),
    }


def probe(name: str, fmt: str, folder: Path, first: int) -> None:
    """Child process: read records *first*... of *fmt* with library *name*, one result a line.

    A line is ``index<TAB>moves`` or ``index<TAB>why``; flushed at once, so that when a peer's
    compiled reader crashes the process, the parent knows which record it was on."""
    readers = {"shogiban": shogiban_readers, "python-shogi": python_shogi_readers, "cshogi": cshogi_readers}[name]()
    assert readers is not None
    read = readers[fmt]
    for i, (_, text) in enumerate(load_records(folder)[fmt]):
        if i < first:
            continue
        try:
            result: int | str = read(text)
        except Exception as exc:  # any failure of a reader is a record it does not read
            result = f"{type(exc).__name__}: {exc}"[:80].replace("\n", " ").replace("\t", " ")
        print(f"{i}\t{result}", flush=True)


def first_pass(names: list[str], fmt: str, folder: Path, count: int) -> dict[str, list[int | str]]:
    """For each library, each record's move count, or why it did not read it (a string).

    Each library reads in a child process, restarted after the record it crashed on (cshogi's
    CSA reader takes the whole process down on some valid records)."""
    found: dict[str, list[int | str]] = {}
    for name in names:
        results: list[int | str] = ["no answer"] * count
        first = 0
        while first < count:
            child = subprocess.run(
                [sys.executable, __file__, "--probe", name, fmt, "--data", str(folder), "--first", str(first)],
                capture_output=True, text=True, check=False,
            )
            for line in child.stdout.splitlines():
                index, _, result = line.partition("\t")
                results[int(index)] = int(result) if result.isdigit() else result
                first = int(index) + 1
            if child.returncode != 0 and first < count:
                results[first] = f"crashed the interpreter (exit status {child.returncode})"
                first += 1
        found[name] = results
    ours = found["shogiban"]
    for name, results in found.items():
        if name != "shogiban":
            for i, n in enumerate(results):
                if isinstance(n, int) and isinstance(ours[i], int) and n != ours[i]:
                    results[i] = f"{n} moves, shogiban {ours[i]}"
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21, help="timed passes (the median is reported)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="what to time with (default: wall)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of record files (searched recursively)")
    parser.add_argument("--min-time", type=float, default=0.1,
                        help="seconds shogiban should take per timed sample (the set is read that many times over)")
    parser.add_argument("--verbose", action="store_true", help="name every record a library does not read, and why")
    parser.add_argument("--probe", nargs=2, metavar=("LIBRARY", "FORMAT"), help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        probe(args.probe[0], args.probe[1], args.data, args.first)
        return 0
    if not args.data.is_dir():
        print(f"skipped: no record folder at {args.data} (the shared data beside the checkout)")
        return 0
    clock = CLOCKS[args.clock]
    all_readers = {"shogiban": shogiban_readers(), "python-shogi": python_shogi_readers(), "cshogi": cshogi_readers()}
    for name, some in all_readers.items():
        if some is None:
            print(f"({name} not installed: skipped)")
    records = load_records(args.data)
    print(f"records in {args.data}: " + ", ".join(f"{len(r)} {fmt.upper()}" for fmt, r in records.items()))
    print(f"every move validated; timed on the records every library reads alike; median of {args.repeat} passes")
    print(f"{'format':<6} {'library':<13} {'not read':>8} {'timed':>6} {'moves':>6} {'x':>4} "
          f"{'records/s':>10} {'moves/s':>10}   vs shogiban")
    ok = True
    for fmt, recs in records.items():
        readers = {name: r[fmt] for name, r in all_readers.items() if r is not None and fmt in r}
        if not recs:
            continue
        found = first_pass(list(readers), fmt, args.data, len(recs))
        alike = [i for i in range(len(recs)) if all(isinstance(found[name][i], int) for name in readers)]
        texts = [recs[i][1] for i in alike]
        moves = sum(int(found["shogiban"][i]) for i in alike)
        # One timed sample reads the set `rounds` times (the same for every library), enough for
        # shogiban to take --min-time: a few small records alone are too quick to time.
        start = clock()
        for text in texts:
            readers["shogiban"](text)
        rounds = max(1, math.ceil(args.min_time / max(clock() - start, 1e-6)))
        batch = texts * rounds
        samples: dict[str, list[float]] = {name: [] for name in readers}
        for _ in range(args.repeat):
            for name, read in readers.items():
                gc.collect()
                start = clock()
                for text in batch:
                    read(text)
                samples[name].append(clock() - start)
        rates: dict[str, float] = {}
        for name in readers:
            seconds = statistics.median(samples[name])
            rates[name] = len(batch) / seconds if seconds > 0 else float("inf")
            misread = sum(not isinstance(n, int) for n in found[name])
            ratio = "" if name == "shogiban" else f"   shogiban is {rates['shogiban'] / rates[name]:.2f}x"
            print(f"{fmt:<6} {name:<13} {misread:>8} {len(texts):>6} {moves:>6} {rounds:>4} {rates[name]:>10.0f} "
                  f"{rates[name] * moves / len(texts) if texts else 0:>10.0f}{ratio}")
            if args.verbose:
                for (path, _), n in zip(recs, found[name], strict=True):
                    if not isinstance(n, int):
                        print(f"         not read: {path}: {n}")
        if "python-shogi" in rates and rates["shogiban"] < 2 * rates["python-shogi"]:
            ok = False
            print(f"  below target: shogiban {fmt} reading is under 2x python-shogi")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
