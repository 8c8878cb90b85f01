"""Analysis benchmark: positions analysed per second by ``shogiban analyse``'s batch runner with
the built-in engine, for a folder of games, in one and in two worker processes.

    python benchmarks/bench_analysis.py [--games 6] [--moves 40] [--depth 3] [--repeat 3]

Games are the CSA records of ``../shared/data`` (cut to ``--moves`` moves) when it is there,
else games the built-in engine plays against itself at level 1.  Each run analyses the whole
folder afresh (no cache file; each worker's cache in memory starts empty), and the figure is
the median of ``--repeat`` runs.  "positions" counts every position analysed, "searched" only
those the engine searched (a worker's cache in memory finds repeated openings).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from shogiban.analysis.batch import BatchOptions, EngineSpec, record_jobs, run_batch
from shogiban.engines import Limit
from shogiban.kifu import Game, read_game_file, write_game

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _shared_games(count: int, moves: int) -> list[Game]:
    games: list[Game] = []
    for path in sorted((SHARED / "csa").rglob("*.csa")) if SHARED.is_dir() else []:
        try:
            game = read_game_file(path)
        except ValueError:
            continue
        played = game.mainline_moves()
        if len(played) < moves or game.start_sfen != Game().start_sfen:
            continue
        cut = Game()
        node = cut.root
        for move in played[:moves]:
            node = node.add_variation(move)
        games.append(cut)
        if len(games) == count:
            break
    return games


def _generated_games(count: int, moves: int) -> list[Game]:
    from shogiban.engines import SimpleEngine

    games = []
    with SimpleEngine.builtin(level=1, seed=1) as engine:
        for index in range(count):
            game = Game()
            node = game.root
            board = game.start_board()
            engine.new_game()
            for _ in range(moves):
                if board.is_game_over():
                    break
                result = engine.play(board, Limit(depth=1 + index % 2))
                if result.move is None:
                    break
                board.push(result.move)
                node = node.add_variation(result.move)
            games.append(game)
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    games = _shared_games(args.games, args.moves)
    source = "shared corpus"
    if len(games) < args.games:
        games = _generated_games(args.games, args.moves)
        source = "generated"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "games"
        folder.mkdir()
        for index, game in enumerate(games):
            data = write_game(game, "csa")
            assert isinstance(data, bytes)
            (folder / f"game{index:03}.csa").write_bytes(data)
        print(f"{len(games)} games ({source}), {args.moves} moves each, depth {args.depth}, "
              f"median of {args.repeat} runs")
        for jobs in (1, 2):
            rates, searched_rates = [], []
            for run in range(args.repeat):
                jobs_list = record_jobs(folder, Path(tmp) / f"out{jobs}-{run}")
                options = BatchOptions(engine=EngineSpec(), limit=Limit(depth=args.depth))
                start = time.perf_counter()
                results = list(run_batch(jobs_list, options, workers=jobs))
                elapsed = time.perf_counter() - start
                failed = [r for r in results if r.status != "done"]
                if failed:
                    print(f"failed: {failed[0].source}: {failed[0].error}", file=sys.stderr)
                    return 1
                rates.append(sum(r.positions for r in results) / elapsed)
                searched_rates.append(sum(r.searched for r in results) / elapsed)
            print(f"--jobs {jobs}: {statistics.median(rates):8.1f} positions/s "
                  f"({statistics.median(searched_rates):8.1f} searched/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
