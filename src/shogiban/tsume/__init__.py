"""Tsume (詰将棋) solving: the shortest mate by continuous checks, with the tsume conventions.

>>> from shogiban import Board
>>> from shogiban.tsume import solve
>>> result = solve(Board("3k5/9/3P5/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"))
>>> result.status, result.length, result.usi()
('mate', 1, 'G*6b')

* :func:`solve` runs a depth-bounded df-pn search (:mod:`shogiban.tsume.dfpn`) and returns a
  :class:`TsumeResult`: the line (attacker quickest, defender longest), its length, whether it is
  unique and the alternative mating moves (余詰) found on it.
* :func:`complete_defender_hand` gives the defender every piece not on the board or in the
  attacker's hand, as problems assume.
* :func:`generate_checks` lists the checking moves of the side to move.
* :func:`check_mate_line` replays a line and says why it is not a mate line, if it is not.
"""

from __future__ import annotations

from shogiban.tsume.checks import generate_checks
from shogiban.tsume.hands import complete_defender_hand
from shogiban.tsume.pv import Alternative
from shogiban.tsume.solver import TsumeError, TsumeResult, solve
from shogiban.tsume.verify import check_mate_line

__all__ = [
    "Alternative",
    "TsumeError",
    "TsumeResult",
    "check_mate_line",
    "complete_defender_hand",
    "generate_checks",
    "solve",
]
