"""The browser's person on the game core's one player protocol: in the process that runs the
game, a person's move is their :class:`shogiban.game.QueuedPlayer`'s decision, with the clock as
its deadline (:func:`shogiban.game.choose_in_time`), as the computer's is its player's."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import join_as, new_game, play, receive

from shogiban import game
from shogiban.game import Decision, GameState, Player, QueuedPlayer


@pytest.fixture
def decided(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Decision]]:
    """Every decision a player of the web rooms returns, with the player's kind."""
    seen: list[tuple[str, Decision]] = []
    original = game.choose_in_time

    async def recording(player: Player, state: GameState, now: Any) -> Decision:
        decision = await original(player, state, now)
        seen.append(("person" if isinstance(player, QueuedPlayer) else "computer", decision))
        return decision

    monkeypatch.setattr(game, "choose_in_time", recording)
    return seen


def test_a_persons_moves_are_their_players_decisions(client: TestClient, decided: list[tuple[str, Decision]]) -> None:
    game_info = new_game(client, mode="computer", side="b", level=1)
    with client.websocket_connect(f"/ws/games/{game_info['id']}") as ws:
        join_as(ws, game_info["token"])
        assert play(ws, "7g7f", 0)["type"] == "move"
        receive(ws, "move")  # the computer's reply
        assert play(ws, "2g2f", 2)["type"] == "move"
    kinds = [(kind, type(decision).__name__) for kind, decision in decided]
    assert kinds[:3] == [("person", "PlayMove"), ("computer", "PlayMove"), ("person", "PlayMove")]
    assert decided[0][1] == game.PlayMove("7g7f", ply=0)


def test_a_refused_move_is_answered_to_its_sender_and_the_person_decides_again(
    client: TestClient, decided: list[tuple[str, Decision]],
) -> None:
    game_info = new_game(client, mode="local")
    with client.websocket_connect(f"/ws/games/{game_info['id']}") as ws:
        join_as(ws, game_info["token"])
        assert play(ws, "7g7f", 0)["type"] == "move"
        refused = play(ws, "3c3e", 1)  # a pawn cannot move two squares
        assert (refused["type"], refused["code"]) == ("error", "bad_piece_move")
        assert play(ws, "3c3d", 1)["type"] == "move"
    # The request is checked where it arrives: a refused move is not handed to the player.
    assert [decision for _, decision in decided] == [game.PlayMove("7g7f", ply=0), game.PlayMove("3c3d", ply=1)]


def test_the_clock_is_the_persons_deadline(client: TestClient, decided: list[tuple[str, Decision]]) -> None:
    game_info = new_game(client, mode="local", time={"main": 0.3})
    with client.websocket_connect(f"/ws/games/{game_info['id']}") as ws:
        join_as(ws, game_info["token"])
        over = receive(ws, "state")  # no move: the deadline passes
        assert over["outcome"]["termination"] == "time_forfeit"
    assert ("person", game.FlagFall()) in decided
