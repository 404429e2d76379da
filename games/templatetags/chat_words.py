"""``{{ line|said_to:my_seats }}``: a chat line's text, a line of the site said in the
reader's language (see games/services/site_lines.py)."""

from __future__ import annotations

from typing import Any

from django import template

from games.services import site_lines

register = template.Library()


@register.filter
def said_to(line: Any, mine: Any) -> str:
    if line.seat is None and line.said:
        try:
            return site_lines.sentence(line.said, tuple(mine or ()))
        except (KeyError, TypeError):
            pass  # a line kept in a shape this code no longer says: its English text
    return str(line.text)
