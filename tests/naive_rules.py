"""A slow, obviously-written legal move generator, independent of shogiban's bitboards.

Used only by the property tests to check shogiban's generator.  It works on a plain dict of
(file, rank) -> (piece type, colour) and applies every rule directly.
"""

from __future__ import annotations

from shogiban import Board, Move, make_square

Square = tuple[int, int]  # (file 1..9, rank 1..9)
Position = dict[Square, tuple[int, int]]

# Steps for sente as (file delta, rank delta); rank delta -1 is forward.  Gote mirrors them.
GOLD = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)]
STEPS = {
    1: [(0, -1)], 3: [(-1, -2), (1, -2)], 4: [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], 7: GOLD,
    8: [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)],
    9: GOLD, 10: GOLD, 11: GOLD, 12: GOLD,
    13: [(0, -1), (0, 1), (-1, 0), (1, 0)], 14: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
}
SLIDES = {2: [(0, -1)], 5: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 6: [(0, -1), (0, 1), (-1, 0), (1, 0)],
          13: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 14: [(0, -1), (0, 1), (-1, 0), (1, 0)]}


def _flip(delta: tuple[int, int], color: int) -> tuple[int, int]:
    return delta if color == 0 else (-delta[0], -delta[1])


def _targets(pos: Position, sq: Square, pt: int, color: int) -> list[Square]:
    out = []
    for delta in STEPS.get(pt, []):
        df, dr = _flip(delta, color)
        to = (sq[0] + df, sq[1] + dr)
        if 1 <= to[0] <= 9 and 1 <= to[1] <= 9:
            out.append(to)
    for delta in SLIDES.get(pt, []):
        df, dr = _flip(delta, color)
        to = (sq[0] + df, sq[1] + dr)
        while 1 <= to[0] <= 9 and 1 <= to[1] <= 9:
            out.append(to)
            if to in pos:
                break
            to = (to[0] + df, to[1] + dr)
    return out


def _attacked(pos: Position, sq: Square, by: int) -> bool:
    return any(c == by and sq in _targets(pos, s, pt, c) for s, (pt, c) in pos.items())


def _in_check(pos: Position, color: int) -> bool:
    kings = [s for s, (pt, c) in pos.items() if pt == 8 and c == color]
    return bool(kings) and _attacked(pos, kings[0], color ^ 1)


def _last_ranks(pt: int, color: int, rank: int) -> bool:
    """Whether an unpromoted *pt* on *rank* could never move again."""
    distance = rank if color == 0 else 10 - rank  # 1 = last rank
    return (pt in (1, 2) and distance == 1) or (pt == 3 and distance <= 2)


def _in_zone(rank: int, color: int) -> bool:
    return rank <= 3 if color == 0 else rank >= 7


def _pseudo(pos: Position, hands: list[list[int]], color: int) -> list[tuple[str, Position, list[list[int]]]]:
    """(usi, position after, hands after) for every move that ignores king safety."""
    out = []
    for sq, (pt, c) in list(pos.items()):
        if c != color:
            continue
        for to in _targets(pos, sq, pt, color):
            if to in pos and pos[to][1] == color:
                continue
            options = []
            if not _last_ranks(pt, color, to[1]):
                options.append(False)
            if pt <= 6 and (_in_zone(sq[1], color) or _in_zone(to[1], color)):
                options.append(True)
            for promote in options:
                new = dict(pos)
                new_hands = [hands[0][:], hands[1][:]]
                if to in pos:
                    captured = pos[to][0]
                    new_hands[color][captured - 8 if captured > 8 else captured] += 1
                del new[sq]
                new[to] = (pt + 8 if promote else pt, color)
                usi = f"{sq[0]}{'abcdefghi'[sq[1] - 1]}{to[0]}{'abcdefghi'[to[1] - 1]}{'+' if promote else ''}"
                out.append((usi, new, new_hands))
    for pt in range(1, 8):
        if not hands[color][pt]:
            continue
        for f in range(1, 10):
            if pt == 1 and any(pos.get((f, r)) == (1, color) for r in range(1, 10)):
                continue  # 二歩
            for r in range(1, 10):
                if (f, r) in pos or _last_ranks(pt, color, r):
                    continue
                new = dict(pos)
                new[(f, r)] = (pt, color)
                new_hands = [hands[0][:], hands[1][:]]
                new_hands[color][pt] -= 1
                out.append((f"{'_PLNSBRG'[pt]}*{f}{'abcdefghi'[r - 1]}", new, new_hands))
    return out


def _legal(pos: Position, hands: list[list[int]], color: int, *, check_pawn_mate: bool = True) -> list[str]:
    result = []
    for usi, new, new_hands in _pseudo(pos, hands, color):
        if _in_check(new, color):
            continue
        if (check_pawn_mate and usi.startswith("P*") and _in_check(new, color ^ 1)
                and not _legal(new, new_hands, color ^ 1, check_pawn_mate=False)):
            continue  # 打ち歩詰め
        result.append(usi)
    return result


def naive_legal_moves(board: Board) -> set[Move]:
    """Every legal move of *board*'s side to move, computed the slow way."""
    pos: Position = {}
    for sq, piece in board.pieces().items():
        file, rank = 9 - sq % 9, sq // 9 + 1
        pos[(file, rank)] = (int(piece.piece_type), int(piece.color))
    hands = [[board.hand_count(c, pt) if pt else 0 for pt in range(8)] for c in (0, 1)]
    assert make_square(1, 1) == 8
    return {Move.from_usi(u) for u in _legal(pos, hands, int(board.turn))}
