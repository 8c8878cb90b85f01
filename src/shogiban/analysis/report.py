"""Reports of a game's analysis: the evaluation graph as SVG and the summary per player, with
the words from the catalogue (:mod:`shogiban.i18n`).

The graph plots sente's win rate (0..100%) against the move number, so that a mate and a
+3000 cp position, unbounded as scores, both sit at the top; labelled moves are dots coloured
by label, and missed mates are rings.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from shogiban.analysis.classify import Label
from shogiban.analysis.comments import situation
from shogiban.analysis.game import GameAnalysis, MoveAnalysis
from shogiban.engines.score import Score
from shogiban.i18n import side_name, translate
from shogiban.pieces import Color

#: Dot colours of the labels on the graph.
LABEL_COLOURS = {Label.INACCURACY: "#e6b422", Label.MISTAKE: "#e67e22", Label.BLUNDER: "#c0392b"}


def label_text(label: Label, language: str = "en") -> str:
    """The label's word in *language* (``疑問手``, ``惡手``, ``Blunder`` ...)."""
    return translate(f"analysis.label.{label.value}", language)


def situation_text(score: Score, language: str = "en") -> str:
    """The situation word for sente's *score* in *language* (a mate counts as winning)."""
    if score.cp is None:
        key = "black_winning" if score.winning else "white_winning"
    else:
        key = situation(score.cp)[1]
    return translate(f"analysis.situation.{key}", language)


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One player's figures."""

    side: str
    accuracy: str
    labels: dict[Label, int]
    missed_mates: int
    worst_move: str


def _worst_text(move: MoveAnalysis | None, language: str) -> str:
    if move is None:
        return translate("analysis.summary.none", language)
    return translate("analysis.summary.worst", language, ply=move.ply, move=move.move.usi(),
                     loss=f"{move.loss * 100:.0f}")


def summary_rows(analysis: GameAnalysis, language: str = "en") -> list[SummaryRow]:
    """Sente's and gote's figures: accuracy, labels, missed mates, the worst move."""
    rows = []
    for color in (Color.BLACK, Color.WHITE):
        accuracy = analysis.accuracy(color)
        rows.append(SummaryRow(
            side=side_name("b" if color == Color.BLACK else "w", language),
            accuracy="-" if accuracy is None else f"{accuracy:.1f}",
            labels=analysis.label_counts(color),
            missed_mates=len(analysis.missed_mates(color)),
            worst_move=_worst_text(analysis.worst_move(color), language),
        ))
    return rows


def summary_headers(language: str = "en") -> list[str]:
    """The column headers of :func:`summary_rows`, in order."""
    return [
        translate("analysis.column.side", language),
        translate("analysis.column.accuracy", language),
        *(label_text(label, language) for label in Label),
        translate("analysis.column.missed_mates", language),
        translate("analysis.column.worst_move", language),
    ]


def summary_cells(row: SummaryRow) -> list[str]:
    """*row* as the cells under :func:`summary_headers`."""
    return [row.side, row.accuracy, *(str(row.labels[label]) for label in Label), str(row.missed_mates),
            row.worst_move]


def evaluation_svg(analysis: GameAnalysis, *, title: str | None = None, language: str = "en",
                   width: int = 640, height: int = 240) -> str:
    """The main line's graph of sente's win rate, as a standalone SVG document."""
    left, right, top, bottom = 40, 12, 26, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    rates = analysis.win_rates()
    last = max(len(rates) - 1, 1)

    def x(ply: int) -> float:
        return left + plot_w * ply / last

    def y(rate: float) -> float:
        return top + plot_h * (1.0 - rate)

    heading = title if title is not None else translate("analysis.graph.win_rate", language)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#f7f4ec" stroke="#999999"/>',
        f'<text x="{left}" y="16" font-size="13">{escape(heading)}</text>',
    ]
    for rate in (0.25, 0.5, 0.75):
        dash = "" if rate == 0.5 else ' stroke-dasharray="3,3"'
        out.append(f'<line x1="{left}" y1="{y(rate):.1f}" x2="{left + plot_w}" y2="{y(rate):.1f}" '
                   f'stroke="#bbbbbb"{dash}/>')
    out.extend(f'<text x="{left - 4}" y="{y(rate) + 4:.1f}" text-anchor="end">{rate * 100:.0f}%</text>'
               for rate in (0.0, 0.5, 1.0))
    step = max(10, (last // 8 + 9) // 10 * 10)
    out.extend(f'<text x="{x(ply):.1f}" y="{height - 8}" text-anchor="middle">{ply}</text>'
               for ply in range(0, last + 1, step))
    # One polyline per run of known positions: a gap stays a gap.
    run: list[str] = []
    for ply, known in enumerate([*rates, None]):
        if known is not None:
            run.append(f"{x(ply):.1f},{y(known):.1f}")
            continue
        if len(run) > 1:
            out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="#2c3e50" stroke-width="1.5"/>')
        elif run:
            out.append(f'<circle cx="{run[0].split(",")[0]}" cy="{run[0].split(",")[1]}" r="1.5" fill="#2c3e50"/>')
        run = []
    for judged in analysis.mainline_moves():
        black_rate = judged.win_rate_after if judged.mover == Color.BLACK else 1.0 - judged.win_rate_after
        cx, cy = x(judged.ply), y(black_rate)
        words = f"{judged.ply}. {judged.move.usi()}"
        if judged.label is not None:
            words += " " + label_text(judged.label, language)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{LABEL_COLOURS[judged.label]}">'
                       f"<title>{escape(words)}</title></circle>")
        if judged.missed_mate:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6" fill="none" stroke="#8e44ad" '
                       f'stroke-width="1.5"><title>{escape(words)}</title></circle>')
    out.append(f'<desc>{escape(translate("analysis.graph.ply", language))}</desc>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = [
    "LABEL_COLOURS",
    "SummaryRow",
    "evaluation_svg",
    "label_text",
    "situation_text",
    "summary_cells",
    "summary_headers",
    "summary_rows",
]
