"""``{% game_scripts kind %}``: the links to a game's own scripts, read from the catalog (each
game declares its files in its entry; they live in its package's ``static/``). No page lists a
game's files by hand; its stylesheets are joined into the site's one (games/presenting/stylesheets.py)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games import catalog

register = template.Library()


@register.simple_tag
def game_scripts(kind: str) -> SafeString:
    """The scripts of the game shown, deferred like the page's own."""
    paths = catalog.get(kind).scripts if kind in catalog.CATALOG else ()
    return format_html_join("\n", '<script src="{}" defer></script>', ((static(p),) for p in paths))
