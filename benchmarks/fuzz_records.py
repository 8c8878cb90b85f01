"""Fuzz every record reader with mutated real records, in a child process with a memory cap.

    python benchmarks/fuzz_records.py --seconds 180 --out fuzz-out
    python benchmarks/fuzz_records.py --large          # time each reader on ~2 MB records

Seeds are the records of the shared corpus (``../shared/data`` beside the checkout, or
``$SHOGIBAN_SHARED_DATA``), ``tests/data``, and records shogiban's writers make (random games
with variations, comments and times, in every format), so it runs in a fresh clone too.

Each input is a seed mutated a few times (bytes flipped, deleted, inserted or duplicated, a line
or a character repeated thousands of times, a chunk of another seed spliced in, a hostile token
such as a 5,000-digit number inserted, the encoding switched, the whole record repeated up to
2 MB).  A child process (``RLIMIT_AS`` = ``--memory-mb``) runs every reader on it, lenient and
strict, the format detection of ``read_game``/``read_games``, and every writer on what was read
(games of up to 50,000 nodes).
It reports:

* calls: reader and writer calls made;
* crashes: an exception a reader may not raise (lenient: any but ``KifuLimitError``, and
  ``KifuParseError`` from the format detection; strict: any but ``KifuParseError``; writers: any),
  or the child dying; the input is saved to ``--out`` with the traceback beside it;
* hangs: an input the child did not finish within ``--timeout`` seconds (saved too; the child is
  killed and restarted), all twenty-odd reader and writer calls together;
* the slowest input and the slowest single call, and the child's peak memory (its maximum
  resident set size).

``--targets`` chooses what runs on each input: ``readers`` (the above, the default), and the
command-line entry points ``analyse``, ``solve`` and ``convert`` (``cli`` is all three), e.g.

    python benchmarks/fuzz_records.py --targets cli --seconds 300 --out fuzz-cli

Each command runs as ``shogiban.cli.main([...])`` on the input written to a file (named with the
seed's extension) in a process forked for that one call from a server that has shogiban imported
(``RLIMIT_AS`` = ``--memory-mb``, ``--cli-timeout`` seconds): ``analyse FILE OUT --engine
builtin:1 --depth 1 --max-positions 256 --no-cache``, ``solve FILE --timeout 0.5 --max-nodes 5000``
and ``convert FILE OUT.<random format>`` (``--strict`` one time in five).  A crash is a traceback
on its standard error or an exit status other than 0, 1, 2 or 3 (the statuses the commands
document), or the process dying; a hang is a call not finished in time.  Each call's peak memory
is its ``VmHWM`` (reset with ``/proc/self/clear_refs`` when the call starts, so the server's peak
does not show): the report gives per command the growth over the process's memory before the call
per input byte (median and maximum, over every call and over inputs of 100 kB or more, where
the command's fixed costs such as the engine's hash table no longer dominate) and the largest
peak.  A peak above ``--finding-mb`` (1,024) on an input under the command's size limits (all
inputs are: at most 2 MB, the smallest limit is ``solve``'s 4 MB) is a finding, saved to ``--out``
as ``memory-NNNN``.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # a checkout without an install (the child needs it too)
SUFFIXES = (".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".usi", ".usen", ".sfen", ".bod")
MAX_INPUT = 2_000_000
WRITTEN_NODES = 50_000  # games read with more nodes are not written in every format
TOKENS = [
    "1" * 5000, " " * 3000, "\u3000" * 3000, "\t" * 3000, "変化：3手\n", "変化：" + "9" * 40 + "手\n", "同　", "同",
    "%TORYO\n", "%+ILLEGAL_ACTION\n", "+\n", "-\n", "'*", "*", "&", "まで3手で先手の勝ち\n", "手数----指手--\n",
    "|v玉 ・ ・ ・ ・ ・ ・ ・ ・|一\n", "先手の持駒：歩十八\n", "position startpos moves ", "~0.", "~5.7ku.r",
    '{"moves": [{}, {"forks": [[{}]]}]}', "[" * 2000, "{" * 2000, "\x00", "\x1b[2J", "\u202e", "\r", "\r\n", "▲",
    "△", "不成", "打", "成", "(77)", "( 0:16/00:00:16)", "T99999999999", "PI", "P1", "$EVENT:", "N+", "V2.2\n",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n", "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
]


# -- seeds ------------------------------------------------------------------------------------


def seeds() -> dict[str, bytes]:
    """Seed records by name (the name's extension tells the format)."""
    found: dict[str, bytes] = {}
    shared = Path(os.environ.get("SHOGIBAN_SHARED_DATA", ROOT.parent / "shared" / "data"))
    for folder in (shared, ROOT / "tests" / "data"):
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                if path.suffix.lower() in SUFFIXES and path.is_file() and path.stat().st_size < MAX_INPUT:
                    found[str(path.relative_to(folder.parent))] = path.read_bytes()
    for seed in range(6):
        game = random_game(seed)
        for fmt in ("kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen", "usen", "bod"):
            from shogiban.kifu import write_game

            data = write_game(game, fmt)
            found[f"made/{seed}.{fmt}"] = data if isinstance(data, bytes) else data.encode("utf-8")
    return found


def random_game(seed: int) -> Any:
    """A legal random game with nested variations, comments, times, a bookmark and a result."""
    from shogiban.kifu import Game

    rng = random.Random(seed)
    game = Game()
    nodes = [game.root]
    for _ in range(rng.randint(20, 120)):
        base = rng.choice(nodes) if rng.random() < 0.15 else nodes[-1]
        if base.result is not None:
            continue
        board = base.board()
        moves = list(board.legal_moves)
        if not moves:
            continue
        node = base.add_variation(rng.choice(moves), elapsed=rng.randint(0, 600))
        if rng.random() < 0.1:
            node.comment = "コメント\n" * rng.randint(1, 3)
        nodes.append(node)
    nodes[-1].bookmark = "終局"
    if nodes[-1].parent is not None:
        nodes[-1].add_result(rng.choice(["投了", "中断", "千日手", "%TORYO", "%KACHI"]))
    return game


# -- mutations --------------------------------------------------------------------------------


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """*data* changed a few times (see the module docstring)."""
    raw = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        how = rng.choice(["flip", "delete", "insert", "duplicate", "truncate", "repeat_line", "repeat_char",
                          "splice", "token", "token", "encoding", "grow"])
        at = rng.randrange(len(raw) + 1)
        if how == "flip" and raw:
            raw[min(at, len(raw) - 1)] = rng.randrange(256)
        elif how == "delete":
            del raw[at:at + rng.randint(1, 200)]
        elif how == "insert":
            raw[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 30)))
        elif how == "duplicate":
            raw[at:at] = raw[at:at + rng.randint(1, 2000)] * rng.randint(1, 20)
        elif how == "truncate":
            del raw[at:]
        elif how == "repeat_line":
            start = raw.rfind(b"\n", 0, at) + 1
            end = raw.find(b"\n", at)
            line = bytes(raw[start:end + 1 if end >= 0 else len(raw)])
            # Bounded before it is built: a long line times 5,000 once took the fuzzer past 24 GB.
            raw[start:start] = line * min(rng.randint(2, 5000), max(1, MAX_INPUT // max(1, len(line))))
        elif how == "repeat_char" and raw:
            raw[at:at] = raw[min(at, len(raw) - 1):min(at, len(raw) - 1) + 1] * rng.randint(100, 20000)
        elif how == "splice":
            other = rng.choice(pool)
            start = rng.randrange(len(other) + 1)
            raw[at:at] = other[start:start + rng.randint(1, 3000)]
        elif how == "token":
            token = rng.choice(TOKENS)
            raw[at:at] = token.encode("utf-8" if rng.random() < 0.7 else "cp932", errors="replace")
        elif how == "encoding":
            raw = bytearray(_switch_encoding(bytes(raw)))
        elif how == "grow" and raw:
            raw = raw * max(1, min(200, MAX_INPUT // len(raw)))
        if len(raw) > MAX_INPUT:
            del raw[MAX_INPUT:]
    return bytes(raw)


def _switch_encoding(data: bytes) -> bytes:
    try:
        return data.decode("utf-8").encode("cp932", errors="replace")
    except UnicodeDecodeError:
        return data.decode("cp932", errors="replace").encode("utf-8")


# -- the child --------------------------------------------------------------------------------


def child(conn: Connection, memory_mb: int) -> None:
    """Read inputs from *conn* and answer ``(calls, crashes, seconds, peak KiB)`` for each."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    from shogiban.errors import KifuParseError
    from shogiban.kifu import (
        KifuLimitError,
        read_bod,
        read_csa_games,
        read_game,
        read_games,
        read_jkf,
        read_ki2,
        read_kif,
        read_sfen_games,
        read_usen,
        read_usi_games,
        write_game,
    )

    readers = {
        "kif": read_kif, "ki2": read_ki2, "csa": read_csa_games, "jkf": read_jkf, "usi": read_usi_games,
        "sfen": read_sfen_games, "usen": read_usen, "bod": read_bod, "read_game": read_game, "read_games": read_games,
    }
    detecting = ("read_game", "read_games")
    writers = ("kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen", "usen", "bod")
    while True:
        try:
            data = conn.recv_bytes()
        except EOFError:
            return
        started = time.perf_counter()
        calls = 0
        crashes: list[str] = []
        slowest = (0.0, "")
        for name, reader in readers.items():
            for strict in (False, True):
                calls += 1
                call_started = time.perf_counter()
                try:
                    result = reader(data, strict=strict)
                except KifuLimitError:
                    continue
                except KifuParseError:
                    if not strict and name not in detecting:
                        crashes.append(f"{name} lenient raised:\n{traceback.format_exc()}")
                    continue
                except Exception:  # the crash being looked for: report it, go on
                    crashes.append(f"{name} {'strict' if strict else 'lenient'}:\n{traceback.format_exc()}")
                    continue
                finally:
                    took = time.perf_counter() - call_started
                    if took > slowest[0]:
                        slowest = (took, f"{name}{' strict' if strict else ''}")
                if strict:
                    continue
                games = result if isinstance(result, list) else [result]
                for game in games[:3]:
                    if sum(1 for _ in game.walk()) > WRITTEN_NODES:
                        continue  # writing is linear too, and such trees take minutes in all formats
                    for fmt in writers:
                        calls += 1
                        try:
                            write_game(game, fmt)
                        except Exception:  # a writer must write what a reader read
                            crashes.append(f"{name} then write_game({fmt!r}):\n{traceback.format_exc()}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        conn.send((calls, crashes, time.perf_counter() - started, peak, slowest))


class Child:
    """The worker process, restarted after a hang or a death."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=child, args=(theirs, self.memory_mb), daemon=True)
        self.process.start()
        theirs.close()

    def run(self, data: bytes, timeout: float) -> tuple[str, Any]:
        """``("ok", answer)``, ``("hang", None)`` or ``("died", exit code)``."""
        try:
            self.conn.send_bytes(data)
            if self.conn.poll(timeout):
                return "ok", self.conn.recv()
            outcome: tuple[str, Any] = ("hang", None)
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self.process.join(5)
            outcome = ("died", self.process.exitcode)
        self.stop()
        self.restarts += 1
        self._start()
        return outcome

    def stop(self) -> None:
        self.process.kill()
        self.process.join(10)
        self.conn.close()


# -- the command-line entry points ------------------------------------------------------------

COMMANDS = ("analyse", "solve", "convert")
CLI_STATUSES = (0, 1, 2, 3)  # convert and analyse: 0, 1 (a record failed), 2 (usage); solve: 3 (timeout)
CONVERT_TO = ("kif", "kifu", "ki2", "ki2u", "csa", "jkf", "sfen", "usi", "usen", "bod", "svg")
LARGE_INPUT = 100_000  # inputs from which the per-byte figures are given apart


def cli_argv(rng: random.Random, command: str, source: Path, folder: Path) -> list[str]:
    """The command line of one call of *command* on *source*, its outputs in *folder*."""
    if command == "analyse":
        return ["analyse", str(source), str(folder / f"analysed{source.suffix}"), "--engine", "builtin:1",
                "--depth", "1", "--max-positions", "256", "--no-cache", "--lang", "en", "--overwrite"]
    if command == "solve":
        return ["solve", str(source), "--timeout", "0.5", "--max-nodes", "5000"]
    argv = ["convert", str(source), str(folder / f"converted.{rng.choice(CONVERT_TO)}"), "--overwrite"]
    return [*argv, "--strict"] if rng.random() < 0.2 else argv


def _hwm_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def cli_child(argv: list[str], folder: str, memory_mb: int) -> None:
    """Run ``shogiban.cli.main(argv)`` as the command line would, its output in files in *folder*,
    and leave ``status base-KiB peak-KiB seconds`` in ``folder/result``."""
    import resource

    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    try:  # the peak so far (the server's, as forked) is forgotten: VmHWM starts again from VmRSS
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass
    base = _hwm_kib()
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    from shogiban.cli import main

    started = time.perf_counter()
    status: Any
    try:
        status = main(argv)
    except SystemExit as stop:  # what the interpreter does with it
        status = stop.code
        if status is not None and not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
    except BaseException:  # what the interpreter does with an uncaught exception
        traceback.print_exc()
        status = 1
    took = time.perf_counter() - started
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a stream the command closed
            stream.flush()
    status = 0 if status is None else status
    with open(os.path.join(folder, "result"), "w", encoding="ascii") as result:
        result.write(f"{status} {base} {_hwm_kib()} {took:.3f}")
    os._exit(status & 0xFF)


@dataclass
class CliStats:
    """What the calls of one command came to."""

    calls: int = 0
    crashes: int = 0
    hangs: int = 0
    findings: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    per_byte: list[float] = field(default_factory=list)
    per_byte_large: list[float] = field(default_factory=list)
    largest: tuple[int, int, str] = (0, 0, "")  # peak KiB, input bytes, seed
    slowest: tuple[float, int, str] = (0.0, 0, "")

    def line(self, command: str, finding_mb: int) -> str:
        def spread(values: list[float]) -> str:
            if not values:
                return "no calls"
            return f"median {statistics.median(values):.1f}, max {max(values):,.1f} B/byte ({len(values)} calls)"

        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(self.statuses.items()))
        return (f"{command}: calls {self.calls}, crashes {self.crashes}, hangs {self.hangs}, over "
                f"{finding_mb:,} MB {self.findings}; exit statuses {{{statuses}}}; peak growth per input byte "
                f"{spread(self.per_byte)}; inputs of {LARGE_INPUT // 1000} kB or more: {spread(self.per_byte_large)}; "
                f"largest peak {self.largest[0] / 1024:.0f} MB ({self.largest[1]:,} bytes, from {self.largest[2]}); "
                f"slowest call {self.slowest[0]:.2f} s ({self.slowest[1]:,} bytes, from {self.slowest[2]})")



class CliRunner:
    """Forks one process per command-line call from a server with shogiban imported."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["__main__", "shogiban.cli", "shogiban.commands.analyse",
                                             "shogiban.commands.solve", "shogiban.commands.convert",
                                             "shogiban.kifu", "shogiban.tsume", "shogiban.engines.simple",
                                             "rich.progress", "rich.table"])
        self.folder = Path(tempfile.mkdtemp(prefix="shogiban-fuzz-cli-"))

    def run(self, argv: list[str], folder: Path, timeout: float) -> tuple[str, Any]:
        """``("ok", (status, base KiB, peak KiB, seconds, stderr))``, ``("hang", None)`` or
        ``("died", exit code)``."""
        result = folder / "result"
        result.unlink(missing_ok=True)
        process = self.context.Process(target=cli_child, args=(argv, str(folder), self.memory_mb), daemon=True)
        process.start()
        process.join(timeout)
        if process.is_alive():
            process.kill()
            process.join(10)
            return "hang", None
        if not result.exists():
            return "died", process.exitcode
        status, base, peak, took = result.read_text(encoding="ascii").split()
        stderr = (folder / "stderr").read_bytes()[-200_000:].decode("utf-8", errors="replace")
        return "ok", (int(status), int(base), int(peak), float(took), stderr)

    def stop(self) -> None:
        for path in sorted(self.folder.rglob("*"), reverse=True):
            if path.is_dir():
                path.rmdir()
            else:
                path.unlink()
        self.folder.rmdir()


def fuzz_cli(runner: CliRunner, commands: list[str], rng: random.Random, data: bytes, seed: str,
             args: argparse.Namespace, stats: dict[str, CliStats], out: Path) -> None:
    """Each of *commands* on *data*, the figures added to *stats* and the findings saved to *out*."""
    folder = runner.folder
    for path in folder.iterdir():
        path.unlink()
    source = folder / f"input{Path(seed).suffix or '.txt'}"
    source.write_bytes(data)
    for command in commands:
        argv = cli_argv(rng, command, source, folder)
        figures = stats[command]
        figures.calls += 1
        outcome, answer = runner.run(argv, folder, args.cli_timeout)
        shown = " ".join(argv).replace(str(folder) + "/", "")
        if outcome == "hang":
            figures.hangs += 1
            _save(out, f"hang-cli-{sum(s.hangs for s in stats.values()):04d}", seed, data,
                  f"{shown}: no exit within {args.cli_timeout} s")
            continue
        if outcome == "died":
            figures.crashes += 1
            _save(out, f"crash-cli-{sum(s.crashes for s in stats.values()):04d}", seed, data,
                  f"{shown}: the process died (exit code {answer})")
            continue
        status, base, peak, took, stderr = answer
        figures.statuses[status] = figures.statuses.get(status, 0) + 1
        if "Traceback (most recent call last)" in stderr or status not in CLI_STATUSES:
            figures.crashes += 1
            _save(out, f"crash-cli-{sum(s.crashes for s in stats.values()):04d}", seed, data,
                  f"{shown}: exit status {status}\n\n{stderr}")
        growth = max(0, peak - base) * 1024 / max(1, len(data))
        figures.per_byte.append(growth)
        if len(data) >= LARGE_INPUT:
            figures.per_byte_large.append(growth)
        if peak > figures.largest[0]:
            figures.largest = (peak, len(data), seed)
        if took > figures.slowest[0]:
            figures.slowest = (took, len(data), seed)
        if peak > args.finding_mb << 10:
            figures.findings += 1
            _save(out, f"memory-{sum(s.findings for s in stats.values()):04d}", seed, data,
                  f"{shown}: peak {peak / 1024:.0f} MB on {len(data):,} bytes (exit status {status})")


# -- the fuzz loop ----------------------------------------------------------------------------


def fuzz(args: argparse.Namespace) -> int:
    targets = _targets(args.targets)
    commands = [command for command in COMMANDS if command in targets]
    rng = random.Random(args.seed)
    cli_rng = random.Random(args.seed + 1)  # the command lines: the inputs stay those of --seed
    pool = seeds()
    names = sorted(pool)
    datas = [pool[n] for n in names]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"{len(names)} seeds; fuzzing {', '.join(targets)} for {args.seconds} s, {args.timeout} s per input "
          f"(readers), {args.cli_timeout} s per command, {args.memory_mb} MB for a child; findings go to {out}",
          flush=True)
    worker = Child(args.memory_mb) if "readers" in targets else None
    runner = CliRunner(args.memory_mb) if commands else None
    cli_stats = {command: CliStats() for command in commands}
    inputs = calls = crashes = hangs = deaths = 0
    peak = 0
    slowest = (0.0, 0, "")
    slowest_call = (0.0, 0, "")
    deadline = time.monotonic() + args.seconds
    try:
        while time.monotonic() < deadline:
            index = rng.randrange(len(names))
            data = mutate(rng, datas[index], datas)
            inputs += 1
            if runner is not None:
                fuzz_cli(runner, commands, cli_rng, data, names[index], args, cli_stats, out)
            if worker is None:
                continue
            outcome, answer = worker.run(data, args.timeout)
            if outcome == "ok":
                made, found, seconds, kib, (call_seconds, call) = answer
                calls += made
                peak = max(peak, kib)
                if seconds > slowest[0]:
                    slowest = (seconds, len(data), names[index])
                if call_seconds > slowest_call[0]:
                    slowest_call = (call_seconds, len(data), call)
                if found:
                    crashes += 1
                    _save(out, f"crash-{crashes:04d}", names[index], data, "\n\n".join(found))
            elif outcome == "hang":
                hangs += 1
                _save(out, f"hang-{hangs:04d}", names[index], data, f"no answer within {args.timeout} s")
            else:
                deaths += 1
                crashes += 1
                _save(out, f"crash-{crashes:04d}", names[index], data, f"the child died (exit code {answer})")
    finally:
        if worker is not None:
            worker.stop()
        if runner is not None:
            runner.stop()
    print(f"inputs {inputs}")
    if worker is not None:
        print(f"readers: reader and writer calls {calls}, crashes {crashes} (child deaths {deaths}), "
              f"hangs {hangs}, peak memory {peak / 1024:.0f} MB; slowest input {slowest[0]:.2f} s for every "
              f"call ({slowest[1]} bytes, from {slowest[2]}), slowest call {slowest_call[0]:.2f} s "
              f"({slowest_call[2]}, {slowest_call[1]} bytes)")
    for command, figures in cli_stats.items():
        print(figures.line(command, args.finding_mb))
    bad = crashes + hangs + sum(f.crashes + f.hangs + f.findings for f in cli_stats.values())
    return 1 if bad else 0


def _targets(text: str) -> list[str]:
    """``readers``, ``analyse``, ``solve``, ``convert`` from a comma-separated list (``cli``: the
    three commands, ``all``: everything)."""
    chosen: list[str] = []
    for word in (w.strip() for w in text.split(",") if w.strip()):
        expanded = {"cli": list(COMMANDS), "all": ["readers", *COMMANDS]}.get(word, [word])
        for target in expanded:
            if target not in ("readers", *COMMANDS):
                raise SystemExit(f"unknown target {target!r}: readers, analyse, solve, convert, cli or all")
            if target not in chosen:
                chosen.append(target)
    if not chosen:
        raise SystemExit("no targets")
    return chosen


def _save(out: Path, stem: str, seed: str, data: bytes, report: str) -> None:
    extension = Path(seed).suffix or ".txt"
    (out / f"{stem}{extension}").write_bytes(data)
    (out / f"{stem}.txt").write_text(f"seed: {seed}\n\n{report}\n", encoding="utf-8")
    print(f"  {stem}: {report.splitlines()[0] if report else ''} (seed {seed})", flush=True)


# -- large records --------------------------------------------------------------------------


def large(args: argparse.Namespace) -> int:
    """Time each reader on records of about 2 MB shaped like real ones: one long record with
    times, comments and variations for the formats that hold variations, files of many random
    games for CSA, USI and SFEN."""
    from shogiban.kifu import read_games

    print("format  bytes      moves   seconds (process time, best of 3)")
    for fmt in ("kif", "kifu", "ki2", "csa", "jkf", "usi", "sfen", "usen"):
        text = _many_games(fmt, 2_000_000) if fmt in ("csa", "usi", "sfen") else _long_record(fmt, 2_000_000)
        best = float("inf")
        moves = 0
        for _ in range(3):
            start = time.process_time()
            read = read_games(text, format="kif" if fmt == "kifu" else fmt)
            best = min(best, time.process_time() - start)
            moves = sum(1 for game in read for node in game.walk() if node.move is not None)
        print(f"{fmt:6}  {len(text.encode('utf-8')):9}  {moves:7}   {best:.2f}", flush=True)
    return 0


def _many_games(fmt: str, size: int) -> str:
    """Random games in one file of *fmt* (CSA games separated by ``/``), about *size* bytes."""
    from shogiban.kifu import write_game

    texts = []
    total = seed = 0
    while total < size:
        data = write_game(random_game(seed % 40), fmt, **({"version": "3.0"} if fmt == "csa" else {}))
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        texts.append(text)
        total += len(text.encode("utf-8"))
        seed += 1
    return ("/\n" if fmt == "csa" else "").join(texts)


def _long_record(fmt: str, size: int) -> str:
    """One record of about *size* bytes: a 300-move game with times and comments and, deepest
    first, as many variations (each up to 20 moves, some commented) as it takes."""
    from shogiban.kifu import Game, write_game

    rng = random.Random(1)
    game = Game()
    line = [game.root]
    board = game.start_board()
    for _ in range(300):
        moves = list(board.legal_moves)
        if not moves:
            break
        node = line[-1].add_variation(rng.choice(moves), elapsed=rng.randint(0, 300))
        board.push(node.move)  # type: ignore[arg-type]
        if rng.random() < 0.2:
            node.comment = "この手は" + "よく考えられた一手である。" * rng.randint(1, 4)
        line.append(node)

    def text() -> str:
        data = write_game(game, fmt)
        return data.decode("cp932" if fmt in ("kif", "ki2") else "utf-8") if isinstance(data, bytes) else data

    nodes = len(line)
    written = len(text().encode("utf-8"))
    goal = nodes * size // written  # nodes for *size* bytes, at the main line's density
    while True:
        if nodes >= goal:
            written = len(text().encode("utf-8"))
            if written >= size:
                return text()
            goal = nodes * size // written + 1
        base = rng.choice(line[:-1])
        board = base.board()
        node = base
        for _ in range(20):
            moves = list(board.legal_moves)
            if not moves:
                break
            node = node.add_variation(rng.choice(moves))
            board.push(node.move)  # type: ignore[arg-type]
            nodes += 1
            if rng.random() < 0.1:
                node.comment = "変化の解説"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long to fuzz")
    parser.add_argument("--out", default="fuzz-out", help="folder for the inputs that crash or hang")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds one input may take: every reader (twice) and writer on it")
    parser.add_argument("--memory-mb", type=int, default=1536,
                        help="address-space cap of the child (and of each command's process)")
    parser.add_argument("--targets", default="readers",
                        help="comma-separated: readers, analyse, solve, convert, cli (the three commands), all")
    parser.add_argument("--cli-timeout", type=float, default=60, help="seconds one command call may take")
    parser.add_argument("--finding-mb", type=int, default=1024,
                        help="a command's peak memory above this on an input under its limits is a finding")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same inputs)")
    parser.add_argument("--large", action="store_true", help="time the readers on ~2 MB records instead")
    args = parser.parse_args(argv)
    return large(args) if args.large else fuzz(args)


if __name__ == "__main__":
    raise SystemExit(main())
