"""The web pages for learners: lessons (``/learn``) and mate problems (``/puzzles``).

:data:`routes` is a list of Starlette routes that the web application mounts: two pages, their
JSON endpoints and their static files (``/static/learn/``).  The pages are rule-free JavaScript;
everything they show about the rules comes from these endpoints, which ask the rules core and
the tsume solver.

JSON endpoints (``lang`` is any of ``en``, ``ja``, ``zh-Hant``, ``zh-Hans``; default ``en``):

* ``GET  /api/learn/lessons?lang=``                       -- the lessons' ids and titles
* ``GET  /api/learn/lessons/{id}?lang=``                  -- a lesson: texts, diagrams, exercises
* ``POST /api/learn/lessons/{id}/sections/{n}/try``       -- ``{"usi", "lang"}``: check a move
* ``GET  /api/puzzles?lang=``                             -- the problems, grouped by length
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

import json
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from shogiban.errors import InvalidMoveError
from shogiban.lessons.content import UnknownLessonError, lesson_index, render_lesson, try_move
from shogiban.lessons.puzzles import (
    BadLineError,
    PuzzleChecker,
    UnknownPuzzleError,
    get_puzzle,
    hint_payload,
    position_view,
    puzzles_by_length,
    replay,
)
from shogiban.play.i18n import Language, UnknownLanguageError, normalize_language, translate
from shogiban.web.pages import render_shell

STATIC_DIR = resources.files("shogiban.web").joinpath("static", "learn")


def _language(value: object) -> Language:
    if not isinstance(value, str) or not value:
        return "en"
    try:
        return normalize_language(value)
    except UnknownLanguageError:
        return "en"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _page(request: Request, page: str) -> Response:
    # The site's shell (header, navigation, language), filled by the page's own module.
    return render_shell(
        request,
        page=page,
        title_key=f"nav.{page}",
        module=f"/static/learn/{page}.js",
        stylesheets=("/static/learn/learn.css",),
    )


def make_routes(checker: PuzzleChecker | None = None) -> list[BaseRoute]:
    """The routes, with *checker* checking puzzle moves (a :class:`PuzzleChecker` using
    :func:`shogiban.tsume.solve` by default)."""
    puzzle_checker = checker if checker is not None else PuzzleChecker()

    async def learn_page(request: Request) -> Response:
        return _page(request, "learn")

    async def puzzles_page(request: Request) -> Response:
        return _page(request, "puzzles")

    async def api_lessons(request: Request) -> Response:
        language = _language(request.query_params.get("lang"))
        return JSONResponse({"language": language, "lessons": lesson_index(language)})

    def api_lesson(request: Request) -> Response:
        language = _language(request.query_params.get("lang"))
        try:
            return JSONResponse(render_lesson(request.path_params["lesson_id"], language))
        except UnknownLessonError as error:
            return _error(404, "unknown_lesson", str(error))

    async def api_try(request: Request) -> Response:
        data = await _body(request)
        language = _language(data.get("lang"))
        usi = data.get("usi")
        if not isinstance(usi, str):
            return _error(400, "invalid_move", "missing 'usi'")
        try:
            return JSONResponse(try_move(request.path_params["lesson_id"], request.path_params["index"], usi, language))
        except UnknownLessonError as error:
            return _error(404, "unknown_lesson", str(error))
        except InvalidMoveError as error:
            return _error(400, "invalid_move", str(error))

    async def api_puzzles(request: Request) -> Response:
        language = _language(request.query_params.get("lang"))
        groups = [
            {
                "length": length,
                "title": translate(language, "puzzle.group", count=length),
                "puzzles": [{"id": p.id, "number": p.number} for p in puzzles],
            }
            for length, puzzles in puzzles_by_length().items()
        ]
        return JSONResponse({"language": language, "groups": groups})

    async def api_puzzle(request: Request) -> Response:
        try:
            puzzle = get_puzzle(request.path_params["puzzle_id"])
        except UnknownPuzzleError as error:
            return _error(404, "unknown_puzzle", str(error))
        board = replay(puzzle, [])
        return JSONResponse(
            {"id": puzzle.id, "length": puzzle.length, "number": puzzle.number, "source": puzzle.source,
             **position_view(board)}
        )

    async def _puzzle_request(request: Request) -> tuple[Any, list[str], dict[str, Any]] | Response:
        try:
            puzzle = get_puzzle(request.path_params["puzzle_id"])
        except UnknownPuzzleError as error:
            return _error(404, "unknown_puzzle", str(error))
        data = await _body(request)
        line = data.get("line", [])
        if not isinstance(line, list) or not all(isinstance(m, str) for m in line):
            return _error(400, "bad_line", "'line' must be a list of USI moves")
        return puzzle, line, data

    def _move(puzzle: Any, line: list[str], usi: str, language: Language) -> Response:
        try:
            return JSONResponse(puzzle_checker.attempt(puzzle, line, usi, language))
        except BadLineError as error:
            return _error(400, "bad_line", str(error))
        except InvalidMoveError as error:
            return _error(400, "invalid_move", str(error))

    async def api_puzzle_move(request: Request) -> Response:
        found = await _puzzle_request(request)
        if isinstance(found, Response):
            return found
        puzzle, line, data = found
        usi = data.get("usi")
        if not isinstance(usi, str):
            return _error(400, "invalid_move", "missing 'usi'")
        from starlette.concurrency import run_in_threadpool

        # The solver is CPU work: keep it off the event loop.
        return await run_in_threadpool(_move, puzzle, line, usi, _language(data.get("lang")))

    def _hint(puzzle: Any, line: list[str]) -> Response:
        try:
            return JSONResponse(hint_payload(puzzle_checker.hint(puzzle, line)))
        except BadLineError as error:
            return _error(400, "bad_line", str(error))

    async def api_puzzle_hint(request: Request) -> Response:
        found = await _puzzle_request(request)
        if isinstance(found, Response):
            return found
        puzzle, line, _ = found
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(_hint, puzzle, line)

    return [
        Route("/learn", learn_page),
        Route("/learn/{lesson_id}", learn_page),
        Route("/puzzles", puzzles_page),
        Route("/puzzles/{puzzle_id}", puzzles_page),
        Route("/api/learn/lessons", api_lessons),
        Route("/api/learn/lessons/{lesson_id}", api_lesson),
        Route("/api/learn/lessons/{lesson_id}/sections/{index:int}/try", api_try, methods=["POST"]),
        Route("/api/puzzles", api_puzzles),
        Route("/api/puzzles/{puzzle_id}", api_puzzle),
        Route("/api/puzzles/{puzzle_id}/move", api_puzzle_move, methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}/hint", api_puzzle_hint, methods=["POST"]),
        Mount("/static/learn", app=StaticFiles(directory=str(STATIC_DIR)), name="learn-static"),
    ]


#: The routes the web application mounts.
routes: list[BaseRoute] = make_routes()
