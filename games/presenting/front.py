"""Parts other apps add to the top of the home page (the lobby's quick pairing), registered
in their ``AppConfig.ready()``: games knows nothing of them.

A provider takes the request and returns HTML, or "" when it has nothing to show.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

log = logging.getLogger(__name__)

Provider = Callable[[HttpRequest], str]
_providers: list[Provider] = []


def add_section(provider: Provider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def sections(request: HttpRequest) -> list[SafeString]:
    """Each provider's part, in the order they registered; a failing one is left out."""
    found = []
    for provider in tuple(_providers):
        try:
            html = provider(request)
        except Exception:  # the home page never fails for want of a part
            log.exception("home page part %r", provider)
            continue
        if html:
            found.append(mark_safe(html))
    return found
