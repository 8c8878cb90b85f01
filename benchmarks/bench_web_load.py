"""Load benchmark of the web server: many simultaneous games on one ``shogiban serve``.

Half the games are against the built-in engine at level 1, half are friends' games (two
websocket clients each).  Simulated humans think for a random while, then play a random legal
move (from the server's destinations); the figure measured is the time from sending a move to
receiving the server's acknowledgment (the ``move`` broadcast of that move, sent once it is
validated and stored).  Engine replies are not counted: they are the engine's thinking time.

    python benchmarks/bench_web_load.py                  # 100 games, 60 s
    python benchmarks/bench_web_load.py --games 20 --seconds 20
    python benchmarks/bench_web_load.py --analyses 10    # while 10 whole-game analyses are asked for

With ``--analyses N``, N finished games (random legal moves, then a resignation) are made first
and their whole-game analyses requested just before the humans start: the server analyses one
at a time in its own lowest-priority process and queues the rest, so the figure shows what the
analyses cost the moves of the games being played.  The analyses' progress is printed at the end.

Prints the command, the number of acknowledged moves and the median, 95th and 99th percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pick_move(position: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal move from the server's destinations (the client knows no rules)."""
    choices = [f"{frm}{to}" for frm, targets in position["dests"].items() for to in targets]
    choices += [f"{piece}*{to}" for piece, targets in position["drop_dests"].items() for to in targets]
    return rng.choice(choices) if choices else None


class Player:
    """One websocket client playing one side (or both, in local mode)."""

    def __init__(self, url: str, game_id: str, token: str, rng: random.Random, latencies: list[float],
                 deadline: float, think: tuple[float, float]) -> None:
        self.url = url
        self.game_id = game_id
        self.token = token
        self.rng = rng
        self.latencies = latencies
        self.deadline = deadline
        self.think = think
        self.errors = 0
        self.replies: list[float] = []
        self.is_engine_game = False

    async def run(self) -> None:
        # The player's cookie, as a browser sends it: a seat, never counted against the spectator caps.
        cookie = {"Cookie": f"sb_{self.game_id}={self.token}"}
        async with websockets.connect(f"{self.url}/ws/games/{self.game_id}", max_size=2**22,
                                      additional_headers=cookie) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            state: dict[str, Any] | None = None
            sent_at: float | None = None
            sent_usi = ""
            sent_ply = -1
            acked_at: float | None = None
            while time.monotonic() < self.deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, self.deadline - time.monotonic()))
                except TimeoutError:
                    break
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    self.errors += 1
                    sent_at = None
                    continue
                if kind == "state":
                    if message["you"] is None:
                        continue  # the first state, before hello is processed
                    state = message
                elif kind == "move" and state is not None:
                    state = {**state, **message}
                    entry = message["move"]
                    if sent_at is not None and entry["usi"] == sent_usi and entry["ply"] == sent_ply + 1:
                        acked_at = time.perf_counter()
                        self.latencies.append(acked_at - sent_at)
                        sent_at = None
                    elif acked_at is not None and message["position"]["dests"]:
                        self.replies.append(time.perf_counter() - acked_at)  # the engine's (or friend's) reply
                        acked_at = None
                else:
                    continue
                if state is None or state.get("outcome") or not state["can"]["move"] or sent_at is not None:
                    if state is not None and state.get("outcome"):
                        return
                    continue
                await asyncio.sleep(self.rng.uniform(*self.think))
                usi = pick_move(state["position"], self.rng)
                if usi is None:
                    return
                sent_usi, sent_ply = usi, state["position"]["ply"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "usi": usi, "ply": sent_ply}))


async def run_load(
    url: str, games: int, seconds: float, think: tuple[float, float], seed: int
) -> tuple[list[float], int, list[float]]:
    rng = random.Random(seed)
    latencies: list[float] = []
    players: list[Player] = []
    deadline = time.monotonic() + seconds + 5
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for number in range(games):
            # Each simulated player comes from an address of its own (the server limits new games
            # per address, and believes X-Forwarded-For from 127.0.0.1, as behind a proxy).
            me = {"x-forwarded-for": f"10.0.{number // 250}.{number % 250 + 1}"}
            friend = {"x-forwarded-for": f"10.1.{number // 250}.{number % 250 + 1}"}
            if number % 2 == 0:
                answer = (await client.post("/api/games", json={"mode": "computer", "level": 1, "color": "b"},
                                            headers=me)).json()
                player = Player(url.replace("http", "ws"), answer["id"], answer["token"], random.Random(rng.random()),
                                latencies, deadline, think)
                player.is_engine_game = True
                players.append(player)
            else:
                answer = (await client.post("/api/games", json={"mode": "friend", "color": "b"}, headers=me)).json()
                client.cookies.clear()
                invite = answer["invite_url"].split("?invite=", 1)[1]
                joined = (await client.post(f"/api/games/{answer['id']}/join", json={"invite": invite},
                                            headers=friend)).json()
                client.cookies.clear()
                players.extend(
                    Player(url.replace("http", "ws"), answer["id"], token, random.Random(rng.random()),
                           latencies, deadline, think)
                    for token in (answer["token"], joined["token"])
                )
    await asyncio.gather(*(player.run() for player in players))
    engine_replies = [t for player in players if player.is_engine_game
                      for t in player.replies]
    return latencies, sum(player.errors for player in players), engine_replies


async def finished_game(client: httpx.AsyncClient, url: str, number: int, plies: int, rng: random.Random) -> str:
    """A local game of *plies* random legal moves, then resigned; its id."""
    me = {"x-forwarded-for": f"10.2.{number // 250}.{number % 250 + 1}"}
    answer = (await client.post("/api/games", json={"mode": "local"}, headers=me)).json()
    client.cookies.clear()
    cookie = {"Cookie": f"sb_{answer['id']}={answer['token']}"}
    async with websockets.connect(f"{url.replace('http', 'ws')}/ws/games/{answer['id']}", max_size=2**22,
                                  additional_headers=cookie) as ws:
        await ws.send(json.dumps({"type": "hello", "token": answer["token"]}))
        resigned = False
        position: dict[str, Any] | None = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            if message.get("outcome"):
                return str(answer["id"])  # resigned, or ended by a move (mate, repetition)
            if message["type"] == "move" or (message["type"] == "state" and message["you"] is not None):
                position = message["position"]
            elif message["type"] != "error" or position is None:
                continue  # presence notes
            # (after an error, such as a pawn drop that would mate: another move in the same position)
            usi = pick_move(position, rng) if position["ply"] < plies else None
            if usi is None:
                if not resigned:
                    await ws.send(json.dumps({"type": "resign"}))
                    resigned = True
                continue
            await asyncio.sleep(0.06)  # under the server's message rate (20 a second)
            await ws.send(json.dumps({"type": "move", "usi": usi, "ply": position["ply"]}))


async def analysis_progress(url: str, game_ids: list[str]) -> tuple[int, int, int]:
    """(finished analyses, positions analysed, positions asked for) of *game_ids*."""
    finished = done = total = 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for game_id in game_ids:
            answer = (await client.get(f"/api/games/{game_id}/analysis")).json()
            finished += answer.get("status") == "done"
            done += answer.get("done") or 0
            total += answer.get("total") or 0
    return finished, done, total


async def request_analyses(url: str, count: int, plies: int, seed: int) -> list[str]:
    """Make *count* finished games and ask for their analyses; their ids."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        game_ids = [await finished_game(client, url, number, plies, rng) for number in range(count)]
        for number, game_id in enumerate(game_ids):
            asked = await client.post(f"/api/games/{game_id}/analysis",
                                      headers={"x-forwarded-for": f"10.3.0.{number + 1}"})
            if asked.status_code not in (200, 202):
                raise SystemExit(f"analysis of {game_id} refused: {asked.status_code} {asked.text}")
    return game_ids


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="simultaneous games (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the humans play (default 60)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"),
                        help="human thinking time range, seconds (default 0.5 2.0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--analyses", type=int, default=0,
                        help="whole-game analyses asked for while the games are played (default 0)")
    parser.add_argument("--analysis-plies", type=int, default=80, help="moves of each analysed game (default 80)")
    args = parser.parse_args()
    print("command:", shlex.join([sys.executable, *sys.argv]), flush=True)
    server = None
    url = args.url
    with tempfile.TemporaryDirectory() as folder:
        if url is None:
            port = free_port()
            command = [sys.executable, "-m", "shogiban", "serve", "--port", str(port),
                       "--db", f"sqlite:///{Path(folder) / 'load.sqlite3'}", "--log-level", "warning"]
            print("server: ", shlex.join(command))
            server = subprocess.Popen(command, cwd=ROOT)
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if httpx.get(url + "/api/config", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
        analysed: list[str] = []
        progress = (0, 0, 0)
        try:
            if args.analyses:
                analysed = asyncio.run(request_analyses(url, args.analyses, args.analysis_plies, args.seed))
            started = time.monotonic()
            latencies, errors, replies = asyncio.run(
                run_load(url, args.games, args.seconds, tuple(args.think), args.seed)
            )
            elapsed = time.monotonic() - started
            if analysed:
                progress = asyncio.run(analysis_progress(url, analysed))
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
    if not latencies:
        print("no move was acknowledged")
        return 1
    ms = [1000 * v for v in latencies]
    print(f"games: {args.games} ({(args.games + 1) // 2} against level-1 engines), {elapsed:.0f} s, "
          f"{len(ms)} human moves acknowledged, {errors} errors")
    print(f"acknowledgment latency: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    if analysed:
        print(f"whole-game analyses asked for: {len(analysed)} ({args.analysis_plies} moves each); by the end "
              f"{progress[0]} finished, {progress[1]} of {progress[2]} positions analysed")
    if replies:
        print(f"level-1 engine replies: {len(replies)}, median {1000 * statistics.median(replies):.0f} ms, "
              f"p95 {1000 * percentile(replies, 0.95):.0f} ms (engine thinking and queueing, not counted above)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
