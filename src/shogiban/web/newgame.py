"""What a new game request may ask for, checked: the ``POST /api/games`` body.

>>> setup = parse_new_game({"mode": "computer", "level": 3, "color": "w", "handicap": "香落ち"})
>>> setup.level, setup.color, setup.board().sfen()
(3, <Color.WHITE: 1>, 'lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from shogiban.board import Board, start_problems
from shogiban.errors import ShogibanError
from shogiban.handicaps import Handicap, find_handicap, handicap_of_sfen
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule
from shogiban.pieces import Color
from shogiban.sfen import STARTING_SFEN
from shogiban.web.clock import TimeControl, TimeControlError, parse_time_control
from shogiban.web.schema import MAX_START_MOVES, excerpt, shorten

Mode = Literal["computer", "friend", "local"]
MODES: tuple[Mode, ...] = ("computer", "friend", "local")
_RULES = {rule.value: rule for rule in EnteringKingRule}


class SetupError(ShogibanError):
    """A new-game request that cannot be honoured."""

    code = "bad_setup"


@dataclass(frozen=True)
class NewGame:
    """A checked new-game request."""

    mode: Mode
    """Against the computer, a friend (by link) or a friend on this device."""
    color: Color
    """The creator's side (both sides in local mode)."""
    opponent: Literal["engine", "usi"] = "engine"
    """In computer mode: the built-in engine or the server's USI engine."""
    level: int = 1
    """Built-in engine level."""
    start_sfen: str = STARTING_SFEN
    """Start position."""
    moves: tuple[str, ...] = ()
    """Moves already played from the start position (continuing a record)."""
    handicap: Handicap | None = None
    """The handicap of the start position, if it is one."""
    time_control: TimeControl = field(default_factory=TimeControl)
    """Clock."""
    rule: EnteringKingRule = EnteringKingRule.POINTS_27
    """Entering-king declaration rule."""
    name: str | None = None
    """The creator's display name."""

    def board(self) -> Board:
        """The position the game starts from (with its moves)."""
        board = Board(self.start_sfen, entering_king_rule=self.rule)
        for usi in self.moves:
            board.push(Move.from_usi(usi))
        return board


def _choice(data: dict[str, Any], key: str, options: tuple[str, ...], default: str) -> str:
    value = data.get(key, default)
    if value is None:
        value = default
    if value not in options:
        raise SetupError(f"invalid {key}: {excerpt(value)} (expected one of {', '.join(options)})")
    return str(value)


def _level(data: dict[str, Any]) -> int:
    level = data.get("level", 1)
    if isinstance(level, str) and level.isdigit():
        level = int(level)
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 8:
        raise SetupError(f"invalid level: {excerpt(level)} (expected 1..8)")
    return level


def _start(data: dict[str, Any]) -> tuple[str, tuple[str, ...], Handicap | None]:
    sfen = data.get("sfen")
    handicap_name = data.get("handicap")
    if sfen not in (None, ""):
        if not isinstance(sfen, str) or len(sfen) > 200:
            raise SetupError(f"invalid sfen: {excerpt(sfen)}")
        try:
            board = Board(sfen)
        except ShogibanError as error:
            raise SetupError(f"invalid start position: {excerpt(sfen)} ({shorten(str(error))})") from error
        start = board.sfen()
    elif handicap_name not in (None, ""):
        if not isinstance(handicap_name, str):
            raise SetupError(f"invalid handicap: {excerpt(handicap_name)}")
        try:
            start = find_handicap(handicap_name).sfen
        except ValueError as error:
            raise SetupError(f"unknown handicap: {excerpt(handicap_name)}") from error
    else:
        start = STARTING_SFEN
    moves = data.get("moves") or []
    if not isinstance(moves, list) or len(moves) > MAX_START_MOVES or not all(isinstance(m, str) for m in moves):
        raise SetupError(f"invalid moves: expected a list of at most {MAX_START_MOVES} usi moves")
    board = Board(start)
    for number, usi in enumerate(moves, 1):
        try:
            board.push_usi(usi)
        except ShogibanError as error:
            reason = shorten(str(error))
            raise SetupError(f"invalid move {number} of the start moves: {excerpt(usi)} ({reason})") from error
    # The editor's "playable" and a new game are decided by the same check.
    problems = start_problems(board)
    if problems:
        raise SetupError(f"a game cannot start from that position: {problems[0].message}")
    return start, tuple(moves), handicap_of_sfen(start)


def _color(data: dict[str, Any], rng: random.Random) -> Color:
    color = data.get("color", "b")
    if color in ("b", "black", "sente"):
        return Color.BLACK
    if color in ("w", "white", "gote"):
        return Color.WHITE
    if color in ("random", None):
        return Color(rng.randrange(2))  # 振り駒
    raise SetupError(f"invalid color: {excerpt(color)} (expected 'b', 'w' or 'random')")


def parse_new_game(data: object, *, usi_available: bool = False, rng: random.Random | None = None) -> NewGame:
    """Check a new-game request.

    Fields: ``mode`` (computer | friend | local), ``opponent`` (engine | usi), ``level`` (1..8),
    ``color`` (b | w | random: the creator's side), ``handicap`` (a name from
    :data:`shogiban.handicaps.HANDICAPS`; the giver is gote and moves first), ``sfen`` and
    ``moves`` (start from a position, e.g. a record's), ``time`` (``{"main", "byoyomi",
    "increment"}`` seconds), ``rule`` (27 | 24 | 27h | 24h | none), ``name``.

    :raises SetupError: with the reason, for anything invalid.
    """
    if not isinstance(data, dict):
        raise SetupError(f"invalid new game request: {excerpt(data)} (expected a json object)")
    rng = rng or random.Random()
    mode = _choice(data, "mode", MODES, "computer")
    opponent = _choice(data, "opponent", ("engine", "usi"), "engine")
    if mode == "computer" and opponent == "usi" and not usi_available:
        raise SetupError("invalid opponent: 'usi' (the server was started without --engine)")
    start, moves, handicap = _start(data)
    try:
        control = parse_time_control(data.get("time"))
    except TimeControlError as error:
        raise SetupError(str(error)) from error
    handicapped = handicap is not None and not handicap.is_even
    default_rule = EnteringKingRule.POINTS_27_HANDICAP if handicapped else EnteringKingRule.POINTS_27
    rule_name = data.get("rule")
    if rule_name in (None, ""):
        rule = default_rule
    elif isinstance(rule_name, str) and rule_name in _RULES:
        rule = _RULES[rule_name]
    else:
        raise SetupError(f"invalid rule: {excerpt(rule_name)} (expected one of {', '.join(_RULES)})")
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > 40):
        raise SetupError(f"invalid name: {excerpt(name)} (at most 40 characters)")
    return NewGame(
        mode=mode,  # type: ignore[arg-type]
        color=_color(data, rng),
        opponent=opponent,  # type: ignore[arg-type]
        level=_level(data),
        start_sfen=start,
        moves=moves,
        handicap=handicap if handicap and not handicap.is_even else None,
        time_control=control,
        rule=rule,
        name=name.strip() or None if isinstance(name, str) else None,
    )
