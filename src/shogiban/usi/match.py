"""Engine matches: two players, N games with alternating colours, adjudicated by the rules core.

Adjudication (``Board(tournament=True)``): checkmate or no legal move, four-fold repetition (a
draw) and perpetual check (a loss for the checker), an illegal move (a loss, recorded with its
reason), ``bestmove win`` checked by the entering-king rule (a failed declaration loses),
resignation, the move limit (a draw), and the clock.

The game itself is :mod:`shogiban.game`'s: this module only asks the engines and writes the
records.  Clock: the game's :class:`~shogiban.game.Clock` with the match's
:class:`~shogiban.game.TimeControl` (a fixed time per move is byoyomi without main time); a move
that took longer than main + increment + byoyomi + *tolerance* loses on time; the tolerance
(default 0.5 s) absorbs process and pipe latency on a loaded machine.  An engine that does not
answer is sent ``stop``, then killed, and loses on time once its clock has run out; one that
crashes (or fails otherwise) loses the game as every front end ends it (ABANDONED, the other side
winning; recorded as 反則負け with a comment), and is restarted for the next.
"""

from __future__ import annotations

import asyncio
import datetime
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from shogiban.board import Board
from shogiban.errors import EngineError, ShogibanError
from shogiban.game import (
    Clock,
    Declare,
    GameState,
    Mode,
    MovePlayed,
    PlayedMove,
    Player,
    PlayMove,
    Status,
    TimeControl,
    adjudicate,
    evolve,
)
from shogiban.game.players import Decision, decision_from_error, decision_from_result
from shogiban.game.time_budget import clock_limit
from shogiban.kifu import Game, GameNode, Headers, Result, ResultKind, write_game
from shogiban.kifu.results import result_from_outcome
from shogiban.kifu.timecontrol import kif_time_headers
from shogiban.move import Move
from shogiban.outcome import EnteringKingRule, Outcome, Termination
from shogiban.sfen import STARTING_SFEN
from shogiban.usi.elo import EloEstimate, elo_estimate
from shogiban.usi.match_engines import MatchEngine
from shogiban.usi.wire import parse_position

SIDES = ("sente", "gote")
#: One second per move.
DEFAULT_TIME_CONTROL = TimeControl.of(0, byoyomi=1.0)


def fixed_time(movetime: float) -> TimeControl:
    """A fixed time per move: byoyomi without main time (``go btime 0 wtime 0 byoyomi``, which every
    engine takes, and a loss on time beyond it)."""
    return TimeControl.of(0, byoyomi=movetime)


def describe_limits(time_control: TimeControl, depth: int | None = None, nodes: int | None = None) -> str:
    """For headers and logs, e.g. ``60 s + 1 s byoyomi``, ``no clock + depth 3``."""
    parts = [time_control.describe()] if time_control.enabled or not (depth or nodes) else []
    if depth is not None:
        parts.append(f"depth {depth}")
    if nodes is not None:
        parts.append(f"{nodes} nodes")
    return " + ".join(parts)


@dataclass
class GameResult:
    """One finished game."""

    number: int
    """1-based game number."""
    players: tuple[str, str]
    """Names of sente and gote."""
    outcome: Outcome
    """How it ended (winner None for a draw)."""
    game: Game
    """The record, with times and the result."""
    plies: int
    """Moves played."""
    path: Path | None = None
    """Where the KIF was written, if anywhere."""

    def winner_name(self) -> str | None:
        """The winner's name, or None for a draw."""
        return None if self.outcome.winner is None else self.players[self.outcome.winner]

    def describe(self) -> str:
        """One line: who won how."""
        if self.outcome.winner is None:
            verdict = "draw"
        else:
            verdict = f"{SIDES[self.outcome.winner]} ({self.players[self.outcome.winner]}) wins"
        return f"{self.outcome.result()} {verdict}, {self.outcome.termination.value}: {self.outcome.detail}"


def play_game(
    players: tuple[MatchEngine, MatchEngine],
    *,
    start_sfen: str = STARTING_SFEN,
    opening: Sequence[Move] = (),
    time_control: TimeControl = DEFAULT_TIME_CONTROL,
    depth: int | None = None,
    nodes: int | None = None,
    max_moves: int = 320,
    entering_king_rule: EnteringKingRule = EnteringKingRule.POINTS_27,
    tolerance: float = 0.5,
    grace: float = 1.0,
    number: int = 1,
    headers: Headers | None = None,
    now: Callable[[], float] = time.monotonic,
) -> GameResult:
    """Play one game between *players* (sente first) and return its result and record.

    :param opening: moves played before the engines take over (recorded, untimed).
    :param depth, nodes: further bounds for every search.
    :param max_moves: draw after this many plies.
    :param tolerance: seconds a move may exceed its time before it loses on time.
    :param grace: further seconds before a silent engine is sent ``stop`` (then killed).
    """
    game = Game(start_sfen, headers)
    node: GameNode = game.root
    for move in opening:
        node = node.add_variation(move)
    clock = Clock(time_control, tolerance=timedelta(seconds=tolerance))
    state = GameState(start_sfen, Mode.MATCH, (True, True), entering_king_rule, tournament=True, max_moves=max_moves,
                      moves=tuple(PlayedMove(m.usi()) for m in opening), clock=clock)
    for player in players:
        player.new_game()
    outcome = state.board().outcome()
    if outcome is None:
        state = evolve(state, clock=clock.start(state.turn, now()))
    else:
        state = evolve(state, status=Status.OVER, outcome=outcome)
    # The engines decide through the one player protocol every front end uses (game.Player).
    black, white = (MatchPlayer(player, depth=depth, nodes=nodes, margin=tolerance + grace, now=now)
                    for player in players)
    deciders = (black, white)
    state, node, last, elapsed = asyncio.run(_play(state, deciders, node, now))
    assert state.outcome is not None
    outcome = state.outcome
    _finish_record(node, state, outcome, last, elapsed)
    for index, player in enumerate(players):
        verdict = "draw" if outcome.winner is None else ("win" if outcome.winner == index else "lose")
        player.game_over(verdict)
    names = (players[0].name, players[1].name)
    return GameResult(number, names, outcome, game, state.ply)


class MatchPlayer:
    """A match engine (its blocking :meth:`MatchEngine.play`) as a side of the game, on the game
    core's one player protocol: ``await choose(state)`` asks it in a worker thread, with the clock's limit and a
    deadline of the time it has left plus *margin*, and turns its answer or failure into the
    core's action as every front end does."""

    def __init__(self, player: MatchEngine, *, depth: int | None, nodes: int | None, margin: float,
                 now: Callable[[], float]) -> None:
        self.player = player
        self.name = player.name
        self.depth, self.nodes, self.margin, self._now = depth, nodes, margin, now

    async def choose(self, state: GameState) -> Decision:
        """The player's decision for the side to move of *state*."""
        allowance = state.clock.allowance(state.turn)
        timeout = None if allowance is None else allowance.total_seconds() + self.margin
        limit = clock_limit(state.clock, depth=self.depth, nodes=self.nodes)
        try:
            result = await asyncio.to_thread(self.player.play, state.board(), limit, timeout=timeout)
        except EngineError as error:
            return decision_from_error(state, error, self.name, now=self._now())
        return decision_from_result(state, result)


async def _play(
    state: GameState, players: tuple[Player, Player], node: GameNode, now: Callable[[], float]
) -> tuple[GameState, GameNode, Decision | None, float]:
    """Play *state* to its end: the final state, the record's last node, the last decision and
    the seconds it took."""
    elapsed = 0.0
    last: Decision | None = None
    while state.status is Status.PLAYING:
        start = now()
        player = players[state.turn]
        last = await player.choose(state)
        finished = now()
        elapsed = finished - start
        state, events = adjudicate(state, last, finished, player.name)
        for event in events:
            if isinstance(event, MovePlayed):
                node = node.add_variation(Move.from_usi(event.usi))
                node.elapsed = round(event.spent.total_seconds())
    return state, node, last, elapsed


def _finish_record(node: GameNode, state: GameState, outcome: Outcome, last: Decision | None, elapsed: float) -> None:
    """Append the result to the record (an engine failure and an unreadable move as fouls)."""
    t = outcome.termination
    illegal: Move | None = None
    if t is Termination.ILLEGAL_MOVE and isinstance(last, PlayMove):
        try:
            illegal = Move.from_usi(last.usi)
        except ShogibanError:
            illegal = None  # unreadable: no move to record
    failed = (t is Termination.ABANDONED and outcome.winner is not None) or (
        t is Termination.ILLEGAL_MOVE and illegal is None and not isinstance(last, Declare)
    )
    if failed and outcome.winner is not None:
        # A crash or an unreadable move: KIF has no word for it; 反則負け keeps the winner.
        result = Result(ResultKind.ILLEGAL, outcome.winner, detail=outcome.detail)
    else:
        result = result_from_outcome(outcome, state.turn, illegal)
    if t in (Termination.REPETITION, Termination.PERPETUAL_CHECK, Termination.CHECKMATE, Termination.NO_LEGAL_MOVES,
             Termination.MAX_MOVES):
        elapsed = 0.0
    node.add_result(result, comment=outcome.detail, elapsed=round(elapsed))


@dataclass
class MatchScore:
    """Wins, losses and draws of the first player against the second."""

    first: str
    second: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.losses + self.draws

    def add(self, result: GameResult) -> None:
        """Count *result*."""
        winner = result.winner_name()
        if winner is None:
            self.draws += 1
        elif winner == self.first:
            self.wins += 1
        else:
            self.losses += 1

    def elo(self) -> EloEstimate:
        """The Elo difference first minus second."""
        return elo_estimate(self.wins, self.losses, self.draws)

    def __str__(self) -> str:
        points = self.wins + self.draws / 2
        fraction = points / self.games if self.games else math.nan
        return (f"Score of {self.first} vs {self.second}: {self.wins} - {self.losses} - {self.draws} "
                f"[{fraction:.3f}] {self.games} games")


@dataclass
class MatchConfig:
    """Everything about a match but the players."""

    games: int = 2
    time_control: TimeControl = DEFAULT_TIME_CONTROL
    depth: int | None = None
    """A depth for every search (``go depth``)."""
    nodes: int | None = None
    """A node count for every search (``go nodes``)."""
    max_moves: int = 320
    handicap: str | None = None
    """Handicap name (香落ち, ...): gote gives it and moves first."""
    random_plies: int = 0
    """Random opening plies (the same for both games of a pair)."""
    openings: list[str] = field(default_factory=list)
    """Opening positions as ``position`` arguments (``startpos moves ...``), used in turn."""
    seed: int | None = None
    entering_king_rule: EnteringKingRule = EnteringKingRule.POINTS_27
    tolerance: float = 0.5
    out: Path | None = None
    """Directory for the KIF files."""


def random_opening(board: Board, plies: int, rng: random.Random) -> list[Move]:
    """*plies* random legal moves from *board* that do not end the game (fewer if none exist)."""
    work = board.copy()
    moves: list[Move] = []
    for _ in range(plies):
        candidates = sorted(work.legal_moves, key=Move.usi)
        rng.shuffle(candidates)
        for move in candidates:
            work.push(move)
            if work.outcome() is None:
                moves.append(move)
                break
            work.pop()
        else:
            break
    return moves


class Match:
    """Runs a match; :meth:`run` calls *report* with each line to print."""

    def __init__(self, players: tuple[MatchEngine, MatchEngine], config: MatchConfig,
                 report: Callable[[str], None] = print) -> None:
        self.players = players
        self.config = config
        self.report = report
        self.results: list[GameResult] = []
        self.score = MatchScore(players[0].name, players[1].name)

    def start_position(self) -> str:
        """SFEN every game starts from (before openings)."""
        if self.config.handicap:
            return Board.from_handicap(self.config.handicap).sfen()
        return STARTING_SFEN

    def opening_for(self, pair: int) -> tuple[str, list[Move]]:
        """Start SFEN and opening moves of the games of pair *pair* (games 2k+1 and 2k+2)."""
        sfen = self.start_position()
        moves: list[Move] = []
        if self.config.openings:
            board = parse_position(self.config.openings[pair % len(self.config.openings)])
            sfen, moves = board.starting_sfen, board.move_stack
        if self.config.random_plies:
            seed = (self.config.seed if self.config.seed is not None else 0) * 100003 + pair
            board = Board(sfen)
            for move in moves:
                board.push(move)
            moves = moves + random_opening(board, self.config.random_plies, random.Random(seed))
        return sfen, moves

    def headers(self, black: str, white: str, handicap: bool) -> Headers:
        """Record headers of one game."""
        tc = self.config.time_control
        headers = Headers()
        headers["開始日時"] = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S")
        headers["棋戦"] = "shogiban match"
        for key, value in kif_time_headers(tc):  # as every record writer words them
            headers[key] = value
        headers["下手" if handicap else "先手"] = black
        headers["上手" if handicap else "後手"] = white
        headers["備考"] = (f"time control: {describe_limits(tc, self.config.depth, self.config.nodes)}; "
                         f"max moves: {self.config.max_moves}")
        return headers

    def run(self) -> MatchScore:
        """Play every game, writing records and reporting as it goes."""
        config = self.config
        if config.out is not None:
            config.out.mkdir(parents=True, exist_ok=True)
        for player in self.players:
            player.start()
        failed = [f"{p.name}: {p.start_error}" for p in self.players if p.start_error is not None]
        if failed:
            for player in self.players:
                player.close()
            raise EngineError(f"cannot start the match: {'; '.join(failed)}")
        try:
            for index in range(config.games):
                self.play_one(index)
        finally:
            for player in self.players:
                player.close()
        self.report_final()
        return self.score

    def play_one(self, index: int) -> GameResult:
        """Play game *index* (0-based): the first player is sente in even-numbered games."""
        config = self.config
        first, second = self.players
        black, white = (first, second) if index % 2 == 0 else (second, first)
        for player in (black, white):
            player.start()
        sfen, opening = self.opening_for(index // 2)
        handicap = self.config.handicap is not None
        result = play_game(
            (black, white), start_sfen=sfen, opening=opening, time_control=config.time_control,
            depth=config.depth, nodes=config.nodes,
            max_moves=config.max_moves, entering_king_rule=config.entering_king_rule, tolerance=config.tolerance,
            number=index + 1, headers=self.headers(black.name, white.name, handicap),
        )
        if config.out is not None:
            path = config.out / f"game{index + 1:03d}.kif"
            path.write_bytes(_kif_bytes(result.game))
            result.path = path
        self.results.append(result)
        self.score.add(result)
        where = f" [{result.path}]" if result.path else ""
        self.report(f"Game {index + 1}/{config.games}: {black.name} (sente) vs {white.name} (gote): "
                    f"{result.describe()} after {result.plies} moves{where}")
        self.report(str(self.score))
        return result

    def report_final(self) -> None:
        """The final score, the Elo difference and the engines' speed."""
        self.report(f"Final: {self.score}")
        self.report(str(self.score.elo()))
        for player in self.players:
            speed = f"{player.nodes / player.seconds / 1000:.1f} k nodes/s" if player.seconds > 0 else "n/a"
            self.report(f"{player.name}: {speed}")


def _kif_bytes(game: Game) -> bytes:
    data = write_game(game, "kif")
    return data if isinstance(data, bytes) else data.encode("cp932", errors="replace")
