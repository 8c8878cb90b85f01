"""What can happen to a game: the actions :func:`shogiban.game.apply` takes.

A ``ply`` on a player's action is the number of moves the player saw; a different count means
the request is stale (the position changed meanwhile) and it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from shogiban.pieces import Color


@dataclass(frozen=True, slots=True)
class PlayMove:
    """Play a move, in USI notation.  ``PlayMove()`` without one asks :func:`allowed` whether the
    role may move at all."""

    usi: str = ""
    ply: int | None = None


@dataclass(frozen=True, slots=True)
class Resign:
    """投了 by *color* (None: the side to move, or the role's own side)."""

    color: Color | None = None
    ply: int | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last move (against the computer: the human's move and the reply to it).
    Between friends it is *color*'s request (待った), taken back when the opponent agrees (their
    own Undo): the requester's last move, and the reply to it if there is one."""

    ply: int | None = None
    color: Color | None = None


@dataclass(frozen=True, slots=True)
class DeclineTakeback:
    """Refuse the opponent's take-back request, or withdraw one's own (friends' games)."""

    color: Color | None = None


@dataclass(frozen=True, slots=True)
class Declare:
    """入玉宣言: the side to move declares an entering-king win."""

    ply: int | None = None


@dataclass(frozen=True, slots=True)
class ImpasseAgreement:
    """持将棋 by agreement, settled by the 24-point count: a proposal, or the agreement to the
    opponent's (the computer and one device playing both sides agree at once)."""

    color: Color | None = None
    ply: int | None = None


@dataclass(frozen=True, slots=True)
class FlagFall:
    """The running side's time is up (the front end's timer fired, or an engine did not answer)."""


@dataclass(frozen=True, slots=True)
class EngineFailure:
    """*color*'s engine crashed or could not be used: that side loses (ABANDONED, the other side
    winning)."""

    color: Color
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Abandon:
    """中断: the game stops without a result."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class Start:
    """A game that waited for its second player begins."""


Action: TypeAlias = (PlayMove | Resign | Undo | DeclineTakeback | Declare | ImpasseAgreement | FlagFall | EngineFailure
                     | Abandon | Start)
"""Any action."""

__all__ = [
    "Abandon", "Action", "Declare", "DeclineTakeback", "EngineFailure", "FlagFall", "ImpasseAgreement", "PlayMove",
    "Resign", "Start", "Undo",
]
