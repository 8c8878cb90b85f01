"""A friend's game: the invitation is its own single-use secret, the watch link never gives a
seat, and a token in an address is checked before it becomes a cookie (finding 6)."""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import quote

import pytest
from sqlalchemy import text
from starlette.testclient import TestClient
from tests.web.conftest import invite_of, join_as, new_game, receive

from shogiban.web.store import GameStore, StoredGame

pytestmark = pytest.mark.timeout(60)
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def api_state(client: TestClient, game_id: str) -> dict:
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    body: dict = answer.json()
    return body


def test_the_creator_gets_a_watch_link_and_a_separate_invitation(client: TestClient) -> None:
    game = new_game(client, mode="friend", color="b")
    secret = invite_of(game)
    assert game["url"] == f"/game/{game['id']}"
    assert game["invite_url"] == f"/game/{game['id']}?invite={secret}"
    assert len(secret) >= 20
    assert secret != game["token"]
    assert "invite_url" not in new_game(client, mode="local")
    assert "invite_url" not in new_game(client, mode="computer")
    # The creator (by cookie) sees the invitation; a spectator sees neither it nor a token.
    client.cookies.set(f"sb_{game['id']}", game["token"])
    assert api_state(client, game["id"])["invite_url"] == game["invite_url"]
    client.cookies.clear()
    watching = api_state(client, game["id"])
    assert "invite_url" not in watching
    assert "token" not in watching
    assert secret not in json.dumps(watching)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = join_as(ws, None)
        assert secret not in json.dumps(state)
        ws.send_json({"type": "hello", "token": game["token"]})
        assert secret not in json.dumps(receive(ws, "state"))


def test_the_watch_link_never_gives_a_seat(client: TestClient) -> None:
    game = new_game(client, mode="friend", color="w")
    page = client.get(game["url"], follow_redirects=False)
    assert page.status_code == 200
    assert "set-cookie" not in page.headers
    assert "data-invite" not in page.text
    bodies = ({}, {"invite": None}, {"invite": "guess"}, {"invite": game["token"]}, {"invite": invite_of(game)[:-1]})
    for body in bodies:
        refused = client.post(f"/api/games/{game['id']}/join", json=body)
        assert refused.status_code == 403, body
        assert refused.json()["code"] == "bad_invite"
        assert "set-cookie" not in refused.headers
    waiting = api_state(client, game["id"])
    assert waiting["game"]["players"]["b"]["joined"] is False
    assert waiting["you"] is None


def test_the_invitation_is_used_once(client: TestClient) -> None:
    game = new_game(client, mode="friend", color="b")
    secret = invite_of(game)
    page = client.get(game["invite_url"], follow_redirects=False)
    assert page.status_code == 200
    assert f'data-invite="{secret}"' in page.text
    assert "set-cookie" not in page.headers  # opening the invitation takes no seat yet
    joined = client.post(f"/api/games/{game['id']}/join", json={"invite": secret})
    assert joined.status_code == 200
    assert joined.json()["color"] == "w"
    friend = joined.json()["token"]
    # The friend opening the invitation again goes to the game as its player.
    again = client.get(game["invite_url"], follow_redirects=False)
    assert again.status_code == 303
    assert again.headers["location"] == game["url"]
    client.cookies.clear()
    used = client.get(game["invite_url"], follow_redirects=False)
    assert used.status_code == 403
    assert 'data-error="bad_invite"' in used.text
    assert "set-cookie" not in used.headers
    second = client.post(f"/api/games/{game['id']}/join", json={"invite": secret})
    assert second.status_code == 409
    assert second.json()["code"] == "seat_taken"
    client.cookies.set(f"sb_{game['id']}", game["token"])
    assert "invite_url" not in api_state(client, game["id"])
    client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert join_as(ws, friend)["you"] == "w"


def test_a_token_in_the_address_is_checked_before_the_cookie(client: TestClient) -> None:
    game = new_game(client, mode="computer")
    for token in ("forged", game["token"][:-1], "a b;c", "x" * 300, "将棋"):
        answer = client.get(f"{game['url']}?token={quote(token)}", follow_redirects=False)
        assert answer.status_code == 403, token
        assert 'data-error="bad_token"' in answer.text
        assert "set-cookie" not in answer.headers
    unknown = client.get(f"/game/nosuchgame?token={game['token']}", follow_redirects=False)
    assert unknown.status_code == 404
    assert "set-cookie" not in unknown.headers
    good = client.get(f"{game['url']}?token={game['token']}", follow_redirects=False)
    assert good.status_code == 303
    assert game["token"] in good.headers["set-cookie"]


def test_the_invitation_survives_a_restart(make_client: Callable[..., TestClient], durable_url: str) -> None:
    first = make_client(durable_url)
    game = new_game(first, mode="friend", color="b")
    first.__exit__(None, None, None)
    second = make_client(durable_url)
    assert second.post(f"/api/games/{game['id']}/join", json={"invite": "wrong"}).status_code == 403
    joined = second.post(f"/api/games/{game['id']}/join", json={"invite": invite_of(game)})
    assert joined.status_code == 200, joined.text
    second.__exit__(None, None, None)
    third = make_client(durable_url)
    assert third.post(f"/api/games/{game['id']}/join", json={"invite": invite_of(game)}).status_code == 409


def test_an_older_database_gets_the_invitation_column(make_client: Callable[..., TestClient], durable_url: str) -> None:
    store = GameStore(durable_url)
    waiting = StoredGame(id="oldwait1", start_sfen=START, settings={"mode": "friend"},
                         seats=[{"kind": "human"}, {"kind": "human"}], tokens=["creator", None], status="waiting",
                         clock={}, created_at=1.0)
    store.create(waiting)
    store.create(StoredGame(id="oldplay1", start_sfen=START, settings={"mode": "local"}, seats=waiting.seats,
                            tokens=["t", "t"], status="playing", clock={}, created_at=1.0))
    with store.engine.begin() as connection:  # as the table was before invitations
        connection.execute(text("ALTER TABLE games DROP COLUMN invite_token"))
    store.close()
    upgraded = GameStore(durable_url)
    loaded, playing = upgraded.load("oldwait1"), upgraded.load("oldplay1")
    upgraded.close()
    assert loaded is not None
    assert playing is not None
    assert loaded.invite
    assert playing.invite is None
    client = make_client(durable_url)
    client.cookies.set("sb_oldwait1", "creator")
    invite_url = api_state(client, "oldwait1")["invite_url"]
    client.cookies.clear()
    joined = client.post("/api/games/oldwait1/join", json={"invite": invite_url.split("=", 1)[1]})
    assert joined.status_code == 200, joined.text


def test_the_token_cookie_is_secure_over_https(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    plain = client.post("/api/games", json={"mode": "local"})
    assert "secure" not in plain.headers["set-cookie"].lower()
    secure = TestClient(client.app, base_url="https://testserver").post("/api/games", json={"mode": "local"})
    assert "secure" in secure.headers["set-cookie"].lower()
    assert "httponly" in secure.headers["set-cookie"].lower()
