from django.contrib import admin
from django.urls import include, path

from games.api.endpoints import api, bad_request, not_found

handler400 = bad_request

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", not_found),
    path("api/v1/", api.urls),
    path("api/v1/<path:rest>", not_found),
    path("", include("games.web.urls")),
]
