"""Built-in engine benchmark: nodes per second and time to depth, as medians.

    python benchmarks/bench_engine.py [--positions 12] [--nodes 20000] [--depth 4] [--repeat 3]

The positions come from seeded self-play of the engine at level 4 (plies 16 to 90 of several
games), so they look like real games and are the same on every run.  For each position the
engine (level 8, a fresh table each time) searches ``--nodes`` nodes; nodes/s is nodes over wall
time.  Time to ``--depth`` is measured the same way.  Each figure is the median over positions of
the median of ``--repeat`` runs.  The machine is shared: quote medians, compare runs made together.
"""

from __future__ import annotations

import argparse
import statistics
import time

from shogiban import Board
from shogiban.engine import Engine, SearchLimits


def make_positions(count: int) -> list[str]:
    """SFENs from level-4 self-play, several plies apart, from a few seeded games."""
    positions: list[str] = []
    seed = 0
    while len(positions) < count:
        black, white = Engine(4, seed=seed), Engine(4, seed=seed + 1000)
        board = Board()
        for ply in range(1, 91):
            result = (black if board.turn == 0 else white).search(board, SearchLimits(depth=2))
            if result.move is None or result.declare_win:
                break
            board.push(result.move)
            if board.outcome() is not None:
                break
            if ply % 18 == 16:
                positions.append(board.sfen())
                if len(positions) >= count:
                    break
        seed += 1
    return positions


def measure(sfen: str, limits: SearchLimits, repeat: int) -> tuple[float, int, int]:
    """Median wall time, nodes and depth of *repeat* searches of *sfen* from a fresh engine."""
    times, nodes, depths = [], [], []
    for _ in range(repeat):
        engine = Engine(8, seed=0)
        board = Board(sfen)
        start = time.perf_counter()
        result = engine.search(board, limits)
        times.append(time.perf_counter() - start)
        assert result.info is not None
        nodes.append(result.info.nodes)
        depths.append(result.info.depth)
    return statistics.median(times), int(statistics.median(nodes)), int(statistics.median(depths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    positions = make_positions(args.positions)
    nps_list: list[float] = []
    depth_times: list[float] = []
    print(f"{'#':>3} {'nodes':>7} {'nodes/s':>8} {'depth':>5} {'t(depth)':>9}  sfen")
    for i, sfen in enumerate(positions):
        elapsed, nodes, _ = measure(sfen, SearchLimits(nodes=args.nodes), args.repeat)
        nps = nodes / elapsed
        depth_time, _, depth = measure(sfen, SearchLimits(depth=args.depth), args.repeat)
        nps_list.append(nps)
        depth_times.append(depth_time)
        print(f"{i:>3} {nodes:>7} {nps:>8.0f} {depth:>5} {depth_time:>8.2f}s  {sfen}")
    print(f"median nodes/s: {statistics.median(nps_list):.0f}")
    print(f"median time to depth {args.depth}: {statistics.median(depth_times):.2f} s")


if __name__ == "__main__":
    main()
