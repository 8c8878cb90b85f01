"""One game core for every front end: a pure, serialisable game state and its transitions.

:class:`GameState` holds everything about a game (position, moves, clock, status, outcome);
:func:`apply` turns it and an action (:class:`PlayMove`, :class:`Resign`, ...) into the next state and
the events a front end shows; :func:`allowed` says whether a role may take an action (to show
buttons and to refuse).  The web room, the terminal session and the match runner keep only their
input and output.
"""

from shogiban.game.actions import (
    Abandon,
    Action,
    Declare,
    DeclineTakeback,
    EngineFailure,
    FlagFall,
    ImpasseAgreement,
    PlayMove,
    Resign,
    Start,
    Undo,
)
from shogiban.game.clock import Clock, Timing
from shogiban.game.core import (
    UNDOABLE_ENDS,
    RefusedError,
    acting_color,
    allowed,
    apply,
    check,
    evolve,
    permissions,
    undo_count,
)
from shogiban.game.events import (
    ClockUpdated,
    Event,
    GameEnded,
    GameStarted,
    ImpasseProposed,
    MovePlayed,
    MovesTakenBack,
    TakebackDeclined,
    TakebackProposed,
)
from shogiban.game.players import (
    Decision,
    EnginePlayer,
    Player,
    QueuedPlayer,
    adjudicate,
    choose_in_time,
    decision_from_error,
    decision_from_result,
)
from shogiban.game.state import GameDataError, GameState, Mode, PlayedMove, Role, Status
from shogiban.game.time_budget import clock_limit
from shogiban.game.timecontrol import TimeControl, TimeControlError

__all__ = [
    "UNDOABLE_ENDS",
    "Abandon",
    "Action",
    "Clock",
    "ClockUpdated",
    "Decision",
    "Declare",
    "DeclineTakeback",
    "EngineFailure",
    "EnginePlayer",
    "Event",
    "FlagFall",
    "GameDataError",
    "GameEnded",
    "GameStarted",
    "GameState",
    "ImpasseAgreement",
    "ImpasseProposed",
    "Mode",
    "MovePlayed",
    "MovesTakenBack",
    "PlayMove",
    "PlayedMove",
    "Player",
    "QueuedPlayer",
    "RefusedError",
    "Resign",
    "Role",
    "Start",
    "Status",
    "TakebackDeclined",
    "TakebackProposed",
    "TimeControl",
    "TimeControlError",
    "Timing",
    "Undo",
    "acting_color",
    "adjudicate",
    "allowed",
    "apply",
    "check",
    "choose_in_time",
    "clock_limit",
    "decision_from_error",
    "decision_from_result",
    "evolve",
    "permissions",
    "undo_count",
]
