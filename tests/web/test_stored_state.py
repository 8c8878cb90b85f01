"""The game core's state stored and restored as a whole (issue "One player, one stored game
state"): a second server on the same database continues a game with its clocks and a pending
持将棋 proposal (bug 5), and games stored before the ``state`` column keep playing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient
from tests.web.conftest import invite_of, join_as, new_game, receive

from shogiban.game import GameState
from shogiban.web.rooms import GameRoom, restored_state, stored_state
from shogiban.web.store import GameRow, GameStore

#: Both kings in their enemy camps; sente holds 24 points, gote 30.
ENTERED = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B4G4s4n4l18p 1"


def friends_game(client: TestClient) -> tuple[dict[str, str], str]:
    game = new_game(client, mode="friend", color="b", sfen=ENTERED, time={"main": 600})
    white = client.post(f"/api/games/{game['id']}/join", json={"invite": invite_of(game)}).json()["token"]
    client.cookies.clear()
    return game, white


def test_a_pending_impasse_proposal_survives_a_restart(make_client: Callable[..., TestClient],
                                                       durable_url: str) -> None:
    first = make_client(durable_url)
    game, white = friends_game(first)
    with first.websocket_connect(f"/ws/games/{game['id']}") as b:
        join_as(b, game["token"])
        b.send_json({"type": "impasse", "ply": 0})
        assert receive(b, "state")["impasse_offer"] == "b"
    first.__exit__(None, None, None)

    second = make_client(durable_url)  # another server process on the same database
    second.cookies.clear()
    url = f"/ws/games/{game['id']}"
    with second.websocket_connect(url) as b, second.websocket_connect(url) as w:
        assert join_as(b, game["token"])["impasse_offer"] == "b"
        seen = join_as(w, white)
        assert seen["impasse_offer"] == "b"
        assert seen["can"]["impasse"] is True
        w.send_json({"type": "impasse", "ply": 0})
        settled = receive(w, "state")
        assert settled["outcome"]["termination"] == "impasse"


def test_a_game_stored_before_the_state_column_keeps_playing(make_client: Callable[..., TestClient],
                                                             tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/old.sqlite3"
    first = make_client(url)
    game = new_game(first, mode="local")
    with first.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "move", "usi": "7g7f", "ply": 0})
        receive(ws, "move")
    first.__exit__(None, None, None)
    store = GameStore(url)
    with store._session.begin() as session:  # as an older server left it
        session.execute(update(GameRow).values(state=None))
    store.close()

    second = make_client(url)
    with second.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert [m["usi"] for m in state["moves"]] == ["7g7f"]
        ws.send_json({"type": "move", "usi": "3c3d", "ply": 1})
        assert receive(ws, "move")["move"]["usi"] == "3c3d"
    stored = GameStore(url)
    assert stored.load(game["id"]).state is not None  # written again with the next change
    stored.close()


def test_the_stored_form_round_trips_the_core_state() -> None:
    from shogiban.game import ImpasseAgreement, Mode, apply

    state = GameState.new(mode=Mode.FRIEND, now=0.0, start_sfen=ENTERED)
    offered, _ = apply(state, ImpasseAgreement(), 1.0)
    form = stored_state(offered)
    assert form["version"] == 1
    assert "moves" not in form
    assert "clock" not in form
    rebuilt = restored_state(form, GameState.new(mode=Mode.FRIEND, now=0.0, start_sfen=ENTERED))
    assert rebuilt.impasse_offer == offered.impasse_offer
    assert rebuilt.to_dict() | {"clock": None} == offered.to_dict() | {"clock": None}


def test_stored_outcomes_are_the_cores_and_older_rows_still_read() -> None:
    from shogiban.outcome import Outcome, Termination
    from shogiban.pieces import Color
    from shogiban.web.rooms import _outcome_from_json

    outcome = Outcome(Termination.RESIGNATION, Color.WHITE, "sente resigned")
    assert _outcome_from_json(outcome.to_dict()) == outcome
    assert _outcome_from_json({"termination": "resignation", "winner": "w", "detail": "sente resigned"}) == outcome
    assert _outcome_from_json(None) is None


def test_a_move_stored_elsewhere_is_taken_alone_and_gives_the_same_game(
        make_client: Callable[..., TestClient], tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two servers on one database (no Redis here: the second is told of the change by hand, as
    # its note handler would be): the second takes the new move alone, and its game is the one
    # a full reload gives.
    url = f"sqlite:///{tmp_path}/two.sqlite3"
    first, second = make_client(url), make_client(url)
    game = new_game(first, mode="local")
    url_ws = f"/ws/games/{game['id']}"
    rooms = second.app.state.rooms  # type: ignore[attr-defined]
    reloads: list[str] = []
    whole_reload = GameRoom.reload

    async def counted(self: GameRoom, fresh: GameRoom) -> None:
        reloads.append(self.id)
        await whole_reload(self, fresh)

    monkeypatch.setattr(GameRoom, "reload", counted)
    with second.websocket_connect(url_ws) as watcher:
        join_as(watcher, None)
        with first.websocket_connect(url_ws) as ws:
            join_as(ws, game["token"])
            for ply, usi in enumerate(("7g7f", "3c3d", "8h2b+")):
                ws.send_json({"type": "move", "usi": usi, "ply": ply})
                receive(ws, "move")
                second.portal.call(rooms.changed, game["id"], ply + 1)  # type: ignore[union-attr]
                seen = receive(watcher, "state")
                assert seen["position"]["ply"] == ply + 1
    assert len(reloads) == 1  # the first move read the game; the next two were taken alone
    room = rooms.rooms[game["id"]]
    whole = GameStore(url)
    try:
        stored = whole.load(game["id"])
    finally:
        whole.close()
    assert stored is not None
    assert [m.usi for m in room.state.moves] == [usi for usi, _ in stored.moves]
    assert room.state.board().sfen() == first.get(f"/api/games/{game['id']}").json()["position"]["sfen"]
    assert [entry["label"] for entry in room.moves()] == ["▲７六歩", "△３四歩", "▲２二角成"]
