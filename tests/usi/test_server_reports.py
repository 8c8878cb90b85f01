"""What ``shogiban usi`` tells a GUI around ``bestmove``: the last ``info ... pv`` is the move
played with the score it was chosen by; clocks start when ``go`` or ``ponderhit`` arrives; the
increment of the move is spent; ``searchmoves`` is honoured; ``go mate`` is always answered with
``checkmate``; overlong command lines are refused."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

import pytest
from server_harness import Harness
from standin_backend import StandInBackend

from shogiban import Board, Move
from shogiban.engines import InfoDict, Limit, PlayResult, PovScore, Score
from shogiban.usi.backend import BuiltinBackend, InfoCallback, go_limit
from shogiban.usi.server import UsiServer, format_info, read_lines
from shogiban.usi.wire import GoCommand, parse_go

MIDGAME = "ln1g3nl/1r1s1kgs1/ppp2p3/3P2p2/2PN1P2P/6P2/PP1+b3+pL/5R3/2S1KGSN1 b 5Pbgl 51"


class RecordingBackend(BuiltinBackend):
    """The built-in engine, remembering each search's go command and result."""

    def __init__(self) -> None:
        super().__init__(level=8, seed=0)
        self.results: list[PlayResult] = []
        self.gos: list[GoCommand] = []

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        self.gos.append(go)
        result = super().search(board, go, stop=stop, on_info=on_info)
        self.results.append(result)
        return result


def answers(out: list[str]) -> Iterator[tuple[str, list[str]]]:
    """Each ``bestmove`` line with the lines sent since the previous one."""
    since: list[str] = []
    for line in out:
        if line.startswith("bestmove"):
            yield line, since
            since = []
        else:
            since.append(line)


GOES = [
    *(f"go nodes {nodes}" for nodes in range(60, 4000, 277)),
    "go depth 3", "go movetime 120", "go btime 0 wtime 0 byoyomi 150", "go btime 400 wtime 400 binc 50 winc 50",
]


@pytest.mark.parametrize("sfen", ["startpos", f"sfen {MIDGAME}"])
def test_the_last_info_before_bestmove_is_the_move_and_its_score(sfen: str) -> None:
    backend = RecordingBackend()
    usi = Harness(backend)
    try:
        usi.send("isready", f"position {sfen}")
        for count, go in enumerate(GOES, 1):
            usi.send(go)
            usi.wait_for("bestmove", count)
        usi.send("go infinite")
        usi.wait_for("info depth 3")
        usi.send("stop")
        usi.wait_for("bestmove", len(GOES) + 1)
    finally:
        usi.close()
    pairs = list(answers(usi.out))
    assert len(pairs) == len(backend.results) == len(GOES) + 1
    for (line, before), result in zip(pairs, backend.results, strict=True):
        move = line.split()[1]
        pv_lines = [text for text in before if text.startswith("info") and " pv " in text]
        assert pv_lines, line
        last = pv_lines[-1]
        assert last.split(" pv ")[1].split()[0] == move, f"{line!r} after {last!r}"
        assert last == format_info(result.info)  # the line, and the score it was chosen by


class LastWordElsewhere(StandInBackend):
    """A third-party backend whose last report names another move than the one it returns."""

    def __init__(self, own_info: bool) -> None:
        super().__init__()
        self.own_info = own_info

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        on_info(InfoDict(depth=5, score=PovScore(Score(cp=300), board.turn), pv=[Move.from_usi("2g2f")]))
        own = InfoDict(depth=4, score=PovScore(Score(cp=-50), board.turn), pv=[Move.from_usi("7g7f")])
        info = own if self.own_info else InfoDict()
        return PlayResult(Move.from_usi("7g7f"), None, info)


@pytest.mark.parametrize("own_info", [True, False])
def test_the_server_sends_the_answers_own_line_when_the_backend_did_not(own_info: bool) -> None:
    usi = Harness(LastWordElsewhere(own_info))
    try:
        usi.send("position startpos", "go depth 5")
        usi.wait_for("bestmove")
    finally:
        usi.close()
    assert usi.out[-1] == "bestmove 7g7f"
    assert usi.out[-2] == ("info depth 4 score cp -50 pv 7g7f" if own_info else "info pv 7g7f")


class FakeClock:
    """The server's clock, set by the test."""

    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


class SlowToStop(StandInBackend):
    """Ponder searches take a while to stop (the clock moves on meanwhile), and may be held."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.gos: list[GoCommand] = []
        self.release = threading.Event()
        self.release.set()

    def search(self, board: Board, go: GoCommand, *, stop: threading.Event, on_info: InfoCallback) -> PlayResult:
        self.gos.append(go)
        if go.ponder:
            stop.wait()
            self.release.wait(30)
            self.clock.now += 5.0  # stopping took five seconds of the GUI's clock
        return super().search(board, go, stop=stop, on_info=on_info)


def test_go_and_ponderhit_start_the_moves_clock_when_they_arrive() -> None:
    clock = FakeClock()
    backend = SlowToStop(clock)
    usi = Harness(backend)
    usi.server = UsiServer(backend, write=usi._write, clock=clock)
    try:
        usi.send("position startpos", "go btime 0 wtime 0 byoyomi 1000")
        usi.wait_for("bestmove")
        assert backend.gos[0].started == 10.0
        clock.now = 20.0
        usi.send("position startpos moves 7g7f 3c3d", "go ponder btime 0 wtime 0 byoyomi 1000")
        clock.now = 30.0
        usi.send("ponderhit")
        usi.wait_for("bestmove", 2)
    finally:
        usi.close()
    ponder, fresh = backend.gos[1], backend.gos[2]
    assert ponder.ponder
    assert not fresh.ponder
    assert fresh.started == 30.0, "the clock after ponderhit started when the ponder search had stopped"
    assert fresh.byoyomi == 1.0


def test_ponderhit_is_handled_at_once_while_the_ponder_search_stops() -> None:
    backend = SlowToStop(FakeClock())
    backend.release.clear()  # the ponder search will not stop before the test lets it
    usi = Harness(backend)
    try:
        usi.send("position startpos moves 7g7f 3c3d", "go ponder btime 0 wtime 0 byoyomi 1000")
        handled = threading.Event()

        def ponderhit() -> None:
            usi.send("ponderhit")
            handled.set()

        threading.Thread(target=ponderhit, daemon=True).start()
        assert handled.wait(30), "ponderhit waited for the ponder search to end"
        usi.send("isready")
        assert "readyok" in usi.out
        backend.release.set()
        usi.wait_for("bestmove")
    finally:
        backend.release.set()
        usi.close()
    assert len(usi.lines("bestmove")) == 1


def test_the_increment_of_the_move_being_played_is_spent() -> None:
    go = parse_go("btime 0 wtime 0 binc 1000 winc 1000")
    assert go_limit(go) == Limit(btime=0, wtime=0, binc=1, winc=1)
    assert go_limit(go).main_time(Board().turn) == 1.0
    backend = RecordingBackend()
    usi = Harness(backend)
    try:
        usi.send("isready", f"position sfen {MIDGAME}", "go btime 0 wtime 0 binc 1000 winc 1000")
        usi.wait_for("bestmove")
    finally:
        usi.close()
    info = backend.results[0].info
    assert info["time"] >= 0.5, f"answered after {info['time'] * 1000:.0f} ms of a 1000 ms increment"


@pytest.mark.parametrize("go", ["go depth 3 searchmoves 1g1f 9g9f", "go movetime 100 searchmoves 1g1f 9g9f"])
def test_searchmoves_are_honoured(go: str) -> None:
    usi = Harness(RecordingBackend())
    try:
        usi.send("isready", "position startpos", go)
        line = usi.wait_for("bestmove")[0]
    finally:
        usi.close()
    assert line.split()[1] in ("1g1f", "9g9f")
    pv_lines = [text for text in usi.out if " pv " in text]
    assert all(text.split(" pv ")[1].split()[0] in ("1g1f", "9g9f") for text in pv_lines)


def test_go_mate_after_a_rejected_position_answers_checkmate_nomate() -> None:
    usi = Harness(StandInBackend())
    try:
        usi.send("position startpos moves 7g7e", "go mate 1000")
        assert usi.wait_for("checkmate") == ["checkmate nomate"]
        usi.send("go btime 0 wtime 0 byoyomi 100")
        assert usi.wait_for("bestmove") == ["bestmove resign"]
    finally:
        usi.close()
    assert not usi.lines("bestmove nomate")
    assert len(usi.lines("checkmate")) == 1


def test_an_overlong_command_line_is_refused_not_half_read() -> None:
    out: list[str] = []
    moves = " 7g7f 3c3d" * 300_000  # 3 MB
    stream = io.BytesIO(f"usi\nposition startpos moves{moves}\ngo depth 1\nquit\n".encode())
    server = UsiServer(StandInBackend(), write=out.append)
    assert server.run(read_lines(stream)) == 0
    assert "usiok" in out
    errors = [line for line in out if line.startswith("info string error:")]
    assert len(errors) == 2, out
    assert "refused" in errors[0]
    assert out[-1] == "bestmove resign"  # not a move in the position before the refused one
