"""The built-in engine behind USI, for ShogiGUI, 将棋所 (Shogidokoro), ShogiHome or any USI GUI.

Run ``shogiban usi`` or ``shogiban-usi``.  The main thread reads commands; searches run in a
worker thread, so ``stop``, ``ponderhit``, ``isready`` and ``quit`` are handled at once.

Guarantees: ``usiok`` comes at once (the engine is built at ``isready``); every ``go`` gets
exactly one ``bestmove`` (``go mate`` one ``checkmate``, also after a rejected ``position``);
``go ponder`` and ``go infinite`` never answer before ``stop`` or ``ponderhit``; the last ``info``
with a ``pv`` before ``bestmove`` starts with the move played (GUIs show it as the engine's line
and score); time limits count from the moment ``go`` (or ``ponderhit``) arrived; a malformed
command gets ``info string error: ...`` and the engine goes on; a command line longer than
:data:`MAX_COMMAND_BYTES` is refused.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, ClassVar

from shogiban import __version__
from shogiban.board import Board
from shogiban.engines.builtin import MAX_MULTIPV
from shogiban.engines.options import Option
from shogiban.engines.results import InfoDict, MateResult, PlayResult
from shogiban.errors import ShogibanError
from shogiban.outcome import EnteringKingRule
from shogiban.usi.backend import BuiltinBackend, SearchBackend
from shogiban.usi.wire import GoCommand, UsiSyntaxError, parse_go, parse_position, parse_setoption, split_command

LOGGER = logging.getLogger("shogiban.usi.server")

MAX_COMMAND_BYTES = 1 << 20
"""The longest command line read (a ``position`` of 10,000 moves is 50 KB); longer ones are refused."""

ENTERING_KING_RULES: dict[str, EnteringKingRule] = {
    "NoEnteringKing": EnteringKingRule.NONE,
    "CSARule24": EnteringKingRule.POINTS_24,
    "CSARule24H": EnteringKingRule.POINTS_24_HANDICAP,
    "CSARule27": EnteringKingRule.POINTS_27,
    "CSARule27H": EnteringKingRule.POINTS_27_HANDICAP,
}
"""Values of the ``EnteringKingRule`` option (YaneuraOu's names) and the rule each selects."""

OPTIONS: tuple[Option, ...] = (
    Option("USI_Hash", "spin", 64, 1, 4096),
    Option("USI_Ponder", "check", False),
    Option("Level", "spin", 8, 1, 8),
    Option("EnteringKingRule", "combo", "CSARule27", var=tuple(ENTERING_KING_RULES)),
    Option("MultiPV", "spin", 1, 1, MAX_MULTIPV),
)
"""The options the engine declares."""


def format_info(info: InfoDict) -> str:
    """An ``info`` line for *info* (fields in the order GUIs show them; the score relative to the
    side to move, as USI has it).

    >>> from shogiban.engines import PovScore, Score
    >>> from shogiban import Color, Move
    >>> format_info({"depth": 3, "nodes": 900, "score": PovScore(Score(mate=-2), Color.BLACK),
    ...              "pv": [Move.from_usi("7g7f")]})
    'info depth 3 nodes 900 score mate -2 pv 7g7f'
    """
    parts = ["info"]
    for key in ("depth", "seldepth"):
        if key in info:
            parts += [key, str(info[key])]
    if "time" in info:
        parts += ["time", str(round(info["time"] * 1000))]
    for key in ("nodes", "nps", "hashfull", "multipv"):
        if key in info:
            parts += [key, str(info[key])]  # type: ignore[literal-required]
    if "score" in info:
        parts += ["score", info["score"].relative.usi()]
    if info.get("pv"):
        parts += ["pv", *(move.usi() for move in info["pv"])]
    if "string" in info:
        parts += ["string", info["string"]]
    return " ".join(parts)


@dataclasses.dataclass(eq=False)
class _Job:
    """One ``go``: its thread, its stop flag and whether its answer must wait for stop/ponderhit."""

    board: Board
    go: GoCommand
    stop: threading.Event = dataclasses.field(default_factory=threading.Event)
    hold: bool = False
    """``go ponder`` / ``go infinite``: keep the answer until ``stop`` or ``ponderhit``."""
    discard: bool = False
    """A ponder search replaced at ``ponderhit``: its answer is dropped."""
    answer: str | None = None
    """The ``bestmove``/``checkmate`` line once the search ended."""
    sent: bool = False
    thread: threading.Thread | None = None
    last_pv: str | None = None
    """The first move of the last ``info ... pv`` sent for this search."""


class UsiServer:
    """The engine side of USI: feed it command lines with :meth:`handle` (or :meth:`run`).

    :param backend: the engine (default: the built-in one).
    :param write: where output lines go (default: stdout, flushed per line).
    :param clock: the time source stamped on ``go`` and ``ponderhit`` (``GoCommand.started``); it
        must be the backend's (both default to :func:`time.perf_counter`).
    """

    def __init__(
        self, backend: SearchBackend | None = None, *, write: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.backend: SearchBackend = backend or BuiltinBackend(clock=clock)
        self._write_line = write or _stdout_writer()
        self.clock = clock
        self._output_lock = threading.Lock()
        self._lock = threading.Lock()
        self.board: Board | None = Board()
        """The position of the last ``position`` command (None after a bad one)."""
        self.entering_king_rule = EnteringKingRule.POINTS_27
        self.ponder_enabled = False
        self._job: _Job | None = None
        self._prepared = False
        self._last_position: tuple[str, list[str]] | None = None

    # -- output ---------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one line (thread-safe)."""
        with self._output_lock:
            self._write_line(line)

    def error(self, message: str) -> None:
        """Report a problem to the GUI without stopping."""
        self.send(f"info string error: {message}")

    # -- input ----------------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> int:
        """Handle *lines* until ``quit`` or the end of input; returns the exit status."""
        try:
            for line in lines:
                if not self.handle(line):
                    break
        finally:
            self.shutdown()
        return 0

    def handle(self, line: str) -> bool:
        """Handle one command line; returns False after ``quit``."""
        command, args = split_command(line)
        handler = self._HANDLERS.get(command)
        if handler is None:
            if command:
                LOGGER.debug("ignoring unknown command %r", line.strip())
            return True
        if command == "quit":
            return False
        try:
            handler(self, args)
        except (ShogibanError, ValueError) as error:
            self.error(str(error))
        return True

    def shutdown(self) -> None:
        """Stop any search and wait for its thread."""
        job = self._job
        if job is not None:
            job.hold = False
            job.stop.set()
            if job.thread is not None:
                job.thread.join(timeout=10)

    # -- commands -------------------------------------------------------------------------------

    def _usi(self, args: str) -> None:
        self.send(f"id name shogiban {__version__}")
        self.send("id author shogiban developers")
        for option in OPTIONS:
            self.send(option.usi())
        self.send("usiok")

    def _isready(self, args: str) -> None:
        # During a search the engine is ready by definition: answer without touching it.
        if self._job is None or self._job.answer is not None:
            self._wait_idle()
            self.backend.prepare()
            self._prepared = True
        self.send("readyok")

    def _setoption(self, args: str) -> None:
        name, value = parse_setoption(args)
        key = name.lower()
        if key == "usi_hash":
            self.backend.hash_mb = _spin(name, value, 1, 4096)
        elif key == "level":
            self.backend.level = _spin(name, value, 1, 8)
        elif key == "multipv":
            self.backend.multipv = _spin(name, value, 1, MAX_MULTIPV)
        elif key == "usi_ponder":
            self.ponder_enabled = (value or "").lower() == "true"
        elif key == "enteringkingrule":
            if value not in ENTERING_KING_RULES:
                expected = ", ".join(ENTERING_KING_RULES)
                raise UsiSyntaxError(f"invalid value for EnteringKingRule: {value!r} (expected {expected})")
            self.entering_king_rule = ENTERING_KING_RULES[value]
        # Other options (GUIs send USI_* and options of other engines) are ignored, as USI asks.

    def _usinewgame(self, args: str) -> None:
        self._finish_running()
        self.backend.new_game()

    def _position(self, args: str) -> None:
        # GUIs resend the whole game every move; when the command extends the previous one, only
        # the new moves are checked (validating all of them each time costs O(moves^2)).
        head, _, tail = args.partition(" moves ")
        moves = tail.split()
        board, last = self.board, self._last_position
        if (
            board is not None
            and last is not None
            and last[0] == head.strip()
            and last[1] == moves[: len(last[1])]
            and board.entering_king_rule == self.entering_king_rule
        ):
            try:
                board = board.copy()
                for text in moves[len(last[1]) :]:
                    board.push_usi(text)
            except ShogibanError:
                self.board = self._last_position = None
                raise
        else:
            try:
                board = parse_position(args, entering_king_rule=self.entering_king_rule)
            except ShogibanError:
                self.board = self._last_position = None
                raise
        self.board = board
        self._last_position = (head.strip(), moves)

    def _go(self, args: str) -> None:
        received = self.clock()  # the GUI's clock for this move is running from now
        problems: list[str] = []
        go = parse_go(args, problems)
        go.started = received
        for problem in problems:
            self.error(f"{problem} (ignored)")
        self._finish_running()
        board = self.board
        job = _Job(board.copy() if board is not None else Board(), go, hold=go.ponder or go.infinite)
        self._job = job
        if board is None:
            if go.mate is not None:  # a mate search is answered with checkmate, never bestmove
                self.error("no valid position (the last position command was rejected)")
                self._complete(job, "checkmate nomate")
                return
            self.error("no valid position (the last position command was rejected); resigning")
            self._complete(job, "bestmove resign")
        elif go.mate is not None:
            self._spawn(job, self._mate_work)
        elif not job.hold and board.can_declare_win():
            self._complete(job, "bestmove win")
        else:
            self._spawn(job, self._search_work)

    def _stop(self, args: str) -> None:
        job = self._job
        if job is None:
            return
        job.stop.set()
        with self._lock:
            job.hold = False
            self._flush(job)

    def _ponderhit(self, args: str) -> None:
        received = self.clock()  # the move's time runs from now, not from when pondering has stopped
        job = self._job
        if job is None or not job.go.ponder:
            return
        with self._lock:
            finished = job.answer is not None
            if finished:
                job.hold = False
                self._flush(job)
                return
            job.discard = True
        job.stop.set()
        # The ponder search is not waited for here: it stops on its own, and the fresh search
        # (whose clock already runs) takes the engine as soon as it has.
        go = dataclasses.replace(job.go, ponder=False, started=received)
        go.update_clock(parse_go(args))
        fresh = _Job(job.board, go)
        self._job = fresh
        self._spawn(fresh, self._search_work)

    def _gameover(self, args: str) -> None:
        self._finish_running()

    _HANDLERS: ClassVar[dict[str, Callable[[UsiServer, str], None]]] = {
        "usi": _usi,
        "isready": _isready,
        "setoption": _setoption,
        "usinewgame": _usinewgame,
        "position": _position,
        "go": _go,
        "stop": _stop,
        "ponderhit": _ponderhit,
        "gameover": _gameover,
        "quit": lambda self, args: None,
    }

    # -- searches -------------------------------------------------------------------------------

    def _spawn(self, job: _Job, work: Callable[[_Job], str]) -> None:
        def target() -> None:
            try:
                answer = work(job)
            except Exception:  # an engine bug must not leave the GUI without an answer
                LOGGER.error("search failed:\n%s", traceback.format_exc())
                self.error("search failed: " + traceback.format_exc(limit=1).strip().splitlines()[-1])
                answer = "checkmate timeout" if job.go.mate is not None else "bestmove resign"
            self._complete(job, answer)

        job.thread = threading.Thread(target=target, name="shogiban-usi-search", daemon=True)
        job.thread.start()

    def _search_work(self, job: _Job) -> str:
        if not self._prepared:
            self.backend.prepare()
            self._prepared = True

        def on_info(info: InfoDict) -> None:
            if not job.discard:
                if info.get("pv"):
                    job.last_pv = info["pv"][0].usi()
                self.send(format_info(info))

        result = self.backend.search(job.board, job.go, stop=job.stop, on_info=on_info)
        line = self._bestmove_line(job.board, result)
        self._own_line_last(job, line, result)
        return line

    def _own_line_last(self, job: _Job, line: str, result: PlayResult) -> None:
        """Make the last ``info ... pv`` of *job* start with its best move (GUIs show that line
        and its score as the engine's; cshogi's runner resigns on it): send the result's own info,
        or the bare move, if the backend's last report named another move."""
        move = line.split()[1] if line.startswith("bestmove ") else None
        if move in (None, "resign", "win") or job.last_pv == move or job.discard:
            return
        info = result.info
        pv = info.get("pv")
        self.send(format_info(info) if pv and pv[0].usi() == move else f"info pv {move}")
        job.last_pv = move

    def _bestmove_line(self, board: Board, result: PlayResult) -> str:
        if result.declared_win:
            return "bestmove win"
        if result.move is None or result.resigned:
            return "bestmove resign"
        reason = board.check_move(result.move)
        if reason is not None:
            self.error(f"the engine chose an illegal move {result.move.usi()!r} ({reason}); resigning")
            return "bestmove resign"
        line = f"bestmove {result.move.usi()}"
        if result.ponder is not None:
            after = board.copy(stack=False)
            after.push(result.move)
            if after.is_legal(result.ponder):
                line += f" ponder {result.ponder.usi()}"
        return line

    def _mate_work(self, job: _Job) -> str:
        try:
            result: MateResult = self.backend.mate(job.board, job.go.mate, stop=job.stop)
        except ShogibanError as error:  # not a mate problem (no king to mate, defender in check)
            self.error(str(error))
            return "checkmate nomate"
        if result.status == "mate" and result.moves:
            return "checkmate " + " ".join(move.usi() for move in result.moves)
        return f"checkmate {result.status}"

    def _complete(self, job: _Job, answer: str) -> None:
        with self._lock:
            job.answer = answer
            self._flush(job)

    def _flush(self, job: _Job) -> None:
        """Send *job*'s answer if it has one, it is not held and not sent yet (lock held)."""
        if job.answer is not None and not job.hold and not job.discard and not job.sent:
            job.sent = True
            self.send(job.answer)

    def _finish_running(self) -> None:
        """Stop a running or held search and wait for it; its answer is sent (every go is answered)."""
        job = self._job
        if job is None:
            return
        job.stop.set()
        with self._lock:
            job.hold = False
            self._flush(job)
        self._wait_idle()

    def _wait_idle(self) -> None:
        job = self._job
        if job is not None and job.thread is not None:
            job.thread.join()


def _spin(name: str, value: str | None, low: int, high: int) -> int:
    try:
        number = int(value or "")
    except ValueError:
        raise UsiSyntaxError(f"invalid value for {name}: {value!r} (expected an integer {low}..{high})") from None
    if not low <= number <= high:
        raise UsiSyntaxError(f"invalid value for {name}: {value!r} (expected {low}..{high})")
    return number


def _stdout_writer() -> Callable[[str], None]:
    out: BinaryIO = sys.stdout.buffer
    closed = threading.Event()

    def write(line: str) -> None:
        if closed.is_set():
            return
        try:
            out.write(line.encode("utf-8") + b"\n")
            out.flush()
        except BrokenPipeError:
            # The GUI is gone; its end of our input closes too, which ends the command loop.
            LOGGER.debug("output closed by the GUI; dropping %r", line)
            closed.set()

    return write


def read_lines(stream: BinaryIO, limit: int = MAX_COMMAND_BYTES) -> Iterator[str]:
    """The lines of *stream* (UTF-8, ``\\r\\n`` tolerated).  A line longer than *limit* bytes
    is read past without being kept: it comes out as its first word and a note, which the command
    then rejects (a refused ``position`` makes the next ``go`` resign, not play in another one).

    >>> import io
    >>> list(read_lines(io.BytesIO(b"usi\\r\\nposition " + b"x" * 50 + b"\\nisready"), limit=20))
    ['usi', 'position <refused: longer than 20 bytes>', 'isready']
    """
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            LOGGER.warning("refused a command line longer than %d bytes", limit)
            words = raw[:64].split(None, 1)
            first = words[0].decode("utf-8", errors="replace") if words else ""
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(limit + 1)
            yield f"{first} <refused: longer than {limit} bytes>"
            continue
        yield raw.decode("utf-8", errors="replace").rstrip("\r\n")


def _stdin_lines() -> Iterable[str]:
    return read_lines(sys.stdin.buffer)


def serve(backend: SearchBackend | None = None, *, log: str | None = None) -> int:
    """Run the USI engine on stdin/stdout until ``quit``.

    :param log: append the conversation to this file (for debugging GUIs).
    """
    if log is not None:
        handler = logging.FileHandler(log, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.DEBUG)
    writer = _stdout_writer()

    def write(line: str) -> None:
        LOGGER.debug("send:%s", line)
        writer(line)

    server = UsiServer(backend, write=write)

    def lines() -> Iterable[str]:
        for line in _stdin_lines():
            LOGGER.debug("recv:%s", line)
            yield line

    return server.run(lines())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command-line options of ``shogiban usi`` / ``shogiban-usi``."""
    parser.add_argument("--level", type=int, choices=range(1, 9), default=8, metavar="1-8",
                        help="initial playing strength (the GUI can change it with the Level option)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the engine (reproducible play)")
    parser.add_argument("--log", default=None, help="append the USI conversation to this file")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``shogiban-usi``."""
    parser = argparse.ArgumentParser(prog="shogiban-usi", description="The shogiban engine as a USI engine.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return serve(BuiltinBackend(level=args.level, seed=args.seed), log=args.log)


if __name__ == "__main__":
    raise SystemExit(main())
