"""A rating history as an SVG chart, drawn on the server (pygal): no JavaScript needed.

The page shows it as an image beside a table of the same games, which is what screen
readers read."""

from __future__ import annotations

from collections.abc import Sequence

import pygal
from pygal.style import Style

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
    """The rating after each game, over time (the first point is the rating before the first)."""
    chart = pygal.DateTimeLine(
        width=640,
        height=260,
        title=title,
        show_legend=False,
        x_label_rotation=0,
        x_value_formatter=lambda moment: moment.strftime("%d %b"),
        style=STYLE,
        js=[],  # a static image: no scripts fetched from anywhere
        disable_xml_declaration=True,
        dots_size=3,
        truncate_label=-1,
    )
    points = []
    if changes:
        points.append((changes[0].created, round(changes[0].before)))
    points += [(change.created, round(change.after)) for change in changes]
    chart.add("rating", points)
    return str(chart.render(is_unicode=True))
