"""Computer-move latency through the Redis job queue (``shogiban worker``) against in-process
thinking (the web server's own :class:`~shogiban.web.thinking.BuiltinEngines` pool).

Each request asks for a computer move at ``--level`` with a fixed ``--movetime`` from positions
of ``benchmarks/positions.sfen``, one at a time (latency, not throughput): the time from ``think()`` called
to its answer.  The queue's cost is the difference: enqueue, a worker's dequeue and fork of its
work horse, the reply through Redis, the web side's wait.  Starts a private ``redis-server``
(unless ``--redis`` names one) and ``--workers`` worker processes.

    python benchmarks/bench_workers.py --requests 40
    python benchmarks/bench_workers.py --requests 200 --level 3 --movetime 0.2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from shogiban.web.thinking import BuiltinEngines, Thinker, ThinkRequest  # noqa: E402

POSITIONS = Path(__file__).with_name("positions.sfen")


def requests(count: int, level: int, movetime: float) -> list[ThinkRequest]:
    """Computer moves in the middle games of ``positions.sfen`` (real searches, not openings)."""
    sfens = [line.strip() for line in POSITIONS.read_text().splitlines() if line.strip()]
    return [ThinkRequest(sfens[i % len(sfens)], (), level=level, movetime=movetime, game_id=f"bench-{i}", seed=i)
            for i in range(count)]


async def measure(thinker: Thinker, asked: list[ThinkRequest]) -> list[float]:
    times = []
    for request in asked:
        request = ThinkRequest(**{**{f: getattr(request, f) for f in request.__slots__}, "asked_at": time.monotonic()})
        started = time.perf_counter()
        await thinker.think(request)
        times.append(time.perf_counter() - started)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{name:<22} n={len(times):<4} median {statistics.median(times) * 1000:7.1f} ms   "
            f"p95 {p95 * 1000:7.1f} ms   max {ordered[-1] * 1000:7.1f} ms")


async def run(args: argparse.Namespace, url: str) -> None:
    from shogiban.web.job_queue import QueuedEngines

    asked = requests(args.requests, args.level, args.movetime)
    local = BuiltinEngines(1)
    try:
        await measure(local, asked[:3])  # the pool's process started and warm
        in_process = await measure(local, asked)
    finally:
        await local.close()
    queued = QueuedEngines(BuiltinEngines(1), url)
    try:
        await measure(queued, asked[:3])
        through_queue = await measure(queued, asked)
        assert queued.queued_jobs == len(asked) + 3, "some requests did not go through the queue"
    finally:
        await queued.close()
    print(f"level {args.level}, movetime {args.movetime} s, {args.workers} worker(s), one request at a time")
    print(summary("in-process", in_process))
    print(summary("through the job queue", through_queue))
    overhead = [q - p for q, p in zip(sorted(through_queue), sorted(in_process), strict=True)]
    print(f"queue overhead: median {statistics.median(overhead) * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--worker-log", default="warning", help="the workers' log level (info: a line per job)")
    parser.add_argument("--redis", default=None, help="a running Redis (default: a private redis-server)")
    args = parser.parse_args()
    from tests.web.live_server import start_redis

    with tempfile.TemporaryDirectory() as tmp:
        redis_server = None
        if args.redis is None:
            if shutil.which("redis-server") is None:
                print("needs redis-server on PATH, or --redis URL", file=sys.stderr)
                return 1
            redis_server = start_redis(Path(tmp))
        url = args.redis or redis_server.url  # type: ignore[union-attr]
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        command = [sys.executable, "-m", "shogiban", "worker", "--redis", url, "--log-level", args.worker_log]
        workers = [subprocess.Popen([*command, "--name", f"bench-{i}"], env=env) for i in range(args.workers)]
        try:
            time.sleep(3)  # the workers' first heartbeats
            asyncio.run(run(args, url))
        finally:
            for worker in workers:
                worker.send_signal(signal.SIGINT)  # RQ's warm shutdown
                try:
                    worker.wait(15)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()
            if redis_server is not None:
                redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
