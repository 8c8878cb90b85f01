"""The position editor (``/editor``): set up any position, hear what is wrong with it, then play,
solve or share it.

The page (``static/js/pages/editor.js``) is rule-free: it places pieces and asks these endpoints.

* ``POST /api/positions/check`` -- ``{"sfen"}``: the position's problems (二歩, a piece that could
  never move, the side not to move in check, too many pieces of a kind, two kings), each with a
  stable code and its parameters, whether a game can start from it, and the SFEN normalised.
* ``POST /api/positions/solve`` -- ``{"sfen", "defender_hand"}``: the tsume solver's shortest mate
  for the side to move, in a solver process of its own (:func:`solve_job` in a
  :class:`~shogiban.web.parsing.ParsePool`, never the threads light requests use), with a time and
  node limit; one solve at a time per address, a few waiting per server, then ``busy``.
* ``POST /api/positions/moves`` -- ``{"sfen", "moves"}``: the position after *moves* and its legal
  moves, as the game websocket's ``position`` gives them (``dests``, ``drop_dests``), with each
  move in every notation (``forms``): the analysis board's exploration asks it at each new position.

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> client = TestClient(Starlette(routes=routes))
>>> answer = client.post("/api/positions/check", json={"sfen": "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1"}).json()
>>> [problem["code"] for problem in answer["problems"]], answer["playable"]
(['two_pawns'], False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from shogiban.board import Board, position_problems, start_problems
from shogiban.errors import ShogibanError
from shogiban.notation.forms import move_forms
from shogiban.pieces import Color
from shogiban.web.pages import render_shell
from shogiban.web.parsing import ParsePool, ParseReply, error_reply
from shogiban.web.positions import replayed
from shogiban.web.rates import ConcurrencyLimit, ServerLimits
from shogiban.web.rooms import legal_destinations
from shogiban.web.routing import Checked, CheckedRoute, client_address
from shogiban.web.schema import POSITION, POSITION_MOVES, RequestError, encode_json

#: What the solver may spend on an editor's position.
SOLVE_SECONDS = 5.0
SOLVE_NODES = 2_000_000


def _board(sfen: str) -> Board:
    try:
        return Board(sfen, lenient=True)
    except ShogibanError as error:
        raise RequestError("invalid_sfen", str(error), 400) from None


def check_position(sfen: str) -> dict[str, Any]:
    """What the editor shows about *sfen*: its problems and whether a game can start from it."""
    board = _board(sfen)
    problems = [{"code": p.code, "params": dict(p.params), "message": p.message} for p in position_problems(board)]
    kings = {"b": board.king_square(Color.BLACK) is not None, "w": board.king_square(Color.WHITE) is not None}
    blocking = {p.code for p in start_problems(board)}
    return {
        "sfen": board.sfen(), "problems": problems, "kings": kings, "check": board.is_check(),
        "playable": not blocking, "over": "game_over" in blocking,
    }


def solve_position(sfen: str, defender_hand: bool) -> dict[str, Any]:
    """The shortest mate for the side to move of *sfen* (see the module docstring)."""
    from shogiban.tsume import complete_defender_hand, solve

    board = _board(sfen)
    problems = position_problems(board)
    if problems:
        raise RequestError(problems[0].code, problems[0].message, 400)
    if defender_hand:
        board = complete_defender_hand(board)
    result = solve(board, timeout=SOLVE_SECONDS, max_nodes=SOLVE_NODES)
    steps = []
    replay = board.copy()
    for move in result.moves:
        forms = move_forms(replay, move)
        replay.push(move)
        steps.append({"usi": move.usi(), "label": forms["japanese"], "forms": forms, "sfen": replay.sfen()})
    return {"status": result.status, "length": result.length, "unique": result.unique, "start": board.sfen(),
            "steps": steps}


def position_moves(sfen: str, moves: list[str]) -> dict[str, Any]:
    """The position after *moves* from *sfen* and its legal moves (see the module docstring).

    >>> answer = position_moves("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", ["7g7f"])
    >>> answer["turn"], answer["dests"]["3c"], answer["moves"]["3c3d"]["japanese"]
    ('w', ['3d'], '△３四歩')

    :raises RequestError: ``invalid_position`` (400) for an SFEN that does not read or a move
        that is not legal.
    """
    board = replayed(sfen, moves, sfen_code="invalid_position", move_code="invalid_position")
    dests, drops = legal_destinations(board)
    forms = {move.usi(): move_forms(board, move) for move in board.legal_moves}
    return {
        "sfen": board.sfen(), "turn": "b" if board.turn == Color.BLACK else "w", "check": board.is_check(),
        "last_move": board.peek().usi() if moves else None, "dests": dests, "drop_dests": drops,
        "moves": forms,
    }


async def editor_page(request: Request, checked: Checked) -> Response:
    return render_shell(request, page="editor", title_key="ui.editor.title")


async def api_check(request: Request, checked: Checked) -> Response:
    return JSONResponse(await run_in_threadpool(check_position, checked.body["sfen"]))


@dataclass(frozen=True, slots=True)
class SolveJob:
    """A position to solve (picklable: it crosses into the solver process)."""

    sfen: str
    defender_hand: bool


def solve_job(job: SolveJob) -> ParseReply:
    """Solve *job* (in a solver process) and answer with the finished HTTP body."""
    try:
        return ParseReply(200, encode_json(solve_position(job.sfen, job.defender_hand)).encode("utf-8"))
    except RequestError as error:
        return error_reply(error.status, error.code, str(error))


def solver_pool(limits: ServerLimits) -> ParsePool:
    """The solver's processes: their deadline is the solver's own limit and a little more."""
    return ParsePool(limits.solver_workers, handler=solve_job, deadline=SOLVE_SECONDS + 10,
                     queue=limits.solves_waiting, busy="the solver is busy with other positions: please try again")


async def api_moves(request: Request, checked: Checked) -> Response:
    body = checked.body
    return JSONResponse(await run_in_threadpool(position_moves, body["sfen"], body.get("moves", [])))


async def api_solve(request: Request, checked: Checked) -> Response:
    body = checked.body
    defender_hand = body.get("defender_hand")
    pool: ParsePool | None = getattr(request.app.state, "solver", None)
    solving: ConcurrencyLimit | None = getattr(request.app.state, "solving", None)
    if pool is None or solving is None:
        raise RequestError("busy", "the solver is not available on this server", 503)
    address = client_address(request)
    if not solving.enter(address):
        raise RequestError("too_fast", "a position of yours is being solved: wait for it first", 429)
    try:
        reply = await pool.run(SolveJob(body["sfen"], True if defender_hand is None else defender_hand))
    finally:
        solving.leave(address)
    return Response(reply.body, status_code=reply.status, media_type=reply.media_type)


#: The routes the web application mounts.
routes: list[BaseRoute] = [
    CheckedRoute("/editor", editor_page, page=True),
    CheckedRoute("/api/positions/check", api_check, methods=["POST"], body=POSITION),
    CheckedRoute("/api/positions/solve", api_solve, methods=["POST"], body=POSITION),
    CheckedRoute("/api/positions/moves", api_moves, methods=["POST"], body=POSITION_MOVES),
]
