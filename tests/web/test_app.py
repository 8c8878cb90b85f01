"""The HTTP and websocket API, through Starlette's TestClient, with a stand-in engine."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import StandInEngine, invite_of, join_as, new_game, play, receive

from shogiban import Board
from shogiban.kifu import read_game

pytestmark = pytest.mark.timeout(60)

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def state_of(client: TestClient, game_id: str, token: str | None = None) -> dict:
    """The game over HTTP, as the holder of *token* sees it."""
    client.cookies.clear()
    if token:
        client.cookies.set(f"sb_{game_id}", token)
    response = client.get(f"/api/games/{game_id}")
    client.cookies.clear()
    assert response.status_code == 200, response.text
    return response.json()


# -- creating and playing ---------------------------------------------------------------------


def test_local_game_plays_moves_with_japanese_labels(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["you"] == "both"
        assert state["position"]["dests"]["7g"] == ["7f"]
        assert "P" not in state["position"]["drop_dests"]
        moved = play(ws, "7g7f", 0)
        assert moved["type"] == "move"
        assert moved["move"] == {"ply": 1, "usi": "7g7f", "label": "▲７六歩", "spent_ms": moved["move"]["spent_ms"],
                                 "forms": {"japanese": "▲７六歩", "western": "P-7f", "kitao": "歩-76", "csa": "+7776FU",
                                           "usi": "7g7f"}}
        assert moved["position"]["sfen"] == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
        assert moved["position"]["last_move"] == "7g7f"
        assert play(ws, "3c3d", 1)["move"]["label"] == "△３四歩"
    assert [m["usi"] for m in state_of(client, game["id"])["moves"]] == ["7g7f", "3c3d"]


def test_promotion_choices_are_sent_as_dests(client: TestClient) -> None:
    # A silver entering the zone may promote or not; a pawn on the last rank must promote.
    game = new_game(client, mode="local", sfen="4k4/9/9/3S1P3/9/9/9/9/4K4 b - 1")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        dests = join_as(ws, game["token"])["position"]["dests"]
        assert set(dests["6d"]) >= {"6c+", "6c", "5c+", "5c", "7c", "7c+"}
        assert sorted(dests["4d"]) == ["4c", "4c+"]
        moved = play(ws, "6d6c", 0)
        assert moved["position"]["sfen"].startswith("4k4/9/3S5/")


def test_illegal_move_is_refused_and_changes_nothing(client: TestClient) -> None:
    sfen = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1"
    game = new_game(client, mode="local", sfen=sfen)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for usi, code in [("P*5e", "nifu"), ("7g7f", "no_piece"), ("5i5g", "occupied"), ("zz", "invalid_move"),
                          ("5g5e", "bad_piece_move"), ("G*5e", "no_piece_in_hand")]:
            answer = play(ws, usi, 0)
            assert answer["type"] == "error", usi
            assert answer["code"] == code, answer
            assert usi in answer["message"]
    state = state_of(client, game["id"])
    assert state["position"]["sfen"] == sfen
    assert state["moves"] == []


def test_stale_ply_is_refused(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        play(ws, "7g7f", 0)
        answer = play(ws, "3c3d", 0)
        assert answer["code"] == "stale_ply"
        assert play(ws, "3c3d", 7)["code"] == "stale_ply"
    assert len(state_of(client, game["id"])["moves"]) == 1


def test_malformed_messages_get_errors_and_keep_the_socket(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        cases = [
            ("not json", "bad_json"),
            ("[1, 2]", "bad_json"),
            ('{"type": "fly"}', "unknown_type"),
            ('{"type": "move"}', "bad_message"),
            ('{"type": "move", "usi": "7g7f", "ply": "0"}', "bad_message"),
            ('{"type": "move", "usi": "7g7f", "ply": -1}', "bad_message"),
            ('{"type": "hello", "token": 12}', "bad_message"),
            ('{"type": "hello", "token": "forged"}', "bad_token"),
            ("x" * 5000, "bad_json"),
        ]
        for text, code in cases:
            ws.send_text(text)
            answer = receive(ws, "error")
            assert answer["code"] == code, (text, answer)
        ws.send_bytes(b"\xff\xfe")
        assert receive(ws, "error")["code"] == "bad_json"
        ws.send_json({"type": "ping"})
        assert receive(ws, "pong") == {"type": "pong", "v": 1}
        assert play(ws, "7g7f", 0)["type"] == "move"


# -- identities -------------------------------------------------------------------------------


def test_friend_game_join_wrong_side_and_spectators(client: TestClient) -> None:
    game = new_game(client, mode="friend", color="b")
    game_id, black = game["id"], game["token"]
    assert game["color"] == "b"
    assert state_of(client, game_id, black)["can"]["join"] is False
    waiting = state_of(client, game_id)
    assert waiting["can"]["join"] is True
    assert waiting["game"]["players"]["w"]["joined"] is False
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        join_as(ws, black)
        assert play(ws, "7g7f", 0)["code"] == "waiting"
    joined = client.post(f"/api/games/{game_id}/join", json={"invite": invite_of(game)})
    assert joined.status_code == 200
    white = joined.json()["token"]
    assert joined.json()["color"] == "w"
    client.cookies.clear()
    taken = client.post(f"/api/games/{game_id}/join", json={"invite": invite_of(game)})
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"
    client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{game_id}") as b, client.websocket_connect(f"/ws/games/{game_id}") as w, \
            client.websocket_connect(f"/ws/games/{game_id}") as spectator:
        assert join_as(b, black)["you"] == "b"
        assert join_as(w, white)["you"] == "w"
        watching = join_as(spectator, None)
        assert watching["you"] is None
        assert watching["position"]["dests"] == {}
        assert not any(watching["can"].values())
        assert play(w, "3c3d", 0)["code"] == "not_your_turn"
        for request in ({"type": "move", "usi": "7g7f", "ply": 0}, {"type": "resign"}, {"type": "undo", "ply": 0}):
            spectator.send_json(request)
            assert receive(spectator, "error")["code"] == "spectator"
        assert play(b, "7g7f", 0)["type"] == "move"
        assert receive(spectator, "move")["move"]["usi"] == "7g7f"
        assert receive(w, "move")["position"]["dests"]["3c"] == ["3d"]
        assert play(b, "2g2f", 1)["code"] == "not_your_turn"
        w.send_json({"type": "undo", "ply": 1})
        assert receive(w, "error")["code"] == "nothing_to_undo"  # gote has no move to take back
    assert len(state_of(client, game_id)["moves"]) == 1


def test_second_tab_cannot_move_for_the_other_side(client: TestClient, engine: StandInEngine) -> None:
    engine.delay = 0.3
    game = new_game(client, mode="computer", color="b")
    with client.websocket_connect(f"/ws/games/{game['id']}") as tab1, \
            client.websocket_connect(f"/ws/games/{game['id']}") as tab2:
        join_as(tab1, game["token"])
        join_as(tab2, game["token"])
        assert play(tab1, "7g7f", 0)["type"] == "move"
        assert receive(tab2, "move")["move"]["usi"] == "7g7f"
        # While the engine (gote) thinks, neither tab may move for it.
        assert play(tab2, "3c3d", 1)["code"] == "not_your_turn"
        assert receive(tab2, "move")["move"]["ply"] == 2  # the engine's reply


def test_unknown_game_everywhere(client: TestClient) -> None:
    for url in ("/api/games/nosuchgame", "/api/games/nosuchgame/record.kif"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {"type": "error", "code": "unknown_game", "message": "unknown game: 'nosuchgame'"}
    assert client.post("/api/games/nosuchgame/join", json={"invite": "x"}).status_code == 404
    with client.websocket_connect("/ws/games/nosuchgame") as ws:
        assert ws.receive_json()["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert client.get("/game/nosuchgame").status_code == 200  # the page says so itself


def test_private_link_sets_the_cookie(client: TestClient) -> None:
    game = new_game(client, mode="computer")
    response = client.get(f"/game/{game['id']}?token={game['token']}", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/game/{game['id']}"
    assert game["token"] in response.headers["set-cookie"]
    assert "HttpOnly" in response.headers["set-cookie"]
    assert client.get(f"/api/games/{game['id']}").json()["you"] == "b"


# -- ending, undo, hints, declaring ---------------------------------------------------------------


def test_resign_ends_the_game(client: TestClient, engine: StandInEngine) -> None:
    game = new_game(client, mode="computer", color="b", level=3)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "resign"})
        over = receive(ws, "state")
        assert over["outcome"] == {"termination": "resignation", "winner": "w", "detail": "sente resigned"}
        assert over["can"]["move"] is False
        assert play(ws, "7g7f", 0)["code"] == "game_over"
        ws.send_json({"type": "resign"})
        assert receive(ws, "error")["code"] == "game_over"
    assert state_of(client, game["id"])["outcome"]["termination"] == "resignation"
    assert engine.calls == []


def test_undo_takes_back_the_reply_and_the_move(client: TestClient, engine: StandInEngine) -> None:
    engine.script = ["3c3d", "8c8d"]
    game = new_game(client, mode="computer", color="b")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["can"]["undo"] is False
        ws.send_json({"type": "undo", "ply": 0})
        assert receive(ws, "error")["code"] == "nothing_to_undo"
        first = play(ws, "7g7f", 0)
        assert first["thinking"] is True
        reply = receive(ws, "move")
        assert reply["move"]["usi"] == "3c3d"
        assert reply["can"]["undo"] is True
        ws.send_json({"type": "undo", "ply": 1})
        assert receive(ws, "error")["code"] == "stale_ply"
        ws.send_json({"type": "undo", "ply": 2})
        undone = receive(ws, "state")
        assert undone["moves"] == []
        assert undone["position"]["sfen"] == START
        assert undone["can"]["move"] is True
        play(ws, "2g2f", 0)
        assert receive(ws, "move")["move"]["usi"] == "8c8d"
    assert [m["usi"] for m in state_of(client, game["id"])["moves"]] == ["2g2f", "8c8d"]


def test_undo_reopens_a_lost_game(client: TestClient, engine: StandInEngine) -> None:
    # Gote mates at once with G*5h; undo takes back the mate and sente's move.
    engine.script = ["G*5h"]
    game = new_game(client, mode="computer", color="b", sfen="4k4/9/9/9/9/9/4p4/9/4K4 b Pg 1")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        play(ws, "P*1e", 0)
        mate = receive(ws, "move")
        assert mate["outcome"]["termination"] == "checkmate"
        assert mate["outcome"]["winner"] == "w"
        assert mate["can"]["undo"] is True
        ws.send_json({"type": "undo", "ply": 2})
        reopened = receive(ws, "state")
        assert reopened["outcome"] is None
        assert reopened["position"]["ply"] == 0


def test_hint_goes_to_the_asker_only(client: TestClient, engine: StandInEngine) -> None:
    engine.script = ["2g2f"]
    game = new_game(client, mode="computer", color="b")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws, \
            client.websocket_connect(f"/ws/games/{game['id']}") as spectator:
        join_as(ws, game["token"])
        join_as(spectator, None)
        ws.send_json({"type": "hint", "ply": 0})
        hint = receive(ws, "hint")
        assert hint == {
            "type": "hint", "v": 1, "ply": 0, "usi": "2g2f", "label": "▲２六歩", "score_cp": None, "score_mate": None,
            "forms": {"japanese": "▲２六歩", "western": "P-2f", "kitao": "歩-26", "csa": "+2726FU", "usi": "2g2f"},
        }
        assert engine.calls[0].movetime is not None
        spectator.send_json({"type": "hint", "ply": 0})
        assert receive(spectator, "error")["code"] == "spectator"
        spectator.send_json({"type": "ping"})
        assert receive(spectator, ("hint", "pong"))["type"] == "pong"  # no hint came before


def test_declaration_wins_when_the_rule_allows_it(client: TestClient) -> None:
    sfen = "RRBBGGGGS/S3K4/9/9/9/9/9/9/4k4 b 2P 1"
    assert Board(sfen).can_declare_win()
    game = new_game(client, mode="local", sfen=sfen)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["can"]["declare"] is True
        ws.send_json({"type": "declare", "ply": 0})
        over = receive(ws, "state")
        assert over["outcome"]["termination"] == "entering_king"
        assert over["outcome"]["winner"] == "b"


def test_declaration_refused_without_the_points(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert join_as(ws, game["token"])["can"]["declare"] is False
        ws.send_json({"type": "declare", "ply": 0})
        error = receive(ws, "error")
        assert error["code"] == "cannot_declare"
        assert "not in the enemy camp" in error["message"]
    assert state_of(client, game["id"])["outcome"] is None


def test_loss_on_time_is_enforced_by_the_server(client: TestClient) -> None:
    game = new_game(client, mode="local", time={"main": 0.4})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["clock"]["running"] == "b"
        assert 0 < state["clock"]["black"] <= 400
        over = receive(ws, "state")  # arrives after 0.4 s without a move
        assert over["outcome"] == {"termination": "time_forfeit", "winner": "w", "detail": "sente ran out of time"}
        assert over["clock"]["black"] == 0
        assert over["clock"]["running"] is None
        assert play(ws, "7g7f", 0)["code"] == "game_over"


def test_byoyomi_resets_each_move(client: TestClient) -> None:
    game = new_game(client, mode="local", time={"main": 0, "byoyomi": 0.6})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for ply, usi in enumerate(["7g7f", "3c3d", "2g2f"]):
            time.sleep(0.35)  # well within 0.6 s each time, 1.05 s in total
            moved = play(ws, usi, ply)
            assert moved["type"] == "move", moved
            assert moved["outcome"] is None


def test_engine_moves_first_for_the_handicap_giver(client: TestClient, engine: StandInEngine) -> None:
    engine.script = ["5a4b"]
    game = new_game(client, mode="computer", color="b", handicap="香落ち", level=4)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["game"]["handicap"] == "香落ち"
        if not state["moves"]:
            receive(ws, "move")
    state = state_of(client, game["id"])
    assert state["moves"][0]["usi"] == "5a4b"
    assert state["game"]["rule"] == "27h"
    assert engine.calls[0].level == 4
    assert engine.calls[0].start_sfen.startswith("lnsgkgsn1/")


@pytest.mark.parametrize(("step", "termination", "text"), [
    ("resign", "resignation", "gote resigned"),
    ("illegal:5a5c", "illegal_move", "gote"),
    ("fail", "abandoned", "gote: the built-in engine"),  # as every front end ends a failure: that side loses
    ("win", "illegal_move", "failed declaration"),
])
def test_engine_misbehaviour_ends_its_game(client: TestClient, engine: StandInEngine, step: str, termination: str,
                                         text: str) -> None:
    engine.script = [step]
    game = new_game(client, mode="computer", color="b")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        play(ws, "7g7f", 0)
        over = receive(ws, "state")
        assert over["outcome"]["termination"] == termination
        assert over["outcome"]["winner"] == "b"
        assert text in over["outcome"]["detail"]
    assert engine.released == [game["id"]] or engine.released == []


def test_continue_from_a_record_position(client: TestClient) -> None:
    game = new_game(client, mode="computer", color="b", moves=["7g7f", "3c3d"])
    state = state_of(client, game["id"], game["token"])
    assert [m["label"] for m in state["moves"]] == ["▲７六歩", "△３四歩"]
    assert state["position"]["turn"] == "b"
    assert state["can"]["move"] is True


@pytest.mark.parametrize(("body", "code"), [
    ({"mode": "chess"}, "bad_setup"),
    ({"level": 9}, "bad_setup"),
    ({"level": True}, "bad_setup"),
    ({"handicap": "queen"}, "bad_setup"),
    ({"time": {"main": -1}}, "bad_setup"),
    ({"time": {"main": 60, "byoyomi": 10, "increment": 5}}, "bad_setup"),
    ({"time": "fast"}, "bad_setup"),
    ({"sfen": "not an sfen"}, "bad_setup"),
    ({"moves": ["7g7f", "7g7f"]}, "bad_setup"),
    ({"color": "purple"}, "bad_setup"),
    ({"opponent": "usi"}, "bad_setup"),
    ({"rule": "99"}, "bad_setup"),
])
def test_bad_new_game_requests(client: TestClient, body: dict, code: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["type"] == "error"


def test_malformed_json_body(client: TestClient) -> None:
    response = client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_json"


def test_no_engine_no_computer_games(make_client: Callable[..., TestClient]) -> None:
    client = make_client(engines=None)
    response = client.post("/api/games", json={"mode": "computer"})
    assert response.status_code == 400
    assert response.json()["code"] == "no_engine"
    assert client.get("/api/config").json()["engine"] is False


# -- records ----------------------------------------------------------------------------------------


def test_download_the_record_in_every_format(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for ply, usi in enumerate(["7g7f", "3c3d", "8h2b+", "3a2b"]):
            play(ws, usi, ply)
        ws.send_json({"type": "resign"})
        receive(ws, "state")
    kif = client.get(f"/api/games/{game['id']}/record.kif")
    assert kif.status_code == 200
    assert kif.headers["content-disposition"] == f'attachment; filename="shogiban-{game["id"]}.kif"'
    text = kif.content.decode("cp932")
    assert "２二角成" in text
    assert "投了" in text
    assert [m.usi() for m in read_game(kif.content).mainline_moves()] == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert "▲７六歩" in client.get(f"/api/games/{game['id']}/record.ki2").content.decode("cp932")
    csa = client.get(f"/api/games/{game['id']}/record.csa").content.decode("cp932")
    assert "+8822UM" in csa
    assert "%TORYO" in csa
    board = Board()
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b"]:
        board.push_usi(usi)
    assert client.get(f"/api/games/{game['id']}/record.sfen").text == board.sfen() + "\n"
    usi = client.get(f"/api/games/{game['id']}/record.usi")
    assert usi.headers["content-disposition"] == f'attachment; filename="shogiban-{game["id"]}.usi"'
    assert usi.text == "position startpos moves 7g7f 3c3d 8h2b+ 3a2b resign\n"
    header_names = [line.split("：")[0] for line in text.splitlines() if "：" in line]
    assert "先手" in header_names  # both sides, even without names
    assert "後手" in header_names
    bad = client.get(f"/api/games/{game['id']}/record.pdf")
    assert bad.status_code == 400
    assert bad.json()["code"] == "bad_record"


def test_read_a_record_with_variations_and_comments(client: TestClient, shared_data: Path) -> None:
    data = (shared_data / "kif" / "json-kifu-format" / "fork.kif").read_bytes()
    response = client.post("/api/records", content=data)
    assert response.status_code == 200, response.text
    tree = response.json()
    nodes = tree["nodes"]
    assert nodes[0]["parent"] is None
    assert nodes[0]["sfen"] == tree["start_sfen"]
    forks = [n for n in nodes if len(n["children"]) > 1]
    assert forks, "fork.kif has variations"
    for node in nodes[1:]:
        parent = nodes[node["parent"]]
        assert node["id"] in parent["children"]
        if node["usi"]:
            board = Board(parent["sfen"])
            board.push_usi(node["usi"])
            assert board.sfen() == node["sfen"]
            assert node["label"][0] in "▲△"
    game = read_game(data)
    assert len([n for n in nodes if n["usi"]]) == sum(1 for n in game.root.walk() if n.move is not None)


def test_read_a_pasted_record(client: TestClient) -> None:
    response = client.post("/api/records", json={"text": "position startpos moves 7g7f 3c3d"})
    assert response.status_code == 200
    assert [n["label"] for n in response.json()["nodes"][1:]] == ["▲７六歩", "△３四歩"]


@pytest.mark.parametrize(("content", "headers", "status", "code"), [
    (b"\x00\x01\x02 garbage \xff\xfe", {}, 400, "bad_record"),
    (b"", {}, 400, "bad_record"),
    (b"   \n", {}, 400, "bad_record"),
    (b'{"nothing": 1}', {"content-type": "application/json"}, 400, "bad_record"),
    (b"{broken json", {"content-type": "application/json"}, 400, "bad_record"),
    (b"x" * 2_100_000, {}, 413, "too_large"),
    (b"x" * 5_000_000, {}, 413, "too_large"),
], ids=["binary", "empty", "blank", "json-without-text", "broken-json", "just-too-large", "far-too-large"])
# (Short ids: a test id is put in the environment of the record workers, and megabytes there stop them starting.)
def test_broken_uploads_are_refused(client: TestClient, content: bytes, headers: dict, status: int, code: str) -> None:
    response = client.post("/api/records", content=content, headers=headers)
    assert response.status_code == status
    body = response.json()
    assert body["type"] == "error"
    assert body["code"] == code
    assert body["message"]


def test_export_a_record(client: TestClient) -> None:
    response = client.post("/api/records/export?format=csa", json={"text": "position startpos moves 7g7f"})
    assert response.status_code == 200
    assert "+7776FU" in response.content.decode("cp932")
    assert client.post("/api/records/export?format=doc", json={"text": "position startpos"}).status_code == 400


# -- pages --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("accept", "lang", "play"), [
    ("zh-TW,zh;q=0.9", "zh-Hant", "對局"),
    ("zh-CN", "zh-Hans", "对局"),
    ("ja-JP", "ja", "対局"),
    ("fr-FR, en;q=0.5", "en", "Play"),
    ("", "en", "Play"),
])
def test_pages_follow_accept_language(client: TestClient, accept: str, lang: str, play: str) -> None:
    page = client.get("/", headers={"accept-language": accept})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    assert f'data-nav="play" aria-current="page">{play}</a>' in page.text
    assert 'src="/static/js/app.js"' in page.text
    assert "https://" not in page.text  # nothing from a CDN


def test_static_assets_are_served(client: TestClient) -> None:
    for path in ("/static/js/board.js", "/static/js/i18n.js", "/static/css/app.css", "/i18n/zh-Hant.json",
                 "/static/favicon.svg"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert "export function createBoard" in client.get("/static/js/board.js").text


# -- restart ------------------------------------------------------------------------------------------


class FakeTime:
    """A settable clock for the server."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_restart_restores_games_and_clocks(make_client: Callable[..., TestClient], durable_url: str,
                                           engine: StandInEngine) -> None:
    url = durable_url
    clock = FakeTime(1_000_000.0)
    first = make_client(url, now=clock)
    engine.script = ["3c3d"]
    game = new_game(first, mode="computer", color="b", time={"main": 600, "byoyomi": 30})
    with first.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        clock.now += 12.0
        play(ws, "7g7f", 0)
        receive(ws, "move")  # the engine's reply, at once
        clock.now += 20.0  # sente thinks 20 s, then the server stops
    first.__exit__(None, None, None)

    clock.now += 3600.0  # an hour of downtime: charged to nobody
    second = make_client(url, now=clock)
    clock.now += 5.0
    state = state_of(second, game["id"], game["token"])
    assert [m["usi"] for m in state["moves"]] == ["7g7f", "3c3d"]
    assert state["you"] == "b"
    assert state["clock"]["running"] == "b"
    assert state["clock"]["black"] == (600 - 12 - 20 - 5) * 1000
    assert state["clock"]["white"] == 600 * 1000
    with second.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        assert play(ws, "2g2f", 2)["type"] == "move"


def test_restart_finishes_games_whose_time_ran_out(make_client: Callable[..., TestClient], durable_url: str) -> None:
    url = durable_url
    clock = FakeTime(2_000_000.0)
    first = make_client(url, now=clock)
    game = new_game(first, mode="local", time={"main": 10})
    clock.now += 30.0  # sente's 10 s ran out while the server was up (no move came)
    first.__exit__(None, None, None)
    clock.now += 100.0
    second = make_client(url, now=clock)
    state = state_of(second, game["id"])
    assert state["outcome"]["termination"] == "time_forfeit"
    assert state["outcome"]["winner"] == "w"


def test_restart_resumes_the_engines_turn(make_client: Callable[..., TestClient], durable_url: str,
                                         engine: StandInEngine) -> None:
    url = durable_url
    first = make_client(url, engines=None)
    # Without an engine the game waits for it; a server with one carries on.
    game = new_game(first, mode="local")
    first.__exit__(None, None, None)
    from shogiban.web.store import GameStore

    store = GameStore(url)
    store.update(game["id"], seats=[{"kind": "human"}, {"kind": "engine", "level": 1}], settings={"mode": "computer"})
    store.append_move(game["id"], 1, "7g7f", 100, store.load(game["id"]).clock)
    store.close()
    second = make_client(url)
    for _ in range(100):
        if len(state_of(second, game["id"])["moves"]) == 2:
            break
        time.sleep(0.02)
    assert len(state_of(second, game["id"])["moves"]) == 2
    assert engine.calls
    assert engine.calls[0].moves == ("7g7f",)


# -- a USI engine the server was started with ---------------------------------------------------------


@pytest.mark.parametrize(("mode", "outcome"), [("first", None), ("illegal", "illegal_move")])
def test_game_against_the_servers_usi_engine(make_client: Callable[..., TestClient], mode: str,
                                             outcome: str | None) -> None:
    import sys

    fake = Path(__file__).with_name("fake_usi_engine.py")
    client = make_client(engine_command=f"{sys.executable} {fake} {mode}")
    assert client.get("/api/config").json()["usi"] == Path(sys.executable).name
    game = new_game(client, mode="computer", opponent="usi", color="b", time={"main": 60, "byoyomi": 5})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, game["token"])
        assert state["game"]["players"]["w"]["kind"] == "usi"
        play(ws, "7g7f", 0)
        answer = receive(ws, ("move", "state"))
        if outcome is None:
            assert answer["type"] == "move"
            assert answer["move"]["ply"] == 2
        else:
            assert answer["outcome"]["termination"] == outcome
            assert "5a5e" in answer["outcome"]["detail"]


# -- 持将棋 by agreement -----------------------------------------------------------------------------

#: Both kings in their enemy camps; sente holds 24 points, gote 30.
ENTERED = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B4G4s4n4l18p 1"


def test_impasse_in_a_local_game_settles_by_points(client: TestClient) -> None:
    game = new_game(client, mode="local", sfen=ENTERED)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert join_as(ws, game["token"])["can"]["impasse"] is True
        ws.send_json({"type": "impasse", "ply": 0})
        over = receive(ws, "state")
    assert over["outcome"] == {"termination": "impasse", "winner": None, "detail": "sente 24 points, gote 30 points"}


def test_impasse_needs_both_players_in_a_friends_game(client: TestClient) -> None:
    game = new_game(client, mode="friend", color="b", sfen=ENTERED)
    white = client.post(f"/api/games/{game['id']}/join", json={"invite": invite_of(game)}).json()["token"]
    client.cookies.clear()
    url = f"/ws/games/{game['id']}"
    with client.websocket_connect(url) as b, client.websocket_connect(url) as w:
        join_as(b, game["token"])
        join_as(w, white)
        b.send_json({"type": "impasse", "ply": 0})
        offered = receive(b, "state")
        assert offered["impasse_offer"] == "b"
        assert offered["outcome"] is None
        assert offered["can"]["impasse"] is False
        seen = receive(w, "state")
        assert seen["can"]["impasse"] is True
        b.send_json({"type": "impasse", "ply": 0})
        assert receive(b, "error")["code"] == "busy"
        w.send_json({"type": "impasse", "ply": 0})
        settled = receive(w, "state")
        assert settled["outcome"]["termination"] == "impasse"


def test_impasse_refused_before_the_kings_enter(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert join_as(ws, game["token"])["can"]["impasse"] is False
        ws.send_json({"type": "impasse", "ply": 0})
        assert receive(ws, "error")["code"] == "cannot_impasse"


def test_other_sites_cannot_use_the_players_cookies(client: TestClient) -> None:
    foreign = {"origin": "https://evil.example"}
    assert client.post("/api/games", json={"mode": "local"}, headers=foreign).json()["code"] == "bad_origin"
    game = new_game(client, mode="friend")
    assert client.post(f"/api/games/{game['id']}/join", headers=foreign).status_code == 403
    with client.websocket_connect(f"/ws/games/{game['id']}", headers=foreign) as ws:
        assert ws.receive_json()["code"] == "bad_origin"
    same = {"origin": "http://testserver"}
    assert client.post("/api/games", json={"mode": "local"}, headers=same).status_code == 201


def test_finished_games_leave_memory_and_come_back(client: TestClient) -> None:
    game = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        ws.send_json({"type": "resign"})
        receive(ws, "state")
    assert game["id"] not in client.app.state.rooms.rooms  # type: ignore[attr-defined]
    state = state_of(client, game["id"])
    assert state["outcome"]["termination"] == "resignation"


# -- endings the position decides -----------------------------------------------------------------


def cycle_until_over(sfen: str, opening: list[str], cycle: list[str]) -> list[str]:
    """The *opening*, then *cycle* repeated until the board says the game is over."""
    board = Board(sfen)
    moves: list[str] = []
    for usi in opening:
        board.push_usi(usi)
        moves.append(usi)
    while board.outcome() is None:
        usi = cycle[(len(moves) - len(opening)) % len(cycle)]
        board.push_usi(usi)
        moves.append(usi)
    return moves


@pytest.mark.parametrize(("sfen", "opening", "cycle", "termination", "winner"), [
    (START, [], ["5i4h", "5a4b", "4h5i", "4b5a"], "repetition", None),
    # Sente checks with every move of the cycle: 連続王手の千日手, sente loses.
    ("4k4/9/R8/9/9/9/9/9/4K4 b - 1", ["9c9a"], ["5a5b", "9a9b", "5b5a", "9b9a"], "perpetual_check", "w"),
])
def test_repetition_endings_reach_the_players(client: TestClient, sfen: str, opening: list[str], cycle: list[str],
                                              termination: str, winner: str | None) -> None:
    moves = cycle_until_over(sfen, opening, cycle)
    game = new_game(client, mode="local", sfen=sfen)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])
        for ply, usi in enumerate(moves):
            last = play(ws, usi, ply)
    assert last["outcome"]["termination"] == termination
    assert last["outcome"]["winner"] == winner
    assert last["can"]["move"] is False


def test_a_move_the_database_refuses_is_not_played(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    from shogiban.web.store import GameStore

    game = new_game(client, mode="local", time={"main": 60})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])

        def broken(*args: object, **kwargs: object) -> None:
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        monkeypatch.setattr(GameStore, "append_move", broken)
        answer = play(ws, "7g7f", 0)
        assert answer["code"] == "storage"
        monkeypatch.undo()
        state = state_of(client, game["id"])
        assert state["moves"] == []
        assert state["position"]["turn"] == "b"
        assert state["clock"]["running"] == "b"
        assert play(ws, "7g7f", 0)["type"] == "move"


def test_a_resignation_the_store_refuses_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Write, then swap: the room shows only what is stored."""
    from sqlalchemy.exc import OperationalError

    from shogiban.web.store import GameStore

    game = new_game(client, mode="local", time={"main": 60})
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        join_as(ws, game["token"])

        def broken(*args: object, **kwargs: object) -> None:
            raise OperationalError("UPDATE", {}, Exception("disk I/O error"))

        monkeypatch.setattr(GameStore, "update", broken)
        ws.send_json({"type": "resign"})
        assert receive(ws, "error")["code"] == "storage"
        monkeypatch.undo()
        state = state_of(client, game["id"])
        assert state["outcome"] is None
        assert state["can"]["move"] is False  # a visitor without the token
        assert play(ws, "7g7f", 0)["type"] == "move"


def test_health_and_readiness(make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "database": "ok", "redis": None}
    store = client.app.state.store  # type: ignore[attr-defined]
    store.store.engine.dispose()
    (tmp_path / "games.sqlite3").unlink()
    (tmp_path / "games.sqlite3").mkdir()  # the database file is gone: unreachable
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["code"] == "not_ready"
    assert client.get("/healthz").status_code == 200
