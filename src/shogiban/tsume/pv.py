"""The mate line after a proof: attacker quickest, defender longest, and the 余詰 on the way.

Exact values come from bounded re-searches that reuse the searcher's table: an attacker node is
known to mate in exactly *n* plies, so a mating move is one after which the defender is mated
within *n - 1*; a defender reply is a longest one when the attacker cannot mate within
*n - 3* after it.  Among equally long replies the defender prefers the one that leaves the
attacker no spare pieces at the end (駒余り).
"""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.move import MOVES, Move
from shogiban.tsume.checks import check_codes
from shogiban.tsume.dfpn import DfPn, _full

__all__ = ["Alternative", "alternatives_on_line", "exact_line", "solution", "spare_after", "table_line"]

# How many equally long defender replies to follow when looking for the one without spare pieces.
_TIE_WIDTH = 3


@dataclass(frozen=True)
class Alternative:
    """An attacker move that also mates in time where the main line plays another (余詰)."""

    ply: int
    """Index in :attr:`TsumeResult.moves` of the attacker move it could replace (0 = first move)."""
    move: Move
    """The alternative move."""
    last_move: bool
    """Whether it replaces the final, mating move (最終手余詰, usually tolerated)."""

    def __str__(self) -> str:
        return f"ply {self.ply + 1}: {self.move.usi()}{' (last move)' if self.last_move else ''}"


def _move(code: int) -> Move:
    move = MOVES[code]
    assert move is not None
    return move


class _Line:
    """Walk the searcher's position along a line, keeping its repetition path in step."""

    def __init__(self, searcher: DfPn) -> None:
        self.s = searcher
        self.pushed: list[int] = []

    def push(self, code: int) -> None:
        s = self.s
        key, hand = s.root_key()
        s.path[_full(key, hand)] = len(s.path)
        s.pos._push(code)
        self.pushed.append(code)

    def pop(self) -> None:
        s = self.s
        s.pos._pop()
        self.pushed.pop()
        key, hand = s.root_key()
        del s.path[_full(key, hand)]

    def unwind(self) -> None:
        while self.pushed:
            self.pop()


def _mates_within(s: DfPn, line: _Line, code: int, plies: int) -> bool:
    """Whether attacker move *code* mates within *plies* (including itself)."""
    line.push(code)
    try:
        return s.prove_and(plies - 1)[0] == 0
    finally:
        line.pop()


def _attacker_move(s: DfPn, line: _Line, remaining: int) -> int:
    """A move mating in exactly *remaining* plies: the table's choice when it does; for the
    final move, the mate that leaves the fewest spare pieces."""
    if remaining == 1:
        best, best_spare = 0, -1
        for code in check_codes(s.pos):
            if _mates_within(s, line, code, 1):
                line.push(code)
                spare = _spare_pieces(s)
                line.pop()
                if best_spare < 0 or spare < best_spare:
                    best, best_spare = code, spare
        assert best_spare >= 0, "no mating move at a proven node"
        return best
    key, hand = s.root_key()
    entry = s.lookup(key, hand, remaining)
    codes = check_codes(s.pos)
    if entry is not None and entry[1] == 0 and entry[4] in codes:
        codes.remove(entry[4])
        codes.insert(0, entry[4])
    for code in codes:
        if _mates_within(s, line, code, remaining):
            return code
    raise AssertionError("no mating move at a proven node")  # pragma: no cover


def _longest_replies(s: DfPn, line: _Line, remaining: int) -> list[int]:
    """Defender replies after which the attacker needs all *remaining* plies (``remaining`` odd)."""
    replies = s.evasions()
    if remaining <= 1:
        return replies
    longest = []
    for code in replies:
        line.push(code)
        try:
            if s.prove(remaining - 2)[0] != 0:
                longest.append(code)
        finally:
            line.pop()
    return longest


def _spare_pieces(s: DfPn) -> int:
    return sum(s.pos._hands[s.attacker][1:8])


def exact_line(s: DfPn, length: int, tie_width: int = _TIE_WIDTH) -> list[int]:
    """The mate line from the current position, known to mate in exactly *length* plies."""
    line = _Line(s)
    try:
        return _exact(s, line, length, tie_width)[0]
    finally:
        line.unwind()


def _exact(s: DfPn, line: _Line, remaining: int, tie_width: int) -> tuple[list[int], int]:
    """(line, spare pieces at its end) from an attacker node mating in exactly *remaining*."""
    code = _attacker_move(s, line, remaining)
    line.push(code)
    try:
        if remaining == 1:
            return [code], _spare_pieces(s)
        candidates = _longest_replies(s, line, remaining - 2)
        candidates.sort(key=lambda c: c >> 7 & 127 >= 81)  # board moves before drops
        best: tuple[list[int], int] | None = None
        for reply in candidates[: max(1, tie_width)]:
            line.push(reply)
            try:
                sub, spare = _exact(s, line, remaining - 2, tie_width - 1)
            finally:
                line.pop()
            if best is None or spare < best[1]:
                best = ([code, reply, *sub], spare)
            if spare == 0:
                break
        assert best is not None
        return best
    finally:
        line.pop()


def spare_after(s: DfPn, codes: list[int]) -> int:
    """Pieces left in the attacker's hand at the end of *codes*."""
    line = _Line(s)
    try:
        for code in codes:
            line.push(code)
        return _spare_pieces(s)
    finally:
        line.unwind()


def alternatives_on_line(s: DfPn, codes: list[int], start: int = 0) -> list[Alternative]:
    """Every attacker move off the main line *codes* (from ply *start* on) that also mates within
    the plies left."""
    found: list[Alternative] = []
    line = _Line(s)
    n = len(codes)
    try:
        for ply, code in enumerate(codes):
            if ply % 2 == 0 and ply >= start:
                remaining = n - ply
                found.extend(
                    Alternative(ply, _move(other), remaining == 1)
                    for other in check_codes(s.pos)
                    if other != code and _mates_within(s, line, other, remaining)
                )
            line.push(code)
    finally:
        line.unwind()
    return found


def solution(
    s: DfPn, length: int, check_unique: bool, codes: list[int] | None = None
) -> tuple[list[int], list[Alternative] | None]:
    """The mate line (exactly *length* plies; *codes* if already found) and, with *check_unique*,
    its 余詰.

    When the line ends with spare pieces and an alternative attacker move leads to a line that
    uses more of them, that line becomes the main one (the attacker's choice among equally short
    mates, like the defender's, avoids 駒余り); the move it replaces becomes an alternative.
    """
    if codes is None:
        codes = exact_line(s, length)
    if not check_unique:
        return codes, None
    alternatives = alternatives_on_line(s, codes)
    spare = spare_after(s, codes)
    tried: set[tuple[int, int]] = set()
    while spare:
        better = None
        for alt in alternatives:
            if alt.last_move or (alt.ply, alt.move.code) in tried:
                continue
            tried.add((alt.ply, alt.move.code))
            candidate = [*codes[: alt.ply], *_line_from(s, codes[: alt.ply], alt.move.code, length - alt.ply)]
            candidate_spare = spare_after(s, candidate)
            if candidate_spare < spare:
                better = (alt, candidate, candidate_spare)
                break
        if better is None:
            break
        alt, candidate, spare = better
        kept = [a for a in alternatives if a.ply < alt.ply and a is not alt]
        kept.append(Alternative(alt.ply, _move(codes[alt.ply]), alt.last_move))
        kept.extend(a for a in alternatives if a.ply == alt.ply and a is not alt)
        codes = candidate
        alternatives = sorted(kept + alternatives_on_line(s, codes, alt.ply + 1), key=lambda a: a.ply)
    return codes, alternatives


def _line_from(s: DfPn, prefix: list[int], code: int, remaining: int) -> list[int]:
    """*code* and the exact line after it, played after *prefix*."""
    line = _Line(s)
    try:
        for move in prefix:
            line.push(move)
        line.push(code)
        if remaining == 1:
            return [code]
        best: tuple[list[int], int] | None = None
        for reply in _longest_replies(s, line, remaining - 2)[:_TIE_WIDTH]:
            line.push(reply)
            try:
                sub, spare = _exact(s, line, remaining - 2, _TIE_WIDTH - 1)
            finally:
                line.pop()
            if best is None or spare < best[1]:
                best = ([code, reply, *sub], spare)
            if spare == 0:
                break
        assert best is not None
        return best[0]
    finally:
        line.unwind()


def table_line(s: DfPn, limit: int) -> list[int]:
    """A mate line read from the table alone (fallback when there is no time to refine it):
    the stored mating moves, and for the defender the reply with the longest stored proof."""
    line = _Line(s)
    out: list[int] = []
    try:
        while len(out) < limit:
            key, hand = s.root_key()
            entry = s.lookup(key, hand, limit)
            if entry is None or entry[1] != 0 or not entry[4]:
                break
            line.push(entry[4])
            out.append(entry[4])
            replies = s.evasions()
            if not replies:
                break
            best_code, best_len = 0, -1
            for reply in replies:
                k, h = s.child(*s.root_key(), reply)
                e = s.lookup(k, h, limit)
                if e is None or e[1] != 0:
                    best_code = 0
                    break
                if e[3] > best_len:
                    best_code, best_len = reply, e[3]
            if not best_code:
                break
            line.push(best_code)
            out.append(best_code)
    finally:
        line.unwind()
    return out
