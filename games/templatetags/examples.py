"""``{% example_board caption moves="..." %}``: a position drawn by the game's own board
partial (and its pieces partial with ``pieces=True``), read-only, with a caption, for a
game's rules page (``kinds/<kind>_rules.html`` in its package). The game is the page's
``spec``; other keywords are the game's options (``advanced=True``, ``n=3``).

``moves`` lists actions from the start, ``position`` is the game's notation."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.presenting.examples import example_context

register = template.Library()


@register.simple_tag(takes_context=True)
def example_board(
    context: template.Context,
    caption: str,
    moves: str = "",
    position: str = "",
    pieces: bool = False,
    board: bool = True,
    **options: Any,
) -> SafeString:
    kind = context["spec"].kind
    data = example_context(kind, options, moves=moves, position=position)
    data.update({"caption": caption, "show_pieces": pieces, "show_board": board})
    return mark_safe(render_to_string("games/_example.html", data))
