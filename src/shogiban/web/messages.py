"""The websocket messages: what clients send (TypedDicts, and their parser) and what the server
sends (pydantic models, each with a version ``v``, serialised by :func:`encode_message`).

Client to server (JSON text frames)::

    {"type": "hello", "token": "..."}            # optional: who I am (else the game's cookie)
    {"type": "move", "usi": "7g7f", "ply": 0}   # ply: moves played before this one
    {"type": "resign"}
    {"type": "undo", "ply": 2}                   # take back my last move (friends: ask, or agree)
    {"type": "decline_undo"}                     # friends: refuse the take-back (or withdraw mine)
    {"type": "hint", "ply": 2}                   # vs the computer: suggest a move
    {"type": "declare", "ply": 120}              # entering-king declaration (入玉宣言)
    {"type": "impasse", "ply": 150}              # propose/accept 持将棋 (both kings entered)
    {"type": "ping"}

These are declared, and checked, as pydantic models in :mod:`shogiban.web.schema` (``ClientMove``
and the others, read by :func:`~shogiban.web.schema.read_message`); the TypedDicts below are the
shape the rooms get.

Server to client: ``state`` (everything, on connect and after undo, resignation, joining, the end
of the game), ``move`` (one move and the new position), ``hint``, ``presence``, ``pong`` and
``error`` (``{"type": "error", "v": 1, "code": ..., "message": ...}``: nothing changed) and
``analysis`` (the progress and result of a finished game's analysis), the
models :class:`StateMessage` and the others below; every one has ``"v": 1`` until its shape
changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import PydanticSerializationError

from shogiban.squares import SQUARE_NAMES
from shogiban.web.schema import MAX_MESSAGE_BYTES, RequestError, decode_message, encode_json

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
    """Play a move; *ply* is the number of moves already played (rejects stale moves).  The
    move is *usi*, or *text* typed in any notation (then *usi* is empty)."""

    type: Literal["move"]
    usi: str
    text: str | None
    ply: int


class ResignRequest(TypedDict):
    """Resign (投了)."""

    type: Literal["resign"]


class UndoRequest(TypedDict):
    """Take back the last own move (and the computer's reply)."""

    type: Literal["undo"]
    ply: int


class DeclineUndoRequest(TypedDict):
    """Refuse the opponent's take-back request, or withdraw one's own."""

    type: Literal["decline_undo"]


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
    HelloMessage | MoveRequest | ResignRequest | UndoRequest | DeclineUndoRequest | HintRequest | DeclareRequest
    | ImpasseRequest | PingRequest
)

# -- server to client ---------------------------------------------------------------------------
#
# Declared as pydantic models so that a message built with a wrong field or type fails where it is
# built, not in a browser.  Every message carries a version ``v``: a message whose shape changes
# in a way an older page would misread gets the next number, and pages ignore fields they do not
# know.  The parts are strict (no coercion), refuse unknown fields and are frozen, since one
# message object is shared by every client of a broadcast and encoded once.


class _Part(BaseModel):
    """A part of a server message."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    def __getitem__(self, name: str) -> object:
        """A field by its name on the wire, for code written against the dict form."""
        if name not in type(self).model_fields:
            raise KeyError(name)
        return getattr(self, name)


class PlayerInfo(_Part):
    """One seat."""

    kind: Literal["human", "engine", "usi"]
    level: int | None
    name: str | None
    joined: bool
    online: bool


class TimeControlInfo(_Part):
    """The time control, in seconds."""

    main: float
    byoyomi: float
    increment: float


class GameInfo(_Part):
    """What does not change during a game."""

    id: str
    mode: Literal["computer", "friend", "local"]
    players: dict[Literal["b", "w"], PlayerInfo]
    handicap: str | None
    handicap_english: str | None
    time_control: TimeControlInfo
    start_sfen: str
    rule: str
    created_at: float


class PositionInfo(_Part):
    """The current position and, for the player to move, what may move where."""

    sfen: str
    ply: int
    turn: Literal["b", "w"]
    last_move: str | None
    check: bool
    dests: dict[str, list[str]]
    drop_dests: dict[str, list[str]]


class MoveEntry(_Part):
    """One move of the record."""

    ply: int
    usi: str
    label: str
    forms: dict[str, str] | None
    """The move in every notation the pages offer (:func:`shogiban.notation.forms.move_forms`)."""
    spent_ms: int


class ClockInfo(_Part):
    """The clock at the time of the message (:func:`shogiban.web.clock.snapshot`), in milliseconds."""

    enabled: bool
    black: int
    white: int
    black_byoyomi: int
    white_byoyomi: int
    byoyomi: int
    increment: int
    running: Literal["b", "w"] | None


class OutcomeInfo(_Part):
    """How the game ended."""

    termination: str
    winner: Literal["b", "w"] | None
    detail: str


class Permissions(_Part):
    """What this connection may do now."""

    move: bool
    impasse: bool
    undo: bool
    decline_undo: bool = False
    hint: bool
    declare: bool
    resign: bool
    join: bool


class OnlineInfo(_Part):
    """Whether each side has a connected client."""

    b: bool
    w: bool


class ServerMessage(_Part):
    """Any message the server sends to a browser (encoded by :func:`encode_message`)."""


class StateMessage(ServerMessage):
    """The whole game, for one connection."""

    type: Literal["state"] = "state"
    v: int = 1
    game: GameInfo
    you: Literal["b", "w", "both"] | None
    position: PositionInfo
    moves: list[MoveEntry]
    clock: ClockInfo
    outcome: OutcomeInfo | None
    can: Permissions
    thinking: bool
    impasse_offer: Literal["b", "w"] | None
    takeback_offer: Literal["b", "w"] | None = None


class MoveMessage(ServerMessage):
    """One move was played."""

    type: Literal["move"] = "move"
    v: int = 1
    move: MoveEntry
    position: PositionInfo
    clock: ClockInfo
    outcome: OutcomeInfo | None
    can: Permissions
    thinking: bool


class HintMessage(ServerMessage):
    """The engine's suggestion, to the player who asked."""

    type: Literal["hint"] = "hint"
    v: int = 1
    ply: int
    usi: str | None
    label: str | None
    forms: dict[str, str] | None
    score_cp: int | None
    score_mate: int | None


class PresenceMessage(ServerMessage):
    """Who is connected."""

    type: Literal["presence"] = "presence"
    v: int = 1
    online: OnlineInfo
    spectators: int


class PongMessage(ServerMessage):
    """The answer to a ``ping``."""

    type: Literal["pong"] = "pong"
    v: int = 1


class ErrorMessage(ServerMessage):
    """A refused request: nothing changed."""

    type: Literal["error"] = "error"
    v: int = 1
    code: str
    message: str
    # Left out when there are none, as the pages have always received it.
    params: dict[str, str | int] | None = Field(default=None, exclude_if=lambda params: params is None)


class AnalysisMessage(ServerMessage):
    """Where the whole-game analysis of a finished game is (:mod:`shogiban.web.game_analysis`):
    ``queued``, ``running`` (*done* positions of *total*), ``done`` (with *result*, the
    ``analysis.schema.json`` object), ``cancelled`` or ``failed`` (with the error *code*)."""

    type: Literal["analysis"] = "analysis"
    v: int = 1
    status: Literal["queued", "running", "done", "cancelled", "failed"]
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = Field(default=None, exclude_if=lambda result: result is None)
    code: str | None = Field(default=None, exclude_if=lambda code: code is None)


class LiveLine(_Part):
    """One line of a live analysis: its rank, how deep it was searched, and its score from
    sente's side (centipawns, or moves to mate: positive when sente mates) with sente's win
    rate; *pv* in USI and *forms* each move in every notation the pages offer."""

    multipv: int
    depth: int
    nodes: int
    score_cp: int | None
    score_mate: int | None
    win_rate: float
    pv: list[str]
    forms: list[dict[str, str]]


class LiveMessage(ServerMessage):
    """Where the viewer's live analysis (:mod:`shogiban.web.live_analysis`) is: ``running`` with
    the lines so far, ``done`` (its time ran out: ask again to go on), ``stopped`` or ``failed``
    (with *code*); *id* is the request's."""

    type: Literal["live"] = "live"
    v: int = 1
    id: int
    status: Literal["running", "done", "stopped", "failed"]
    engine: str
    lines: list[LiveLine] = []
    code: str | None = Field(default=None, exclude_if=lambda code: code is None)


#: Every server message, told apart by ``type`` (for reading one back: tests, tools).
AnyServerMessage = Annotated[
    StateMessage | MoveMessage | HintMessage | PresenceMessage | PongMessage | ErrorMessage | AnalysisMessage
    | LiveMessage,
    Field(discriminator="type"),
]
_SERVER_MESSAGE: TypeAdapter[AnyServerMessage] = TypeAdapter(AnyServerMessage)


def encode_message(message: ServerMessage) -> str:
    """*message* as the JSON text browsers get: the one place server messages are serialised.

    pydantic writes it (several times faster than the standard library), except when a lone
    surrogate (a client's escaped text echoed back) makes that impossible: then the standard
    library escapes it (:func:`~shogiban.web.schema.encode_json`), so the text still goes out.

    >>> encode_message(PongMessage())
    '{"type":"pong","v":1}'
    """
    try:
        return message.model_dump_json()
    except PydanticSerializationError:
        return encode_json(message.model_dump(mode="json"))


def read_server_message(text: str | bytes) -> AnyServerMessage:
    """A server message read back from its JSON text, checked against its model.

    :raises ValueError: for anything that is not one (:class:`pydantic.ValidationError` for a
        wrong message).
    """
    # Through the standard library: pydantic's JSON reader refuses the escaped lone surrogates
    # that encode_message may write.
    return _SERVER_MESSAGE.validate_python(json.loads(text))


def error_message(code: str, message: str, params: Mapping[str, str | int] | None = None) -> ErrorMessage:
    """An ``error`` message; a refusal's *params* go with it, squares as names (``"5e"``), so the
    page can say which file or square in the reader's language."""
    if not params:
        return ErrorMessage(code=code, message=message)
    return ErrorMessage(code=code, message=message, params={
        name: SQUARE_NAMES[value] if name in _SQUARE_PARAMS and isinstance(value, int) and 0 <= value < 81
        else value for name, value in params.items()})


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
        return {"type": "move", "usi": data.get("usi") or "", "text": data.get("text"), "ply": data["ply"]}
    if kind == "hello":
        return {"type": "hello", "token": data.get("token")}
    if kind in ("undo", "hint", "declare", "impasse"):
        return {"type": kind, "ply": data["ply"]}
    return {"type": kind}  # resign, ping: the type is all there is
