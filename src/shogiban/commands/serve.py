"""``shogiban serve``: the web server (play against the computer or a friend, open records)."""

from __future__ import annotations

import argparse
import logging
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
    p.add_argument("--workers", type=_workers, default=None, help="built-in engine processes (default: CPU count - 1)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="logging detail")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    import uvicorn

    from shogiban.web.app import create_app
    from shogiban.web.store import default_database_url

    url = args.db or default_database_url()
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = create_app(database_url=url, engine_command=args.engine, workers=args.workers)
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"shogiban: http://{shown}:{args.port}/  (database: {url})", flush=True)
    # Websocket frames past this are refused by uvicorn itself (default 16 MB); messages are tiny.
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=WS_MAX_BYTES)
    return 0
