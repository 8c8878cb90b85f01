"""Peak memory of the USI client while an engine floods it with ``info`` lines.

    python benchmarks/bench_usi_flood.py                 # 20 MB of info, play() and analysis()
    python benchmarks/bench_usi_flood.py --mb 100 --mode play

A stand-in engine (this file, run with ``--engine``) answers ``go`` with ``--mb`` megabytes of
realistic ``info depth .. score cp .. pv ..`` lines (four-move pvs, legal from the start position),
then ``bestmove``.  The client runs in a fresh process: ``play`` calls ``SimpleEngine.play`` with a
depth limit (nothing reads the infos); ``analysis`` iterates over ``SimpleEngine.analysis``,
reading one info in a hundred (a slow consumer).  The figure is the client process's peak
resident memory (``VmHWM``), and its baseline after start-up, in MB, and the wall time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

INFO = "info depth 12 seldepth 18 time 850 nodes 345678 nps 406680 hashfull 120 score cp 35 pv 7g7f 3c3d 2g2f 8c8d"


def engine(megabytes: float) -> None:
    """The flooding stand-in engine (stdin/stdout)."""
    out = sys.stdout
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if command == "usi":
            out.write("id name flood\nusiok\n")
        elif command == "isready":
            out.write("readyok\n")
        elif command == "go":
            block = (INFO + "\n") * 1000
            for _ in range(int(megabytes * 1e6 / len(block)) + 1):
                out.write(block)
            out.write("bestmove 7g7f\n")
        elif command == "stop":
            out.write("bestmove 7g7f\n")
        elif command == "quit":
            return
        out.flush()


def peak_mb() -> tuple[float, float]:
    """(VmHWM, VmRSS) of this process in MB."""
    values = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(("VmHWM", "VmRSS")):
                values[line.split(":")[0]] = int(line.split()[1]) / 1024
    return values["VmHWM"], values["VmRSS"]


def client(megabytes: float, mode: str) -> None:
    """Drive the flooding engine and print the peak memory."""
    from shogiban import Board
    from shogiban.usi import Limit, SimpleEngine

    command = [sys.executable, __file__, "--engine", "--mb", str(megabytes)]
    with SimpleEngine.popen_usi(command) as usi:
        usi.ping()
        baseline = peak_mb()[1]
        start = time.perf_counter()
        if mode == "play":
            result = usi.play(Board(), Limit(depth=1))
            assert result.move is not None
        else:
            seen = 0
            with usi.analysis(Board(), Limit(depth=1)) as analysis:
                for seen, _info in enumerate(analysis, 1):
                    if seen % 100 == 0:
                        time.sleep(0.001)
            assert seen > 0
        elapsed = time.perf_counter() - start
    peak = peak_mb()[0]
    print(f"{mode:>8} {megabytes:>6.0f} MB of info: peak {peak:.0f} MB (baseline {baseline:.0f} MB), {elapsed:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20.0)
    parser.add_argument("--mode", choices=("play", "analysis", "both"), default="both")
    parser.add_argument("--engine", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--client", choices=("play", "analysis"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.engine:
        engine(args.mb)
        return
    if args.client:
        client(args.mb, args.client)
        return
    for mode in ("play", "analysis") if args.mode == "both" else (args.mode,):
        subprocess.run([sys.executable, __file__, "--client", mode, "--mb", str(args.mb)], check=True)


if __name__ == "__main__":
    main()
