"""The review's evaluation graph: the value of the game after each action, for the first
player, drawn on the server as SVG (no JavaScript), each point a link to the replay at
that ply and each mistake marked; the same points as rows for a table that screen
readers read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.ai.base import ReviewEntry
from games.presenting import sentences

WIDTH, HEIGHT, MARGIN = 640, 180, 14
CLASS_VALUE = {"win": 1.0, "draw": 0.0, "loss": -1.0}
MISTAKES = ("inaccuracy", "blunder")


def mover_value(entry: ReviewEntry) -> float:
    """The value after the action for its mover, from -1 (lost) to 1 (won): proved where
    the computer proved it, its estimate otherwise."""
    if entry.value_after in CLASS_VALUE:
        return CLASS_VALUE[entry.value_after]
    return max(-1.0, min(1.0, entry.score_after or 0.0))


def points(game_id: int, entries: Sequence[ReviewEntry]) -> list[dict[str, Any]]:
    """Each action's point: its ply, the value for the first player (the second's is its
    opposite), whether it was proved, its verdict and the replay's address at that ply."""
    replay = reverse("games:replay", args=[game_id])
    rows = []
    for entry in entries:
        value = mover_value(entry)
        rows.append(
            {
                "ply": entry.ply,
                "value": value if entry.seat == 0 else -value,
                "proved": entry.value_after is not None,
                "verdict": entry.verdict if entry.verdict in MISTAKES else "",
                "href": f"{replay}?ply={entry.ply}",
            }
        )
    return rows


# The laptop's wide graph and the phone's taller one (the page shows one by the width).
SHAPES = {"wide": (WIDTH, HEIGHT), "tall": (360, 260)}


def svg(rows: Sequence[dict[str, Any]], current: int | None = None, shape: str = "wide") -> SafeString:
    """The graph: a line through the points over a middle line (a draw), first player's
    wins up; each point a link (a larger, outlined mark for a mistake), the shown ply's
    point ringed."""
    if not rows:
        return SafeString("")
    width, height = SHAPES[shape]
    step = (width - 2 * MARGIN) / max(len(rows), 1)
    middle = height / 2
    scale = middle - MARGIN

    def at(index: int, value: float) -> tuple[float, float]:
        return round(MARGIN + step * (index + 1), 1), round(middle - value * scale, 1)

    def looks(row: dict[str, Any]) -> str:
        verdict = f" eval__point--{row['verdict']}" if row["verdict"] else ""
        return verdict + (" eval__point--current" if row["ply"] == current else "")

    line = " ".join(f"{x},{y}" for x, y in (at(i, r["value"]) for i, r in enumerate(rows)))
    marks = format_html_join(
        "",
        '<a href="{}" class="eval__link"{}><title>{}</title>'
        '<circle class="eval__point{}" cx="{}" cy="{}" r="{}"></circle></a>',
        (
            (
                r["href"],
                SafeString(' aria-current="step"') if r["ply"] == current else "",
                _("Ply %(ply)s: %(value)s") % {"ply": r["ply"], "value": words(r)},
                looks(r),
                *at(i, r["value"]),
                6 if r["verdict"] or r["ply"] == current else 4,
            )
            for i, r in enumerate(rows)
        ),
    )
    return format_html(
        '<svg class="eval__graph eval__graph--{shape}" viewBox="0 0 {w} {h}" role="group" '
        'aria-labelledby="eval-title">'
        '<line class="eval__draw" x1="0" y1="{m}" x2="{w}" y2="{m}"></line>'
        '<polyline class="eval__line" points="{line}"></polyline>{marks}</svg>',
        shape=shape,
        w=width,
        h=height,
        m=middle,
        line=line,
        marks=marks,
    )


def words(row: dict[str, Any]) -> str:
    """A point in words, for the first player: "won", "drawn", "lost" or an estimate."""
    value = row["value"]
    if row["proved"]:
        said = (
            _("won for the first player")
            if value > 0
            else _("lost for the first player")
            if value < 0
            else _("drawn")
        )
    else:
        said = _("estimate %(value)s for the first player") % {"value": sentences.signed(value)}
    return f"{said}{', ' + row['verdict'] if row['verdict'] else ''}"
