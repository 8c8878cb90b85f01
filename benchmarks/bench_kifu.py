"""Game-record reading benchmark: shogiban side by side with python-shogi and cshogi.

    python benchmarks/bench_kifu.py [--repeat 5] [--games N]

The 500 lishogi games of ``shared/data/usi_games/lishogi_prod_500.usi`` are written as KIF and as
CSA by shogiban's writers into a temporary folder, read back into memory, and then parsed by
each library with **every move validated**:

* shogiban: ``read_kif`` / ``read_csa`` (validation is part of reading);
* python-shogi: ``shogi.KIF.Parser.parse_str`` / ``shogi.CSA.Parser.parse_str``, then each move
  replayed with ``Board.is_legal`` + ``push``;
* cshogi: ``cshogi.KIF.Parser.parse_str`` / ``cshogi.CSA.Parser.parse_str``, then each move
  replayed with ``Board.is_legal`` + ``push``.

Every library gets the same decoded text.  Figures are records per second, the median of
``--repeat`` runs; ratios compare medians measured in the same run.  A record a peer misreads
(its moves do not replay legally, e.g. cshogi dropping ``不成`` lines) is counted and reported.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GAMES = ROOT.parent / "shared" / "data" / "usi_games" / "lishogi_prod_500.usi"


def load_games(path: Path, limit: int | None) -> list[str]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    games = [line for line in lines if line and not line.startswith("#")]
    return games[:limit] if limit else games


def write_files(usi_games: list[str], folder: Path) -> tuple[list[str], list[str]]:
    from shogiban.kifu import read_usi, write_game

    kif_texts, csa_texts = [], []
    for i, moves in enumerate(usi_games):
        game = read_usi("position startpos moves " + moves)
        if game.errors:
            raise SystemExit(f"game {i + 1} does not replay: {game.errors[0]}")
        kif_path = folder / f"{i:03d}.kif"
        csa_path = folder / f"{i:03d}.csa"
        kif_path.write_bytes(write_game(game, "kif"))  # type: ignore[arg-type]
        csa_path.write_bytes(write_game(game, "csa"))  # type: ignore[arg-type]
        kif_texts.append(kif_path.read_bytes().decode("cp932"))
        csa_texts.append(csa_path.read_bytes().decode("cp932"))
    return kif_texts, csa_texts


def median_time(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times = []
    bad = 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        bad = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), bad


def shogiban_reader(fmt: str, texts: list[str], expected: list[int]) -> Callable[[], int]:
    from shogiban.kifu import read_csa, read_kif

    read = read_kif if fmt == "kif" else read_csa

    def run() -> int:
        bad = 0
        for text, n in zip(texts, expected, strict=True):
            game = read(text)
            if game.errors or len(game.mainline_moves()) != n:
                bad += 1
        return bad

    return run


def python_shogi_reader(fmt: str, texts: list[str], expected: list[int]) -> Callable[[], int] | None:
    try:
        import shogi
        import shogi.CSA
        import shogi.KIF
    except ImportError:
        return None
    parser = shogi.KIF.Parser if fmt == "kif" else shogi.CSA.Parser

    def run() -> int:
        bad = 0
        for text, n in zip(texts, expected, strict=True):
            record = parser.parse_str(text)[0]
            board = shogi.Board(record["sfen"])
            ok = len(record["moves"]) == n
            for usi in record["moves"]:
                move = shogi.Move.from_usi(usi)
                if not board.is_legal(move):
                    ok = False
                    break
                board.push(move)
            bad += not ok
        return bad

    return run


def cshogi_reader(fmt: str, texts: list[str], expected: list[int]) -> Callable[[], int] | None:
    try:
        import cshogi
        import cshogi.CSA
        import cshogi.KIF
    except ImportError:
        return None

    def parse(text: str) -> object:
        if fmt == "kif":
            return cshogi.KIF.Parser.parse_str(text)
        return cshogi.CSA.Parser.parse_str(text)[0]

    def run() -> int:
        bad = 0
        for text, n in zip(texts, expected, strict=True):
            record = parse(text)
            board = cshogi.Board(record.sfen)  # type: ignore[attr-defined]
            moves = record.moves  # type: ignore[attr-defined]
            ok = len(moves) == n
            for move in moves:
                if not board.is_legal(move):
                    ok = False
                    break
                board.push(move)
            bad += not ok
        return bad

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median is reported)")
    parser.add_argument("--games", type=int, default=None, help="use only the first N games")
    parser.add_argument("--source", type=Path, default=DEFAULT_GAMES, help="USI game list")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        print(f"missing game list: {args.source}", file=sys.stderr)
        return 2
    usi_games = load_games(args.source, args.games)
    expected = [len(g.split()) for g in usi_games]
    with tempfile.TemporaryDirectory() as tmp:
        kif_texts, csa_texts = write_files(usi_games, Path(tmp))
    print(f"{len(usi_games)} games, {sum(expected)} moves; median of {args.repeat} runs; every move validated")
    print(f"{'format':<6} {'library':<14} {'records/s':>10} {'moves/s':>10} {'misread':>8}   vs shogiban")
    ok = True
    for fmt, texts in (("kif", kif_texts), ("csa", csa_texts)):
        rates: dict[str, float] = {}
        readers = (("shogiban", shogiban_reader), ("python-shogi", python_shogi_reader), ("cshogi", cshogi_reader))
        for name, make in readers:
            run = make(fmt, texts, expected)
            if run is None:
                print(f"{fmt:<6} {name:<14} {'(not installed)':>10}")
                continue
            seconds, bad = median_time(run, args.repeat)
            rates[name] = len(texts) / seconds
            ratio = "" if name == "shogiban" else f"   shogiban is {rates['shogiban'] / rates[name]:.2f}x"
            print(f"{fmt:<6} {name:<14} {rates[name]:>10.0f} {sum(expected) / seconds:>10.0f} {bad:>8}{ratio}")
        if "python-shogi" in rates and rates["shogiban"] < 2 * rates["python-shogi"]:
            ok = False
            print(f"  below target: shogiban {fmt} reading is under 2x python-shogi")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
