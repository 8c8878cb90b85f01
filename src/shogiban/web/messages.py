"""The websocket messages, one TypedDict each, and the parser of what clients send.

Client to server (JSON text frames)::

    {"type": "hello", "token": "..."}            # optional: who I am (else the game's cookie)
    {"type": "move", "usi": "7g7f", "ply": 0}   # ply: moves played before this one
    {"type": "resign"}
    {"type": "undo", "ply": 2}                   # vs the computer: take back my last move
    {"type": "hint", "ply": 2}                   # vs the computer: suggest a move
    {"type": "declare", "ply": 120}              # entering-king declaration (入玉宣言)
    {"type": "impasse", "ply": 150}              # propose/accept 持将棋 (both kings entered)
    {"type": "ping"}

These are declared, and checked, as pydantic models in :mod:`shogiban.web.schema` (``ClientMove``
and the others, read by :func:`~shogiban.web.schema.read_message`); the TypedDicts below are the
shape the rooms get.

Server to client: ``state`` (everything, on connect and after undo, resignation, joining, the end
of the game), ``move`` (one move and the new position), ``hint``, ``presence``, ``pong`` and
``error`` (``{"type": "error", "code": ..., "message": ...}``: nothing changed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

from shogiban.squares import SQUARE_NAMES
from shogiban.web.schema import MAX_MESSAGE_BYTES, RequestError, decode_message

#: Longest client message accepted, in bytes.
MAX_MESSAGE = MAX_MESSAGE_BYTES
#: A client message that cannot be accepted; ``code`` is stable for translation.
MessageError = RequestError


# -- client to server ---------------------------------------------------------------------------


class HelloMessage(TypedDict):
    """Identify the connection with a player's token."""

    type: Literal["hello"]
    token: str | None


class MoveRequest(TypedDict):
    """Play a move; *ply* is the number of moves already played (rejects stale moves)."""

    type: Literal["move"]
    usi: str
    ply: int


class ResignRequest(TypedDict):
    """Resign (投了)."""

    type: Literal["resign"]


class UndoRequest(TypedDict):
    """Take back the last own move (and the computer's reply)."""

    type: Literal["undo"]
    ply: int


class HintRequest(TypedDict):
    """Ask the engine for a move."""

    type: Literal["hint"]
    ply: int


class DeclareRequest(TypedDict):
    """Declare an entering-king win."""

    type: Literal["declare"]
    ply: int


class ImpasseRequest(TypedDict):
    """Propose or accept 持将棋 (both kings entered)."""

    type: Literal["impasse"]
    ply: int


class PingRequest(TypedDict):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessage = (
    HelloMessage | MoveRequest | ResignRequest | UndoRequest | HintRequest | DeclareRequest | ImpasseRequest
    | PingRequest
)

# -- server to client ---------------------------------------------------------------------------


class PlayerInfo(TypedDict):
    """One seat."""

    kind: Literal["human", "engine", "usi"]
    level: int | None
    name: str | None
    joined: bool
    online: bool


class GameInfo(TypedDict):
    """What does not change during a game."""

    id: str
    mode: Literal["computer", "friend", "local"]
    players: dict[str, PlayerInfo]
    handicap: str | None
    handicap_english: str | None
    time_control: dict[str, float]
    start_sfen: str
    rule: str
    created_at: float


class PositionInfo(TypedDict):
    """The current position and, for the player to move, what may move where."""

    sfen: str
    ply: int
    turn: Literal["b", "w"]
    last_move: str | None
    check: bool
    dests: dict[str, list[str]]
    drop_dests: dict[str, list[str]]


class MoveEntry(TypedDict):
    """One move of the record."""

    ply: int
    usi: str
    label: str
    forms: dict[str, str] | None
    """The move in every notation the pages offer (:func:`shogiban.notation.forms.move_forms`)."""
    spent_ms: int


class OutcomeInfo(TypedDict):
    """How the game ended."""

    termination: str
    winner: Literal["b", "w"] | None
    detail: str


class Permissions(TypedDict):
    """What this connection may do now."""

    move: bool
    impasse: bool
    undo: bool
    hint: bool
    declare: bool
    resign: bool
    join: bool


class StateMessage(TypedDict):
    """The whole game, for one connection."""

    type: Literal["state"]
    game: GameInfo
    you: Literal["b", "w", "both"] | None
    position: PositionInfo
    moves: list[MoveEntry]
    clock: dict[str, Any]
    outcome: OutcomeInfo | None
    can: Permissions
    thinking: bool
    impasse_offer: Literal["b", "w"] | None


class MoveMessage(TypedDict):
    """One move was played."""

    type: Literal["move"]
    move: MoveEntry
    position: PositionInfo
    clock: dict[str, Any]
    outcome: OutcomeInfo | None
    can: Permissions
    thinking: bool


class HintMessage(TypedDict):
    """The engine's suggestion, to the player who asked."""

    type: Literal["hint"]
    ply: int
    usi: str | None
    label: str | None
    forms: dict[str, str] | None
    score_cp: int | None
    score_mate: int | None


class PresenceMessage(TypedDict):
    """Who is connected."""

    type: Literal["presence"]
    online: dict[str, bool]
    spectators: int


class ErrorMessage(TypedDict):
    """A refused request: nothing changed."""

    type: Literal["error"]
    code: str
    message: str
    params: NotRequired[dict[str, str | int]]


def error_message(code: str, message: str, params: Mapping[str, str | int] | None = None) -> ErrorMessage:
    """An ``error`` message; a refusal's *params* go with it, squares as names (``"5e"``), so the
    page can say which file or square in the reader's language."""
    error: ErrorMessage = {"type": "error", "code": code, "message": message}
    if params:
        error["params"] = {name: SQUARE_NAMES[value] if name in _SQUARE_PARAMS and isinstance(value, int)
                           and 0 <= value < 81 else value for name, value in params.items()}
    return error


#: Refusal parameters that name a square (the rules give them as numbers).
_SQUARE_PARAMS = frozenset({"square", "from_square", "to_square"})


# -- parsing ------------------------------------------------------------------------------------


def parse_client_message(text: str | bytes | None) -> ClientMessage:
    """Parse and check one client message against its model
    (:data:`shogiban.web.schema.CLIENT_MESSAGES`, through :func:`~shogiban.web.schema.read_message`).

    :raises MessageError: ``bad_json`` for text that is not a JSON object (or longer than
        :data:`MAX_MESSAGE` bytes, or nested), ``bad_message`` for a missing or mistyped field,
        ``unknown_type`` for an unknown ``type``.
    """
    data = decode_message(text)
    kind = data["type"]
    if kind == "move":
        return {"type": "move", "usi": data["usi"], "ply": data["ply"]}
    if kind == "hello":
        return {"type": "hello", "token": data.get("token")}
    if kind in ("undo", "hint", "declare", "impasse"):
        return {"type": kind, "ply": data["ply"]}
    return {"type": kind}  # resign, ping: the type is all there is
