from django.contrib import admin
from django.urls import include, path, re_path

import accounts.api  # noqa: F401  (mounts the account routes on the API before its URLs are read)
import lobby.api  # noqa: F401  (the same for the lobby routes)
import ratings.api  # noqa: F401  (the same for the ratings routes)
from games.api.endpoints import api, bad_request, not_found

handler400 = bad_request

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", not_found),
    path("api/v1/", api.urls),
    # Any other path under the API is the API's JSON 404, a newline in it too (<path:> stops at one).
    re_path(r"^api/v1/(?P<rest>(?s:.*))$", not_found),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("lobby.urls")),
    path("", include("games.web.urls")),
]
