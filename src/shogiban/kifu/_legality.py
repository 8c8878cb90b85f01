"""Fast legality test for one move, for readers that validate every move of a record: the rules
core's :func:`shogiban.rules.push_if_legal` and its results, under the names the readers import.

:meth:`shogiban.Board.is_legal` generates every legal move; a record names one move per ply, so
checking that move alone (geometry, hand, 二歩, 打ち歩詰め, promotion, self-check) is several
times faster.  Any move refused here is explained by :meth:`shogiban.Board.check_move`.

With the C accelerator, generating every legal move in C and looking the move up is faster
still, and is what happens.  In pure Python the self-check test is the costly part, and most
moves cannot need it: a reader that tells :func:`push_if_legal` whether the side to move is in
check (the previous call's answer says whether its move gave check) has it run only for king
moves, moves out of check and moves along a line through the king.
"""

from __future__ import annotations

from shogiban.rules import CHECK, ILLEGAL, LEGAL, PLAYED, push_if_legal

__all__ = ["CHECK", "ILLEGAL", "LEGAL", "PLAYED", "push_if_legal"]
