"""Value types of the USI client: limits, scores, search information, results and options.

>>> Limit(byoyomi=1).go_args()
['btime', '0', 'wtime', '0', 'byoyomi', '1000']
>>> Score(cp=-35), Score(mate=3), -Score(mate=3)
(Score(cp=-35), Score(mate=3), Score(mate=-3))
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal, TypeAlias, TypedDict

from shogiban.errors import EngineError
from shogiban.move import Move
from shogiban.pieces import Color

Seconds: TypeAlias = "float | int | timedelta"
"""A duration: seconds as a number, or a :class:`datetime.timedelta`."""


def to_seconds(value: Seconds) -> float:
    """*value* in seconds.

    :raises ValueError: if it is negative or not finite.
    """
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"invalid duration: {value!r} (must be a finite number of seconds >= 0)")
    return seconds


def to_ms(value: Seconds) -> int:
    """*value* in whole milliseconds, as USI sends times."""
    return round(to_seconds(value) * 1000)


@dataclass(frozen=True, slots=True)
class Limit:
    """When an engine should stop thinking: any combination of the fields.

    Clock fields follow USI: ``btime``/``wtime`` are the main time left for sente/gote, without
    the increment of the move about to be played (``binc``/``winc``); ``byoyomi`` is shared by
    both sides.  When any clock field is set, the missing ones are sent as 0, since USI engines
    (gpsusi among them) expect ``btime`` and ``wtime`` together.
    """

    time: Seconds | None = None
    """Think exactly this long (``go movetime``)."""
    depth: int | None = None
    """Search this many plies (``go depth``)."""
    nodes: int | None = None
    """Search this many nodes (``go nodes``)."""
    btime: Seconds | None = None
    """Sente's main time left."""
    wtime: Seconds | None = None
    """Gote's main time left."""
    byoyomi: Seconds | None = None
    """Byoyomi (秒読み) per move, for both sides."""
    binc: Seconds | None = None
    """Sente's Fischer increment."""
    winc: Seconds | None = None
    """Gote's Fischer increment."""
    infinite: bool = False
    """Think until told to stop (``go infinite``)."""

    def __post_init__(self) -> None:
        for name in ("time", "btime", "wtime", "byoyomi", "binc", "winc"):
            value = getattr(self, name)
            if value is not None:
                to_seconds(value)  # validates
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"invalid limit: {name}={value!r} (must be a positive int)")

    def has_clock(self) -> bool:
        """Whether any clock field (btime, wtime, byoyomi, binc, winc) is set."""
        return any(v is not None for v in (self.btime, self.wtime, self.byoyomi, self.binc, self.winc))

    def go_args(self) -> list[str]:
        """The arguments of ``go`` for this limit (without ``ponder``)."""
        args: list[str] = []
        if self.has_clock():
            args += ["btime", str(to_ms(self.btime or 0)), "wtime", str(to_ms(self.wtime or 0))]
            if self.byoyomi is not None:
                args += ["byoyomi", str(to_ms(self.byoyomi))]
            if self.binc is not None or self.winc is not None:
                args += ["binc", str(to_ms(self.binc or 0)), "winc", str(to_ms(self.winc or 0))]
        if self.time is not None:
            args += ["movetime", str(to_ms(self.time))]
        if self.depth is not None:
            args += ["depth", str(self.depth)]
        if self.nodes is not None:
            args += ["nodes", str(self.nodes)]
        if self.infinite:
            args.append("infinite")
        return args

    def budget(self, turn: Color) -> float | None:
        """The longest the side to move may think under this limit, in seconds, or None if the
        limit is not a time (depth, nodes, infinite)."""
        candidates: list[float] = []
        if self.has_clock():
            main = self.btime if turn == Color.BLACK else self.wtime
            inc = self.binc if turn == Color.BLACK else self.winc
            candidates.append(sum(to_seconds(v) for v in (main, inc, self.byoyomi) if v is not None))
        if self.time is not None:
            candidates.append(to_seconds(self.time))
        return min(candidates) if candidates and not self.infinite else None


@dataclass(frozen=True, slots=True)
class Score:
    """An evaluation from the point of view of the side to move, as USI reports it.

    Either centipawns (``cp``) or a mate: ``mate`` is the distance in plies, positive when the side
    to move mates and negative when it is mated.  ``score mate +`` / ``score mate -`` (distance
    unknown, allowed by Shogidokoro) give ``mate=None`` with ``winning`` set.
    """

    cp: int | None = None
    """Centipawns, or None for a mate score."""
    mate: int | None = None
    """Plies to mate (signed), or None for a centipawn score or an unknown distance."""
    winning: bool | None = None
    """For mate scores: whether the side to move is the one mating; None for centipawn scores."""
    lowerbound: bool = False
    """The true score is at least this (the engine failed high)."""
    upperbound: bool = False
    """The true score is at most this (the engine failed low)."""

    def __post_init__(self) -> None:
        if self.cp is not None and (self.mate is not None or self.winning is not None):
            raise ValueError(f"invalid score: cp={self.cp!r} with a mate")
        if self.mate is not None and self.winning is None:
            object.__setattr__(self, "winning", self.mate > 0)
        if self.cp is None and self.winning is None:
            raise ValueError("invalid score: neither cp nor mate given")

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.cp is None

    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate counts as ``±(mate_score - plies)`` if *mate_score* is given, else None."""
        if self.cp is not None:
            return self.cp
        if mate_score is None:
            return None
        plies = abs(self.mate) if self.mate is not None else 0
        return mate_score - plies if self.winning else -(mate_score - plies)

    def __neg__(self) -> Score:
        if self.cp is not None:
            return Score(cp=-self.cp, lowerbound=self.upperbound, upperbound=self.lowerbound)
        mate = -self.mate if self.mate is not None else None
        return Score(mate=mate, winning=not self.winning, lowerbound=self.upperbound, upperbound=self.lowerbound)

    def pov(self, turn: Color, color: Color) -> Score:
        """This score (relative to *turn*, the side to move) from *color*'s point of view."""
        return self if turn == color else -self

    def usi(self) -> str:
        """The USI text, e.g. ``'cp 35'``, ``'mate -4'``, ``'mate +'``."""
        if self.cp is not None:
            text = f"cp {self.cp}"
        elif self.mate is None:
            text = "mate +" if self.winning else "mate -"
        elif self.mate == 0 and not self.winning:
            text = "mate -0"
        else:
            text = f"mate {self.mate:+d}" if self.mate < 0 else f"mate {self.mate}"
        if self.lowerbound:
            text += " lowerbound"
        if self.upperbound:
            text += " upperbound"
        return text

    def __repr__(self) -> str:
        parts = [f"cp={self.cp}"] if self.cp is not None else []
        if self.cp is None:
            parts.append(f"mate={self.mate}" if self.mate is not None else f"winning={self.winning}")
        if self.lowerbound:
            parts.append("lowerbound=True")
        if self.upperbound:
            parts.append("upperbound=True")
        return f"Score({', '.join(parts)})"


class InfoDict(TypedDict, total=False):
    """What an engine said in its ``info`` lines; every key is optional."""

    score: Score
    pv: list[Move]
    depth: int
    seldepth: int
    time: float
    nodes: int
    nps: int
    hashfull: int
    multipv: int
    currmove: Move
    currmovenumber: int
    tbhits: int
    cpuload: int
    string: str


@dataclass(slots=True)
class PlayResult:
    """The answer to ``go``: a move, or a resignation, or an entering-king declaration."""

    move: Move | None
    """The move played, or None for ``bestmove resign`` / ``bestmove win``."""
    ponder: Move | None = None
    """The reply the engine expects (already checked to be legal after ``move``)."""
    info: InfoDict = field(default_factory=lambda: InfoDict())
    """The last information (principal variation 1) the engine sent during the search."""
    resigned: bool = False
    """``bestmove resign``."""
    declared_win: bool = False
    """``bestmove win``: the engine declares an entering-king (入玉) win; the caller checks the rule."""

    def usi(self) -> str:
        """The ``bestmove`` argument: a USI move, ``'resign'`` or ``'win'``."""
        if self.resigned:
            return "resign"
        if self.declared_win:
            return "win"
        return self.move.usi() if self.move is not None else "resign"


MateStatus: TypeAlias = Literal["mate", "nomate", "timeout", "notimplemented"]


@dataclass(frozen=True, slots=True)
class MateResult:
    """The answer to ``go mate``."""

    status: MateStatus
    """``'mate'`` (``moves`` is the mating line), ``'nomate'`` (the engine proved there is none),
    ``'timeout'`` or ``'notimplemented'``."""
    moves: tuple[Move, ...] = ()
    """The mating line from the position, attacker's moves first (checked to be legal and to mate)."""

    @property
    def length(self) -> int:
        """Number of plies of the mating line (0 unless ``status == 'mate'``)."""
        return len(self.moves)


OptionType: TypeAlias = Literal["check", "spin", "combo", "button", "string", "filename"]
OPTION_TYPES: tuple[str, ...] = ("check", "spin", "combo", "button", "string", "filename")


@dataclass(frozen=True, slots=True)
class Option:
    """An engine option, as declared by an ``option name ... type ...`` line."""

    name: str
    """The name (may contain spaces in engines that break the USI rule, e.g. ``Skill Level``)."""
    type: OptionType
    """``check``, ``spin``, ``combo``, ``button``, ``string`` or ``filename``."""
    default: str | int | bool | None = None
    """The default value, typed: bool for check, int for spin, str otherwise (``''`` for ``<empty>``)."""
    min: int | None = None
    """Smallest value of a spin option."""
    max: int | None = None
    """Largest value of a spin option."""
    var: tuple[str, ...] = ()
    """The choices of a combo option."""

    def is_managed(self) -> bool:
        """Whether the name is ``USI_`` prefixed: fixed meaning, normally set by the GUI."""
        return self.name.startswith("USI_")

    def value_text(self, value: str | int | bool | None) -> str | None:
        """Check *value* for this option and return the text for ``setoption ... value``
        (None for a button, which takes no value).

        :raises EngineError: if the value does not fit the option.
        """
        if self.type == "button":
            if value not in (None, True, ""):
                raise EngineError(f"invalid value for button option {self.name!r}: {value!r} (buttons take none)")
            return None
        if value is None:
            raise EngineError(f"missing value for option {self.name!r}")
        if self.type == "check":
            return _check_text(self.name, value)
        if self.type == "spin":
            return str(_spin_value(self, value))
        text = str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"invalid value for option {self.name!r}: {value!r} (line break)")
        if self.type == "combo" and self.var and text not in self.var:
            choices = ", ".join(self.var)
            raise EngineError(f"invalid value for combo option {self.name!r}: {value!r} (choices: {choices})")
        return text if text else "<empty>"

    def usi(self) -> str:
        """The ``option`` line that declares this option."""
        line = f"option name {self.name} type {self.type}"
        if self.type == "check":
            line += f" default {'true' if self.default else 'false'}"
        elif self.type == "spin":
            line += f" default {self.default} min {self.min} max {self.max}"
        elif self.type == "combo":
            line += f" default {self.default}" + "".join(f" var {v}" for v in self.var)
        elif self.type in ("string", "filename"):
            line += f" default {self.default or '<empty>'}"
        return line


def _check_text(name: str, value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).lower()
    if text in ("true", "false"):
        return text
    raise EngineError(f"invalid value for check option {name!r}: {value!r} (expected true or false)")


def _spin_value(option: Option, value: str | int | bool) -> int:
    try:
        number = int(value)
    except ValueError:
        raise EngineError(f"invalid value for spin option {option.name!r}: {value!r} (expected an integer)") from None
    if isinstance(value, bool) or (option.min is not None and number < option.min) or (
        option.max is not None and number > option.max
    ):
        raise EngineError(
            f"invalid value for spin option {option.name!r}: {value!r} (range {option.min}..{option.max})"
        )
    return number


class Options(Mapping[str, Option]):
    """An engine's options by name; lookups ignore case, as engines and GUIs disagree on it."""

    def __init__(self) -> None:
        self._items: dict[str, Option] = {}

    def add(self, option: Option) -> None:
        """Add or replace *option*."""
        self._items[option.name.lower()] = option

    def __getitem__(self, name: str) -> Option:
        return self._items[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"
