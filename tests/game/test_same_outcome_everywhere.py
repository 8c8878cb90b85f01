"""The same engine misbehaviour ends the game the same way in every front end.

One scripted fake USI engine (tests/fakes/usi_engine.py, a real subprocess) plays sente from the
starting position and misbehaves at its first ``go``: it crashes, sends an illegal move (5a5e:
gote's king), sends ``bestmove resign``, or stays silent past its time.  The terminal game
(:class:`shogiban.play.session.GameSession`), the match runner (:func:`shogiban.usi.match.play_game`)
and the web room's computer player (:class:`shogiban.web.thinking.ThinkingPlayer` over
:class:`~shogiban.web.thinking.UsiEngines`, its decision applied as the room applies it: through
:func:`shogiban.game.adjudicate`) all end it with the same termination, winner and detail.
"""

from __future__ import annotations

import asyncio
import io
import re
import shlex
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from shogiban import Board
from shogiban.engines import Limit, PlayResult
from shogiban.game import Clock, EnginePlayer, GameState, Mode, TimeControl, adjudicate
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import Color
from shogiban.play.human import HumanPlayer
from shogiban.play.reader import ScriptedReader
from shogiban.play.session import GameSession, SessionOptions
from shogiban.usi import popen_usi
from shogiban.usi.match import play_game
from shogiban.usi.match_engines import PlayerSpec, UsiPlayer
from shogiban.web.thinking import ThinkingPlayer, UsiEngines

FAKE_ENGINE = Path(__file__).resolve().parent.parent / "fakes" / "usi_engine.py"

START = """\
< usi
> id name FakeEngine
> usiok
< isready
> readyok
< usinewgame
< position startpos
< re:go .*
"""
"""What every front end sends before the first search."""

#: (misbehaviour, what follows the first ``go``, the time control, termination, detail pattern)
CASES = [
    ("crash", "exit 1", TimeControl.of(0, byoyomi=1), Termination.ABANDONED, r"sente: .* crashed \(.*\)"),
    ("illegal move", "> bestmove 5a5e", TimeControl.of(0, byoyomi=1), Termination.ILLEGAL_MOVE, r".*5a5e.*"),
    ("resign", "> bestmove resign", TimeControl.of(0, byoyomi=1), Termination.RESIGNATION, r"sente resigned"),
    # Slow: each front end waits out the silent engine's deadlines (about 17 s in all).
    pytest.param("silence", "hang", TimeControl.of(0, byoyomi=0.2), Termination.TIME_FORFEIT, r"sente ran out of time",
                 marks=pytest.mark.slow, id="silence"),
]


def engine_command(directory: Path, after_go: str) -> list[str]:
    """A fake engine (a new log each start) that misbehaves with *after_go* at its first search."""
    n = len(list(directory.glob("engine*.script")))
    script = directory / f"engine{n}.script"
    script.write_text(START + after_go + "\n", encoding="utf-8")
    return [sys.executable, str(FAKE_ENGINE), str(script), str(directory / f"engine{n}.log")]


def in_the_terminal(command: list[str], control: TimeControl) -> Outcome:
    async def main() -> Outcome:
        _, engine = await popen_usi(command, timeout=2.0)
        try:
            session = GameSession(
                Board(), (EnginePlayer(engine, now=time.monotonic), HumanPlayer("me")),
                reader=ScriptedReader([]), console=Console(file=io.StringIO(), width=200, no_color=True),
                options=SessionOptions(colors=False, clock=control),
            )
            return await session.play()
        finally:
            await engine.quit()

    return asyncio.run(main())


class Bystander:
    """The match's other side, never asked to move here."""

    name = "bystander"
    nodes = 0
    seconds = 0.0
    start_error: Exception | None = None

    def start(self) -> None:
        """Nothing to start."""

    def new_game(self) -> None:
        """Nothing to prepare."""

    def play(self, board: Board, limit: Limit, *, timeout: float | None) -> PlayResult:
        raise AssertionError("the bystander should not be asked to move")

    def game_over(self, result: str) -> None:
        """Nothing to tell."""

    def close(self) -> None:
        """Nothing to stop."""


def in_a_match(command: list[str], control: TimeControl) -> Outcome:
    engine = UsiPlayer(PlayerSpec("fake", command), timeout=2.0)
    engine.start()
    try:
        return play_game((engine, Bystander()), time_control=control, tolerance=0.1, grace=0.5).outcome
    finally:
        engine.close()


def in_the_web_room(command: list[str], control: TimeControl) -> Outcome:
    async def main() -> Outcome:
        engines = UsiEngines(shlex.join(command))
        player = ThinkingPlayer(engines, game_id="g", level=1, name="fake", now=time.monotonic)
        try:
            state = GameState.new(mode=Mode.COMPUTER, engines=(True, False), clock=Clock(control),
                                  now=time.monotonic())
            decision = await player.choose(state)
            # The room applies a computer's decision as the rules adjudicate an engine.
            ended, _ = adjudicate(state, decision, time.monotonic(), player.name)
        finally:
            await engines.close()
        assert ended.outcome is not None
        return ended.outcome

    return asyncio.run(main())


@pytest.mark.parametrize(("case", "after_go", "control", "termination", "detail"), CASES,
                         ids=[c.id if hasattr(c, "marks") else c[0] for c in CASES])
def test_the_same_misbehaviour_ends_the_game_the_same_way_everywhere(
    tmp_path: Path, case: str, after_go: str, control: TimeControl, termination: Termination, detail: str
) -> None:
    outcomes = {
        "terminal": in_the_terminal(engine_command(tmp_path, after_go), control),
        "match": in_a_match(engine_command(tmp_path, after_go), control),
        "web": in_the_web_room(engine_command(tmp_path, after_go), control),
    }
    for front_end, outcome in outcomes.items():
        assert outcome.termination is termination, (front_end, outcome)
        assert outcome.winner == Color.WHITE, (front_end, outcome)
        assert re.fullmatch(detail, outcome.detail), (front_end, outcome)
    if termination is not Termination.ABANDONED:  # a crash names each front end's engine its own way
        assert len({outcome.detail for outcome in outcomes.values()}) == 1, outcomes
