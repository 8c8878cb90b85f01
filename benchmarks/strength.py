"""Strength of the built-in engine against Fairy-Stockfish at several Skill Levels.

    python benchmarks/strength.py [--level 8] [--skills 3,6,10] [--games 20] [--byoyomi 1]
                                  [--time 0] [--random-plies 4] [--seed 1] [--out DIR]

For each Skill Level the built-in engine (``builtin:LEVEL``, its own ``shogiban usi`` process)
plays ``--games`` games against Fairy-Stockfish (Debian's ``fairy-stockfish``, one thread, 16 MB
hash) with alternating colours, through the project's match runner, which adjudicates every game
with the rules core.  Openings vary: each pair of games starts after ``--random-plies`` random
plies (the same for both colours of a pair, different for every pair), or from ``--openings``.
The output is one line per game, then a Markdown table: wins, losses and draws from the
built-in engine's side, its score, the Elo difference with its 95% margin and the likelihood of
superiority.  Issue 28's target is at least an even score against Skill Level 6 at 1 s byoyomi.
``--time 600 --byoyomi 30`` plays 10 min + 30 s instead (each game about an hour): the KIF files
of ``--out`` record every move's time, to see how each engine spent its clock.

The machine is shared: a busy neighbour costs both engines time, but not equally (the built-in
engine is the slower searcher).  Quote the load with the figures; benchmarks/strength.md has them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

from shogiban.game import TimeControl
from shogiban.usi.match import Match, MatchConfig, MatchScore
from shogiban.usi.match_engines import make_player, parse_player

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


def play(skill: int, args: argparse.Namespace, command: str) -> MatchScore:
    """Play the games against Fairy-Stockfish at Skill Level *skill*; return the score."""
    engines = {"fsf": command}
    ours = parse_player(f"builtin:{args.level}", engines, seed=args.seed)
    theirs = replace(parse_player("fsf", engines), name=f"fsf-skill{skill}",
                     options={"Skill Level": str(skill), "Threads": "1", "Hash": "16"})
    openings: list[str] = []
    if args.openings is not None:
        openings = [line.strip() for line in args.openings.read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.startswith("#")]
    config = MatchConfig(
        games=args.games, time_control=TimeControl.of(args.time, byoyomi=args.byoyomi),
        random_plies=0 if openings else args.random_plies, openings=openings,
        seed=args.seed + skill, out=args.out / f"skill{skill}" if args.out else None,
    )
    players = (make_player(ours, seed=args.seed), make_player(theirs))
    match = Match(players, config, report=lambda line: print(f"  [skill {skill}] {line}", flush=True))
    match.run()
    return match.score


def row(skill: int, score: MatchScore, seconds: float) -> str:
    """One Markdown row of the summary table."""
    elo = score.elo()
    points = score.wins + score.draws / 2
    return (f"| {skill} | {score.games} | {score.wins}-{score.losses}-{score.draws} "
            f"| {100 * points / score.games:.0f}% | {elo.interval(0)} | {100 * elo.los:.1f}% "
            f"| {seconds / 60:.0f} min |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=8, help="the built-in engine's level (default 8)")
    parser.add_argument("--skills", default="3,6,10", help="Fairy-Stockfish Skill Levels, comma-separated")
    parser.add_argument("--games", type=int, default=20, help="games per Skill Level (colours alternate)")
    parser.add_argument("--byoyomi", type=float, default=1.0, help="seconds per move (default 1)")
    parser.add_argument("--time", type=float, default=0.0, help="main time per side, seconds (default 0)")
    parser.add_argument("--random-plies", type=int, default=4, help="random opening plies per pair of games")
    parser.add_argument("--openings", type=Path, help="opening positions, one 'startpos moves ...' per line")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings and the built-in engine")
    parser.add_argument("--engine", default=FAIRY_STOCKFISH, help="Fairy-Stockfish's command")
    parser.add_argument("--out", type=Path, help="directory for the games as KIF")
    args = parser.parse_args()
    if shutil.which(args.engine) is None:
        print(f"{args.engine} not found: install Debian's fairy-stockfish", file=sys.stderr)
        return 2
    skills = [int(text) for text in args.skills.split(",")]
    rows = []
    for skill in skills:
        started = time.monotonic()
        score = play(skill, args, args.engine)
        rows.append(row(skill, score, time.monotonic() - started))
    control = f"{args.time:g} s + " if args.time else ""
    print(f"\nLevel {args.level} against Fairy-Stockfish, {control}{args.byoyomi:g} s byoyomi, "
          f"W-L-D from level {args.level}'s side:\n")
    print("| Skill Level | games | W-L-D | score | Elo (95%) | LOS | time |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
