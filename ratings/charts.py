"""A rating history as an SVG chart, drawn on the server (pygal): no JavaScript needed.

The page shows it as an image beside a table of the same games, which is what screen
readers read."""

from __future__ import annotations

from collections.abc import Sequence

import pygal
from pygal.style import Style

from ratings import glicko2
from ratings.models import RatingChange

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#555",
    foreground_strong="#333",
    foreground_subtle="#ccc",
    colors=("#2f6fb3",),
    font_family="system-ui, sans-serif",
)


def history_svg(changes: Sequence[RatingChange], title: str) -> str:
    """The rating before the first rated game, then after each one (x: the game's number)."""
    chart = pygal.Line(
        width=640,
        height=260,
        title=title,
        show_legend=False,
        style=STYLE,
        js=[],  # a static image: no scripts fetched from anywhere
        disable_xml_declaration=True,
        dots_size=3,
        show_minor_x_labels=False,
        x_labels_major_every=max(1, len(changes) // 10),
        x_title="rated games",
    )
    values = [glicko2.points(changes[0].before)] if changes else []
    values += [glicko2.points(change.after) for change in changes]
    chart.x_labels = [str(number) for number in range(len(values))]
    chart.add("rating", values)
    return str(chart.render(is_unicode=True))
