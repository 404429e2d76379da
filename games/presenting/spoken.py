"""A live part that is the same for every reader but for their language (the lobby's lists,
a tournament's standings): each change is rendered once per language its sockets read,
stored in the live cache for the sockets that connect next, and sent to that language's
group (English, the site's own, keeps the bare group name).

A socket that opens in another language marks it read for that part, for good (in the
shared cache for the other processes, and in this process, which no cache eviction can
forget): the part is then rendered in it at every change, at most once per language the
site speaks, so a page that stays open for hours still gets its pushes.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils import translation

from games.presenting import audiences

KEEP = 3600  # how long a stored rendering serves the sockets that connect next

_read_here: set[tuple[str, str]] = set()


def site_language() -> str:
    return str(settings.LANGUAGE_CODE)


def group(base: str, language: str) -> str:
    return base if language == site_language() else f"{base}.{language}"


def cache_key(base_key: str, language: str) -> str:
    return f"{base_key}:{language}"


def _read_key(part: str, language: str) -> str:
    return f"spoken:{part}:{language}"


def opened(part: str, language: str) -> None:
    """A socket of ``part`` opened reading ``language``: render its changes in it too."""
    if language != site_language():
        _read_here.add((part, language))
        audiences.live_cache().set(_read_key(part, language), 1, None)


def read_in(part: str) -> list[str]:
    """The languages ``part`` is rendered in: the site's own, and each a socket opened in."""
    others = audiences.other_languages()
    marked = audiences.live_cache().get_many([_read_key(part, code) for code in others])
    read = [code for code in others if (part, code) in _read_here or _read_key(part, code) in marked]
    return [site_language(), *read]


def rendered(language: str, render: Callable[[], str]) -> str:
    with translation.override(language):
        return render()


def current(base_key: str, language: str, render: Callable[[], str]) -> str:
    """The latest rendering in ``language`` (rendered and stored on a miss)."""
    cache = audiences.live_cache()
    key = cache_key(base_key, language)
    html: str | None = cache.get(key)
    if html is None:
        html = rendered(language, render)
        cache.set(key, html, KEEP)
    return html


def store(base_key: str, language: str, html: str) -> bool:
    """Keep ``html`` as the latest rendering; whether it differs from the one it replaces."""
    cache = audiences.live_cache()
    key = cache_key(base_key, language)
    changed = bool(cache.get(key) != html)
    cache.set(key, html, KEEP)
    return changed
