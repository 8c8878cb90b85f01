"""Game records (棋譜): a game tree model and lossless readers and writers for every format
users have -- KIF/KIFU, KI2, CSA V2.2/V3.0, JKF, SFEN, USI, USEN and BOD.

>>> from shogiban.kifu import read_game, write_game
>>> game = read_game("+7776FU\\nT3\\n-3334FU\\n%TORYO\\n")
>>> print(write_game(game, "kifu").decode("utf-8").splitlines()[-3])
   3 投了         ( 0:00/00:00:03)
"""

from __future__ import annotations

from shogiban.kifu.api import read_game, read_game_file, read_games, save_game, write_game
from shogiban.kifu.builder import GameBuilder
from shogiban.kifu.csa import read_csa, read_csa_games, write_csa
from shogiban.kifu.detect import FORMATS, detect_format
from shogiban.kifu.diagram import read_bod, write_bod
from shogiban.kifu.encoding import decode
from shogiban.kifu.game import Game, GameNode
from shogiban.kifu.headers import Headers
from shogiban.kifu.jkf import read_jkf, validate_jkf, write_jkf
from shogiban.kifu.ki2 import read_ki2, write_ki2
from shogiban.kifu.kif import read_kif, write_kif
from shogiban.kifu.read_limits import DEFAULT_LIMITS, KifuLimitError, ReadLimits
from shogiban.kifu.results import Result, ResultKind
from shogiban.kifu.usen import read_usen, write_usen
from shogiban.kifu.usi import read_sfen, read_sfen_games, read_usi, read_usi_games, write_sfen, write_usi

__all__ = [
    "DEFAULT_LIMITS", "FORMATS", "Game", "GameBuilder", "GameNode", "Headers", "KifuLimitError", "ReadLimits",
    "Result", "ResultKind", "decode", "detect_format", "read_bod", "read_csa", "read_csa_games", "read_game",
    "read_game_file", "read_games", "read_jkf", "read_ki2", "read_kif",
    "read_sfen", "read_sfen_games", "read_usen", "read_usi", "read_usi_games", "save_game", "validate_jkf",
    "write_bod", "write_csa", "write_game", "write_jkf", "write_ki2", "write_kif", "write_sfen", "write_usen",
    "write_usi",
]
