"""Built-in engine benchmark: nodes per second and time to depth, as medians.

    python benchmarks/bench_engine.py [--positions 12] [--nodes 20000] [--depth 4] [--repeat 3] [--multipv 1]

The positions (``POSITIONS``) come from the engine's own seeded self-play at level 4, plies 17
to 89 of four games, so they look like real games; they are fixed so that versions compare.  For each position the
engine (level 8, a fresh table each time) searches ``--nodes`` nodes; nodes/s is nodes over wall
time.  Time to ``--depth`` is measured the same way.  Each figure is the median over positions of
the median of ``--repeat`` runs.  ``--multipv N`` searches N lines (the analysis board's cost;
1, the default, is normal play).  The machine is shared: quote medians, compare runs made together.
"""

from __future__ import annotations

import argparse
import statistics
import time

from shogiban import Board
from shogiban.engine import BuiltinSearch
from shogiban.engines import Limit

#: Positions from the engine's own level-4 self-play (plies 17 to 89 of four seeded games),
#: fixed here so that runs of different versions search the same positions.
POSITIONS = [
    "1n2ks2l/lr1sgg1b1/ppppppnpp/6p2/2P6/1P5P1/P1NPPPP1P/1B1SGS1R1/L2GK2NL b - 17",
    "1n2ksb1l/lr1sgg3/pppn2n2/4pBppp/1PP6/P2pPP1PP/6P2/L2SGS1R1/3GK2NL b Pp 35",
    "1n2ksb1+B/lr1pgg3/p1ps5/4p1ppp/2P2P3/P3P2PP/5SP2/+p2SG2RL/3GK2N1 b NL2Pnlp 53",
    "1n2ksg2/lr1p1n2+B/p1psg1B2/4ppppp/2P2P3/P2PP2PP/5SP2/+p2S1G1RL/3GK2N1 b LPnl 71",
    "1n2ks3/l3gn1+B1/p1pp5/4p1ppp/P1P2P3/3PP2PP/1+r4Pl1/+p2GSR2L/4K2N1 b BGSL2Pgsn 89",
    "ln2kg1nl/1r1sgs1b1/2p1pppp1/1p1p4p/p8/1PP4PP/P1NPPPP2/1B1SGS1R1/L2GK2NL b - 17",
    "ln2kg3/1r2gs2l/2p1s1npb/1p1pppp1p/p1P4P1/1P1PP1P1P/P1N2PN2/1B1SGS2L/L2GK2R1 b - 35",
    "1n7/l2gkg2l/2p1ssnpb/rp1pp1p1p/pPP2p1P1/3PP1P1P/P1NS1PNRL/L3GS3/B2GK4 b - 53",
    "g8/lP1gkg2l/n1p1ssnp1/3pp1p1p/p1P2p1P1/3PP1PRP/P1N1GPN1L/L8/BS2K4 b RBPs 71",
    "9/lg1gkg2+R/n1p1ss3/3pp1p1p/p1P2p1R1/1p1PP1P1P/P1N1GP2L/LS7/B3K4 b BS2N3Pl 89",
    "l2gkg2l/r2s1s1b1/p1npppnpp/1pp3p2/9/1PPP5/P1NSPPPPP/1B2GS1R1/L3KG1NL b - 17",
    "l2gk4/3sgs2l/r1n1p1n1b/pppp1pppp/9/PPPPPPPP1/2NS2N1P/L3GS2R/B3KG2L b - 35",
]


def measure(sfen: str, limit: Limit, repeat: int, multipv: int = 1) -> tuple[float, int, int]:
    """Median wall time, nodes and depth of *repeat* searches of *sfen* from a fresh engine."""
    times, nodes, depths = [], [], []
    for _ in range(repeat):
        engine = BuiltinSearch(8, seed=0)
        board = Board(sfen)
        start = time.perf_counter()
        result = engine.search(board, limit, multipv=multipv)
        times.append(time.perf_counter() - start)
        nodes.append(result.info["nodes"])
        depths.append(result.info["depth"])
    return statistics.median(times), int(statistics.median(nodes)), int(statistics.median(depths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=len(POSITIONS))
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--multipv", type=int, default=1)
    args = parser.parse_args()

    positions = POSITIONS[: args.positions]
    nps_list: list[float] = []
    depth_times: list[float] = []
    print(f"{'#':>3} {'nodes':>7} {'nodes/s':>8} {'depth':>5} {'t(depth)':>9}  sfen")
    for i, sfen in enumerate(positions):
        elapsed, nodes, _ = measure(sfen, Limit(nodes=args.nodes), args.repeat, args.multipv)
        nps = nodes / elapsed
        depth_time, _, depth = measure(sfen, Limit(depth=args.depth), args.repeat, args.multipv)
        nps_list.append(nps)
        depth_times.append(depth_time)
        print(f"{i:>3} {nodes:>7} {nps:>8.0f} {depth:>5} {depth_time:>8.2f}s  {sfen}")
    print(f"median nodes/s: {statistics.median(nps_list):.0f}")
    print(f"median time to depth {args.depth}: {statistics.median(depth_times):.2f} s")


if __name__ == "__main__":
    main()
