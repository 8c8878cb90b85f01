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
from shogiban.errors import ShogibanError
from shogiban.handicaps import HANDICAPS, Handicap, find_handicap
from shogiban.i18n import LANGUAGES, Language, has_key, template, translate
from shogiban.i18n.terms import piece_name, square_label
from shogiban.lessons.targets import move_targets
from shogiban.move import Move
from shogiban.notation import words as explain
from shogiban.notation.forms import move_forms
from shogiban.outcome import EnteringKingRule
from shogiban.pieces import Color, Piece, PieceType
from shogiban.sfen import STARTING_SFEN
from shogiban.squares import SQUARE_NAMES, parse_square, square_file, square_rank

#: The square a piece stands on in the piece diagrams (the centre of the board).
CENTRE = "5e"


#: The goals of an exercise played with moves (``/try``) ...
MOVE_GOALS = ("legal", "refused", "mate", "answer")
#: ... and of one answered by clicking a square or picking a choice (``/answer``).
ANSWER_GOALS = ("square", "placement", "choice")
#: The notations a ``choice`` exercise names moves in.
CHOICE_NOTATIONS = ("japanese", "western", "csa")
#: How many wrong choices a ``choice`` exercise offers beside the right one.
WRONG_CHOICES = 3
#: What a ``choice`` exercise may ask about its position, the answer worked out by the rules core:
#: the side to move's declaration points (hand plus pieces in the enemy camp), its 24-point
#: count (持将棋: every piece), and whether declaring now wins under the 27-point rule.
ASKS = ("declaration_points", "impasse_points", "declaration_wins")


class UnknownLessonError(LookupError):
    """No lesson (or no section) with that id."""


class LessonFileError(ShogibanError):
    """The lesson file holds an entry the rules core or the catalogue does not accept (a typo in a
    move, a square, a handicap's name ...); the message lists every problem."""

    code = "bad_lesson"


class BadAnswerError(ShogibanError):
    """An answer that does not fit the exercise: a move for a square exercise, a choice not
    offered, a placement step out of range."""

    code = "bad_answer"


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson of the file: texts per language and sections."""

    id: str
    """URL id (``king``, ``drops``)."""
    group: str
    """One of :data:`GROUPS` (``pieces``, ``rules``, ``game``, ``strategy``)."""
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


def _read_file() -> dict[str, Any]:
    return tomllib.loads(resources.files("shogiban.lessons").joinpath("lessons.toml").read_text("utf-8"))


def parse_lessons(data: dict[str, Any]) -> tuple[Lesson, ...]:
    """The lessons of a parsed lesson file, every entry checked with the rules core.

    :raises LessonFileError: listing every problem found (see :func:`lesson_problems`).
    """
    problems = lesson_problems(data)
    if problems:
        raise LessonFileError("bad lesson file: " + "; ".join(problems))
    orders = data.get("placements", {})
    lessons = []
    for item in data["lesson"]:
        sections = []
        for section in item["section"]:
            # A named placement order is put in place, so that rendering need not look it up.
            section = dict(section)
            for part in ("diagram", "exercise"):
                if isinstance(section.get(part, {}).get("placements"), str):
                    section[part] = {**section[part], "placements": list(orders[section[part]["placements"]])}
            sections.append(section)
        lessons.append(Lesson(id=item["id"], group=item["group"], sections=tuple(sections), piece=item.get("piece")))
    return tuple(lessons)


@cache
def load_lessons() -> tuple[Lesson, ...]:
    """Every lesson, in order.

    :raises LessonFileError: if the file has an entry the rules core does not accept.
    """
    return parse_lessons(_read_file())


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


def start_pieces() -> dict[str, str]:
    """Sente's pieces in the start position: square name -> SFEN letter (``{"5i": "K", ...}``)."""
    board = Board(STARTING_SFEN)
    return {SQUARE_NAMES[sq]: piece.symbol() for sq, piece in board.pieces(Color.BLACK).items()}


def placement_board(order: list[str], count: int) -> Board:
    """The board while sente's pieces are set up in *order* (square names): the first *count*
    pieces stand on their squares, the others wait in the hand (all but the king, which a hand
    never holds)."""
    start = start_pieces()
    board = Board(None)
    for name in order[:count]:
        board.set_piece_at(parse_square(name), Piece.from_symbol(start[name]))
    for name in order[count:]:
        piece_type = Piece.from_symbol(start[name]).piece_type
        if piece_type != PieceType.KING:
            board.set_hand_count(Color.BLACK, piece_type, board.hand_count(Color.BLACK, piece_type) + 1)
    return board


def _placement_steps(order: list[str], language: Language) -> list[dict[str, Any]]:
    start = start_pieces()
    return [
        {"sfen": placement_board(order, n).sfen(), "highlights": [name], "lastMove": None, "check": False,
         "caption": translate("learn.placement_step", language, n=n, total=len(order),
                              piece=piece_name(start[name], language), square=square_label(name, language))}
        for n, name in enumerate(order, 1)
    ]


def removed_squares(handicap: Handicap) -> list[str]:
    """The squares the giver's pieces leave in *handicap* (``["2b"]`` for 角落ち)."""
    even, board = Board(STARTING_SFEN), Board(handicap.sfen)
    return [SQUARE_NAMES[sq] for sq in range(81) if even.piece_at(sq) is not None and board.piece_at(sq) is None]


def handicap_label(handicap: Handicap, language: Language) -> str:
    """A handicap's name in *language* (``角落ち``, ``Bishop``, ``讓角``)."""
    return translate(f"ui.handicap.{handicap.english}", language)


def _handicap_steps(names: list[str], language: Language) -> list[dict[str, Any]]:
    steps = []
    for n, name in enumerate(names, 1):
        handicap = find_handicap(name)
        removed = removed_squares(handicap)
        steps.append({"sfen": handicap.sfen, "highlights": removed, "lastMove": None, "check": False,
                      "handicap": handicap.english,
                      "caption": translate("learn.handicap_step", language, n=n, total=len(names),
                                           name=handicap_label(handicap, language), count=len(removed))})
    return steps


def move_label(board: Board, move: Move, notation: str, language: Language) -> str:
    """*move* (legal on *board*, about to be played) in *notation*: ``japanese`` (``▲７六歩``, with
    the language's own characters), ``western`` (``P-7f``) or ``csa`` (``+7776FU``)."""
    forms = move_forms(board, move)
    return explain.japanese_in(forms["japanese"], language) if notation == "japanese" else forms[notation]


def _diagram(spec: dict[str, Any], language: Language) -> dict[str, Any]:
    """The picture of a diagram spec, computed with the rules core."""
    if "placements" in spec:
        order = list(spec["placements"])
        return {"sfen": placement_board(order, 0).sfen(), "highlights": [], "arrows": [], "lastMove": None,
                "check": False, "steps": _placement_steps(order, language)}
    if "handicaps" in spec:
        return {"sfen": STARTING_SFEN, "highlights": [], "arrows": [], "lastMove": None, "check": False,
                "caption": translate("ui.handicap.even", language),
                "steps": _handicap_steps(spec["handicaps"], language)}
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
        for n, usi in enumerate(spec["moves"], 1):
            move = board.parse_usi(usi)
            label = None
            if spec.get("notation"):
                label = " / ".join(move_label(board, move, notation, language) for notation in CHOICE_NOTATIONS)
            board.push(move)
            step: dict[str, Any] = {"sfen": board.sfen(), "lastMove": move.usi(), "check": board.is_check(),
                                    "repetitions": board.repetition_count()}
            if label is not None:
                step["caption"] = translate("learn.move_step", language, n=n, total=len(spec["moves"]), move=label)
            steps.append(step)
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


def _choices(spec: dict[str, Any], language: Language) -> tuple[Board, list[dict[str, Any]], str]:
    """A ``choice`` exercise: the position shown, the choices (``id``, ``label`` and, for a move,
    ``arrow``) and the right choice's id.

    Naming a move: the last of ``moves`` is the move to name; the wrong choices are other legal
    moves of the same position (to the same square first, then of the same piece), each written
    by the notation modules, so that every choice is a real move's real name.  Naming a handicap:
    the right one and its neighbours in :data:`shogiban.handicaps.HANDICAPS`.
    """
    if "ask" in spec:
        return _asked_choices(spec, language)
    if "options" in spec:
        board = Board(spec.get("sfen", STARTING_SFEN))
        options = [{"id": name, "label": translate(f"learn.option.{name}", language)} for name in spec["options"]]
        return board, options, str(spec["answer"])
    if "handicap" in spec:
        answer = find_handicap(spec["handicap"])
        handicaps = [h for h in HANDICAPS if not h.is_even]
        at = handicaps.index(answer)
        nearest = sorted(handicaps, key=lambda h: (abs(handicaps.index(h) - at), handicaps.index(h)))
        shown = sorted(nearest[: WRONG_CHOICES + 1], key=handicaps.index)
        named: list[dict[str, Any]] = [{"id": h.english, "label": handicap_label(h, language)} for h in shown]
        return Board(answer.sfen), named, answer.english
    board = Board(spec["sfen"])
    for usi in spec["moves"][:-1]:
        board.push_usi(usi)
    played = board.parse_usi(spec["moves"][-1])

    def kind(move: Move) -> PieceType | None:
        if move.drop is not None:
            return move.drop
        piece = board.piece_at(move.from_square) if move.from_square is not None else None
        return piece.piece_type if piece is not None else None

    others = sorted((m for m in board.legal_moves if m != played),
                    key=lambda m: (m.to_square != played.to_square, kind(m) != kind(played), m.usi()))
    moves = [played, *others[:WRONG_CHOICES]]
    choices: list[dict[str, Any]] = []
    for move in moves:
        origin = SQUARE_NAMES[move.from_square] if move.from_square is not None else move.usi()[0]
        choices.append({"id": move.usi(), "label": move_label(board, move, spec.get("notation", "japanese"), language),
                        "arrow": [origin, SQUARE_NAMES[move.to_square]]})
    board.push(played)
    choices.sort(key=lambda c: c["label"])
    return board, choices, played.usi()


def _counted(board: Board, ask: str) -> int:
    """The number a counting ``choice`` asks for, from the rules core."""
    color = board.turn
    if ask == "declaration_points":
        return rules.declaration_points(board, color)[0]
    return rules.impasse_points(board)[color]


def _asked_choices(spec: dict[str, Any], language: Language) -> tuple[Board, list[dict[str, Any]], str]:
    """A ``choice`` exercise with ``ask`` (see :data:`ASKS`): a count of points, with the sums a
    learner plausibly gets by mistake beside it (the hand forgotten, every piece counted 1, the
    whole army counted), or yes / no to "does declaring now win?"."""
    board = Board(spec["sfen"])
    ask = spec["ask"]
    if ask == "declaration_wins":
        wins = rules.declaration_status(board, EnteringKingRule.POINTS_27).wins
        labels = [{"id": answer, "label": translate(f"learn.declare_{answer}", language)} for answer in ("yes", "no")]
        return board, labels, "yes" if wins else "no"
    color = board.turn
    right = _counted(board, ask)
    hand = board.hand(color)
    hand_points = sum((5 if pt in (PieceType.ROOK, PieceType.BISHOP) else 1) * n for pt, n in hand.items())
    camp_points, camp_pieces = rules.declaration_points(board, color)
    mistakes = [camp_points - hand_points, camp_pieces + sum(hand.values()), rules.material(board, color),
                camp_points, right - 1, right + 1, right + 5, right - 5]
    numbers = [right]
    for n in mistakes:
        if n >= 0 and n not in numbers and len(numbers) <= WRONG_CHOICES:
            numbers.append(n)
    numbers.sort()
    labels = [{"id": str(n), "label": translate("learn.points", language, n=n)} for n in numbers]
    return board, labels, str(right)


def _answer_exercise(spec: dict[str, Any], language: Language) -> dict[str, Any]:
    goal = spec["goal"]
    view: dict[str, Any] = {"goal": goal, "dests": {}, "dropDests": {}, "check": False, "highlights": [],
                            "lastMove": None}
    if goal == "choice":
        board, choices, _ = _choices(spec, language)
        view.update(sfen=board.sfen(), check=board.is_check(), choices=[
            {"id": c["id"], "label": c["label"]} for c in choices])
        if board.move_stack:
            view["lastMove"] = board.peek().usi()
    elif goal == "placement":
        order = list(spec["placements"])
        view.update(sfen=placement_board(order, 0).sfen(), steps=len(order), step=0,
                    prompt=_placement_prompt(order, 0, language))
    else:
        view.update(sfen=Board(spec["sfen"]).sfen())
    return view


def _placement_prompt(order: list[str], step: int, language: Language) -> str:
    if step >= len(order):
        return translate("learn.placement_done", language)
    return translate("learn.place_next", language, piece=piece_name(start_pieces()[order[step]], language))


def _exercise(spec: dict[str, Any], language: Language) -> dict[str, Any]:
    if spec["goal"] in ANSWER_GOALS:
        return _answer_exercise(spec, language)
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
        if "see" in section:
            # Other lessons that teach the rest of the topic, linked rather than repeated.
            out["links"] = [{"id": other, "title": get_lesson(other).title(language)} for other in section["see"]]
        if "exercise" in section:
            out["exercise"] = _exercise(section["exercise"], language)
        out["paragraphs"] = [p.strip() for p in text.split("\n\n") if p.strip()]
        sections.append(out)
    return {"id": lesson.id, "group": lesson.group, "title": lesson.title(language), "sections": sections}


def try_move(lesson_id: str, index: int, usi: str, language: Language) -> dict[str, Any]:
    """Check a learner's move in the exercise of section *index*.

    Returns ``legal``, ``code`` and ``reason`` (the core's refusal, in *language*), ``success``
    (whether the exercise's goal is met), ``feedback`` (a sentence in *language*) and the
    position to show next (``sfen``, ``lastMove``, ``check``, ``mate``).

    :raises UnknownLessonError: if there is no such lesson or section, or it has no exercise.
    :raises BadAnswerError: if the exercise is not answered by a move.
    :raises shogiban.InvalidMoveError: if *usi* is not a USI move.
    """
    spec = _exercise_spec(lesson_id, index)
    if spec["goal"] not in MOVE_GOALS:
        raise BadAnswerError(f"the exercise in section {index!r} of lesson {lesson_id!r} is not answered by a move")
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
        why = spec.get("why", {}).get(move.usi())
        # A plausible wrong move has its own explanation (a text of the lesson); others the general one.
        key = "learn.ok_answer" if found else (f"lessons.{lesson_id}.{why}" if why else "learn.not_answer")
        result["feedback"] = translate(key, language)
    else:
        result["success"] = True
        result["feedback"] = translate("learn.ok_legal", language)
    return result


def _exercise_spec(lesson_id: str, index: int) -> dict[str, Any]:
    lesson = get_lesson(lesson_id)
    if not 0 <= index < len(lesson.sections) or "exercise" not in lesson.sections[index]:
        raise UnknownLessonError(f"no exercise in section {index!r} of lesson {lesson_id!r}")
    spec: dict[str, Any] = lesson.sections[index]["exercise"]
    return spec


def _square_words(name: str, language: Language) -> dict[str, str]:
    # A square said with its file and rank, as the language writes them (７六: ７筋 and 六段).
    sq = parse_square(name)
    files, ranks = template("format.files", language), template("format.ranks", language)
    return {"square": square_label(sq, language), "file": files[square_file(sq) - 1],
            "rank": ranks[square_rank(sq) - 1]}


def try_square(lesson_id: str, index: int, square: str, language: Language, step: int = 0) -> dict[str, Any]:
    """Check a square clicked in the exercise of section *index*.

    A ``square`` exercise wants its ``answer``; a wrong square is named (file and rank).  A
    ``placement`` exercise wants the square of piece number *step* of its order (the pieces
    before it are placed): a square of a later piece is explained (the left one comes first, or
    that piece comes later), and so are squares no piece of the start position stands on.

    Returns ``success``, ``feedback``, ``done`` (the exercise is finished) and the position to
    show (``sfen``, ``highlights``); a placement also ``step`` (pieces placed) and ``prompt``.

    :raises UnknownLessonError: if there is no such lesson or section, or it has no exercise.
    :raises BadAnswerError: if the exercise is not answered with a square, or *step* is out of range.
    :raises shogiban.InvalidSquareError: if *square* is not a square.
    """
    spec = _exercise_spec(lesson_id, index)
    goal = spec["goal"]
    sq = parse_square(square)
    name = SQUARE_NAMES[sq]
    words = _square_words(name, language)
    if goal == "square":
        success = name == spec["answer"]
        feedback = translate("learn.square_ok" if success else "learn.square_wrong", language, **words)
        return {"square": name, "success": success, "done": success, "feedback": feedback,
                "sfen": Board(spec["sfen"]).sfen(), "highlights": [name]}
    if goal != "placement":
        raise BadAnswerError(f"the exercise in section {index!r} of lesson {lesson_id!r} is not answered by a square")
    order = list(spec["placements"])
    if not 0 <= step < len(order):
        raise BadAnswerError(f"no placement step {step!r} in this exercise (0 to {len(order) - 1})")
    start = start_pieces()
    wanted = order[step]
    piece = piece_name(start[wanted], language)
    success = name == wanted
    if success:
        step += 1
        done = step == len(order)
        feedback = translate("learn.placed_all" if done else "learn.placed_ok", language, piece=piece, **words)
    elif name in order[:step]:
        feedback = translate("learn.placed_taken", language, **words)
    elif name not in start:
        feedback = translate("learn.placed_empty", language, next=piece, **words)
    elif start[name] == start[wanted]:
        # The same kind of piece on the other side: the left one (seen from sente) comes first.
        feedback = translate("learn.placed_side", language, piece=piece, **words)
    else:
        feedback = translate("learn.placed_later", language, piece=piece_name(start[name], language), next=piece,
                             **words)
    board = placement_board(order, step)
    return {"square": name, "success": success, "done": step == len(order), "feedback": feedback,
            "sfen": board.sfen(), "highlights": [name] if success else [], "step": step,
            "prompt": _placement_prompt(order, step, language)}


def try_choice(lesson_id: str, index: int, choice: str, language: Language) -> dict[str, Any]:
    """Check the choice *choice* (a choice's ``id``) in the ``choice`` exercise of section *index*.

    Returns ``success``, ``feedback`` and, for a wrong move's name, ``arrows``: the move that
    name stands for.

    :raises UnknownLessonError: if there is no such lesson or section, or it has no exercise.
    :raises BadAnswerError: if the exercise is not a choice, or *choice* is not one of its choices.
    """
    spec = _exercise_spec(lesson_id, index)
    if spec["goal"] != "choice":
        raise BadAnswerError(f"the exercise in section {index!r} of lesson {lesson_id!r} is not a choice")
    _, choices, answer = _choices(spec, language)
    picked = next((c for c in choices if c["id"] == choice), None)
    if picked is None:
        raise BadAnswerError(f"not a choice of this exercise: {choice!r}")
    success = picked["id"] == answer
    if success:
        key = "learn.choice_ok"
    elif "arrow" in picked:
        key = "learn.choice_move"
    else:
        key = "learn.choice_not" if "ask" in spec or "options" in spec else "learn.choice_wrong"
    feedback = translate(key, language, choice=picked["label"])
    if success and spec.get("ask") == "declaration_wins":
        # The core's verdict in words: the points and pieces that win, or the first unmet condition.
        feedback = translate("learn.choice_ok_because", language, choice=picked["label"],
                             detail=_declaration_detail(Board(spec["sfen"]), language))
    return {"choice": picked["id"], "success": success, "feedback": feedback,
            "arrows": [] if success or "arrow" not in picked else [picked["arrow"]]}


def _declaration_detail(board: Board, language: Language) -> str:
    """Why declaring now wins or not under the 27-point rule, from :func:`rules.declaration_status`."""
    status = rules.declaration_status(board, EnteringKingRule.POINTS_27)
    color = status.color
    if status.wins:
        return translate("learn.declaration_wins", language, points=status.points[color],
                         pieces=status.pieces_in_camp[color], need=status.win_points)
    assert status.refusal is not None  # the 27-point rule has no draw: a declaration wins or fails
    return translate("learn.declaration_fails", language, reason=explain.refusal_reason(status.refusal, language))


def supported_languages() -> tuple[Language, ...]:
    """The languages every lesson is written in."""
    return LANGUAGES


#: The groups of the lesson list, in the order the page shows them.
GROUPS = ("pieces", "rules", "game", "strategy")


def _order_problems(order: object) -> list[str]:
    start = start_pieces()
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        return ["a placement order is a list of square names"]
    problems = [f"no piece of sente stands on {name!r} at the start" for name in order if name not in start]
    if sorted(order) != sorted(start):
        problems.append("a placement order places each of sente's 20 pieces once")
    return problems


def _diagram_problems(spec: dict[str, Any], orders: dict[str, Any]) -> list[str]:
    if "placements" in spec:
        order = spec["placements"]
        if isinstance(order, str):
            if order not in orders:
                return [f"no placement order {order!r}"]
            order = orders[order]
        return _order_problems(order)
    if "handicaps" in spec:
        for name in spec["handicaps"]:
            find_handicap(name)
        return []
    if "piece" in spec:
        piece_board(spec["piece"])
        return []
    board = Board(spec["sfen"])
    for name in [*spec.get("highlights", []), *(sq for arrow in spec.get("arrows", []) for sq in arrow)]:
        parse_square(name)
    for usi in spec.get("moves", []):
        board.push_usi(usi)
    return []


def _exercise_problems(spec: dict[str, Any], orders: dict[str, Any]) -> list[str]:
    goal = spec.get("goal")
    if goal not in MOVE_GOALS + ANSWER_GOALS:
        return [f"unknown goal {goal!r}"]
    if goal == "placement":
        return _diagram_problems({"placements": spec.get("placements")}, orders)
    if goal == "choice":
        if "ask" in spec:
            if spec["ask"] not in ASKS:
                return [f"unknown ask {spec['ask']!r}"]
            _, choices, answer = _asked_choices(spec, "en")
            return [] if answer in {c["id"] for c in choices} else ["the answer is not among the choices"]
        if "options" in spec:
            options = spec["options"]
            if not isinstance(options, list) or len(set(options)) != len(options) or len(options) < 2:
                return ["`options` lists two or more distinct names"]
            Board(spec.get("sfen", STARTING_SFEN))
            return [] if spec.get("answer") in options else [f"the answer {spec.get('answer')!r} is not an option"]
        if "handicap" in spec:
            if find_handicap(spec["handicap"]).is_even:
                return ["the even game is not a handicap to name"]
            return []
        if spec.get("notation", "japanese") not in CHOICE_NOTATIONS:
            return [f"unknown notation {spec.get('notation')!r}"]
        if not spec.get("moves"):
            return ["a choice names a move of `moves` or a `handicap`"]
        _, choices, _ = _choices(spec, "en")
        if len({c["label"] for c in choices}) != len(choices) or len(choices) < 2:
            return ["the choices are not distinct"]
        return []
    board = exercise_board(spec)
    if goal == "square":
        parse_square(spec["answer"])
        return [] if SQUARE_NAMES[parse_square(spec["answer"])] == spec["answer"] else ["write squares as 7f"]
    problems = []
    legal = set(board.legal_moves)
    for usi in spec.get("try", []):
        refusal = board.check_move(Move.from_usi(usi))
        if refusal is None:
            problems.append(f"the try {usi!r} is legal")
        elif goal == "refused" and refusal.code != spec.get("code"):
            problems.append(f"the try {usi!r} is refused with {refusal.code!r}, not {spec.get('code')!r}")
    if goal == "answer":
        answers = spec.get("answer", [])
        problems += [f"the answer {usi!r} is not legal" for usi in answers if Move.from_usi(usi) not in legal]
        for usi in spec.get("why", {}):
            if Move.from_usi(usi) not in legal or usi in answers:
                problems.append(f"the explained move {usi!r} is not a legal wrong move")
        if not answers:
            problems.append("no answer")
    if goal == "mate":
        mates = []
        for move in legal:
            board.push(move)
            mates.append(board.is_checkmate())
            board.pop()
        if not any(mates):
            problems.append("no move mates")
    return problems


def lesson_problems(data: dict[str, Any]) -> list[str]:
    """Problems in a parsed lesson file: unknown goals, groups or kinds, moves the rules core
    refuses (or accepts, for a ``try``), answers that are no legal move, squares, handicaps and
    placement orders that do not exist.  Empty when the file is sound."""
    problems: list[str] = []
    orders = data.get("placements", {})
    if not isinstance(orders, dict):
        return ["`placements` is a table of orders"]
    for name, order in orders.items():
        problems += [f"placements.{name}: {p}" for p in _order_problems(order)]
    seen: set[str] = set()
    ids = {item.get("id") for item in data.get("lesson", [])}
    for item in data.get("lesson", []):
        lesson_id = item.get("id")
        if not isinstance(lesson_id, str) or lesson_id in seen:
            problems.append(f"lesson id {lesson_id!r} missing or used twice")
        seen.add(str(lesson_id))
        if item.get("group") not in GROUPS:
            problems.append(f"{lesson_id}: unknown group {item.get('group')!r}")
        for index, section in enumerate(item.get("section", [])):
            where = f"{lesson_id}[{index}]"
            if not isinstance(section.get("text"), str):
                problems.append(f"{where}: no text")
            problems += [f"{where}: no lesson {other!r} to see" for other in section.get("see", []) if other not in ids]
            for part, check in (("diagram", _diagram_problems), ("exercise", _exercise_problems)):
                if part not in section:
                    continue
                try:
                    problems += [f"{where} {part}: {p}" for p in check(section[part], orders)]
                except (ValueError, KeyError, LookupError, TypeError) as error:
                    problems.append(f"{where} {part}: {error}")
    return problems


def check_lessons() -> list[str]:
    """Problems in the lesson file (entries the rules core refuses, missing texts), for tests;
    empty when sound."""
    problems = lesson_problems(_read_file())
    if problems:
        return problems
    for lesson in load_lessons():
        keys = [f"lessons.{lesson.id}.title"] + [lesson.text_key(i) for i in range(len(lesson.sections))]
        exercises = [s["exercise"] for s in lesson.sections if "exercise" in s]
        # The explanations of wrong moves and the names of options are texts too.
        extra = [f"lessons.{lesson.id}.{why}" for spec in exercises for why in spec.get("why", {}).values()]
        extra += [f"learn.option.{name}" for spec in exercises for name in spec.get("options", [])]
        problems += [f"{lesson.id}: no text {key!r} in the catalogue" for key in keys + extra if not has_key(key)]
        if len(set(keys)) != len(keys):
            problems.append(f"{lesson.id}: two sections share a text")
    return problems
