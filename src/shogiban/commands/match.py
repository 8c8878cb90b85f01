"""``shogiban match``: play engines against each other and report the score and Elo difference.

Example::

    shogiban match builtin:8 gps --engine gps=/usr/games/gpsusi \\
        --option gps.Thread=1 --option gps.BookDepth=0 --games 10 --byoyomi 1 --out games/
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from shogiban.errors import ShogibanError
from shogiban.outcome import EnteringKingRule

_RULES = {
    "27": EnteringKingRule.POINTS_27,
    "27h": EnteringKingRule.POINTS_27_HANDICAP,
    "24": EnteringKingRule.POINTS_24,
    "24h": EnteringKingRule.POINTS_24_HANDICAP,
    "none": EnteringKingRule.NONE,
}


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "match",
        help="play engines against each other (USI engines or the built-in one)",
        description="Play N games between two players with alternating colours; print a running score, "
        "the Elo difference with its 95%% margin and the LOS; write each game as KIF.",
        epilog="Players: builtin:LEVEL (the built-in engine, run as its own 'shogiban usi' process), "
        "a NAME given with --engine, or a USI engine command line.",
    )
    p.add_argument("players", nargs=2, metavar="PLAYER", help="builtin:LEVEL, an --engine NAME, or a command")
    p.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                   help="name a USI engine command (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="NAME.KEY=VALUE",
                   help="set a USI option of engine NAME (repeatable), e.g. 'fsf.Skill Level=0'")
    p.add_argument("--games", type=int, default=2, help="number of games (default 2); colours alternate")
    p.add_argument("--time", type=float, default=0.0, metavar="SECONDS", help="main time per side")
    p.add_argument("--byoyomi", type=float, default=None, metavar="SECONDS",
                   help="byoyomi per move (default 1 when no other limit is given)")
    p.add_argument("--increment", type=float, default=0.0, metavar="SECONDS", help="Fischer increment per move")
    p.add_argument("--movetime", type=float, default=None, metavar="SECONDS", help="fixed time per move")
    p.add_argument("--depth", type=int, default=None, help="fixed depth per move")
    p.add_argument("--nodes", type=int, default=None, help="fixed node count per move")
    p.add_argument("--max-moves", type=int, default=320, help="draw after this many moves (default 320)")
    p.add_argument("--handicap", default=None, help="handicap, e.g. 香落ち or lance (gote gives and moves first)")
    p.add_argument("--random-plies", type=int, default=0, metavar="N",
                   help="start each pair of games with N random plies (same for both colours)")
    p.add_argument("--openings", type=Path, default=None, metavar="FILE",
                   help="opening positions, one per line: 'startpos moves ...' or 'sfen ... moves ...'")
    p.add_argument("--seed", type=int, default=None, help="seed of the random openings and the built-in engine")
    p.add_argument("--entering-king-rule", choices=sorted(_RULES), default="27",
                   help="entering-king declaration rule (default 27-point)")
    p.add_argument("--time-tolerance", type=float, default=0.5, metavar="SECONDS",
                   help="how far a move may overrun its time before it loses (default 0.5)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                   help="seconds an engine gets to answer a command (default 10)")
    p.add_argument("--in-process", action="store_true",
                   help="run builtin players in this process instead of a 'shogiban usi' subprocess")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="write each game as DIR/gameNNN.kif")
    p.set_defaults(run=run)


def _engines(pairs: list[str]) -> dict[str, str]:
    engines = {}
    for pair in pairs:
        name, sep, command = pair.partition("=")
        if not sep or not name or not command.strip():
            raise ShogibanError(f"invalid --engine: {pair!r} (expected NAME=COMMAND)")
        engines[name] = command
    return engines


def _options(pairs: list[str]) -> dict[str, dict[str, str]]:
    options: dict[str, dict[str, str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        name, dot, option = key.partition(".")
        if not sep or not dot or not name or not option:
            raise ShogibanError(f"invalid --option: {pair!r} (expected NAME.KEY=VALUE)")
        options.setdefault(name, {})[option] = value
    return options


def run(args: argparse.Namespace) -> int:
    """Play the match; exit status 0."""
    from dataclasses import replace

    from shogiban.game import TimeControl
    from shogiban.usi.match import Match, MatchConfig, describe_limits, fixed_time
    from shogiban.usi.match_engines import make_player, parse_player

    if args.games < 1:
        raise ShogibanError(f"invalid --games: {args.games!r} (must be 1 or more)")
    engines = _engines(args.engine)
    options = _options(args.option)
    for name in options:
        if name not in engines and not name.startswith("builtin"):
            raise ShogibanError(f"invalid --option: no --engine named {name!r}")
    specs = [parse_player(text, engines, in_process=args.in_process, seed=args.seed) for text in args.players]
    if specs[0].name == specs[1].name:
        specs[1] = replace(specs[1], name=specs[1].name + "-2")
    specs = [replace(spec, options=options.get(text, {})) for spec, text in zip(specs, args.players, strict=True)]
    no_limit = not (args.time or args.increment or args.movetime or args.depth or args.nodes)
    byoyomi = args.byoyomi if args.byoyomi is not None else (1.0 if no_limit else 0.0)
    time_control = TimeControl.of(args.time, byoyomi=byoyomi, increment=args.increment)
    if not time_control.enabled and args.movetime is not None:
        time_control = fixed_time(args.movetime)
    openings = []
    if args.openings is not None:
        lines = args.openings.read_text(encoding="utf-8").splitlines()
        openings = [
            line.strip().removeprefix("position ") for line in lines if line.strip() and not line.startswith("#")
        ]
    config = MatchConfig(
        games=args.games, time_control=time_control, depth=args.depth, nodes=args.nodes,
        max_moves=args.max_moves, handicap=args.handicap,
        random_plies=args.random_plies, openings=openings, seed=args.seed,
        entering_king_rule=_RULES[args.entering_king_rule], tolerance=args.time_tolerance, out=args.out,
    )
    players = (make_player(specs[0], timeout=args.timeout, seed=args.seed),
               make_player(specs[1], timeout=args.timeout, seed=args.seed))
    print(f"Match: {specs[0].name} vs {specs[1].name}, {args.games} games, "
          f"{describe_limits(time_control, args.depth, args.nodes)}", flush=True)
    Match(players, config, report=lambda line: print(line, flush=True)).run()
    return 0
