"""Scale benchmark: friends' games over one web process, then over several on one database.

Several ``shogiban serve`` processes share one PostgreSQL database and tell each other of every
stored move through Redis pub/sub (``--redis``; see ``shogiban.web.bus``).  This starts a private
``redis-server`` (unless ``--redis`` names one), then for each count of ``--processes``: that many
servers on ``--db``, ``--games`` friends' games (no engines), each with its two players and one
spectator connected by websocket.  With several processes a game's black player, white player
and spectator are on DIFFERENT processes (game *i*: black on process i mod P, white on i+1, the
spectator on i+2), so every move is stored by one process and reaches the opponent through
Redis and a reload from the database on another.

Simulated humans think for a random while, then play a random legal move from the server's
``dests``/``drop_dests``.  Measured, over ``--seconds`` once every client is connected:

- acknowledgement: a human's move sent -> that player's own ``move`` broadcast (stored, validated);
- delivery to the opponent: that acknowledgement -> the opponent's receipt of the move (on
  another process when P > 1: the Redis note, the reload, the push); the same to the spectator;
- moves per second overall, and errors (``error`` messages by code, moves never acknowledged,
  connections refused or dropped).

The benchmark's own client (one asyncio process) shares the machine with the servers, so its
event-loop lag is printed too: latencies under it are the client's, not the servers'.

    python benchmarks/bench_scale.py --games 200 --seconds 30            # 1 process, then 3
    python benchmarks/bench_scale.py --games 1000 --seconds 60 --processes 3

Needs PostgreSQL (``--db``, default the ``shogiban_bench`` database on localhost; SQLite is not
for several processes) and ``redis-server`` on PATH, or ``--redis URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgresql+psycopg://shogiban:shogiban@localhost/shogiban_bench"
GRACE = 5.0  # seconds after the window for the last acknowledgements and deliveries


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ms = [1000 * v for v in values]
    return (f"median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
            f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms (n={len(ms)})")


def pick_move(position: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal move from the server's destinations (the client knows no rules)."""
    choices = [f"{frm}{to}" for frm, targets in position["dests"].items() for to in targets]
    choices += [f"{piece}*{to}" for piece, targets in position["drop_dests"].items() for to in targets]
    return rng.choice(choices) if choices else None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process *pid* (Linux), seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (Linux ``/proc/stat``)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


# --- processes -------------------------------------------------------------------------------


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("redis-server did not answer within 30 s")


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def empty_database(db: str) -> None:
    """Drop the benchmark database's tables: games left in progress by an earlier run would be
    loaded and owned by the servers, and measured along (the database is the benchmark's own)."""
    from sqlalchemy import create_engine

    from shogiban.web.store import Base

    engine = create_engine(db)
    try:
        Base.metadata.drop_all(engine)
    finally:
        engine.dispose()


def start_servers(count: int, db: str, redis_url: str, folder: Path) -> list[Server]:
    empty_database(db)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    servers: list[Server] = []
    for number in range(count):
        port = free_port()
        command = [sys.executable, "-m", "shogiban", "serve", "--port", str(port), "--db", db, "--redis", redis_url,
                   "--workers", "1", "--log-level", "warning"]
        print(f"serve {number}:", shlex.join(command).replace(db, "$DB"))
        log = folder / f"server{number}.log"
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        servers.append(Server(process, f"http://127.0.0.1:{port}", log))
    deadline = time.monotonic() + 90
    for server in servers:
        while True:
            if server.process.poll() is not None or time.monotonic() > deadline:
                for other in servers:
                    other.stop()
                raise RuntimeError(f"shogiban serve did not start: {server.log.read_text()[-2000:]}")
            try:
                if httpx.get(server.url + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    return servers


# --- clients ---------------------------------------------------------------------------------


@dataclass
class Game:
    """One game's shared record: when each ply was acknowledged to its mover and when the
    opponent and the spectator received it (``time.perf_counter`` of this one client process)."""

    id: str
    acked: dict[int, float] = field(default_factory=dict)
    to_opponent: dict[int, float] = field(default_factory=dict)
    to_spectator: dict[int, float] = field(default_factory=dict)
    over: bool = False
    computer: bool = False
    """Against the computer (level 1, with a clock), owned by another process than its player's."""
    termination: str | None = None


@dataclass
class Window:
    start: float = 0.0
    end: float = 0.0
    started: asyncio.Event = field(default_factory=asyncio.Event)


class Client:
    """One websocket client: a player (``color`` "b" or "w") or the spectator (None)."""

    def __init__(self, game: Game, ws_url: str, color: str | None, token: str | None, address: str,
                 rng: random.Random, think: tuple[float, float], window: Window, errors: Counter[str],
                 latencies: list[float]) -> None:
        self.game, self.ws_url, self.color, self.token, self.address = game, ws_url, color, token, address
        self.rng, self.think, self.window, self.errors, self.latencies = rng, think, window, errors, latencies
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.ply = -1  # highest ply this client has seen
        self.pending: tuple[str, int, float] | None = None  # (usi, ply before it, sent at)
        self.mover: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        headers = {"X-Forwarded-For": self.address}
        if self.token is not None:
            headers["Cookie"] = f"sb_{self.game.id}={self.token}"
        self.ws = await websockets.connect(f"{self.ws_url}/ws/games/{self.game.id}", additional_headers=headers,
                                           max_size=2**22, open_timeout=60, ping_interval=None)
        while self.state is None:  # the first state: the game as it stands
            self.take(json.loads(await asyncio.wait_for(self.ws.recv(), 60)), time.perf_counter())

    def take(self, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        if kind == "error":
            self.errors[f"error {message.get('code')}"] += 1
            if self.pending is not None:
                self.pending = None  # refused: this player may try again on the next state
            return
        if kind == "state":
            self.state = message
        elif kind == "move" and self.state is not None:
            self.state = {**self.state, **message}
        else:
            return
        position = self.state["position"]
        ply = position["ply"]
        if ply > self.ply and self.window.started.is_set():
            if self.color is None:
                self.game.to_spectator.setdefault(ply, now)
            elif (self.pending is not None and ply == self.pending[1] + 1
                  and position.get("last_move") == self.pending[0]):
                if kind != "move":
                    self.errors["acknowledged by a state, not a move"] += 1
                self.game.acked[ply] = now
                self.latencies.append(now - self.pending[2])
                self.pending = None
            elif ply % 2 == (0 if self.color == "b" else 1):  # the opponent's move reached me (ply ends on my turn)
                self.game.to_opponent.setdefault(ply, now)
        self.ply = max(self.ply, ply)
        outcome = self.state.get("outcome")
        if outcome:
            self.game.over = True
            if isinstance(outcome, dict):
                self.game.termination = str(outcome.get("termination"))

    def maybe_move(self) -> None:
        state = self.state
        if (self.color is None or state is None or self.pending is not None or state.get("outcome")
                or not state["can"]["move"] or not self.window.started.is_set()
                or (self.mover is not None and not self.mover.done())):
            return
        self.mover = asyncio.create_task(self.move_later(state["position"]["ply"]))

    async def move_later(self, ply: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        state = self.state
        if (state is None or state["position"]["ply"] != ply or self.pending is not None
                or time.perf_counter() >= self.window.end):
            return
        usi = pick_move(state["position"], self.rng)
        if usi is None:
            return
        self.pending = (usi, ply, time.perf_counter())
        await self.ws.send(json.dumps({"type": "move", "usi": usi, "ply": ply}))

    async def run(self) -> None:
        await self.window.started.wait()
        self.maybe_move()
        try:
            while True:
                left = self.window.end + GRACE - time.perf_counter()
                if left <= 0:
                    break
                try:
                    raw = await asyncio.wait_for(self.ws.recv(), timeout=left)
                except TimeoutError:
                    break
                self.take(json.loads(raw), time.perf_counter())
                self.maybe_move()
        except websockets.ConnectionClosed as closed:
            self.errors[f"connection closed {closed.code}"] += 1
        finally:
            if self.pending is not None and self.pending[2] < self.window.end:
                self.errors["move never acknowledged"] += 1
            if self.mover is not None:
                self.mover.cancel()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


async def loop_lag(window: Window, lags: list[float]) -> None:
    """How late this client's event loop wakes up (its share of the measured latencies)."""
    while time.perf_counter() < window.end:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        lags.append(time.perf_counter() - before - 0.05)


@dataclass
class Result:
    processes: int
    games: int
    setup: float
    seconds: float
    latencies: list[float]
    to_opponent: list[float]
    to_spectator: list[float]
    errors: Counter[str]
    games_over: int
    lags: list[float]
    cpu: list[float]
    machine: float
    log_sizes: list[int]
    log_samples: list[str] = field(default_factory=list)
    computer_games: int = 0
    engine_replies: list[float] = field(default_factory=list)
    """From the player's acknowledgement to the computer's reply reaching the player."""
    time_losses: int = 0


async def run_games(servers: list[Server], games: int, seconds: float, think: tuple[float, float],
                    seed: int, computer: int = 0) -> Result:
    rng = random.Random(seed)
    count = len(servers)
    errors: Counter[str] = Counter()
    latencies: list[float] = []
    window = Window()
    setup_started = time.perf_counter()
    records: list[Game] = []
    clients: list[Client] = []
    gate = asyncio.Semaphore(32)
    never = http.cookiejar.DefaultCookiePolicy(allowed_domains=[])  # tokens come from the JSON answers

    async with httpx.AsyncClient(timeout=60) as http_client:
        http_client.cookies.jar.set_policy(never)

        async def create(number: int) -> None:
            black, white, spectator = (servers[(number + k) % count] for k in range(3))
            # Each simulated person has an address of its own (the server limits new games and
            # spectators per address, and believes X-Forwarded-For from 127.0.0.1, as behind a proxy).
            me, friend, watcher = (f"10.{k}.{number // 250}.{number % 250 + 1}" for k in range(3))
            async with gate:
                made = await http_client.post(black.url + "/api/games", json={"mode": "friend", "color": "b"},
                                              headers={"X-Forwarded-For": me})
                if made.status_code != 201:
                    errors[f"create {made.status_code}"] += 1
                    return
                answer = made.json()
                invite = answer["invite_url"].split("invite=", 1)[1]
                joined = await http_client.post(f"{white.url}/api/games/{answer['id']}/join", json={"invite": invite},
                                                headers={"X-Forwarded-For": friend})
                if joined.status_code != 200:
                    errors[f"join {joined.status_code}"] += 1
                    return
                game = Game(answer["id"])
                records.append(game)
                made_clients = [
                    Client(game, server.url.replace("http", "ws", 1), color, token, address,
                           random.Random(rng.random()), think, window, errors, latencies)
                    for server, color, token, address in (
                        (black, "b", answer["token"], me), (white, "w", joined.json()["token"], friend),
                        (spectator, None, None, watcher))
                ]
                for client in made_clients:
                    await client.connect()
                clients.extend(made_clients)

        async def create_computer(number: int) -> None:
            # The game's owner (clock and engine) is the process that created it; its player is
            # on the next one, so every reply crosses processes.
            owner, player = servers[number % count], servers[(number + 1) % count]
            me = f"10.9.{number // 250}.{number % 250 + 1}"
            async with gate:
                made = await http_client.post(
                    owner.url + "/api/games", headers={"X-Forwarded-For": me},
                    json={"mode": "computer", "level": 1, "color": "b", "time": {"main": 300, "byoyomi": 10}})
                if made.status_code != 201:
                    errors[f"create computer {made.status_code}"] += 1
                    return
                answer = made.json()
                game = Game(answer["id"], computer=True)
                records.append(game)
                client = Client(game, player.url.replace("http", "ws", 1), "b", answer["token"], me,
                                random.Random(rng.random()), think, window, errors, latencies)
                await client.connect()
                clients.append(client)

        outcomes = await asyncio.gather(*(create(number) for number in range(games)),
                                        *(create_computer(number) for number in range(computer)),
                                        return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            errors[f"setup {type(outcome).__name__}"] += 1
    setup = time.perf_counter() - setup_started

    lags: list[float] = []
    cpu_before = [cpu_seconds(server.process.pid) for server in servers]
    machine_before = machine_ticks()
    window.start = time.perf_counter()
    window.end = window.start + seconds
    window.started.set()
    monitor = asyncio.create_task(loop_lag(window, lags))
    await asyncio.gather(*(client.run() for client in clients))
    await monitor
    cpu = [(cpu_seconds(server.process.pid) - before) for server, before in zip(servers, cpu_before, strict=True)]
    machine_after = machine_ticks()
    busy = machine_after[0] - machine_before[0]
    machine = busy / max(1, machine_after[1] - machine_before[1])
    log_sizes = [server.log.stat().st_size for server in servers]  # what follows is the clients' leaving
    await asyncio.gather(*(client.close() for client in clients))

    friends = [game for game in records if not game.computer]
    computers = [game for game in records if game.computer]
    # The computer's reply is ply + 1 after the player's acknowledged ply.
    engine_replies = [game.to_opponent[ply + 1] - at for game in computers for ply, at in game.acked.items()
                      if ply + 1 in game.to_opponent]
    time_losses = sum(1 for game in computers if game.termination == "time_forfeit")
    records = friends
    to_opponent = [game.to_opponent[ply] - at for game in records for ply, at in game.acked.items()
                   if ply in game.to_opponent]
    to_spectator = [game.to_spectator[ply] - at for game in records for ply, at in game.acked.items()
                    if ply in game.to_spectator]
    missed = sum(1 for game in records for ply in game.acked if ply not in game.to_opponent)
    if missed:
        errors["move never reached the opponent"] += missed
    return Result(count, len(records), setup, seconds, latencies, to_opponent, to_spectator, errors,
                  sum(game.over for game in records), lags, cpu, machine, log_sizes,
                  computer_games=len(computers), engine_replies=engine_replies, time_losses=time_losses)


def log_problems(text: str) -> list[str]:
    """The ERROR lines of a server log, each traceback given by its last line (the exception)."""
    problems: list[str] = []
    in_traceback = False
    for line in text.splitlines():
        if line.startswith("Traceback"):
            in_traceback = True
        elif in_traceback and line and not line[0].isspace():
            problems.append(line)
            in_traceback = False
        elif "ERROR" in line:
            problems.append(line)
    return problems


def report(result: Result, window_seconds: float) -> None:
    layout = ("one process" if result.processes == 1 else
              f"{result.processes} processes; each game's black, white and spectator on different ones")
    print(f"\n== {result.processes} process(es): {layout}")
    print(f"games: {result.games} friends' games, 3 websocket clients each, set up in {result.setup:.0f} s; "
          f"measured over {window_seconds:.0f} s (+{GRACE:.0f} s grace); {result.games_over} games ended")
    print(f"moves acknowledged: {len(result.latencies)}, {len(result.latencies) / window_seconds:.1f} moves/s overall")
    errors = ", ".join(f"{name}: {n}" for name, n in sorted(result.errors.items())) or "none"
    print(f"errors: {errors}")
    for line in result.log_samples[:9]:
        print(f"  {line}")
    print(f"human-move acknowledgement (send -> own move broadcast): {summary(result.latencies)}")
    where = "same process" if result.processes == 1 else "another process"
    print(f"delivery to the opponent ({where}), after the mover's acknowledgement: {summary(result.to_opponent)}")
    print(f"delivery to the spectator, after the mover's acknowledgement: {summary(result.to_spectator)}")
    if result.computer_games:
        print(f"computer games: {result.computer_games} (level 1, 5 min + 10 s byoyomi, the player on another "
              f"process than the owner): reply after the player's acknowledgement {summary(result.engine_replies)}; "
              f"games lost on time: {result.time_losses}")
    print(f"benchmark client's event-loop lag (50 ms sleeps): {summary(result.lags)}")
    cpu = ", ".join(f"{100 * c / window_seconds:.0f}%" for c in result.cpu)
    print(f"CPU over the window: servers {cpu} (one core = 100%); whole machine {100 * result.machine:.0f}% busy "
          f"({os.cpu_count()} cores: servers, PostgreSQL, Redis, this client and anything else)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="simultaneous friends' games (default 1000)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window, seconds (default 60)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 3],
                        help="web process counts to run, one after the other (default: 1 3)")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 8.0), metavar=("MIN", "MAX"),
                        help="human thinking time range, seconds (default 2 8)")
    parser.add_argument("--db", default=DEFAULT_DB,
                        help=f"PostgreSQL URL shared by the processes (default {DEFAULT_DB})")
    parser.add_argument("--redis", help="a running Redis, redis://HOST:PORT/N (default: start a private redis-server)")
    parser.add_argument("--computer", type=int, default=0,
                        help="also this many games against the computer with clocks (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", help="keep the servers' logs in this folder (default: a temporary one)")
    args = parser.parse_args()
    print("command:", shlex.join([sys.executable, *sys.argv]))
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(args.logs or name)
        folder.mkdir(parents=True, exist_ok=True)
        redis_process, redis_url = (None, args.redis) if args.redis else start_redis(folder)
        try:
            for count in args.processes:
                servers = start_servers(count, args.db, redis_url, folder)
                try:
                    result = asyncio.run(run_games(servers, args.games, args.seconds, tuple(args.think), args.seed,
                                                   args.computer))
                finally:
                    for server in servers:
                        server.stop()
                for server, size in zip(servers, result.log_sizes, strict=True):
                    text = server.log.read_bytes()
                    for when, part in (("during the run", text[:size]), ("as the clients left", text[size:])):
                        problems = log_problems(part.decode("utf-8", "replace"))
                        if problems:
                            result.errors[f"{server.log.name} problems {when}"] += len(problems)
                            counts = Counter(line[:200] for line in problems)
                            result.log_samples.extend(f"{server.log.name}, {when}: {n} x {line}"
                                                      for line, n in counts.most_common())
                report(result, args.seconds)
                results.append(result)
        finally:
            if redis_process is not None:
                redis_process.terminate()
                redis_process.wait(10)
    return 0 if all(result.latencies for result in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
