from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import TemplateView

import accounts.api  # noqa: F401  (mounts the account routes on the API before its URLs are read)
import lobby.api  # noqa: F401  (the same for the lobby routes)
import ratings.api  # noqa: F401  (the same for the ratings routes)
import study.api
import study.puzzle_api  # noqa: F401  (and the puzzles')
import tournaments.api  # noqa: F401  (the same for the tournaments' routes)
from accounts.languages import switch_language
from games.api.endpoints import api, bad_request, not_found
from quarto_site.scriptwords import ScriptWords

handler400 = bad_request

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", not_found),
    path("api/v1/", api.urls),
    # Any other path under the API is the API's JSON 404, a newline in it too (<path:> stops at one).
    re_path(r"^api/v1/(?P<rest>(?s:.*))$", not_found),
    path("accounts/", include("allauth.urls")),
    path("language/", switch_language, name="set_language"),
    path("robots.txt", TemplateView.as_view(template_name="robots.txt", content_type="text/plain")),
    # The scripts' sentences in one language (gettext in static/js; templates/_script_words.html).
    path("jsi18n/<str:language>/", ScriptWords.as_view(), name="javascript-catalog"),
    path("", include("monitoring.urls")),
    path("", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("lobby.urls")),
    path("", include("tournaments.urls")),
    path("", include("study.urls")),
    path("", include("learn.urls")),
    path("", include("games.web.urls")),
]
