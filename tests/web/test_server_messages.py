"""The server's messages to browsers: declared models, versioned, serialised in one place."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient
from tests.web.conftest import new_game, receive

from shogiban.web.connections import Connection, encoded
from shogiban.web.messages import (
    ClockInfo,
    ErrorMessage,
    GameInfo,
    HintMessage,
    MoveEntry,
    MoveMessage,
    OnlineInfo,
    OutcomeInfo,
    Permissions,
    PlayerInfo,
    PongMessage,
    PositionInfo,
    PresenceMessage,
    ServerMessage,
    StateMessage,
    TimeControlInfo,
    encode_message,
    error_message,
    read_server_message,
)
from shogiban.web.rooms import Role
from shogiban.web.schema import encode_json

SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
FORMS = {"japanese": "▲７六歩", "western": "P-7f", "kitao": "歩-76", "csa": "+7776FU", "usi": "7g7f"}
ENTRY = MoveEntry(ply=1, usi="7g7f", label="▲７六歩", forms=FORMS, spent_ms=1234)
POSITION = PositionInfo(sfen=SFEN, ply=1, turn="w", last_move="7g7f", check=False,
                        dests={"3c": ["3d"], "8b": ["7b", "6b"]}, drop_dests={})
CLOCK = ClockInfo(enabled=True, black=598_766, white=600_000, black_byoyomi=10_000, white_byoyomi=10_000,
                  byoyomi=10_000, increment=0, running="w")
CAN = Permissions(move=True, impasse=False, undo=False, hint=False, declare=False, resign=True, join=False)
PLAYERS = {"b": PlayerInfo(kind="human", level=None, name=None, joined=True, online=True),
           "w": PlayerInfo(kind="engine", level=3, name=None, joined=True, online=True)}
GAME = GameInfo(id="abc", mode="computer", players=PLAYERS, handicap=None, handicap_english=None,
                time_control=TimeControlInfo(main=600.0, byoyomi=10.0, increment=0.0),
                start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", rule="27",
                created_at=1_733_377_678.25)
OUTCOME = OutcomeInfo(termination="resign", winner="b", detail="")

EVERY_MESSAGE: list[ServerMessage] = [
    StateMessage(game=GAME, you="b", position=POSITION, moves=[ENTRY], clock=CLOCK, outcome=None, can=CAN,
                 thinking=False, impasse_offer=None),
    StateMessage(game=GAME, you=None, position=POSITION, moves=[], clock=CLOCK, outcome=OUTCOME, can=CAN,
                 thinking=True, impasse_offer="w"),
    MoveMessage(move=ENTRY, position=POSITION, clock=CLOCK, outcome=None, can=CAN, thinking=True),
    HintMessage(ply=0, usi="7g7f", label="▲７六歩", forms=FORMS, score_cp=35, score_mate=None),
    HintMessage(ply=0, usi=None, label=None, forms=None, score_cp=None, score_mate=-3),
    PresenceMessage(online=OnlineInfo(b=True, w=False), spectators=2),
    PongMessage(),
    ErrorMessage(code="stale_ply", message="another move was played meanwhile"),
    error_message("no_piece", "illegal move", {"square": 40, "usi": "5e5d"}),
]


@pytest.mark.parametrize("message", EVERY_MESSAGE, ids=lambda message: message.type)  # type: ignore[attr-defined]
def test_every_server_message_round_trips_and_carries_its_version(message: ServerMessage) -> None:
    text = encode_message(message)
    data = json.loads(text)
    assert data["v"] == 1
    assert list(data)[:2] == ["type", "v"]
    assert read_server_message(text) == message
    assert encode_message(read_server_message(text.encode("utf-8"))) == text


def test_the_json_is_what_the_pages_got_before_plus_the_version() -> None:
    # The dicts the rooms built before the models, encoded as they were (schema.encode_json).
    before: list[tuple[ServerMessage, dict[str, Any]]] = [
        (EVERY_MESSAGE[2], {
            "type": "move",
            "move": {"ply": 1, "usi": "7g7f", "label": "▲７六歩", "forms": FORMS, "spent_ms": 1234},
            "position": {"sfen": SFEN, "ply": 1, "turn": "w", "last_move": "7g7f", "check": False,
                         "dests": {"3c": ["3d"], "8b": ["7b", "6b"]}, "drop_dests": {}},
            "clock": {"enabled": True, "black": 598_766, "white": 600_000, "black_byoyomi": 10_000,
                      "white_byoyomi": 10_000, "byoyomi": 10_000, "increment": 0, "running": "w"},
            "outcome": None,
            "can": {"move": True, "impasse": False, "undo": False, "decline_undo": False, "hint": False,
                    "declare": False, "resign": True, "join": False},
            "thinking": True,
        }),
        (EVERY_MESSAGE[3], {"type": "hint", "ply": 0, "usi": "7g7f", "label": "▲７六歩", "forms": FORMS,
                            "score_cp": 35, "score_mate": None}),
        (EVERY_MESSAGE[5], {"type": "presence", "online": {"b": True, "w": False}, "spectators": 2}),
        (EVERY_MESSAGE[6], {"type": "pong"}),
        (EVERY_MESSAGE[7], {"type": "error", "code": "stale_ply", "message": "another move was played meanwhile"}),
        (EVERY_MESSAGE[8], {"type": "error", "code": "no_piece", "message": "illegal move",
                            "params": {"square": "5e", "usi": "5e5d"}}),
    ]
    for message, legacy in before:
        kind = legacy["type"]
        assert encode_message(message) == encode_json({"type": kind, "v": 1, **legacy})


def test_a_state_from_the_server_reads_back_as_its_model(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = read_server_message(ws.receive_text())
        assert isinstance(state, StateMessage)
        assert state.v == 1
        assert isinstance(read_server_message(ws.receive_text()), PresenceMessage)
        ws.send_json({"type": "ping"})
        assert receive(ws, "pong") == {"type": "pong", "v": 1}
    body = client.get(f"/api/games/{game['id']}").json()
    assert body["v"] == 1
    assert body["type"] == "state"


@pytest.mark.parametrize("build", [
    lambda: MoveEntry(ply="1", usi="7g7f", label="x", forms=None, spent_ms=0),  # no coercion
    lambda: MoveEntry(ply=1, usi="7g7f", label="x", forms=None, spent_ms=0.5),
    lambda: PositionInfo(sfen=SFEN, ply=1, turn="black", last_move=None, check=False, dests={}, drop_dests={}),
    lambda: PresenceMessage(online=OnlineInfo(b=True, w=False), spectators="2"),
    lambda: PresenceMessage(online={"b": 1, "w": 0}, spectators=2),
    lambda: PongMessage(extra=True),  # an unknown field
    lambda: MoveMessage(move=ENTRY, position=POSITION, clock=CLOCK, outcome=None, can=CAN),  # one missing
    lambda: HintMessage(type="move", ply=0, usi=None, label=None, forms=None, score_cp=None, score_mate=None),
    lambda: ClockInfo.model_validate({"enabled": True, "black": 1.5, "white": 0, "black_byoyomi": 0,
                                      "white_byoyomi": 0, "byoyomi": 0, "increment": 0, "running": None}),
    lambda: read_server_message('{"type": "presence", "v": 1, "online": {"b": true}, "spectators": 0}'),
    lambda: read_server_message('{"type": "shout", "v": 1}'),
    lambda: read_server_message('{"type": "pong", "v": "1"}'),
])
def test_a_wrong_field_fails_where_the_message_is_built(build: Any) -> None:
    with pytest.raises(ValidationError):
        build()


def test_a_message_is_frozen_once_built() -> None:
    with pytest.raises(ValidationError):
        EVERY_MESSAGE[5].spectators = 3  # type: ignore[attr-defined]


def test_a_lone_surrogate_echoed_back_still_encodes() -> None:
    message = ErrorMessage(code="bad_token", message="no player has the token 'x\udcffy' (将棋)")
    text = encode_message(message)
    text.encode("utf-8")  # valid UTF-8: the surrogate is escaped
    assert "\\udcff" in text
    assert read_server_message(text) == message


def test_a_broadcast_model_is_encoded_once_and_queued_as_its_json() -> None:
    message = EVERY_MESSAGE[2]
    first = encoded(message)
    assert encoded(message) is first
    assert first == encode_message(message)

    class Socket:
        async def send_text(self, text: str) -> None:
            """Never called: nothing is written here."""

    connection = Connection(Socket(), Role.SPECTATOR)  # type: ignore[arg-type]
    connection.send(message)
    assert connection.queue.get_nowait() == first
