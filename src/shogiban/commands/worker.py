"""``shogiban worker``: think computer moves and hints, and analyse finished games, for the web
processes, from a Redis job queue (:mod:`shogiban.web.job_queue`)."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from typing import Any

#: The queue names by their short names on the command line.
QUEUE_NAMES = {"moves": "shogiban-moves", "hints": "shogiban-hints", "live": "shogiban-live",
               "analysis": "shogiban-analysis"}


def _queues(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in QUEUE_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"invalid --queues {text!r} (expected some of {','.join(QUEUE_NAMES)}, comma-separated, by priority)")
    return names


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "worker",
        help="think computer moves and hints, and analyse games, for `shogiban serve --redis` processes",
        description=(
            "Take engine jobs from Redis (computer moves first, then hints, then analysis) and think them "
            "with the built-in engine, each in a forked process that cannot take the worker down. "
            "Web processes started with the same --redis use the live workers, and think in-process when "
            "there are none (needs `pip install shogiban[scale]`)."
        ),
    )
    p.add_argument("--redis", required=True, metavar="URL", help="redis://HOST:PORT/N, as given to `shogiban serve`")
    p.add_argument("--queues", type=_queues, default=list(QUEUE_NAMES), metavar="LIST",
                   help="queues to take jobs from, by priority (default: moves,hints,live,analysis)")
    p.add_argument("--burst", action="store_true", help="stop when the queues are empty (scripts, tests)")
    p.add_argument("--name", default=None, help="the worker's name (default: HOST.PID)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="logging detail")
    p.set_defaults(run=run)


def _problem(url: str) -> str | None:
    """What keeps the worker from starting, said plainly with what to do."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return f"invalid --redis {url!r} (expected redis://HOST:PORT/N)"
    try:
        import rq  # noqa: F401
    except ImportError:
        return "the worker needs RQ and redis: pip install 'shogiban[scale]'"
    from shogiban.web.bus import redis_problem

    return redis_problem(url)


def run(args: argparse.Namespace) -> int:
    """Take jobs until interrupted (or, with ``--burst``, until the queues are empty)."""
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    problem = _problem(args.redis)
    if problem is not None:
        print(f"shogiban worker: error: {problem}", file=sys.stderr)
        return 1
    import redis
    from rq import Worker

    from shogiban.web import job_queue

    job_queue.warm_up()

    name = args.name or f"{socket.gethostname()}.{os.getpid()}"
    job_queue.WORKER_NAME = name
    connection = redis.Redis.from_url(args.redis)
    queues = [QUEUE_NAMES[q] for q in args.queues]
    heartbeat = job_queue.Heartbeat(redis.Redis.from_url(args.redis), name, queues)
    worker = Worker(queues, connection=connection, name=name,
                    job_monitoring_interval=5, work_horse_killed_handler=job_queue.horse_killed)
    print(f"shogiban worker {name}: taking jobs from {', '.join(args.queues)} at {args.redis}", flush=True)
    heartbeat.start()
    try:
        worker.work(burst=args.burst, logging_level=args.log_level.upper(), with_scheduler=False)
    except redis.RedisError as error:
        print(f"shogiban worker: error: lost Redis at {args.redis} ({error}): check that redis-server runs",
              file=sys.stderr)
        return 1
    finally:
        heartbeat.stop()
    return 0
