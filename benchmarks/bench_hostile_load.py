"""One hostile visitor against everyone else (issue "Hardening, round 2"): while one client does
the four attacks the outside test found, a victim's game against the computer is measured.

The hostile client, all from one address, at once:

1. opens 200 websockets on the victim game's public watch link (and keeps those it gets);
2. opens 40 raw websockets on a game of its own and never reads them, while it plays;
3. loops move/undo against the computer at level 8 as fast as the message rate allows;
4. keeps 40 mate searches (R+B in hand, each runs to the solver's 5 s limit) in flight.

The victim plays a game against the computer (level 8, 5 s byoyomi) from another websocket,
a random legal move a second.  Measured: the victim's human-move acknowledgement (sent to the
``move`` broadcast, p50/p95/max), the engine's move times (each must stay inside the byoyomi:
no loss on time), and the server's resident memory (sampled each second: start, peak, end).

    python benchmarks/bench_hostile_load.py                # 60 s
    python benchmarks/bench_hostile_load.py --seconds 30

Targets (the issue): acknowledgement p95 under 50 ms, no loss on time, memory bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
HEAVY = {"sfen": "4k4/9/9/9/9/9/9/9/9 b RB 1", "defender_hand": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def pick_move(position: dict[str, Any], rng: random.Random) -> str | None:
    choices = [f"{frm}{to}" for frm, targets in position["dests"].items() for to in targets]
    choices += [f"{piece}*{to}" for piece, targets in position["drop_dests"].items() for to in targets]
    return rng.choice(choices) if choices else None


async def new_game(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    answer = await http.post("/api/games", json=body)
    answer.raise_for_status()
    game: dict[str, Any] = answer.json()
    return game


async def victim(base: str, ws_base: str, until: float, acks: list[float], engine_times: list[float],
                 result: dict[str, Any]) -> None:
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        game = await new_game(http, mode="computer", level=8, color="b", time={"main": 0, "byoyomi": 5})
    cookie = f"sb_{game['id']}={game['token']}"
    async with websockets.connect(f"{ws_base}/ws/games/{game['id']}", additional_headers={"Cookie": cookie},
                                  max_size=None) as ws:
        state: dict[str, Any] = {}
        while state.get("type") != "state":
            state = json.loads(await ws.recv())
        position = state["position"]
        while time.monotonic() < until:
            if position["turn"] != "b":
                started = time.monotonic()
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "move":
                        engine_times.append(time.monotonic() - started)
                        position = message["position"]
                        break
                    if message["type"] == "state":
                        position = message["position"]
                        break
                if message.get("outcome"):
                    result["outcome"] = message["outcome"]
                    return
                continue
            await asyncio.sleep(1.0)
            move = pick_move(position, rng)
            if move is None:
                return
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "move", "usi": move, "ply": position["ply"]}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "move" and message["move"]["usi"] == move:
                    acks.append(time.monotonic() - sent)
                    position = message["position"]
                    break
                if message["type"] == "error":
                    raise RuntimeError(f"victim's move refused: {message}")
            if message.get("outcome"):
                result["outcome"] = message["outcome"]
                return
        result["outcome"] = None
        result["game"] = game["id"]


async def strangers(ws_base: str, game_id: str, until: float, counts: dict[str, int]) -> None:
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(200):
            try:
                ws = await stack.enter_async_context(websockets.connect(f"{ws_base}/ws/games/{game_id}",
                                                                        max_queue=None, open_timeout=30))
                first = json.loads(await ws.recv())
                counts["refused" if first["type"] == "error" else "watching"] += 1
            except (OSError, websockets.exceptions.WebSocketException):
                counts["refused"] += 1
        while time.monotonic() < until:
            await asyncio.sleep(0.5)


async def silent_and_undo(base: str, port: int, ws_base: str, until: float, counts: dict[str, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        game = await new_game(http, mode="computer", level=8, color="b", time={"main": 0, "byoyomi": 5})
    raws = []
    for _ in range(40):
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"GET /ws/games/{game['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        raws.append(writer)  # never read
    cookie = f"sb_{game['id']}={game['token']}"
    try:
        async with websockets.connect(f"{ws_base}/ws/games/{game['id']}", additional_headers={"Cookie": cookie},
                                      max_size=None, max_queue=None) as ws:
            async def drain() -> None:
                async for _ in ws:
                    pass
            draining = asyncio.create_task(drain())
            while time.monotonic() < until:
                await ws.send(json.dumps({"type": "move", "usi": "7g7f", "ply": 0}))
                await ws.send(json.dumps({"type": "undo", "ply": 1}))
                counts["undo_pairs"] += 1
                await asyncio.sleep(0.1)  # 20 messages a second: the rate a connection is allowed
            draining.cancel()
    finally:
        for writer in raws:
            writer.close()


async def solves(base: str, until: float, counts: dict[str, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def one() -> None:
            while time.monotonic() < until:
                try:
                    answer = await http.post("/api/positions/solve", json=HEAVY)
                except httpx.HTTPError as error:
                    counts[f"solve_{type(error).__name__}"] = counts.get(f"solve_{type(error).__name__}", 0) + 1
                    await asyncio.sleep(0.05)
                    continue
                counts[f"solve_{answer.status_code}"] = counts.get(f"solve_{answer.status_code}", 0) + 1
                if answer.status_code != 200:
                    await asyncio.sleep(0.05)
        await asyncio.gather(*(one() for _ in range(40)))


async def run(seconds: float, port: int, pid: int, attacks: set[str]) -> dict[str, Any]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    until = time.monotonic() + seconds
    acks: list[float] = []
    engine_times: list[float] = []
    result: dict[str, Any] = {}
    counts: dict[str, int] = {"watching": 0, "refused": 0, "undo_pairs": 0, "solve_200": 0, "solve_429": 0,
                              "solve_503": 0}
    memory = [rss_mb(pid)]

    async def sample() -> None:
        while time.monotonic() < until + 5:
            await asyncio.sleep(1.0)
            memory.append(rss_mb(pid))

    victim_task = asyncio.create_task(victim(base, ws_base, until, acks, engine_times, result))
    await asyncio.sleep(1.0)  # the victim's game exists; attack its watch link
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        watched = await new_game(http, mode="local")
    tasks = [asyncio.create_task(sample())]
    if "watch" in attacks:
        tasks.append(asyncio.create_task(strangers(ws_base, watched["id"], until, counts)))
    if "undo" in attacks:
        tasks.append(asyncio.create_task(silent_and_undo(base, port, ws_base, until, counts)))
    if "solve" in attacks:
        tasks.append(asyncio.create_task(solves(base, until, counts)))
    await asyncio.gather(victim_task, *tasks)
    return {"acks": acks, "engine_times": engine_times, "result": result, "counts": counts, "memory": memory}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--attacks", default="watch,undo,solve",
                        help="which attacks to make (watch: 200 strangers; undo: 40 silent clients and move/undo "
                             "loops; solve: 40 solves in flight); none for the victim alone")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "shogiban", "serve", "--port", str(port), "--log-level", "warning",
             "--db", f"sqlite:///{Path(tmp) / 'games.sqlite3'}"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/config", timeout=2)
                    break
                except httpx.HTTPError:
                    time.sleep(0.3)
            report = asyncio.run(run(args.seconds, port, server.pid, set(args.attacks.split(","))))
        finally:
            server.terminate()
            server.wait(30)
    acks, engine_times, memory = report["acks"], report["engine_times"], report["memory"]
    print("$", shlex.join([Path(sys.executable).name, *sys.argv]))
    print(f"hostile client: {report['counts']}")
    if acks:
        print(f"victim's moves acknowledged: {len(acks)}; median {statistics.median(acks) * 1000:.1f} ms, "
              f"p95 {percentile(acks, 0.95) * 1000:.1f} ms, max {max(acks) * 1000:.1f} ms")
    if engine_times:
        print(f"victim's engine moves: {len(engine_times)}; median {statistics.median(engine_times):.2f} s, "
              f"max {max(engine_times):.2f} s (byoyomi 5 s)")
    outcome = report["result"].get("outcome")
    print(f"victim's game: {'still playing' if outcome is None else outcome}")
    print(f"server memory: start {memory[0]:.0f} MB, peak {max(memory):.0f} MB, end {memory[-1]:.0f} MB")
    lost_on_time = bool(outcome) and "time" in json.dumps(outcome)
    return 1 if lost_on_time or (acks and percentile(acks, 0.95) > 0.05) else 0


if __name__ == "__main__":
    sys.exit(main())
