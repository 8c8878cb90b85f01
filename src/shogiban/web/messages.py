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

Server to client: ``state`` (everything, on connect and after undo, resignation, joining, the end
of the game), ``move`` (one move and the new position), ``hint``, ``presence``, ``pong`` and
``error`` (``{"type": "error", "code": ..., "message": ...}``: nothing changed).
"""

from __future__ import annotations

import json
from typing import Any, Literal, TypedDict

#: Longest client message accepted, in characters.
MAX_MESSAGE = 4096


class MessageError(ValueError):
    """A client message that cannot be accepted; ``code`` is stable for translation."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


def error_message(code: str, message: str) -> ErrorMessage:
    """An ``error`` message."""
    return {"type": "error", "code": code, "message": message}


# -- parsing ------------------------------------------------------------------------------------


def _ply(data: dict[str, Any]) -> int:
    ply = data.get("ply")
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise MessageError("bad_message", f"invalid ply: {ply!r} (expected the number of moves played)")
    return ply


def parse_client_message(text: str | bytes | None) -> ClientMessage:
    """Parse and check one client message.

    :raises MessageError: ``bad_json`` for text that is not a JSON object, ``bad_message`` for a
        missing or mistyped field, ``unknown_type`` for an unknown ``type``.
    """
    if text is None:
        raise MessageError("bad_json", "empty message")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MessageError("bad_json", f"message is not utf-8 ({error})") from error
    if len(text) > MAX_MESSAGE:
        raise MessageError("bad_json", f"message too long ({len(text)} characters, at most {MAX_MESSAGE})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MessageError("bad_json", f"malformed json: {text[:80]!r} ({error.msg})") from error
    if not isinstance(data, dict):
        raise MessageError("bad_json", f"expected a json object, got {text[:80]!r}")
    kind = data.get("type")
    if kind == "move":
        usi = data.get("usi")
        if not isinstance(usi, str) or not usi or len(usi) > 8:
            raise MessageError("bad_message", f"invalid move field: {usi!r} (expected usi text such as '7g7f')")
        return {"type": "move", "usi": usi, "ply": _ply(data)}
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 200):
            raise MessageError("bad_message", f"invalid token: {token!r}")
        return {"type": "hello", "token": token}
    if kind == "resign":
        return {"type": "resign"}
    if kind == "undo":
        return {"type": "undo", "ply": _ply(data)}
    if kind == "hint":
        return {"type": "hint", "ply": _ply(data)}
    if kind == "declare":
        return {"type": "declare", "ply": _ply(data)}
    if kind == "impasse":
        return {"type": "impasse", "ply": _ply(data)}
    if kind == "ping":
        return {"type": "ping"}
    raise MessageError("unknown_type", f"unknown message type: {kind!r}")
