"""What a front end shows after an action: the events :func:`shogiban.game.apply` returns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TypeAlias

from shogiban.game.clock import Clock
from shogiban.outcome import Outcome
from shogiban.pieces import Color


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """A move was played: the game now has *ply* moves; *spent* is what it took."""

    ply: int
    usi: str
    spent: timedelta


@dataclass(frozen=True, slots=True)
class MovesTakenBack:
    """*count* moves were taken back; the game now has *ply* moves."""

    count: int
    ply: int


@dataclass(frozen=True, slots=True)
class ImpasseProposed:
    """*color* proposes 持将棋; the opponent may agree."""

    color: Color


@dataclass(frozen=True, slots=True)
class TakebackProposed:
    """*color* asks to take back its last move (待った); the opponent may agree or refuse."""

    color: Color


@dataclass(frozen=True, slots=True)
class TakebackDeclined:
    """*color* refused the opponent's take-back request (or withdrew its own)."""

    color: Color


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The game began (its clock runs)."""


@dataclass(frozen=True, slots=True)
class ClockUpdated:
    """The clock changed (a turn was charged, started, stopped)."""

    clock: Clock


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over."""

    outcome: Outcome


Event: TypeAlias = (MovePlayed | MovesTakenBack | ImpasseProposed | TakebackProposed | TakebackDeclined | GameStarted
                    | ClockUpdated | GameEnded)
"""Any event."""

__all__ = [
    "ClockUpdated", "Event", "GameEnded", "GameStarted", "ImpasseProposed", "MovePlayed", "MovesTakenBack",
    "TakebackDeclined", "TakebackProposed",
]
