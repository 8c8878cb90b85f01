"""Game analysis: an engine's scores for every position of a record, judgments of the moves
played, and the records' comment forms that carry them.

* :class:`Analyser` (:func:`analyse_game`, :func:`analyse_position`): search positions with an
  engine to a per-position limit and MultiPV, through a cache (:class:`AnalysisCache`, or
  :class:`SqliteAnalysisCache` on disk), with progress and cancellation.
* :class:`GameAnalysis` / :class:`MoveAnalysis` / :class:`PositionAnalysis`: scores from sente's
  side, win rates, the loss of each move, labels (:class:`Label`: 疑問手 / 悪手 / 大悪手),
  missed mates, accuracy per player and key moments.
* :func:`annotate_game` writes the analysis into a record's comments as ShogiHome does
  (KIF, KI2, JKF) or as floodgate does (CSA ``'**``); :func:`analysis_from_game` reads such
  comments, written by any of those programs, back.
* :func:`evaluation_svg` and :func:`summary_rows` for reports.

See ``docs/analysis.md`` for the conversions, thresholds and formulas.
"""

from __future__ import annotations

from shogiban.analysis.analyser import (
    Analyser,
    AnalysingEngine,
    AnalysisOptionError,
    Progress,
    analyse_game,
    analyse_position,
)
from shogiban.analysis.cache import AnalysisCache, SqliteAnalysisCache, cache_key, limit_text
from shogiban.analysis.classify import (
    DEFAULT_THRESHOLDS,
    SHOGIHOME_THRESHOLDS,
    Label,
    Thresholds,
    classify,
    mean_accuracy,
    missed_mate,
    move_accuracy,
)
from shogiban.analysis.comments import analysis_from_game, annotate_game
from shogiban.analysis.game import GameAnalysis, MoveAnalysis, judge_move
from shogiban.analysis.positions import AnalysisDataError, Line, PositionAnalysis, position_key
from shogiban.analysis.report import evaluation_svg, summary_rows

__all__ = [
    "DEFAULT_THRESHOLDS",
    "SHOGIHOME_THRESHOLDS",
    "Analyser",
    "AnalysingEngine",
    "AnalysisCache",
    "AnalysisDataError",
    "AnalysisOptionError",
    "GameAnalysis",
    "Label",
    "Line",
    "MoveAnalysis",
    "PositionAnalysis",
    "Progress",
    "SqliteAnalysisCache",
    "Thresholds",
    "analyse_game",
    "analyse_position",
    "analysis_from_game",
    "annotate_game",
    "cache_key",
    "classify",
    "evaluation_svg",
    "judge_move",
    "limit_text",
    "mean_accuracy",
    "missed_mate",
    "move_accuracy",
    "position_key",
    "summary_rows",
]
