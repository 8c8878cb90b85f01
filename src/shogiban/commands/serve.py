"""``shogiban serve``: the web server (play against the computer or a friend, open records)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

#: Largest websocket frame uvicorn accepts, bytes (the server refuses messages over 4 KB anyway).
WS_MAX_BYTES = 64 * 1024


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"invalid port: {text!r} (expected 1..65535)")
    return int(text)


def _workers(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"invalid number of workers: {text!r} (at least 1)")
    return int(text)


#: The deepest per-position search a server may set for whole-game analysis (depth 12 already
#: takes seconds a position for the pure-Python engine).
MAX_ANALYSIS_DEPTH = 12


def _analysis_depth(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_ANALYSIS_DEPTH:
        raise argparse.ArgumentTypeError(f"invalid analysis depth: {text!r} (1 to {MAX_ANALYSIS_DEPTH})")
    return int(text)


def add_parser(sub: Any) -> None:
    """Register the command."""
    p = sub.add_parser(
        "serve",
        help="run the web server: play in the browser, against the computer or a friend",
        description=(
            "Serve the web UI. Games are stored as they are played (SQLite by default), so a restart "
            "loses nothing; the time the server is down is not charged to the clocks."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this computer only)")
    p.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    p.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy database URL (default: $SHOGIBAN_DB, else a SQLite file in your data directory)",
    )
    p.add_argument("--engine", default=None, metavar="CMD", help="a USI engine command offered as an opponent")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="redis://HOST:PORT/N: run as one of several web processes on one database (PostgreSQL); "
                        "each tells the others of every change through Redis (needs `pip install shogiban[scale]`)")
    p.add_argument("--workers", type=_workers, default=None, help="built-in engine processes (default: CPU count - 1)")
    p.add_argument("--analysis-depth", type=_analysis_depth, default=None, metavar="N",
                   help="search depth per position of a whole-game analysis (default: 6; at most 12)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="logging detail")
    p.add_argument("--log-format", default="text", choices=["text", "json"],
                   help="log lines as text, or as JSON objects (time, level, logger, message, game) for a collector")
    p.set_defaults(run=run)


def _shown(url: str) -> str:
    """A database URL as printed: its password hidden."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: said by the error itself
        return url


def _startup_problem(url: str, redis_url: str | None) -> str | None:
    """What keeps the server from starting, said plainly: the database or Redis it cannot reach."""
    from sqlalchemy.exc import SQLAlchemyError

    from shogiban.web.store import GameStore

    try:
        store = GameStore(url)
        try:
            store.ping()
        finally:
            store.close()
    except (SQLAlchemyError, OSError, ValueError) as error:
        return (f"cannot use the database {_shown(url)} ({str(error).splitlines()[0]}): "
                "check --db and that the database server runs")
    if redis_url is None:
        return None
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        return f"invalid --redis {redis_url!r} (expected redis://HOST:PORT/N)"
    from shogiban.web.bus import redis_problem

    return redis_problem(redis_url)


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    import uvicorn

    from shogiban.web.app import create_app
    from shogiban.web.store import default_database_url

    url = args.db or default_database_url()
    if args.log_format == "json":
        from shogiban.web.logs import use_json_logs

        use_json_logs(args.log_level)
    else:
        logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    problem = _startup_problem(url, args.redis)
    if problem is not None:
        print(f"shogiban serve: error: {problem}", file=sys.stderr)
        return 1
    analysis = None
    if args.analysis_depth is not None:
        from shogiban.engines.limit import Limit
        from shogiban.web.game_analysis import AnalysisSettings

        analysis = AnalysisSettings(limit=Limit(depth=args.analysis_depth))
    app = create_app(database_url=url, engine_command=args.engine, workers=args.workers, redis_url=args.redis,
                     analysis=analysis)
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"shogiban: http://{shown}:{args.port}/  (database: {_shown(url)})", flush=True)
    # Websocket frames past this are refused by uvicorn itself (default 16 MB); messages are tiny.
    # JSON logs: uvicorn's own loggers go through the same root handler instead of its own config.
    extra: dict[str, Any] = {"log_config": None} if args.log_format == "json" else {}
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=WS_MAX_BYTES, **extra)
    return 0
