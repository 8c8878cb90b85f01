"""One game at the terminal: the board, the players, the clocks, the commands, and the end.

:class:`GameSession` takes its input from a :class:`~shogiban.play.reader.LineReader` and writes
to a ``rich`` console, so tests drive it with scripted lines and read what it printed.  The
game itself (position, clock, what may be done, how it ends) is :mod:`shogiban.game`'s: the
session seats two :class:`shogiban.game.Player` (a :class:`HumanPlayer` reads the terminal, a
:class:`shogiban.game.EnginePlayer` asks an engine), applies their decisions and prints the
events, all in one event loop (:meth:`GameSession.play`; :meth:`GameSession.run` runs it).  A
person's move or declaration that the rules forbid is refused by the core and explained from the
refusal; an engine's decision is adjudicated as in every front end (:func:`shogiban.game.adjudicate`).

>>> import io
>>> from rich.console import Console
>>> from shogiban import Board
>>> from shogiban.play.reader import ScriptedReader
>>> out = io.StringIO()
>>> session = GameSession(
...     Board("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
...     (HumanPlayer("you"), HumanPlayer("friend")),
...     reader=ScriptedReader(["G*5b"]),
...     console=Console(file=out, no_color=True, width=80),
... )
>>> session.run().termination
<Termination.CHECKMATE: 'checkmate'>
>>> "Sente wins" in out.getvalue()
True
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.text import Text

from shogiban import game
from shogiban.board import Board
from shogiban.engines import Engine
from shogiban.errors import EngineError, Refusal, ShogibanError
from shogiban.game import Clock, Decision, EnginePlayer, GameState, Mode, MovePlayed, Player, Role, Status, TimeControl
from shogiban.game.time_budget import clock_limit
from shogiban.i18n import Language, Translator, refusal_text
from shogiban.move import Move
from shogiban.notation.entry import MoveEntryError, format_move, read_move
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import COLORS, Color
from shogiban.play import explain
from shogiban.play.clock import format_seconds
from shogiban.play.human import HumanPlayer
from shogiban.play.reader import InputTimeoutError, LineReader
from shogiban.play.records import save_record
from shogiban.play.render import BLACK_MARK, WHITE_MARK, BoardView

#: Words for each command: English first, then Japanese and Chinese aliases.
COMMANDS: dict[str, tuple[str, ...]] = {
    "undo": ("undo", "u", "待った", "まった", "悔棋", "退回"),
    "resign": ("resign", "投了", "認輸", "认输"),
    "hint": ("hint", "h", "ヒント", "提示"),
    "save": ("save", "保存", "儲存", "存檔", "存档"),
    "declare": ("declare", "win", "宣言", "入玉宣言"),
    "help": ("help", "?", "ヘルプ", "說明", "说明", "帮助", "幫助"),
    "board": ("board", "b", "盤", "盤面", "棋盤", "棋盘"),
    "quit": ("quit", "exit", "q", "終了", "中断", "結束", "结束"),
}
_COMMAND_OF = {word: name for name, words in COMMANDS.items() for word in words}


@dataclass
class SessionOptions:
    """How the session looks and runs."""

    language: Language = "en"
    """Language of everything printed."""
    colors: bool = True
    """Coloured board (off: ``v`` and ``*`` marks only)."""
    letters: bool = False
    """Western piece letters instead of kanji."""
    flipped: bool = False
    """Show the board from gote's side."""
    clock: TimeControl = field(default_factory=TimeControl)
    """The time control (none by default)."""
    hint_seconds: float = 1.0
    """How long the engine thinks for a hint."""
    handicap: str | None = None
    """Name of the handicap (駒落ち) being played, if any: sides are then called 下手/上手."""
    echo_input: bool = False
    """Print each line read after its prompt (for scripted, non-terminal input)."""
    save_path: str | None = None
    """Save the record there when the game ends."""


class GameSession:
    """A game between two players at one terminal.

    :param players: (sente's player, gote's player): :class:`HumanPlayer` for a person, any
        other :class:`shogiban.game.Player` (an :class:`shogiban.game.EnginePlayer`) for a computer.
    :param hint_engine: engine asked for hints (else the opponent's, if it is an EnginePlayer).
    :param now: the clock's time source (tests pass a fake one).
    """

    def __init__(
        self,
        board: Board,
        players: tuple[Player, Player],
        *,
        reader: LineReader,
        console: Console,
        options: SessionOptions | None = None,
        hint_engine: Engine | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.players = players
        self.reader = reader
        self.console = console
        self.options = options or SessionOptions()
        self.t = Translator(self.options.language)
        self.now = now
        self.hint_engine = hint_engine
        self.declarer: Color | None = None
        self._move_texts: list[str] = []
        for player in players:
            if isinstance(player, HumanPlayer):
                player.terminal = self
        engines = (not isinstance(players[0], HumanPlayer), not isinstance(players[1], HumanPlayer))
        mode = Mode.COMPUTER if engines.count(True) == 1 else Mode.LOCAL
        # Moves already on the board count as the game's (untimed); the clock starts with the game.
        # Not tournament mode: the core refuses a person's illegal move (and the session explains
        # it); an engine's decision is adjudicated (a foul loses) by game.adjudicate.
        self.state = GameState(
            board.starting_sfen, mode, engines, board.entering_king_rule, tournament=False,
            max_moves=board.max_moves, moves=tuple(game.PlayedMove(m.usi()) for m in board.move_stack),
            clock=Clock(self.options.clock),
        )
        ended = board.outcome()
        if ended is not None:
            self.state = game.evolve(self.state, status=Status.OVER, outcome=ended)

    # -- the game -------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The position (a copy)."""
        return self.state.board()

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self.state.outcome

    def _apply(self, action: Decision, *, engine: str | None = None) -> list[game.Event]:
        """Apply *action* now, noting the moves' texts; *engine* names the engine whose decision
        it is (adjudicated: a foul loses)."""
        before = self.state.board()
        if engine is None:
            self.state, events = game.apply(self.state, action, self.now())
        else:
            self.state, events = game.adjudicate(self.state, action, self.now(), engine)
        for event in events:
            if isinstance(event, MovePlayed):
                move = Move.from_usi(event.usi)
                self._move_texts.append(format_move(before, move, self.language))
                before.push(move)
        return events

    # -- names --------------------------------------------------------------------------------

    @property
    def language(self) -> Language:
        """The session's language."""
        return self.options.language

    def side(self, color: Color) -> str:
        """先手/後手 (or 下手/上手 in a handicap game) in the session's language."""
        return explain.side_name(color, self.language, handicap=self.options.handicap is not None)

    def _player_name(self, color: Color) -> str:
        player = self.players[color]
        return player.name

    def _humans(self) -> list[Color]:
        return [c for c in COLORS if isinstance(self.players[c], HumanPlayer)]

    # -- output -------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        """Print a line (styled only when colours are on)."""
        self.console.print(Text(text, style=style if self.options.colors else ""))

    def show_board(self) -> None:
        """Print the board with the status lines."""
        board = self.board
        last = board.peek() if board.ply else None
        status = [self._status_line()]
        if board.is_check() and self.outcome is None:
            status.append(self.t("terminal.board.check"))
        status += self._clock_lines()
        handicap = self.options.handicap is not None
        view = BoardView(
            board,
            self.language,
            last_move=last,
            flipped=self.options.flipped,
            letters=self.options.letters,
            colors=self.options.colors,
            player_names=(self._player_name(Color.BLACK), self._player_name(Color.WHITE)),
            side_names=(self.side(Color.BLACK), self.side(Color.WHITE)) if handicap else None,
            status=status,
        )
        self.console.print()
        self.console.print(view.renderable())

    def _status_line(self) -> str:
        parts = [self.t("terminal.board.move_number", number=self.board.move_number)]
        if self._move_texts:
            parts.append(self.t("terminal.board.last_move", move=self._move_texts[-1]))
        if self.outcome is None:
            parts.append(self.t("terminal.board.turn", side=self.side(self.board.turn)))
        return "   ".join(parts)

    def _clock_lines(self) -> list[str]:
        control = self.options.clock
        if not control.enabled:
            return []
        parts = []
        clock = self.state.clock
        now = self.now()
        for color in COLORS:
            main, _, _ = clock.time_left(color, now)
            shown = format_seconds(main.total_seconds())
            if control.byoyomi > 0:
                in_byoyomi = main.total_seconds() <= 0
                extra = self.t("terminal.board.in_byoyomi") if in_byoyomi else self.t(
                    "terminal.board.byoyomi", seconds=_number(control.byoyomi)
                )
                shown = f"{shown} ({extra})"
            mark = BLACK_MARK if color == Color.BLACK else WHITE_MARK
            parts.append(f"{mark} " + self.t("terminal.board.clock", side=self.side(color), time=shown))
        return ["   ".join(parts)]

    # -- the game -----------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play the game to its end (in an event loop of its own) and return how it ended."""
        return asyncio.run(self.play())

    async def play(self) -> Outcome:
        """Play the game to its end in the running event loop and return how it ended."""
        if self.options.handicap is not None:
            self.say(self.t("terminal.game.start_handicap", name=self.options.handicap, uwate=self.side(Color.WHITE)))
        if self._humans():
            self.say(self.t("terminal.game.welcome"))
        if self.state.status is Status.PLAYING:
            self.state = game.evolve(self.state, clock=self.state.clock.start(self.state.turn, self.now()))
        while self.state.status is Status.PLAYING:
            self.show_board()
            player = self.players[self.state.turn]
            if isinstance(player, HumanPlayer):
                await self._human_turn(player)
            else:
                await self._engine_turn(player)
        await self._finish()
        assert self.outcome is not None
        return self.outcome

    async def _finish(self) -> None:
        outcome = self.outcome
        assert outcome is not None
        self.show_board()
        text = explain.explain_outcome(
            outcome, self.board, self.language, handicap=self.options.handicap is not None, declarer=self.declarer
        )
        self.say(text, "bold")
        await self._tell_engines(outcome)
        if self.options.save_path:
            self._save(self.options.save_path)
        if self._humans() and outcome.termination is not Termination.ABANDONED:
            await self._after_the_end()

    async def _tell_engines(self, outcome: Outcome) -> None:
        """Send each engine the result from its side (USI ``gameover``)."""
        if outcome.termination is Termination.ABANDONED and outcome.winner is None:
            return
        for color in COLORS:
            player = self.players[color]
            if not isinstance(player, EnginePlayer):
                continue
            result = "draw" if outcome.winner is None else "win" if outcome.winner == color else "lose"
            try:
                await player.engine.game_over(result)
            except EngineError as error:
                self.say(self.t("terminal.game.engine_error", error=str(error)), "bold red")

    async def _after_the_end(self) -> None:
        """Let the user save the record or look at the board before leaving."""
        self.say(self.t("terminal.game.after_end"))
        while True:
            line = await self._prompt_line(None, "")
            if line is None:
                return
            word, _, rest = line.strip().partition(" ")
            command = _COMMAND_OF.get(word.lower())
            if command == "save":
                self._save(rest.strip())
            elif command == "board":
                self.show_board()
            elif command == "help":
                self.say(self.t("terminal.help"))
            elif command == "quit":
                return
            elif line.strip():
                self.say(self.t("terminal.error.not_now"))

    async def _prompt_line(self, timeout: float | None, prompt: str) -> str | None:
        """Print *prompt* and read a line (None at the end of the input); the blocking read runs
        in a worker thread, so the session's event loop (an engine's process) stays free.

        :raises InputTimeoutError: when *timeout* passes.
        """
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            line = await asyncio.to_thread(self.reader.read_line, timeout)
        except InputTimeoutError:
            self.console.print()
            raise
        if self.options.echo_input:
            self.console.print(line if line is not None else "", markup=False, highlight=False)
        return line

    # -- a person's turn --------------------------------------------------------------------------

    def _role(self, color: Color) -> Role:
        """The role a person at this terminal plays *color* in (both sides on one device)."""
        return Role.BOTH if self.state.mode is Mode.LOCAL else Role.of(color)

    async def _human_turn(self, player: HumanPlayer) -> None:
        """Ask *player* until the core takes its decision (a refused one is explained)."""
        color = self.state.turn
        if self.board.can_declare_win():
            self.say(self.t("terminal.game.declare_possible"), "bold green")
        while True:
            decision = await player.choose(self.state)
            if isinstance(decision, game.FlagFall):
                deadline = self.state.clock.deadline()
                now = self.now()
                self.state, _ = game.apply(self.state, decision, now if deadline is None else max(now, deadline))
                return
            refusal = game.allowed(self.state, self._role(color), decision)
            if refusal is not None:
                self._explain_refusal(decision, refusal)
                continue
            count = game.undo_count(self.state) if isinstance(decision, game.Undo) else 0
            if isinstance(decision, game.Resign):
                self.say(self.t("terminal.cmd.resign_done", side=self.side(color)))
            elif isinstance(decision, game.Declare):
                self.declarer = color
            self._apply(decision)
            if count:
                del self._move_texts[len(self._move_texts) - count:]
                self.say(self.t("terminal.cmd.undo_done", count=count))
            return

    def _explain_refusal(self, decision: Decision, refusal: Refusal) -> None:
        """Say why the core refused a person's *decision*, in the session's language."""
        if isinstance(decision, game.Undo):
            self.say(self.t("terminal.cmd.undo_none"))
        elif isinstance(decision, game.Declare) and refusal.code == "cannot_declare":
            reason = str(refusal.params.get("reason", refusal.code))
            self.say(self.t("terminal.cmd.declare_refused", reason=refusal_text(reason, refusal.params, self.language)),
                     "bold red")
        elif isinstance(decision, game.PlayMove) and refusal.code == "invalid_move":
            self.say(self.t("terminal.error.unreadable", text=repr(decision.usi)), "bold red")
        elif isinstance(decision, game.PlayMove):
            reason = explain.refusal_reason(refusal, self.language)
            self.say(self.t("terminal.error.illegal", move=decision.usi, reason=reason), "bold red")
        else:
            self.say(refusal_text(refusal.code, refusal.params, self.language), "bold red")

    async def read_decision(self, state: GameState) -> Decision:
        """What the person at the terminal decides for the side to move of *state* (the
        :class:`~shogiban.play.human.Terminal` of a :class:`HumanPlayer`): a move, resign,
        declare, undo or quit as typed, :class:`~shogiban.game.FlagFall` when the clock runs out
        first, :class:`~shogiban.game.Abandon` at the end of the input.  Help, the board, hints
        and saving are answered on the way."""
        color = state.turn
        while True:
            deadline = state.clock.deadline()
            remaining = None if deadline is None else max(0.0, deadline - self.now())
            mark = BLACK_MARK if color == Color.BLACK else WHITE_MARK
            try:
                prompt = self.t("terminal.game.prompt", side=f"{mark} {self.side(color)}")
                line = await self._prompt_line(remaining, prompt)
            except InputTimeoutError:
                return game.FlagFall()
            if line is None:
                self.say(self.t("terminal.game.eof"))
                return game.Abandon("end of input")
            decision = await self._decision(line.strip(), color)
            if decision is not None:
                return decision

    async def _decision(self, line: str, color: Color) -> Decision | None:
        """The decision one typed line makes, or None (a command answered, or nothing to play)."""
        if not line:
            return None
        word, _, rest = line.partition(" ")
        command = _COMMAND_OF.get(word.lower())
        if command is not None:
            return await self._command(command, rest.strip(), color)
        try:
            # USI text goes to the core as typed (it refuses an illegal move); notation is matched
            # against the legal moves.
            move = read_move(self.board, line, check=False)
        except MoveEntryError as error:
            self.say(error.explain(self.language), "bold red")
            return None
        return game.PlayMove(move.usi())

    async def _command(self, command: str, argument: str, color: Color) -> Decision | None:
        if command == "help":
            self.say(self.t("terminal.help"))
        elif command == "board":
            self.show_board()
        elif command == "hint":
            await self._hint()
        elif command == "save":
            self._save(argument)
        elif command == "undo":
            return game.Undo()
        elif command == "resign":
            return game.Resign(color)
        elif command == "declare":
            return game.Declare()
        elif command == "quit":
            self.say(self.t("terminal.cmd.quit"))
            return game.Abandon("stopped by the user")
        return None

    def _hint_source(self) -> Engine | None:
        if self.hint_engine is not None:
            return self.hint_engine
        return next((p.engine for p in self.players if isinstance(p, EnginePlayer)), None)

    async def _hint(self) -> None:
        engine = self._hint_source()
        if engine is None:
            self.say(self.t("terminal.cmd.hint_none", why=self.t("terminal.cmd.hint_no_engine")))
            return
        try:
            # The time as byoyomi, never ``movetime`` (every USI engine takes byoyomi).
            result = await engine.play(self.board, clock_limit(Clock(), movetime=self.options.hint_seconds))
        except EngineError as error:
            self.say(self.t("terminal.cmd.hint_none", why=str(error)))
            return
        move = result.move
        if move is None or not self.board.is_legal(move):
            self.say(self.t("terminal.cmd.hint_none", why="-"))
            return
        shown = f"{format_move(self.board, move, self.language)} ({move.usi()})"
        self.say(self.t("terminal.cmd.hint", move=shown), "bold")

    def _save(self, argument: str) -> None:
        if not argument:
            self.say(self.t("terminal.cmd.save_usage"))
            return
        path = Path(argument).expanduser()
        try:
            save_record(path, self)
        except (OSError, ShogibanError) as error:
            self.say(self.t("terminal.cmd.save_failed", path=str(path), error=str(error)), "bold red")
            return
        self.say(self.t("terminal.cmd.save_done", path=str(path)))

    # -- an engine's turn -------------------------------------------------------------------------

    async def _engine_turn(self, engine: Player) -> None:
        color = self.state.turn
        self.say(self.t("terminal.game.thinking", name=engine.name), "dim")
        decision = await engine.choose(self.state)
        if isinstance(decision, game.EngineFailure):
            self.say(self.t("terminal.game.engine_error", error=decision.detail), "bold red")
        elif isinstance(decision, game.Declare):
            self.say(self.t("terminal.game.engine_declares", side=self.side(color)))
            self.declarer = color
        elif isinstance(decision, game.Resign):
            self.say(self.t("terminal.cmd.resign_done", side=self.side(color)))
        events = self._apply(decision, engine=engine.name)
        if any(isinstance(e, MovePlayed) for e in events):
            self.say(self.t("terminal.game.played", side=self.side(color), move=self._move_texts[-1]), "bold")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
