"""Move notations and board diagrams, one module per notation.

* :mod:`shogiban.notation.japanese` -- KIF ``７六歩(77)`` and KI2 ``▲７六歩`` move text.
* :mod:`shogiban.notation.western` -- ``P-76`` (Hosking), ``P-7f`` (Hodges), ``歩-76`` (Kitao-Kawasaki).
* :mod:`shogiban.notation.csa_move` -- ``+7776FU``.
* :mod:`shogiban.notation.usi` -- ``position startpos moves 7g7f ...`` commands.
* :mod:`shogiban.notation.bod` -- BOD board diagrams (局面図) as written by Kifu for Windows.
* :mod:`shogiban.notation.names` -- piece names in Japanese, Chinese and English.
"""
