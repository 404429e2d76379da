from django.contrib import admin
from django.urls import include, path

from games.api import api, not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("api/v1/<path:rest>", not_found),
    path("", include("games.urls")),
]
