"""The lessons: loaded from ``lessons.toml`` and turned into what the web page shows.

Every fact a lesson shows comes from the rules core at request time: the squares a piece
reaches, how a sequence of moves ends, the entering-king points, and whether a learner's move
is legal (and why not).  The TOML file holds only positions; the words are in the text catalogue
(:mod:`shogiban.i18n`, keys ``lessons.<id>.title`` and ``lessons.<id>.<text>``).

>>> lesson = render_lesson("silver", "en")
>>> lesson["title"]
'The silver general'
>>> sorted(lesson["sections"][0]["diagram"]["highlights"])
['4d', '4f', '5d', '6d', '6f']
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from shogiban import rules
from shogiban.board import Board
from shogiban.i18n import LANGUAGES, Language, has_key, translate
from shogiban.lessons.targets import move_targets
from shogiban.move import Move
from shogiban.notation import words as explain
from shogiban.pieces import Color, Piece
from shogiban.squares import SQUARE_NAMES, parse_square, square_file, square_rank

#: The square a piece stands on in the piece diagrams (the centre of the board).
CENTRE = "5e"


class UnknownLessonError(LookupError):
    """No lesson (or no section) with that id."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson of the file: texts per language and sections."""

    id: str
    """URL id (``king``, ``drops``)."""
    group: str
    """``pieces`` or ``rules``."""
    sections: tuple[dict[str, Any], ...]
    """Sections as written in the file (``text``, ``diagram``, ``exercise``)."""
    piece: str | None = None
    """For a piece lesson, the piece's SFEN letter."""

    def title(self, language: Language) -> str:
        """The lesson's title in *language*."""
        return translate(f"lessons.{self.id}.title", language)

    def text_key(self, index: int) -> str:
        """The catalogue key of section *index*'s text."""
        return f"lessons.{self.id}.{self.sections[index]['text']}"


@cache
def load_lessons() -> tuple[Lesson, ...]:
    """Every lesson, in order."""
    data = tomllib.loads(resources.files("shogiban.lessons").joinpath("lessons.toml").read_text("utf-8"))
    return tuple(
        Lesson(
            id=item["id"],
            group=item["group"],
            sections=tuple(item["section"]),
            piece=item.get("piece"),
        )
        for item in data["lesson"]
    )


def get_lesson(lesson_id: str) -> Lesson:
    """The lesson *lesson_id*.

    :raises UnknownLessonError: if there is none.
    """
    for lesson in load_lessons():
        if lesson.id == lesson_id:
            return lesson
    raise UnknownLessonError(f"unknown lesson: {lesson_id!r}")


def lesson_index(language: Language) -> list[dict[str, Any]]:
    """The lessons' ids, groups and titles in *language*."""
    return [{"id": x.id, "group": x.group, "title": x.title(language), "piece": x.piece} for x in load_lessons()]


# -- diagrams -------------------------------------------------------------------------------------


def piece_board(symbol: str) -> Board:
    """An otherwise empty board with sente's *symbol* (``R``, ``+B``) on the centre square."""
    piece = Piece.from_symbol(symbol)
    board = Board(None)
    board.set_piece_at(parse_square(CENTRE), piece)
    return board


def reachable(board: Board, square: str) -> list[str]:
    """The squares the piece on *square* can legally move to (each once)."""
    origin = parse_square(square)
    found: list[str] = []
    for move in board.legal_moves:
        name = SQUARE_NAMES[move.to_square]
        if move.from_square == origin and name not in found:
            found.append(name)
    return found


def _zone(color: str) -> list[str]:
    """The promotion zone of sente (``b``: ranks a-c) or gote (``w``: ranks g-i)."""
    ranks = (1, 2, 3) if color == "b" else (7, 8, 9)
    return [SQUARE_NAMES[sq] for sq in range(81) if square_rank(sq) in ranks]


def _diagram(spec: dict[str, Any], language: Language) -> dict[str, Any]:
    """The picture of a diagram spec, computed with the rules core."""
    if "piece" in spec:
        board = piece_board(spec["piece"])
        return {"sfen": board.sfen(), "highlights": reachable(board, CENTRE), "arrows": [], "lastMove": None,
                "check": False, "steps": []}
    board = Board(spec["sfen"])
    highlights = list(spec.get("highlights", [])) + (_zone(spec["zone"]) if "zone" in spec else [])
    view: dict[str, Any] = {
        "sfen": board.sfen(),
        "highlights": highlights,
        "arrows": [list(a) for a in spec.get("arrows", [])],
        "lastMove": None,
        "check": board.is_check(),
        "steps": [],
    }
    if "moves" in spec:
        steps = []
        for usi in spec["moves"]:
            move = board.push_usi(usi)
            steps.append({"sfen": board.sfen(), "lastMove": move.usi(), "check": board.is_check(),
                          "repetitions": board.repetition_count()})
        outcome = board.outcome()
        if outcome is not None:
            steps[-1]["end"] = explain.explain_outcome(outcome, board, language)
        view["steps"] = steps
    return view


def _facts(spec: dict[str, Any], language: Language) -> dict[str, object]:
    """Numbers the text of a diagram quotes (``{black_points}`` ...), from the rules core."""
    facts: dict[str, object] = {}
    wanted = spec.get("facts", [])
    if not wanted:
        return facts
    board = Board(spec["sfen"])
    if "declaration" in wanted:
        points, pieces = rules.declaration_points(board, Color.BLACK)
        facts["black_points"] = points
        facts["black_pieces"] = pieces
        can = board.turn == Color.BLACK and board.can_declare_win()
        facts["black_declares"] = translate("learn.declares_yes" if can else "learn.declares_no", language)
    if "impasse" in wanted:
        facts["black_total"] = board.impasse_points(Color.BLACK)
        facts["white_total"] = board.impasse_points(Color.WHITE)
    return facts


# -- exercises ------------------------------------------------------------------------------------


def exercise_board(spec: dict[str, Any]) -> Board:
    """The start position of an exercise."""
    if "piece" in spec:
        return piece_board(spec["piece"])
    return Board(spec["sfen"])


def exercise_tries(spec: dict[str, Any], board: Board) -> list[Move]:
    """Illegal moves the board offers too, for the learner to try.

    A piece exercise offers every square next to the piece and the knight's squares; a refused
    exercise offers its ``try`` moves and every drop of every piece in hand.
    """
    tries = [Move.from_usi(usi) for usi in spec.get("try", [])]
    if "piece" in spec:
        origin = parse_square(CENTRE)
        for sq in range(81):
            df = abs(square_file(sq) - square_file(origin))
            dr = square_rank(sq) - square_rank(origin)
            if ((df <= 1 and abs(dr) <= 1) or (df == 1 and dr == -2)) and sq != origin:
                tries.append(Move(from_square=origin, to_square=sq))
    if spec.get("goal") == "refused":
        for piece_type in board.hand(board.turn):
            tries += [Move(to_square=sq, drop=piece_type) for sq in range(81) if board.piece_at(sq) is None]
    legal = set(board.legal_moves)
    return [m for m in dict.fromkeys(tries) if m not in legal]


def _exercise(spec: dict[str, Any]) -> dict[str, Any]:
    board = exercise_board(spec)
    moves = list(board.legal_moves) + exercise_tries(spec, board)
    dests, drops = move_targets(moves)
    return {
        "sfen": board.sfen(),
        "goal": spec["goal"],
        "dests": dests,
        "dropDests": drops,
        "check": board.is_check(),
        "highlights": [spec["focus"]] if "focus" in spec else [],
    }


def render_lesson(lesson_id: str, language: Language) -> dict[str, Any]:
    """The lesson as the page draws it: title, and per section the text (paragraphs), the
    diagram and the exercise, all in *language*.

    :raises UnknownLessonError: if there is no such lesson.
    """
    lesson = get_lesson(lesson_id)
    sections = []
    for index, section in enumerate(lesson.sections):
        out: dict[str, Any] = {"index": index}
        facts: dict[str, object] = {}
        if "diagram" in section:
            out["diagram"] = _diagram(section["diagram"], language)
            facts = _facts(section["diagram"], language)
        text = translate(lesson.text_key(index), language, **facts)
        if "exercise" in section:
            out["exercise"] = _exercise(section["exercise"])
        out["paragraphs"] = [p.strip() for p in text.split("\n\n") if p.strip()]
        sections.append(out)
    return {"id": lesson.id, "group": lesson.group, "title": lesson.title(language), "sections": sections}


def try_move(lesson_id: str, index: int, usi: str, language: Language) -> dict[str, Any]:
    """Check a learner's move in the exercise of section *index*.

    Returns ``legal``, ``code`` and ``reason`` (the core's refusal, in *language*), ``success``
    (whether the exercise's goal is met), ``feedback`` (a sentence in *language*) and the
    position to show next (``sfen``, ``lastMove``, ``check``, ``mate``).

    :raises UnknownLessonError: if there is no such lesson or section, or it has no exercise.
    :raises shogiban.InvalidMoveError: if *usi* is not a USI move.
    """
    lesson = get_lesson(lesson_id)
    if not 0 <= index < len(lesson.sections) or "exercise" not in lesson.sections[index]:
        raise UnknownLessonError(f"no exercise in section {index!r} of lesson {lesson_id!r}")
    spec = lesson.sections[index]["exercise"]
    board = exercise_board(spec)
    move = Move.from_usi(usi)
    goal = spec["goal"]
    refusal = board.check_move(move)
    result: dict[str, Any] = {"usi": move.usi(), "legal": refusal is None, "code": None, "reason": None,
                              "sfen": board.sfen(), "lastMove": None, "check": board.is_check(), "mate": False}
    if refusal is not None:
        code, reason = refusal.code, explain.refusal_reason(refusal, language)
        result.update(code=code, reason=reason)
        expected = goal == "refused" and code == spec.get("code")
        result["success"] = expected
        result["feedback"] = translate("learn.ok_refused" if expected else "learn.refused", language, reason=reason)
        return result
    board.push(move)
    mate = board.is_checkmate()
    result.update(sfen=board.sfen(), lastMove=move.usi(), check=board.is_check(), mate=mate)
    if goal == "mate":
        result["success"] = mate
        result["feedback"] = translate("learn.ok_mate" if mate else "learn.not_mate", language)
    elif goal == "refused":
        result["success"] = False
        result["feedback"] = translate("learn.legal_try_refused", language)
    elif goal == "answer":
        found = move.usi() in spec.get("answer", [])
        result["success"] = found
        result["feedback"] = translate("learn.ok_answer" if found else "learn.not_answer", language)
    else:
        result["success"] = True
        result["feedback"] = translate("learn.ok_legal", language)
    return result


def supported_languages() -> tuple[Language, ...]:
    """The languages every lesson is written in."""
    return LANGUAGES


def check_lessons() -> list[str]:
    """Problems in the lesson file (missing texts, unknown goals), for tests; empty when sound."""
    problems = []
    for lesson in load_lessons():
        keys = [f"lessons.{lesson.id}.title"] + [lesson.text_key(i) for i in range(len(lesson.sections))]
        problems += [f"{lesson.id}: no text {key!r} in the catalogue" for key in keys if not has_key(key)]
        if len(set(keys)) != len(keys):
            problems.append(f"{lesson.id}: two sections share a text")
        for index, section in enumerate(lesson.sections):
            goal = section.get("exercise", {}).get("goal")
            if goal is not None and goal not in ("legal", "refused", "mate", "answer"):
                problems.append(f"{lesson.id}[{index}]: unknown goal {goal!r}")
    return problems
