"""One game at the terminal: the board, the players, the clocks, the commands, and the end.

:class:`GameSession` takes its input from a :class:`~shogiban.play.reader.LineReader` and writes
to a ``rich`` console, so tests drive it with scripted lines and read what it printed.  The
game itself (position, clock, what may be done, how it ends) is :mod:`shogiban.game`'s: the
session turns typed lines and engine answers into actions and prints the events.

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
from shogiban.errors import EngineError, ShogibanError
from shogiban.game import Clock, GameState, Mode, MovePlayed, Role, Status, TimeControl
from shogiban.game.players import Decision
from shogiban.move import Move
from shogiban.outcome import Outcome, Termination
from shogiban.pieces import COLORS, Color
from shogiban.play import explain
from shogiban.play.clock import format_seconds
from shogiban.play.i18n import Language, Translator
from shogiban.play.moveinput import MoveEntryError, format_move, read_move
from shogiban.play.players import EnginePlayer, HumanPlayer
from shogiban.play.reader import InputTimeoutError, LineReader
from shogiban.play.records import save_record
from shogiban.play.render import BLACK_MARK, WHITE_MARK, BoardView

Player = HumanPlayer | EnginePlayer

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

    :param players: (sente's player, gote's player).
    :param hint_engine: engine asked for hints when no player is an engine.
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
        hint_engine: EnginePlayer | None = None,
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
        engines = (not isinstance(players[0], HumanPlayer), not isinstance(players[1], HumanPlayer))
        mode = Mode.COMPUTER if engines.count(True) == 1 else Mode.LOCAL
        # Moves already on the board count as the game's (untimed); the clock starts with the game.
        # Tournament mode: an engine's illegal move or failed declaration loses; a person's input
        # is checked before it becomes an action.
        self.state = GameState(
            board.starting_sfen, mode, engines, board.entering_king_rule, tournament=True,
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

    def _apply(self, action: game.Action) -> list[game.Event]:
        """Apply *action* now, noting the moves' texts."""
        before = self.state.board()
        self.state, events = game.apply(self.state, action, self.now())
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
            status.append(self.t("board.check"))
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
        parts = [self.t("board.move_number", number=self.board.move_number)]
        if self._move_texts:
            parts.append(self.t("board.last_move", move=self._move_texts[-1]))
        if self.outcome is None:
            parts.append(self.t("board.turn", side=self.side(self.board.turn)))
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
                extra = self.t("board.in_byoyomi") if in_byoyomi else self.t(
                    "board.byoyomi", seconds=_number(control.byoyomi)
                )
                shown = f"{shown} ({extra})"
            mark = BLACK_MARK if color == Color.BLACK else WHITE_MARK
            parts.append(f"{mark} " + self.t("board.clock", side=self.side(color), time=shown))
        return ["   ".join(parts)]

    # -- the game -----------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play the game to its end and return how it ended."""
        if self.options.handicap is not None:
            self.say(self.t("game.start_handicap", name=self.options.handicap, uwate=self.side(Color.WHITE)))
        if self._humans():
            self.say(self.t("game.welcome"))
        if self.state.status is Status.PLAYING:
            self.state = game.evolve(self.state, clock=self.state.clock.start(self.state.turn, self.now()))
        while self.state.status is Status.PLAYING:
            self.show_board()
            player = self.players[self.state.turn]
            if isinstance(player, HumanPlayer):
                self._human_turn()
            else:
                self._engine_turn(player)
        self._finish()
        assert self.outcome is not None
        return self.outcome

    def _finish(self) -> None:
        outcome = self.outcome
        assert outcome is not None
        self.show_board()
        text = explain.explain_outcome(
            outcome, self.board, self.language, handicap=self.options.handicap is not None, declarer=self.declarer
        )
        self.say(text, "bold")
        self._tell_engines(outcome)
        if self.options.save_path:
            self._save(self.options.save_path)
        if self._humans() and outcome.termination is not Termination.ABANDONED:
            self._after_the_end()

    def _tell_engines(self, outcome: Outcome) -> None:
        """Send each engine the result from its side (USI ``gameover``)."""
        for color in COLORS:
            player = self.players[color]
            if isinstance(player, HumanPlayer) or outcome.termination is Termination.ABANDONED:
                continue
            result = "draw" if outcome.winner is None else "win" if outcome.winner == color else "lose"
            try:
                player.game_over(result)
            except EngineError as error:
                self.say(self.t("game.engine_error", error=str(error)), "bold red")

    def _after_the_end(self) -> None:
        """Let the user save the record or look at the board before leaving."""
        self.say(self.t("game.after_end"))
        while True:
            line = self._prompt_line(None, "")
            if line is None:
                return
            word, _, rest = line.strip().partition(" ")
            command = _COMMAND_OF.get(word.lower())
            if command == "save":
                self._save(rest.strip())
            elif command == "board":
                self.show_board()
            elif command == "help":
                self.say(self.t("help.text"))
            elif command == "quit":
                return
            elif line.strip():
                self.say(self.t("error.not_now"))

    def _prompt_line(self, timeout: float | None, prompt: str) -> str | None:
        """Print *prompt* and read a line (None at the end of the input).

        :raises InputTimeoutError: when *timeout* passes.
        """
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            line = self.reader.read_line(timeout)
        except InputTimeoutError:
            self.console.print()
            raise
        if self.options.echo_input:
            self.console.print(line if line is not None else "", markup=False, highlight=False)
        return line

    # -- a person's turn --------------------------------------------------------------------------

    def _human_turn(self) -> None:
        color = self.state.turn
        if self.board.can_declare_win():
            self.say(self.t("game.declare_possible"), "bold green")
        while True:
            deadline = self.state.clock.deadline()
            remaining = None if deadline is None else max(0.0, deadline - self.now())
            mark = BLACK_MARK if color == Color.BLACK else WHITE_MARK
            try:
                line = self._prompt_line(remaining, self.t("game.prompt", side=f"{mark} {self.side(color)}"))
            except InputTimeoutError:
                self._flag(deadline)
                return
            if line is None:
                self.say(self.t("game.eof"))
                self._apply(game.Abandon("end of input"))
                return
            if self._handle_line(line.strip(), color):
                return

    def _flag(self, deadline: float | None) -> None:
        """The running side's time is up (seen while waiting for it)."""
        now = self.now()
        at = now if deadline is None else max(now, deadline)
        self.state, _ = game.apply(self.state, game.FlagFall(), at)

    def _handle_line(self, line: str, color: Color) -> bool:
        """Act on one typed line; True when the turn is over (a move, undo, or the game ended)."""
        if not line:
            return False
        word, _, rest = line.partition(" ")
        command = _COMMAND_OF.get(word.lower())
        if command is not None:
            return self._command(command, rest.strip(), color)
        try:
            move = read_move(self.board, line)
        except MoveEntryError as error:
            self.say(error.explain(self.language), "bold red")
            return False
        self._apply(game.Move(move.usi()))
        return True

    def _command(self, command: str, argument: str, color: Color) -> bool:
        if command == "help":
            self.say(self.t("help.text"))
        elif command == "board":
            self.show_board()
        elif command == "hint":
            self._hint()
        elif command == "save":
            self._save(argument)
        elif command == "undo":
            return self._undo(color)
        elif command == "resign":
            self.say(self.t("cmd.resign_done", side=self.side(color)))
            self._apply(game.Resign(color))
            return True
        elif command == "declare":
            # The game adjudicates (a failed declaration loses), so a person's is checked first.
            refusal = explain.declaration_refusal(self.board, self.language)
            if refusal is not None:
                self.say(self.t("cmd.declare_refused", reason=refusal), "bold red")
                return False
            self.declarer = color
            self._apply(game.Declare())
            return True
        elif command == "quit":
            self.say(self.t("cmd.quit"))
            self._apply(game.Abandon("stopped by the user"))
            return True
        return False

    def _undo(self, color: Color) -> bool:
        """Take back the last move of *color*'s player and what followed (one move when two
        people play)."""
        role = Role.BOTH if self.state.mode is Mode.LOCAL else Role.of(color)
        if game.allowed(self.state, role, game.Undo()) is not None:
            self.say(self.t("cmd.undo_none"))
            return False
        count = game.undo_count(self.state)
        self._apply(game.Undo())
        del self._move_texts[len(self._move_texts) - count:]
        self.say(self.t("cmd.undo_done", count=count))
        return True

    def _hint(self) -> None:
        engine = self.hint_engine
        if engine is None:
            engine = next((p for p in self.players if not isinstance(p, HumanPlayer)), None)
        if engine is None:
            self.say(self.t("cmd.hint_none", why=self.t("cmd.hint_no_engine")))
            return
        try:
            move = engine.suggest(self.board.copy(), self.options.hint_seconds)
        except EngineError as error:
            self.say(self.t("cmd.hint_none", why=str(error)))
            return
        if move is None or not self.board.is_legal(move):
            self.say(self.t("cmd.hint_none", why="-"))
            return
        self.say(self.t("cmd.hint", move=f"{format_move(self.board, move, self.language)} ({move.usi()})"), "bold")

    def _save(self, argument: str) -> None:
        if not argument:
            self.say(self.t("cmd.save_usage"))
            return
        path = Path(argument).expanduser()
        try:
            save_record(path, self)
        except (OSError, ShogibanError) as error:
            self.say(self.t("cmd.save_failed", path=str(path), error=str(error)), "bold red")
            return
        self.say(self.t("cmd.save_done", path=str(path)))

    # -- an engine's turn -------------------------------------------------------------------------

    def _engine_turn(self, engine: EnginePlayer) -> None:
        color = self.state.turn
        self.say(self.t("game.thinking", name=engine.name), "dim")
        decision: Decision = asyncio.run(engine.choose(self.state))
        if isinstance(decision, game.EngineFailure):
            self.say(self.t("game.engine_error", error=decision.detail), "bold red")
        elif isinstance(decision, game.Declare):
            self.say(self.t("game.engine_declares", side=self.side(color)))
            self.declarer = color
        elif isinstance(decision, game.Resign):
            self.say(self.t("cmd.resign_done", side=self.side(color)))
        if isinstance(decision, game.FlagFall) and not self.state.clock.is_flagged(self.now()):
            decision = game.EngineFailure(color, f"{engine.name} did not answer")
        if game.allowed(self.state, Role.SYSTEM, decision) is not None:
            decision = game.EngineFailure(color, f"{engine.name}: {decision!r} cannot be played now")
        events = self._apply(decision)
        if any(isinstance(e, MovePlayed) for e in events):
            self.say(self.t("game.played", side=self.side(color), move=self._move_texts[-1]), "bold")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
