"""An account's own language wins over the cookie and Accept-Language.

Django's LocaleMiddleware (earlier in the chain) chose from the language cookie, then
Accept-Language; once the user is known, an account that set a language gets it. An API
request gets the language of the account whose personal token it carries (a bot's token
is not a session), else Accept-Language's. The language cookie follows the account's
language: the live sockets, which know no user, read it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.models import Account
from games.api import plumbing


def account_language(request: HttpRequest) -> str:
    """The language the logged-in account chose, or "" (none chosen, or anonymous)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    chosen = Account.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return chosen or ""


class AccountLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            if language := plumbing.token_language(request):
                translation.activate(language)
                request.LANGUAGE_CODE = language
        elif not request.path.startswith(("/static/", "/healthz", "/metrics")):
            language = account_language(request)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
                response = self.get_response(request)
                if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
                    response.set_cookie(
                        settings.LANGUAGE_COOKIE_NAME,
                        language,
                        max_age=settings.LANGUAGE_COOKIE_AGE,
                        path=settings.LANGUAGE_COOKIE_PATH,
                        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                    )
                return response
        return self.get_response(request)
