"""``shogiban play``: play shogi in the terminal against the built-in engine, a USI engine, or a
friend at the same keyboard."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shlex
import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console

from shogiban.board import Board, start_problems
from shogiban.errors import EngineError, ShogibanError
from shogiban.game import EnginePlayer, Player, TimeControl
from shogiban.handicaps import find_handicap
from shogiban.i18n import LANGUAGES, Language, Translator, detect_language, normalize_language
from shogiban.outcome import EnteringKingRule
from shogiban.pieces import Color
from shogiban.play.clock import parse_duration
from shogiban.play.human import HumanPlayer
from shogiban.play.reader import StreamReader
from shogiban.play.session import GameSession, SessionOptions

if TYPE_CHECKING:
    from shogiban.engines import Engine

_COLOR_NAMES = {
    "black": Color.BLACK, "sente": Color.BLACK, "b": Color.BLACK, "先手": Color.BLACK, "下手": Color.BLACK,
    "white": Color.WHITE, "gote": Color.WHITE, "w": Color.WHITE, "後手": Color.WHITE, "后手": Color.WHITE,
    "上手": Color.WHITE,
}


class PlayOptionError(ShogibanError):
    """A ``shogiban play`` option with a value that cannot be used."""

    code = "bad_option"


_RULES = {"27": EnteringKingRule.POINTS_27, "24": EnteringKingRule.POINTS_24, "none": EnteringKingRule.NONE}


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description=(
            "Play shogi in the terminal.  Type moves in USI (7g7f), Japanese (７六歩, 76歩, 同歩) or "
            "western (P-7f) notation; type 'help' during the game for the commands."
        ),
    )
    opponent = p.add_mutually_exclusive_group()
    opponent.add_argument("--level", type=int, default=3, metavar="N",
                          help="strength of the built-in engine, 1 (weakest) to 8 (default 3)")
    opponent.add_argument("--engine", metavar="CMD", help="play a USI engine program, e.g. /usr/games/gpsusi")
    opponent.add_argument("--human", action="store_true", help="two people at this terminal")
    p.add_argument("--color", default="black", metavar="SIDE",
                   help="your side: black/sente (default), white/gote or random")
    p.add_argument(
        "--handicap", metavar="NAME", help="handicap game, e.g. 香落ち or lance; the giver (gote) moves first"
    )
    p.add_argument("--sfen", help="start from this position")
    p.add_argument("--time", default="0", metavar="T", help="main time per player: 600, 10m, 1h, 1:30 (default none)")
    p.add_argument("--byoyomi", default="0", metavar="T", help="byoyomi per move once the main time is spent")
    p.add_argument("--increment", default="0", metavar="T", help="Fischer increment per move")
    p.add_argument("--movetime", metavar="T", help="engine thinking time per move when there is no clock")
    p.add_argument("--hint-time", default="1", metavar="T", help="engine thinking time for a hint (default 1 s)")
    p.add_argument("--rule", choices=sorted(_RULES), default="27",
                   help="entering-king declaration rule: 27-point (default), 24-point, or none")
    p.add_argument("--lang", metavar="LANG",
                   help=f"language: {', '.join(sorted(LANGUAGES, key=lambda name: name != 'en'))} "
                        "(default: from the locale, else en)")
    p.add_argument("--no-color", action="store_true", help="no colours (also when NO_COLOR is set)")
    p.add_argument("--letters", action="store_true", help="western piece letters (P, +R) instead of kanji")
    p.add_argument("--flip", action="store_true", help="show the board from gote's side")
    p.add_argument("--save", metavar="FILE", help="save the record to FILE when the game ends (.kif, .csa, ...)")
    p.add_argument("--seed", type=int, help="random seed of the engine and of --color random")
    p.set_defaults(run=run)


def _language(args: argparse.Namespace) -> Language:
    return normalize_language(args.lang) if args.lang else detect_language()


def _human_color(args: argparse.Namespace) -> Color:
    name = args.color.strip().lower()
    if name == "random":
        return random.Random(args.seed).choice((Color.BLACK, Color.WHITE))
    if name not in _COLOR_NAMES:
        raise PlayOptionError(f"invalid color: {args.color!r} (use black, white or random)")
    return _COLOR_NAMES[name]


def _board(args: argparse.Namespace) -> tuple[Board, str | None]:
    rule = _RULES[args.rule]
    if args.handicap and args.sfen:
        raise PlayOptionError(f"invalid options: --handicap {args.handicap!r} and --sfen cannot be combined")
    if args.handicap:
        try:
            handicap = find_handicap(args.handicap)
        except ValueError as error:
            raise PlayOptionError(str(error)) from error
        if handicap.is_even:
            return Board(entering_king_rule=rule), None
        return Board(handicap.sfen, entering_king_rule=rule), handicap.japanese
    if args.sfen:
        board = Board(args.sfen, entering_king_rule=rule)
        problems = start_problems(board)  # the same check as the web's new games and editor
        if problems:
            raise PlayOptionError(f"invalid --sfen: a game cannot start from it: {problems[0].message}")
        return board, None
    return Board(entering_king_rule=rule), None


def _level(args: argparse.Namespace) -> int:
    if not 1 <= args.level <= 8:
        raise PlayOptionError(f"invalid level: {args.level!r} (1 to 8)")
    return int(args.level)


async def _start_engine(args: argparse.Namespace, level: int) -> Engine:
    """The opponent's engine: the USI program of ``--engine``, else the built-in one at *level*."""
    if args.engine:
        from shogiban.usi import popen_usi

        _, protocol = await popen_usi(shlex.split(args.engine))
        return protocol
    from shogiban.engines import BuiltinEngine

    return BuiltinEngine(level, seed=args.seed)


def run(args: argparse.Namespace) -> int:
    """Play one game; the exit status is 0 whatever the result."""
    asyncio.run(_play(args))
    return 0


async def _play(args: argparse.Namespace) -> None:
    """The whole game in one event loop: the engines start, play and quit in it."""
    language = _language(args)
    t = Translator(language)
    board, handicap = _board(args)
    clock = TimeControl.of(
        parse_duration(args.time), byoyomi=parse_duration(args.byoyomi), increment=parse_duration(args.increment)
    )
    movetime = parse_duration(args.movetime) if args.movetime else None
    players: tuple[Player, Player]
    flipped = args.flip
    engines: list[Engine] = []
    try:
        if args.human:
            players = (HumanPlayer(t("terminal.game.player", number=1)),
                       HumanPlayer(t("terminal.game.player", number=2)))
        else:
            human = _human_color(args)
            level = _level(args) if not args.engine else 0
            engine = await _start_engine(args, level)
            engines.append(engine)
            name = t("terminal.game.engine", level=level) if not args.engine else None
            if args.engine:
                name = engine.name or shlex.split(args.engine)[0].rsplit("/", 1)[-1]
            opponent = EnginePlayer(engine, name=name, movetime=movetime)
            me = HumanPlayer(t("terminal.game.human"))
            players = (me, opponent) if human == Color.BLACK else (opponent, me)
            flipped = flipped or human == Color.WHITE
        hint_engine: Engine | None = None
        if not args.engine:
            # Hints come from the strongest level, whatever the opponent's level.
            from shogiban.engines import BuiltinEngine

            hint_engine = BuiltinEngine(8, seed=args.seed)
            engines.append(hint_engine)
        # Piped output is a transcript: no wrapping at an imaginary terminal width.
        console = Console(no_color=args.no_color or None, highlight=False, soft_wrap=not sys.stdout.isatty())
        options = SessionOptions(
            language=language,
            colors=not args.no_color and not console.no_color,
            letters=args.letters,
            flipped=flipped,
            clock=clock,
            hint_seconds=parse_duration(args.hint_time),
            handicap=handicap,
            echo_input=not sys.stdin.isatty(),
            save_path=args.save,
        )
        session = GameSession(
            board, players, reader=StreamReader(sys.stdin), console=console, options=options, hint_engine=hint_engine
        )
        await session.play()
    finally:
        for running in engines:
            with contextlib.suppress(EngineError):
                await running.quit()
