"""Game storage with SQLAlchemy: SQLite by default, any SQLAlchemy URL (PostgreSQL, ...) by choice.

Every move is written as it is played, with the clock, so a restarted server carries on with
every game.  The methods are synchronous; the server calls them through :class:`AsyncStore`, on
one worker thread, so the event loop never waits for the database.

>>> store = GameStore("sqlite://")
>>> store.create(StoredGame(id="g1", start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
...     settings={}, seats=[{"kind": "human"}, {"kind": "engine", "level": 1}], tokens=["t", None],
...     status="playing", clock={}, created_at=0.0))
>>> store.append_move("g1", 1, "7g7f", 1500, {"remaining": [60, 60]})
>>> store.load("g1").moves
[('7g7f', 1500)]
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

P = ParamSpec("P")
T = TypeVar("T")


class Base(DeclarativeBase):
    """Declarative base of the models."""


class GameRow(Base):
    """One game: set-up, seats, tokens, status and the clock as of the last change."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    start_sfen: Mapped[str] = mapped_column(Text)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    black_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    white_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    invite_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The friend's single-use invitation to the open seat (cleared when it is used)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The game core's state (:meth:`shogiban.game.GameState.to_dict`, versioned) without its
    moves, clock, status and outcome, which have columns and rows of their own and are written in
    the same transaction; None for a game stored before it existed (rebuilt from the columns)."""


class MoveRow(Base):
    """One move of a game."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    usi: Mapped[str] = mapped_column(String(8))
    spent_ms: Mapped[int] = mapped_column(Integer)
    played_at: Mapped[float] = mapped_column(Float)


class ServerRow(Base):
    """Server-wide values: the last time the server was known to be alive."""

    __tablename__ = "server"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class GameAnalysisRow(Base):
    """The whole-game analysis of a finished game (:mod:`shogiban.web.game_analysis`): one per
    game, kept with it, so every later visitor sees it at once.  A database older than this table
    gets it from ``create_all`` at start."""

    __tablename__ = "game_analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    engine: Mapped[str] = mapped_column(String(64))
    limit: Mapped[str] = mapped_column(String(64))
    """The per-position limit, as text (``depth 6``)."""
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``GameAnalysis.to_json()`` (see ``shogiban/analysis/analysis.schema.json``)."""
    created_at: Mapped[float] = mapped_column(Float)


class RecordAnalysisRow(Base):
    """An uploaded record asked to be analysed (``POST /api/records/analysis``): the sibling of
    :class:`GameAnalysisRow` for a record that is no game here, keyed by the sha256 of its
    normalised start SFEN and moves (:func:`shogiban.web.game_analysis.record_key`), so the same
    record is analysed once and its link can be shared.  Stored when asked (``result`` None until
    the analysis is done), so every web process knows the record.  A database older than this
    table gets it from ``create_all`` at start."""

    __tablename__ = "record_analyses"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    start_sfen: Mapped[str] = mapped_column(Text)
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The main line: ``{"ply", "usi", "label", "forms"}`` per move (as a game's ``MoveEntry``)."""
    end_sfen: Mapped[str] = mapped_column(Text)
    engine: Mapped[str | None] = mapped_column(String(64), nullable=True)
    limit: Mapped[str | None] = mapped_column(String(64), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class StoredRecord:
    """A record asked to be analysed, and its analysis once done."""

    key: str
    start_sfen: str
    moves: list[dict[str, Any]]
    end_sfen: str
    created_at: float
    analysis: StoredAnalysis | None = None


@dataclass(frozen=True)
class StoredAnalysis:
    """A stored whole-game analysis."""

    game_id: str
    engine: str
    limit: str
    result: dict[str, Any]
    created_at: float


class StaleGameError(ValueError):
    """A change made on a game that has moved on meanwhile (another process stored that ply
    first): nothing was written."""

    code = "stale_ply"


@dataclass
class StoredGame:
    """A game as stored: everything needed to rebuild its room."""

    id: str
    start_sfen: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    tokens: list[str | None]
    status: str
    clock: dict[str, Any]
    created_at: float
    outcome: dict[str, Any] | None = None
    moves: list[tuple[str, int]] = field(default_factory=list)
    """``(usi, milliseconds spent)`` per move."""
    invite: str | None = None
    """The invitation to the open seat of a friend's game, until it is used."""
    state: dict[str, Any] | None = None
    """The rest of the game core's state (see :attr:`GameRow.state`)."""
    first_ply: int = 0
    """The ply before :attr:`moves` (0: they are the whole game)."""
    ply: int | None = None
    """Moves played, as the row counts them."""


def default_database_url() -> str:
    """``$SHOGIBAN_DB`` if set, else a SQLite file in the per-user data directory (or
    ``./shogiban.sqlite3`` when that directory cannot be created)."""
    env = os.environ.get("SHOGIBAN_DB")
    if env:
        return env
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "shogiban"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return "sqlite:///shogiban.sqlite3"
    return f"sqlite:///{folder / 'shogiban.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the writer; NORMAL sync is durable across a process crash
    # (a power cut may lose the last moves, never corrupt the file).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


#: Seconds a PostgreSQL connection or statement may take before the change is refused.
DATABASE_SECONDS = 10.0


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for *url*, tuned for SQLite when it is one."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
        )
        if not memory:
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql+psycopg"):
        # Every wait on the database has a deadline: a server that stops answering fails the
        # request (refused as "storage") instead of holding the store's thread for minutes.
        return create_engine(url, pool_pre_ping=True, pool_timeout=DATABASE_SECONDS, connect_args={
            "connect_timeout": int(DATABASE_SECONDS),
            "options": f"-c statement_timeout={int(DATABASE_SECONDS * 1000)} -c lock_timeout=5000",
            # A server that vanished without a word (no reset): found out by the connection itself.
            "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3,
            "tcp_user_timeout": int(DATABASE_SECONDS * 1000),
        })
    return create_engine(url, pool_pre_ping=True)


class GameStore:
    """Synchronous access to the games.

    :param url: a SQLAlchemy URL (``sqlite:///games.sqlite3``, ``postgresql+psycopg://...``).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)
        add_missing_columns(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    def create(self, game: StoredGame) -> None:
        """Store a new game (with its moves, if it starts from a record)."""
        now = time.time()
        with self._session.begin() as session:
            session.add(
                GameRow(
                    id=game.id, created_at=game.created_at, updated_at=now, start_sfen=game.start_sfen,
                    settings=game.settings, seats=game.seats, black_token=game.tokens[0],
                    white_token=game.tokens[1], invite_token=game.invite, status=game.status, outcome=game.outcome,
                    clock=game.clock, ply=len(game.moves), state=game.state,
                )
            )
            session.flush()
            for ply, (usi, spent) in enumerate(game.moves, 1):
                session.add(MoveRow(game_id=game.id, ply=ply, usi=usi, spent_ms=spent, played_at=now))

    def load(self, game_id: str, *, since: int = 0) -> StoredGame | None:
        """The game *game_id* with its moves, or None; with *since*, only the moves after ply
        *since* (:attr:`StoredGame.first_ply` says so), for a process that has the rest."""
        with self._session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            moves = session.execute(
                select(MoveRow.usi, MoveRow.spent_ms).where(MoveRow.game_id == game_id, MoveRow.ply > since)
                .order_by(MoveRow.ply)
            ).all()
            return StoredGame(
                id=row.id, start_sfen=row.start_sfen, settings=dict(row.settings), seats=list(row.seats),
                tokens=[row.black_token, row.white_token], status=row.status, clock=dict(row.clock),
                created_at=row.created_at, outcome=row.outcome, moves=[(m.usi, m.spent_ms) for m in moves],
                invite=row.invite_token, state=None if row.state is None else dict(row.state),
                first_ply=since, ply=row.ply,
            )

    def append_move(
        self, game_id: str, ply: int, usi: str, spent_ms: int, clock: dict[str, Any], *,
        status: str | None = None, outcome: dict[str, Any] | None = None, state: dict[str, Any] | None = None,
    ) -> None:
        """Record move number *ply* and the clock after it (and the end, if it ended the game, and
        the core's *state* when given)."""
        now = time.time()
        values: dict[str, Any] = {"clock": clock, "ply": ply, "updated_at": now}
        if state is not None:
            values["state"] = state
        if status is not None:
            values["status"] = status
            values["outcome"] = outcome
        try:
            with self._session.begin() as session:
                # Optimistic concurrency: the move is stored only on top of the ply before it, so of
                # two processes racing for one ply exactly one wins (the other's transaction is undone).
                done = session.execute(
                    update(GameRow).where(GameRow.id == game_id, GameRow.ply == ply - 1).values(**values))
                if not getattr(done, "rowcount", 0):
                    raise StaleGameError(f"game {game_id}: ply {ply} was already played (or the game moved on)")
                session.add(MoveRow(game_id=game_id, ply=ply, usi=usi, spent_ms=spent_ms, played_at=now))
        except IntegrityError as error:
            raise StaleGameError(f"game {game_id}: ply {ply} was already played") from error

    def truncate(self, game_id: str, ply: int, clock: dict[str, Any], state: dict[str, Any] | None = None) -> None:
        """Delete the moves after *ply* (undo) and store the clock (and the core's *state*); the
        game goes on."""
        values: dict[str, Any] = {"ply": ply, "clock": clock, "status": "playing", "outcome": None,
                                  "updated_at": time.time()}
        if state is not None:
            values["state"] = state
        with self._session.begin() as session:
            session.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply > ply))
            session.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def update(self, game_id: str, *, at_ply: int | None = None, **values: Any) -> None:
        """Set columns of a game (``status``, ``outcome``, ``clock``, ``seats``, tokens).

        With *at_ply*, only a game still in play at that ply is changed (an end, a proposal): of
        two processes ending one game, one wins.

        :raises StaleGameError: when *at_ply* is given and the game moved on or ended meanwhile.
        """
        values["updated_at"] = time.time()
        where = [GameRow.id == game_id]
        if at_ply is not None:
            where += [GameRow.ply == at_ply, GameRow.status != "over"]
        with self._session.begin() as session:
            done = session.execute(update(GameRow).where(*where).values(**values))
            if at_ply is not None and not getattr(done, "rowcount", 0):
                raise StaleGameError(f"game {game_id}: it moved on from ply {at_ply} or ended meanwhile")

    def claim_seat(
        self, game_id: str, color: int, token: str, seats: list[dict[str, Any]], clock: dict[str, Any], invite: str
    ) -> bool:
        """Give the open seat *color* to *token*, if *invite* is the game's invitation and nobody
        took the seat first; the invitation is used up.  True on success."""
        column = GameRow.black_token if color == 0 else GameRow.white_token
        with self._session.begin() as session:
            result = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, column.is_(None), GameRow.invite_token == invite)
                .values({column: token, "invite_token": None, "seats": seats, "status": "playing", "clock": clock,
                         "updated_at": time.time()})
            )
            return bool(getattr(result, "rowcount", 0))

    def save_analysis(self, analysis: StoredAnalysis) -> None:
        """Store a game's analysis, replacing the one it had."""
        with self._session.begin() as session:
            session.execute(delete(GameAnalysisRow).where(GameAnalysisRow.game_id == analysis.game_id))
            session.add(GameAnalysisRow(game_id=analysis.game_id, engine=analysis.engine, limit=analysis.limit,
                                        result=analysis.result, created_at=analysis.created_at))

    def load_analysis(self, game_id: str) -> StoredAnalysis | None:
        """The stored analysis of *game_id*, or None."""
        with self._session() as session:
            row = session.get(GameAnalysisRow, game_id)
            if row is None:
                return None
            return StoredAnalysis(game_id=row.game_id, engine=row.engine, limit=row.limit, result=dict(row.result),
                                  created_at=row.created_at)

    def add_record(self, record: StoredRecord) -> None:
        """Store a record asked to be analysed, unless it is stored already (its analysis kept)."""
        with self._session.begin() as session:
            if session.get(RecordAnalysisRow, record.key) is None:
                session.add(RecordAnalysisRow(key=record.key, start_sfen=record.start_sfen, moves=record.moves,
                                              end_sfen=record.end_sfen, created_at=record.created_at))

    def save_record_analysis(self, analysis: StoredAnalysis) -> None:
        """Store the analysis of the record keyed ``analysis.game_id`` (its record is stored)."""
        with self._session.begin() as session:
            session.execute(update(RecordAnalysisRow).where(RecordAnalysisRow.key == analysis.game_id).values(
                engine=analysis.engine, limit=analysis.limit, result=analysis.result))

    def load_record(self, key: str) -> StoredRecord | None:
        """The record keyed *key* with its analysis when done, or None."""
        with self._session() as session:
            row = session.get(RecordAnalysisRow, key)
            if row is None:
                return None
            analysis = None
            if row.result is not None:
                analysis = StoredAnalysis(game_id=row.key, engine=row.engine or "", limit=row.limit or "",
                                          result=dict(row.result), created_at=row.created_at)
            return StoredRecord(key=row.key, start_sfen=row.start_sfen, moves=list(row.moves), end_sfen=row.end_sfen,
                                created_at=row.created_at, analysis=analysis)

    def ping(self) -> None:
        """Reach the database (``SELECT 1``); raises SQLAlchemyError when it cannot be reached."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def in_progress(self) -> list[str]:
        """Ids of the games not over."""
        with self._session() as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.status != "over")))

    def heartbeat(self, now: float) -> None:
        """Note that the server is alive at *now*."""
        with self._session.begin() as session:
            row = session.get(ServerRow, "alive")
            if row is None:
                session.add(ServerRow(key="alive", value=now))
            else:
                row.value = now

    def last_heartbeat(self) -> float | None:
        """When the server was last known alive (before this run), or None."""
        with self._session() as session:
            row = session.get(ServerRow, "alive")
            return None if row is None else row.value

    def pause_clocks(
        self, until: float, now: float, pause: Callable[[dict[str, Any], float, float], dict[str, Any]]
    ) -> int:
        """After a restart: for each running clock charge the time up to *until* (the last
        heartbeat) and restart the turn at *now*; *pause* transforms one stored clock.  Returns
        how many games were adjusted."""
        count = 0
        with self._session.begin() as session:
            for row in session.scalars(select(GameRow).where(GameRow.status == "playing")):
                clock = pause(dict(row.clock), until, now)
                if clock != row.clock:
                    row.clock = clock
                    count += 1
        return count


#: Columns added to ``games`` after databases were first created, with their SQL types: a server
#: started on an older database adds them (``ALTER TABLE ... ADD COLUMN``, which SQLite and
#: PostgreSQL both know).  New columns are nullable, so old rows stay valid.
ADDED_COLUMNS: dict[str, str] = {"invite_token": "VARCHAR(64)", "state": "JSON"}


def add_missing_columns(engine: Engine) -> list[str]:
    """Bring an older ``games`` table up to date; returns the columns added.

    Friends' games still waiting for the friend get an invitation when ``invite_token`` is
    added (before it, the spectators' link was the invitation): their creators find the new
    link in the game page.
    """
    present = {column["name"] for column in inspect(engine).get_columns(GameRow.__tablename__)}
    added = [name for name in ADDED_COLUMNS if name not in present]
    if not added:
        return added
    with engine.begin() as connection:
        for name in added:
            connection.execute(text(f"ALTER TABLE {GameRow.__tablename__} ADD COLUMN {name} {ADDED_COLUMNS[name]}"))
        if "invite_token" in added:
            waiting = connection.execute(select(GameRow.id).where(GameRow.status == "waiting")).scalars().all()
            for game_id in waiting:
                connection.execute(
                    update(GameRow).where(GameRow.id == game_id).values(invite_token=secrets.token_urlsafe(18)))
    return added


#: Threads that talk to a database server at once (SQLite gets one: its writers wait for each
#: other anyway, and one thread never meets "database is locked").
SERVER_THREADS = 4


class AsyncStore:
    """Runs :class:`GameStore` calls on worker threads, from the event loop: one for SQLite, a
    few for a database server, so that one game's read does not wait behind another game's
    round trip.  One game's changes stay in order: its room awaits each before the next."""

    def __init__(self, store: GameStore, threads: int | None = None) -> None:
        self.store = store
        if threads is None:
            threads = 1 if store.engine.dialect.name == "sqlite" else SERVER_THREADS
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="shogiban-store")

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Call *function* (a bound :class:`GameStore` method) on a store thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: function(*args, **kwargs))

    def close(self) -> None:
        """Finish pending writes and close the database."""
        self._executor.shutdown(wait=True)
        self.store.close()
