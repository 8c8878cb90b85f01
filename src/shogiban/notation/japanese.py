"""Japanese move notation: KIF (``７六歩(77)``) and KI2 (``▲７六歩``, ``△同　銀右``).

Writing:

* :func:`make_kif_move` -- KIF move text without the move number and time: ``７六歩(77)``,
  ``同　歩(23)``, ``５五銀打``, ``２二角成(88)``, ``３三桂不成(45)``.  The piece is the piece
  *before* the move (``６七成桂(77)``); ``不成`` is written when promotion was possible and declined.
* :func:`make_ki2_move` -- relative notation as the Japan Shogi Association writes it: ``▲７六歩``,
  ``△同　歩``, the modifiers 右 左 直 上 引 寄 (and combinations such as ``左上``), ``打`` only when a
  board piece could also reach the square, ``成``/``不成`` (``成`` also for forced promotions).  The
  candidates are the *legal* moves of the real position.  ``mark=False`` drops ``▲``/``△``.
* :func:`make_japanese` -- KI2 with the mark, for user interfaces.

Reading (:func:`parse_kif_move`, :func:`parse_ki2_move`, :func:`parse_japanese` accept the same
lenient grammar): an optional mark (▲△☗☖▽), a destination in full-width, ASCII or kanji digits
(``７六``, ``76``, ``七六``) or ``同`` (with a full-width, ASCII or no space), a piece in any spelling
(竜/龍, 王/玉, 成香/杏, 成桂/圭/今, 成銀/全, と, 歩兵 ...), modifiers, ``成``/``不成``/``生``/``打`` and an
optional KIF origin ``(77)``.  The move must be legal on *board*.

``previous_to`` is the destination of the previous move, for ``同``.  By default it is taken from
the board's move stack (the last move pushed); pass :data:`NO_PREVIOUS` to never write ``同``.

>>> from shogiban import Board
>>> board = Board()
>>> make_kif_move(board, board.parse_usi("7g7f"))
'７六歩(77)'
>>> make_ki2_move(board, board.parse_usi("6i5h"))
'▲５八金左'
>>> parse_japanese(board, "76歩")
Move.from_usi('7g7f')

:raises InvalidMoveError: for text that is not a move.
:raises IllegalMoveError: for a move that is not legal here (the message says why).
:raises AmbiguousMoveError: for KI2 text that several legal moves match (missing 右/左/直 ...).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, NamedTuple

from shogiban.errors import AmbiguousMoveError, InvalidMoveError, Refusal
from shogiban.move import Move, board_move, drop_move
from shogiban.notation._legal import illegal, legal_codes, reaching, refusal_of
from shogiban.notation.excerpt import excerpt
from shogiban.notation.names import (
    BOD_PIECE_NAMES,
    DIGIT_VALUES,
    FULL_PIECE_NAMES,
    FULLWIDTH_DIGITS,
    GOTE_MARKS,
    KANJI_DIGITS,
    KIF_PIECE_NAMES,
    PIECE_ALIASES,
    SENTE_MARKS,
)
from shogiban.pieces import ENGLISH_NAMES, PieceType, code_of, owner_of, type_of
from shogiban.rules import describe_refusal, promotion_allowed, promotion_required
from shogiban.squares import SQUARE_NAMES, Square

if TYPE_CHECKING:
    from shogiban.board import Board

__all__ = [
    "BOD_PIECE_NAMES", "FULL_PIECE_NAMES", "KIF_PIECE_NAMES", "NO_PREVIOUS", "PIECE_ALIASES",
    "japanese_square", "make_japanese", "make_ki2_move", "make_kif_move", "parse_japanese",
    "parse_ki2_move", "parse_kif_move", "resolve_japanese",
]

#: Pass as ``previous_to`` to never write or read ``同``.
NO_PREVIOUS: Final = -1

_SPACES = " \u3000\t"
_MARKS = ("▲", "△")
_GOLD_LIKE = frozenset({PieceType.GOLD, PieceType.SILVER, PieceType.PROM_PAWN, PieceType.PROM_LANCE,
                        PieceType.PROM_KNIGHT, PieceType.PROM_SILVER})
_BIG_PROMOTED = frozenset({PieceType.PROM_BISHOP, PieceType.PROM_ROOK})
_MODIFIER_CHARS = "右左直上寄引行"
# Longest first: 不成 before 成, 成らず before 成.
_ACTIONS: Final = (("不成り", "不成"), ("不成", "不成"), ("成らず", "不成"), ("成り", "成"), ("成", "成"),
                   ("生", "不成"), ("打", "打"))


def japanese_square(square: Square) -> str:
    """``７六`` for square 7f: full-width file digit and kanji rank."""
    return FULLWIDTH_DIGITS[8 - square % 9] + KANJI_DIGITS[square // 9]


def _file(sq: int) -> int:
    return 9 - sq % 9


def _rank(sq: int) -> int:
    return sq // 9 + 1


def _motion(color: int, frm: int, to: int) -> str:
    """上 (towards the enemy), 引 (back) or 寄 (sideways) in the mover's frame."""
    forward = _rank(frm) - _rank(to)
    if color:
        forward = -forward
    return "上" if forward > 0 else "引" if forward < 0 else "寄"


def _side(color: int, frm: int, to: int) -> str:
    """右 or 左 if *frm* stands on the mover's right or left of *to*, else ''."""
    right = _file(to) - _file(frm)  # sente's right is the smaller file number
    if color:
        right = -right
    return "右" if right > 0 else "左" if right < 0 else ""


def _is_right_of(color: int, a: int, b: int) -> bool:
    """Whether square *a* is on the mover's right of square *b*."""
    return _file(a) < _file(b) if color == 0 else _file(a) > _file(b)


def _previous(board: Board, previous_to: Square | None) -> int | None:
    if previous_to is None:
        return board.peek().to_square if board.ply else None
    return previous_to if 0 <= previous_to < 81 else None


def _piece_type_at(board: Board, sq: int) -> int:
    return type_of(board.piece_codes[sq])


def _can_promote_move(board: Board, move: Move) -> bool:
    """Whether the board move *move* could promote (promotable piece, start or end in the zone)."""
    frm = move.from_square
    if frm is None:
        return False
    return promotion_allowed(board.piece_codes[frm], frm, move.to_square)


def _check_piece(board: Board, move: Move) -> None:
    """Raise unless *move* moves a piece of the side to move (or drops one it holds)."""
    color = board.side_to_move
    if move.drop is not None:
        if not board.hand_counts(color)[move.drop]:
            raise illegal(board, describe_refusal(board, move, "no_piece_in_hand"), move)
        return
    frm = move.from_square
    assert frm is not None
    piece = board.piece_codes[frm]
    if not piece or owner_of(piece) != color:
        raise illegal(board, describe_refusal(board, move, "not_your_piece" if piece else "no_piece"), move)


def _check_legal(board: Board, move: Move, legal: list[int]) -> None:
    if move.code not in legal:
        raise illegal(board, refusal_of(board, move), move)


# -- writing ------------------------------------------------------------------------------------


def make_kif_move(board: Board, move: Move, *, previous_to: Square | None = None) -> str:
    """KIF text of *move* (played from *board*), without move number and time.

    Any move of a piece of the side to move is written (records may contain illegal moves);
    use :func:`make_ki2_move` to insist on legality.

    :raises IllegalMoveError: if there is no such piece of the side to move (or none in hand).
    """
    _check_piece(board, move)
    to = move.to_square
    dest = "同　" if to == _previous(board, previous_to) else japanese_square(to)
    if move.drop is not None:
        return f"{dest}{KIF_PIECE_NAMES[move.drop]}打"
    frm = move.from_square
    assert frm is not None
    name = KIF_PIECE_NAMES[PieceType(_piece_type_at(board, frm))]
    suffix = "成" if move.promotion else "不成" if _can_promote_move(board, move) else ""
    return f"{dest}{name}{suffix}({_file(frm)}{_rank(frm)})"


def _attacking(board: Board, pt: int, to: int) -> list[int]:
    """Squares of the side to move's pieces of type *pt* that can reach *to* by their movement,
    pinned or not: the candidates the JSA rules compare."""
    return reaching(board, code_of(pt, board.side_to_move), to)


def _pair_compared(pt: int, group: list[int]) -> bool:
    """Whether 右/左 compare the two pieces with each other rather than with the destination:
    for a dragon or horse pair on different files (JSA).  *group* is every piece of the kind that
    attacks the destination (more than two only in made-up positions, read like golds)."""
    return pt in _BIG_PROMOTED and len(group) == 2 and _file(group[0]) != _file(group[1])


def _ki2_modifiers(color: int, pt: int, frm: int, to: int, others: list[int], group: list[int]) -> str:
    """The JSA modifiers that single out the piece on *frm* among *others* (the other pieces of
    its kind that can reach *to* by their movement); *group* is all of them, *frm* included."""
    if not others:
        return ""
    motion = _motion(color, frm, to)
    if all(_motion(color, o, to) != motion for o in others):
        return motion
    if _pair_compared(pt, group):
        # Dragons and horses: 右/左 say which of the two pieces moved, never 直.
        return "右" if _is_right_of(color, frm, next(g for g in group if g != frm)) else "左"
    side = _side(color, frm, to)
    if not side:
        # Straight forward is 直 (JSA: golds and silvers; here also made-up crowds of big pieces).
        return "直" if motion == "上" else motion
    if all(_side(color, o, to) != side for o in others):
        return side
    return side + motion


def _ki2_body(board: Board, move: Move, previous_to: Square | None) -> str:
    legal = legal_codes(board)
    _check_legal(board, move, legal)
    to = move.to_square
    if move.drop is not None:
        pt = int(move.drop)
        # 打 when a board piece of the kind could also go there by its movement (JSA), pinned or not.
        rest = KIF_PIECE_NAMES[PieceType(pt)] + ("打" if _attacking(board, pt, to) else "")
    else:
        frm = move.from_square
        assert frm is not None
        pt = _piece_type_at(board, frm)
        group = _attacking(board, pt, to)
        others = [f for f in group if f != frm]
        suffix = "成" if move.promotion else "不成" if move.with_promotion().code in legal else ""
        rest = KIF_PIECE_NAMES[PieceType(pt)] + _ki2_modifiers(board.side_to_move, pt, frm, to, others, group) + suffix
    if to == _previous(board, previous_to):
        # KI2 writers pad a one-character remainder: 同　歩, but 同成銀, 同銀右.
        return ("同　" if len(rest) == 1 else "同") + rest
    return japanese_square(to) + rest


def make_ki2_move(board: Board, move: Move, *, previous_to: Square | None = None, mark: bool = True) -> str:
    """KI2 (JSA relative notation) text of the legal *move*: ``▲７六歩``, ``△同　銀右``.

    :raises IllegalMoveError: if *move* is not legal on *board*.
    """
    body = _ki2_body(board, move, previous_to)
    return _MARKS[board.side_to_move] + body if mark else body


def make_japanese(board: Board, move: Move, *, previous_to: Square | None = None) -> str:
    """Japanese notation for user interfaces: KI2 with the ▲/△ mark.

    :raises IllegalMoveError: if *move* is not legal on *board*.
    """
    return make_ki2_move(board, move, previous_to=previous_to, mark=True)


# -- reading ------------------------------------------------------------------------------------


class _Parsed(NamedTuple):  # a named tuple: one is made per move read, and they are cheap
    color: int | None
    to: int | None  # None for 同
    piece: PieceType
    modifiers: str
    action: str  # "成", "不成", "打" or ""
    origin: int | None


def _skip_spaces(s: str, i: int) -> int:
    while i < len(s) and s[i] in _SPACES:
        i += 1
    return i


def _invalid(text: str, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"invalid japanese move: {excerpt(text)} ({why})")


def _read_square(text: str, s: str, i: int) -> tuple[int, int]:
    if i + 2 > len(s) or s[i] not in DIGIT_VALUES or s[i + 1] not in DIGIT_VALUES:
        raise _invalid(text, "expected a square like ７六 or 76, or 同")
    file, rank = DIGIT_VALUES[s[i]], DIGIT_VALUES[s[i + 1]]
    return (rank - 1) * 9 + 9 - file, i + 2


# The common texts (mark, square or 同, piece, modifiers, 成/不成/打) in one linear match; the
# atomic groups choose as the hand-written reader below does (a two-character alias first, the
# longest action word), so both read any text the pattern matches the same way.
_QUICK = re.compile(
    "([" + SENTE_MARKS + GOTE_MARKS + "]?)"
    "(?:([" + "".join(DIGIT_VALUES) + "])([" + "".join(DIGIT_VALUES) + "])|同[ \u3000\t]*)"
    "(?>(" + "|".join(sorted(PIECE_ALIASES, key=len, reverse=True)) + "))"
    "([" + _MODIFIER_CHARS + "]*)"
    "(?>(" + "|".join(word for word, _ in _ACTIONS) + ")?)"
)
_ACTION_MEANINGS = dict(_ACTIONS)


def _quick_tokenize(s: str) -> _Parsed | None:
    """The common texts, read in one match (None for any other text)."""
    quick = _QUICK.fullmatch(s)
    if quick is None:
        return None
    mark, file, rank, alias, modifiers, action = quick.groups()
    meaning = _ACTION_MEANINGS[action] if action else ""
    if meaning == "打" and modifiers:
        return None  # the full reader explains why this is wrong
    to = (DIGIT_VALUES[rank] - 1) * 9 + 9 - DIGIT_VALUES[file] if file else None
    color = (0 if mark in SENTE_MARKS else 1) if mark else None
    return _Parsed(color, to, PIECE_ALIASES[alias], modifiers.replace("行", "上"), meaning, None)


def _tokenize(text: str) -> _Parsed:
    if not isinstance(text, str):
        raise InvalidMoveError(f"invalid japanese move: {excerpt(text)} (not a string)")
    s = text.strip(_SPACES + "\r\n")
    quick = _quick_tokenize(s)
    if quick is not None:
        return quick
    i = 0
    color: int | None = None
    if s[:1] and s[0] in SENTE_MARKS + GOTE_MARKS:
        color = 0 if s[0] in SENTE_MARKS else 1
        i = _skip_spaces(s, 1)
    to: int | None
    if s.startswith("同", i):
        to = None
        i = _skip_spaces(s, i + 1)
    else:
        to, i = _read_square(text, s, i)
        i = _skip_spaces(s, i)
        if s.startswith("同", i):  # 「７六同歩」: the square repeated before 同
            i = _skip_spaces(s, i + 1)
    alias = s[i:i + 2] if s[i:i + 2] in PIECE_ALIASES else s[i:i + 1]  # aliases have 1 or 2 characters
    if alias not in PIECE_ALIASES:
        raise _invalid(text, "expected a piece such as 歩 香 桂 銀 金 角 飛 玉 と 成銀 馬 龍")
    piece = PIECE_ALIASES[alias]
    i += len(alias)
    start = i
    while i < len(s) and s[i] in _MODIFIER_CHARS:
        i += 1
    modifiers = s[start:i].replace("行", "上")
    action = ""
    for word, meaning in _ACTIONS:
        if s.startswith(word, i):
            action = meaning
            i += len(word)
            break
    i = _skip_spaces(s, i)
    origin = None
    if i < len(s) and s[i] in "(（":
        close = next((j for j in range(i + 1, len(s)) if s[j] in ")）"), -1)
        inner = s[i + 1:close].strip(_SPACES) if close > 0 else ""
        if len(inner) != 2 or any(c not in DIGIT_VALUES for c in inner):
            raise _invalid(text, "expected an origin like (77)")
        origin = (DIGIT_VALUES[inner[1]] - 1) * 9 + 9 - DIGIT_VALUES[inner[0]]
        i = _skip_spaces(s, close + 1)
    if i != len(s):
        raise _invalid(text, f"unexpected {excerpt(s[i:])}")
    if action == "打" and (origin is not None or modifiers):
        raise _invalid(text, "a drop has no origin or modifiers")
    return _Parsed(color, to, piece, modifiers, action, origin)


def _modifier_holds(mod: str, color: int, pt: int, frm: int, to: int, group: list[int]) -> bool:
    """Whether the piece on *frm* fits the KI2 modifier *mod*; *group* holds every piece of its
    kind that attacks *to* (used for dragons and horses, whose 右/左 compare the two pieces)."""
    if mod in "上引寄":
        return _motion(color, frm, to) == mod
    if mod == "直":
        return _file(frm) == _file(to) and _motion(color, frm, to) == "上"
    if _pair_compared(pt, group):
        other = next(g for g in group if g != frm)
        return _is_right_of(color, frm, other) if mod == "右" else _is_right_of(color, other, frm)
    return _side(color, frm, to) == mod


def _resolve(board: Board, parsed: _Parsed, text: str, previous_to: Square | None) -> Move:
    """The move *parsed* names by the JSA rules: among the pieces of its kind that can reach the
    square by their movement (pinned or not), the one its modifiers single out.  Legality is not
    checked, except to read texts of writers that leave pinned pieces out: when several pieces
    fit but one alone may legally move, that one; a board move of a pinned piece written
    without 打 where the drop is legal, the drop.

    :raises InvalidMoveError: for a drop of a piece that cannot be dropped.
    :raises IllegalMoveError: if no piece fits (or promotion is impossible, or required).
    :raises AmbiguousMoveError: if several pieces fit.
    """
    color = board.side_to_move
    if parsed.color is not None and parsed.color != color:
        side = ("sente", "gote")
        why = f"it is {side[color]}'s turn, not {side[parsed.color]}'s"
        raise illegal(board, Refusal("wrong_side", {"side": side[color]}, why), text=text)
    to = parsed.to
    if to is None:
        to = _previous(board, previous_to)
        if to is None:
            raise _invalid(text, "同 needs a previous move")
    pt = int(parsed.piece)
    if parsed.action == "打":
        return _drop(text, to, pt)
    group = _attacking(board, pt, to)
    found = group if parsed.origin is None else [f for f in group if f == parsed.origin]
    if parsed.modifiers:
        found = [f for f in found if all(_modifier_holds(m, color, pt, f, to, group) for m in parsed.modifiers)]
    plain = not parsed.modifiers and parsed.origin is None and not parsed.action
    if not found:
        if not group and plain:
            return _drop(text, to, pt)  # KI2 writes no 打 when no board piece could go there
        raise illegal(board, _why_not(board, parsed, to, group), text=text)
    promote = parsed.action == "成"
    moves = [board_move(f, to, promote) for f in found if _promotion_fits(board, f, to, promote)]
    if not moves:
        # The move push_usi would be given, refused the same way (cannot_promote, dead_piece ...).
        wanted = board_move(found[0], to, promote)
        raise illegal(board, refusal_of(board, wanted), wanted, text)
    if len(moves) > 1:
        legal = [m for m in moves if m.code in legal_codes(board)]
        if len(legal) == 1:
            return legal[0]  # written by a program that does not count pinned pieces
        candidates = tuple(legal or moves)
        raise AmbiguousMoveError(
            f"ambiguous move: {excerpt(text)} in {board.sfen()} (could be {', '.join(m.usi() for m in candidates)};"
            " add 右 左 直 上 引 寄 or the origin)",
            candidates,
        )
    move = moves[0]
    if plain and pt <= 7 and board.hand_counts(color)[pt] and move.code not in legal_codes(board):
        drop = drop_move(to, pt)
        if drop.code in legal_codes(board):
            return drop  # a program that does not count pinned pieces leaves out 打
    return move


def _drop(text: str, to: int, pt: int) -> Move:
    if pt > 7:
        raise _invalid(text, f"a {ENGLISH_NAMES[pt]} cannot be dropped")
    return Move(to_square=to, drop=pt)


def _promotion_fits(board: Board, frm: int, to: int, promote: bool) -> bool:
    """Whether the piece on *frm* may move to *to* with (or without) promotion."""
    piece = board.piece_codes[frm]
    if promote:
        return promotion_allowed(piece, frm, to)
    return not promotion_required(piece, to)


def _parse(board: Board, text: str, previous_to: Square | None) -> Move:
    parsed = _tokenize(text)
    move = _resolve(board, parsed, text, previous_to)
    if move.code in legal_codes(board):
        return move
    refusal = refusal_of(board, move)
    if move.drop is not None and parsed.action != "打":  # read as a drop only because no board piece could go there
        board_part = f"no {ENGLISH_NAMES[move.drop]} can move to {SQUARE_NAMES[move.to_square]}"
        # With none in hand the text named no drop: no piece of the kind can go there.
        code = "no_such_move" if refusal.code == "no_piece_in_hand" else refusal.code
        refusal = Refusal(code, refusal.params, f"{board_part}, and as a drop: {refusal.message}")
    raise illegal(board, refusal, move, text)


def _why_not(board: Board, parsed: _Parsed, to: int, group: list[int]) -> Refusal:
    """Why no piece fits the parsed text; with an origin, the rules' refusal of that move."""
    pt = int(parsed.piece)
    name = ENGLISH_NAMES[pt]
    dest = SQUARE_NAMES[to]
    if parsed.origin is not None:
        frm = parsed.origin
        piece = board.piece_codes[frm]
        if piece and owner_of(piece) == board.side_to_move and type_of(piece) != pt:
            return Refusal(
                "wrong_piece", {"from_square": frm, "square": to, "piece": pt},
                f"the piece on {SQUARE_NAMES[frm]} is a {ENGLISH_NAMES[type_of(piece)]}, not a {name}",
            )
        if frm == to:
            return Refusal("bad_piece_move", {"from_square": frm, "square": to, "piece": pt},
                           f"a {name} on {dest} cannot move to {dest}")
        return refusal_of(board, board_move(frm, to, parsed.action == "成"))
    if group:
        return Refusal(
            "no_matching_piece", {"square": to, "piece": pt, "modifiers": parsed.modifiers},
            f"no {name} to {dest} fits {excerpt(parsed.modifiers)}",
        )
    return Refusal("no_such_move", {"square": to, "piece": pt}, f"no {name} can move to {dest}")


def resolve_japanese(board: Board, text: str, *, previous_to: Square | None = None) -> Move:
    """The move Japanese (KIF or KI2) move text names on *board* by the JSA rules, legal or not:
    for readers that keep an illegal move of a record (a pinned piece moved, 二歩) as a foul.

    The modifiers single out a piece among those of its kind that can reach the square by
    their movement, a pinned one included, as JSA writers (and cshogi, tsshogi) count them.

    :raises InvalidMoveError: if *text* is not a move.
    :raises IllegalMoveError: if no piece fits (or a promotion is impossible or required).
    :raises AmbiguousMoveError: if several pieces fit.
    """
    return _resolve(board, _tokenize(text), text, previous_to)


def parse_kif_move(board: Board, text: str, *, previous_to: Square | None = None) -> Move:
    """Parse KIF move text (``７六歩(77)``, ``同　歩(23)``, ``５五銀打``) and check it is legal.

    The grammar is lenient (see the module docstring); text without an origin is resolved like KI2.

    :raises InvalidMoveError: if *text* is not a move.
    :raises IllegalMoveError: if the move is not legal here.
    :raises AmbiguousMoveError: if text without origin matches several legal moves.
    """
    return _parse(board, text, previous_to)


def parse_ki2_move(board: Board, text: str, *, previous_to: Square | None = None) -> Move:
    """Parse KI2 move text (``▲７六歩``, ``△同　銀右``, ``５五銀``; mark optional) into the legal move.

    :raises InvalidMoveError: if *text* is not a move.
    :raises IllegalMoveError: if no legal move fits (or the mark names the wrong side).
    :raises AmbiguousMoveError: if several legal moves fit (missing 右/左/直/上/引/寄 or 打).
    """
    return _parse(board, text, previous_to)


def parse_japanese(board: Board, text: str, *, previous_to: Square | None = None) -> Move:
    """Parse Japanese move text in KIF or KI2 form, as users type it: ``７六歩``, ``76歩``,
    ``同歩``, ``５五銀打``, ``２二角成(88)``.

    :raises InvalidMoveError: if *text* is not a move.
    :raises IllegalMoveError: if no legal move fits.
    :raises AmbiguousMoveError: if several legal moves fit.
    """
    return _parse(board, text, previous_to)
