"""A deliberately tiny CSA move-list reader for the rules tests (the real reader is shogiban.kifu).

It reads only what the rule fixtures need: the standard start position and ``+7776FU`` move lines.
"""

from __future__ import annotations

from pathlib import Path

from shogiban import Board, Move
from shogiban.squares import make_square

_PROMOTED = {"TO", "NY", "NK", "NG", "UM", "RY"}
_DROP = {"FU": 1, "KY": 2, "KE": 3, "GI": 4, "KA": 5, "HI": 6, "KI": 7}


def csa_moves(path: Path) -> list[str]:
    """The move lines (``+7776FU``) of a CSA file, in order."""
    text = path.read_bytes().decode("cp932", errors="replace")
    return [line.strip()[:7] for line in text.splitlines() if line[:1] in "+-" and len(line.strip()) >= 7
            and line[1:5].isdigit()]


def csa_to_move(board: Board, csa: str) -> Move:
    """The move of a ``+7776FU`` line on *board*."""
    frm, to, piece = csa[1:3], csa[3:5], csa[5:7]
    to_sq = make_square(int(to[0]), int(to[1]))
    if frm == "00":
        return Move(to_square=to_sq, drop=_DROP[piece])
    from_sq = make_square(int(frm[0]), int(frm[1]))
    on_board = board.piece_at(from_sq)
    promotes = piece in _PROMOTED and on_board is not None and on_board.piece_type <= 6
    return Move(from_square=from_sq, to_square=to_sq, promotion=promotes)
