"""The site's one stylesheet, ``static/bundle/site.css``: every stylesheet joined in a fixed order.

A page links this one file instead of fifteen, so the browser waits on one request before it
draws. The sources stay where they are (the shared ones in ``static/css/``, each game's in its
package, listed in its catalog entry, the study pages' in their app); ``manage.py
bundle_css`` writes the bundle again after a source changed, and a test fails while it is out
of date. collectstatic then gives it a hashed name, a ``.gz`` and a ``.br``, as every file.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders

from games import catalog

BUNDLE = "bundle/site.css"

# The shared ones first (the tokens the rest use), in the order the pages linked them.
SHARED = tuple(
    f"css/{name}.css"
    for name in ("tokens", "card", "glow", "layout", "status", "grid", "review", "social", "csp", "accounts")
)
# Those of one section of the site, after the games' (their rules came last on their pages).
SECTIONS = ("css/lobby.css", "css/tournaments.css", "study/study.css", "learn/learn.css")


def sources() -> list[str]:
    """The static paths joined, in order."""
    games = [path for spec in catalog.CATALOG.values() for path in spec.stylesheets]
    return [*SHARED, *games, *SECTIONS]


def bundle_text() -> str:
    parts = ["/* Made by `manage.py bundle_css` from the stylesheets named below: edit those. */\n"]
    for path in sources():
        found = finders.find(path)
        if not isinstance(found, str):
            raise FileNotFoundError(f"stylesheet {path} not found")
        parts.append(f"\n/* {path} */\n{Path(found).read_text().strip()}\n")
    return "".join(parts)


def bundle_path() -> Path:
    return Path(settings.BASE_DIR) / "static" / BUNDLE


def write() -> bool:
    """Writes the bundle; False when it already said the same."""
    text = bundle_text()
    path = bundle_path()
    if path.exists() and path.read_text() == text:
        return False
    path.write_text(text)
    return True
