"""The language of a WebSocket: the language cookie, then Accept-Language, as a page's.

A socket has no request for Django's ``LocaleMiddleware``; it reads the same two things
from its scope. An account's own language reaches it too: the account's pages set the
cookie to it (``accounts.middleware.AccountLanguageMiddleware``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def supported(code: str) -> str:
    """``code`` as one of the site's languages, or "" when it is none of them."""
    try:
        return get_supported_language_variant(code) if code else ""
    except LookupError:
        return ""


def scope_language(scope: dict[str, Any]) -> str:
    chosen = supported(scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, ""))
    if chosen:
        return chosen
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for code, _quality in parse_accept_lang_header(value.decode("latin-1")):
                if code != "*" and (found := supported(code)):
                    return found
    return str(settings.LANGUAGE_CODE)
