"""The scripts' sentences (static/js) in one language: Django's JavaScript catalog of the
site's ``djangojs`` domain at ``/jsi18n/<language>/``.

The language is in the address, not read from the request, so one address always says the
same thing and browsers and proxies may keep it (a page links the one it speaks:
``templates/_script_words.html``). It defines ``gettext``, ``ngettext`` and ``interpolate``
for the scripts that follow it; it is a file of its own because the Content-Security-Policy
allows no inline script.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog

# An hour: a new catalog reaches the pages within one without a versioned address.
MAX_AGE = 3600


class ScriptWords(JavaScriptCatalog):
    domain = "djangojs"
    # Only the site's own catalogs (LOCALE_PATHS), not every app's: with no package named,
    # Django would add the admin's calendar words to every page's catalog.
    packages = ["games"]

    def get_paths(self, packages: list[str]) -> list[str]:
        return [str(path) for path in settings.LOCALE_PATHS]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = kwargs.pop("language")
        if language not in dict(settings.LANGUAGES):
            raise Http404("no such language")
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
        patch_cache_control(response, public=True, max_age=MAX_AGE)
        return response
