"""Built-in engine benchmark: nodes per second and time to depth, as medians; with
``--beside-fsf``, nodes/s and depth reached in a fixed time beside Fairy-Stockfish's.

    python benchmarks/bench_engine.py [--positions 12] [--nodes 20000] [--depth 4] [--repeat 3] [--multipv 1]
    python benchmarks/bench_engine.py --beside-fsf [--seconds 2] [--real 10]

The positions (``POSITIONS``) come from the engine's own seeded self-play at level 4, plies 17
to 89 of four games, so they look like real games; they are fixed so that versions compare.  For each position the
engine (level 8, a fresh table each time) searches ``--nodes`` nodes; nodes/s is nodes over wall
time.  Time to ``--depth`` is measured the same way.  Each figure is the median over positions of
the median of ``--repeat`` runs.  ``--multipv N`` searches N lines (the analysis board's cost;
1, the default, is normal play).  The machine is shared: quote medians, compare runs made together.

``--beside-fsf`` searches each position for ``--seconds`` with the built-in engine (level 8, in
this process) and then with Fairy-Stockfish (Debian's ``fairy-stockfish`` over USI, one thread,
16 MB hash, ``go movetime``), one after the other so that they never share the cores, and prints
each one's nodes, nodes/s and depth (Fairy-Stockfish's from its last ``info``) and the medians'
ratio.  ``--real N`` takes the positions from N real games instead (ply 60 of each of the first
N lishogi games in ``../shared/data/usi_games``, played out from the start position).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from shogiban import Board, Move
from shogiban.engine import BuiltinSearch
from shogiban.engines import Limit, SimpleEngine

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
REAL_GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "usi_games" / "lishogi_prod_500.usi"
#: The ply of each real game taken as a middle-game position.
REAL_PLY = 60

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


def real_positions(count: int) -> list[str]:
    """The position at :data:`REAL_PLY` of each of the first *count* real games long enough."""
    found: list[str] = []
    for line in REAL_GAMES.read_text(encoding="utf-8").splitlines():
        moves = line.split()
        if line.startswith("#") or len(moves) <= REAL_PLY + 10:
            continue
        board = Board()
        for text in moves[:REAL_PLY]:
            board.push(Move.from_usi(text))
        found.append(board.sfen())
        if len(found) == count:
            break
    return found


def beside_fsf(positions: list[str], seconds: float, command: str) -> None:
    """Each position searched for *seconds* by each engine in turn; the medians and their ratio."""
    ours_nps: list[float] = []
    theirs_nps: list[float] = []
    ours_depth: list[int] = []
    theirs_depth: list[int] = []
    fsf = SimpleEngine.popen_usi(command)
    try:
        fsf.configure({"Threads": 1, "Hash": 16})
        print(f"{'#':>3} {'ours nodes':>10} {'nodes/s':>8} {'depth':>5} | "
              f"{'fsf nodes':>10} {'nodes/s':>8} {'depth':>5}")
        for i, sfen in enumerate(positions):
            engine = BuiltinSearch(8, seed=0)
            start = time.perf_counter()
            result = engine.search(Board(sfen), Limit(time=seconds))
            elapsed = time.perf_counter() - start
            ours = (result.info["nodes"], result.info["nodes"] / elapsed, result.info["depth"])
            info = fsf.analyse(Board(sfen), Limit(time=seconds))
            theirs = (info["nodes"], info.get("nps", info["nodes"] / seconds), info["depth"])
            ours_nps.append(ours[1])
            theirs_nps.append(theirs[1])
            ours_depth.append(ours[2])
            theirs_depth.append(theirs[2])
            print(f"{i:>3} {ours[0]:>10} {ours[1]:>8.0f} {ours[2]:>5} | "
                  f"{theirs[0]:>10} {theirs[1]:>8.0f} {theirs[2]:>5}")
    finally:
        fsf.quit()
    ours_median = statistics.median(ours_nps)
    theirs_median = statistics.median(theirs_nps)
    print(f"median nodes/s: built-in {ours_median:.0f}, Fairy-Stockfish {theirs_median:.0f} "
          f"({ours_median / theirs_median:.2f}x)")
    print(f"median depth in {seconds:g} s: built-in {statistics.median(ours_depth):g}, "
          f"Fairy-Stockfish {statistics.median(theirs_depth):g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=len(POSITIONS))
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--multipv", type=int, default=1)
    parser.add_argument("--beside-fsf", action="store_true", help="compare with Fairy-Stockfish in a fixed time")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per position with --beside-fsf")
    parser.add_argument("--real", type=int, default=0, help="take N positions from real games instead")
    parser.add_argument("--engine", default=FAIRY_STOCKFISH, help="Fairy-Stockfish's command")
    args = parser.parse_args()

    positions = real_positions(args.real) if args.real else POSITIONS[: args.positions]
    if args.beside_fsf:
        beside_fsf(positions, args.seconds, args.engine)
        return
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
