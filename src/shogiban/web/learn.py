"""The web pages for learners: lessons (``/learn``) and mate problems (``/puzzles``).

:data:`routes` is a list of Starlette routes that the web application mounts: two pages, their
JSON endpoints and their static files (``/static/learn/``).  The pages are rule-free JavaScript;
everything they show about the rules comes from these endpoints, which ask the rules core and
the tsume solver.

JSON endpoints (``lang`` is any of ``en``, ``ja``, ``zh-Hant``, ``zh-Hans``; without it, the
visitor's language as for the pages: :func:`shogiban.web.pages.request_language`):

* ``GET  /api/learn/lessons?lang=``                       -- the lessons' ids and titles
* ``GET  /api/learn/lessons/{id}?lang=``                  -- a lesson: texts, diagrams, exercises
* ``POST /api/learn/lessons/{id}/sections/{n}/try``       -- ``{"usi", "lang"}``: check a move
* ``POST /api/learn/lessons/{id}/sections/{n}/answer``    -- ``{"square", "step", "lang"}`` or
  ``{"choice", "lang"}``: check a square clicked or a choice picked
* ``GET  /api/puzzles?lang=``                             -- the problems (id, length, rating, themes),
  the groups by length and by theme, and today's daily puzzle
* ``GET  /api/puzzles/{id}/solution``                     -- the stored solution, step by step
* ``GET  /api/puzzles/{id}``                              -- a problem's start position
* ``POST /api/puzzles/{id}/move``                         -- ``{"line", "usi", "lang"}``: check a move
* ``POST /api/puzzles/{id}/hint``                         -- ``{"line"}``: the piece to move, the move

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> client = TestClient(Starlette(routes=routes))
>>> client.get("/api/learn/lessons/pawn?lang=ja").json()["title"]
'歩兵とと金'
"""

from __future__ import annotations

import datetime
from importlib import resources
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from shogiban.board import Board
from shogiban.errors import InvalidSquareError
from shogiban.i18n import Language, UnknownLanguageError, normalize_language, translate
from shogiban.lessons.content import (
    BadAnswerError,
    UnknownLessonError,
    lesson_index,
    render_lesson,
    try_choice,
    try_move,
    try_square,
)
from shogiban.lessons.puzzles import (
    THEMES,
    Puzzle,
    PuzzleChecker,
    UnknownPuzzleError,
    daily_puzzle,
    get_puzzle,
    hint_payload,
    position_view,
    puzzles_by_length,
    puzzles_by_theme,
    replay,
)
from shogiban.notation.forms import move_forms
from shogiban.web.pages import render_shell, request_language
from shogiban.web.routing import Checked, CheckedRoute
from shogiban.web.schema import (
    LANG_QUERY,
    LESSON_ANSWER,
    LESSON_ID,
    LESSON_TRY,
    PUZZLE_HINT,
    PUZZLE_ID,
    PUZZLE_MOVE,
    SECTION_INDEX,
    RequestError,
)

STATIC_DIR = resources.files("shogiban.web").joinpath("static", "learn")


def _language(value: object, request: Request) -> Language:
    # The page says which language it shows; without a word from it the request decides, as
    # for the pages themselves (an unknown language gets English).
    if not isinstance(value, str) or not value:
        return request_language(request)
    try:
        return normalize_language(value)
    except UnknownLanguageError:
        return "en"


def _page(request: Request, page: str) -> Response:
    # The site's shell (header, navigation, language), filled by the page's own module.
    return render_shell(
        request,
        page=page,
        title_key=f"ui.nav.{page}",
        module=f"/static/learn/{page}.js",
        stylesheets=("/static/learn/learn.css",),
    )


def _lesson_id(checked: Checked) -> str:
    lesson_id: str = checked.params["lesson_id"]
    return lesson_id


def make_routes(checker: PuzzleChecker | None = None) -> list[BaseRoute]:
    """The routes, with *checker* checking puzzle moves (a :class:`PuzzleChecker` using
    :func:`shogiban.tsume.solve` by default).  Every route is a checked route: see
    :mod:`shogiban.web.routing`."""
    puzzle_checker = checker if checker is not None else PuzzleChecker()

    # (An unknown lesson's page says so itself, in the page's language, and switches with it.)
    async def learn_page(request: Request, checked: Checked) -> Response:
        return _page(request, "learn")

    # A problem that does not exist gets a 404 page in the visitor's language, as any unknown
    # page does, instead of the page opening another problem.
    async def puzzles_page(request: Request, checked: Checked) -> Response:
        if "puzzle_id" in checked.params:
            _puzzle(checked)
        return _page(request, "puzzles")

    async def api_lessons(request: Request, checked: Checked) -> Response:
        language = _language(checked.query.get("lang"), request)
        return JSONResponse({"language": language, "lessons": lesson_index(language)})

    async def api_lesson(request: Request, checked: Checked) -> Response:
        language = _language(checked.query.get("lang"), request)
        try:
            return JSONResponse(render_lesson(_lesson_id(checked), language))
        except UnknownLessonError as error:
            raise RequestError("unknown_lesson", str(error), 404) from None

    async def api_try(request: Request, checked: Checked) -> Response:
        body = checked.body
        language = _language(body.get("lang"), request)
        try:
            return JSONResponse(try_move(_lesson_id(checked), checked.params["index"], body["usi"], language))
        except UnknownLessonError as error:
            raise RequestError("unknown_lesson", str(error), 404) from None
        except BadAnswerError as error:
            raise RequestError(error.code, str(error)) from None

    async def api_answer(request: Request, checked: Checked) -> Response:
        body = checked.body
        language = _language(body.get("lang"), request)
        lesson_id, index = _lesson_id(checked), checked.params["index"]
        try:
            if body.get("choice") is not None:
                return JSONResponse(try_choice(lesson_id, index, body["choice"], language))
            if body.get("square") is not None:
                return JSONResponse(try_square(lesson_id, index, body["square"], language, body.get("step") or 0))
        except UnknownLessonError as error:
            raise RequestError("unknown_lesson", str(error), 404) from None
        except (BadAnswerError, InvalidSquareError) as error:
            raise RequestError(error.code, str(error)) from None
        raise RequestError("bad_answer", "an answer is a square or a choice")

    async def api_puzzles(request: Request, checked: Checked) -> Response:
        language = _language(checked.query.get("lang"), request)
        groups: list[dict[str, Any]] = [
            {
                "key": f"mate-{length}", "length": length,
                "title": translate("puzzle.group", language, count=length),
                "puzzles": [{"id": p.id, "number": p.number, "rating": p.rating, "themes": list(p.themes)}
                            for p in puzzles],
            }
            for length, puzzles in puzzles_by_length().items() if puzzles
        ]
        themes = [
            {"key": f"theme-{theme}", "theme": theme, "puzzles": [p.id for p in puzzles]}
            for theme, puzzles in puzzles_by_theme().items() if puzzles and theme in THEMES
        ]
        today = datetime.datetime.now(datetime.UTC).date()
        daily = daily_puzzle(today)
        return JSONResponse({"language": language, "groups": groups, "themes": themes,
                             "daily": {"id": daily.id, "date": today.isoformat()}})

    def _puzzle(checked: Checked) -> Puzzle:
        try:
            return get_puzzle(checked.params["puzzle_id"])
        except UnknownPuzzleError as error:
            raise RequestError("unknown_puzzle", str(error), 404) from None

    async def api_puzzle(request: Request, checked: Checked) -> Response:
        puzzle = _puzzle(checked)
        board = replay(puzzle, [])
        return JSONResponse(
            {"id": puzzle.id, "length": puzzle.length, "number": puzzle.number, "source": puzzle.source,
             **position_view(board)}
        )

    async def api_puzzle_solution(request: Request, checked: Checked) -> Response:
        puzzle = _puzzle(checked)
        return JSONResponse(await run_in_threadpool(_solution_steps, puzzle))

    async def api_puzzle_move(request: Request, checked: Checked) -> Response:
        puzzle = _puzzle(checked)
        body = checked.body
        line, language = body.get("line") or [], _language(body.get("lang"), request)
        # The solver is CPU work: keep it off the event loop.
        result = await run_in_threadpool(puzzle_checker.attempt, puzzle, line, body["usi"], language)
        return JSONResponse(result)

    async def api_puzzle_hint(request: Request, checked: Checked) -> Response:
        puzzle = _puzzle(checked)
        hint = await run_in_threadpool(puzzle_checker.hint, puzzle, checked.body.get("line") or [])
        return JSONResponse(hint_payload(hint))

    lesson = {"lesson_id": LESSON_ID}
    puzzle = {"puzzle_id": PUZZLE_ID}
    return [
        CheckedRoute("/learn", learn_page, page=True),
        CheckedRoute("/learn/{lesson_id}", learn_page, params=lesson, page=True),
        CheckedRoute("/puzzles", puzzles_page, page=True),
        CheckedRoute("/puzzles/{puzzle_id}", puzzles_page, params=puzzle, page=True),
        CheckedRoute("/api/learn/lessons", api_lessons, query=LANG_QUERY),
        CheckedRoute("/api/learn/lessons/{lesson_id}", api_lesson, params=lesson, query=LANG_QUERY),
        CheckedRoute("/api/learn/lessons/{lesson_id}/sections/{index}/try", api_try, methods=["POST"],
                     params={**lesson, "index": SECTION_INDEX}, body=LESSON_TRY),
        CheckedRoute("/api/learn/lessons/{lesson_id}/sections/{index}/answer", api_answer, methods=["POST"],
                     params={**lesson, "index": SECTION_INDEX}, body=LESSON_ANSWER),
        CheckedRoute("/api/puzzles", api_puzzles, query=LANG_QUERY),
        CheckedRoute("/api/puzzles/{puzzle_id}", api_puzzle, params=puzzle),
        CheckedRoute("/api/puzzles/{puzzle_id}/solution", api_puzzle_solution, params=puzzle),
        CheckedRoute("/api/puzzles/{puzzle_id}/move", api_puzzle_move, methods=["POST"], params=puzzle,
                     body=PUZZLE_MOVE),
        CheckedRoute("/api/puzzles/{puzzle_id}/hint", api_puzzle_hint, methods=["POST"], params=puzzle,
                     body=PUZZLE_HINT),
        Mount("/static/learn", app=StaticFiles(directory=str(STATIC_DIR)), name="learn-static"),
    ]


def _solution_steps(puzzle: Puzzle) -> dict[str, Any]:
    """The stored solution of *puzzle*: each move in every notation and the position after it."""
    board = Board(puzzle.sfen)
    steps = []
    for usi in puzzle.solution:
        move = board.parse_usi(usi)
        forms = move_forms(board, move)
        board.push(move)
        steps.append({"usi": usi, "label": forms["japanese"], "forms": forms, "sfen": board.sfen(),
                      "check": board.is_check()})
    return {"id": puzzle.id, "start": puzzle.sfen, "steps": steps}


#: The routes the web application mounts.
routes: list[BaseRoute] = make_routes()
