from django.urls import path, re_path

from accounts import views

app_name = "accounts"

urlpatterns = [
    re_path(r"^@/(?P<username>[A-Za-z0-9_-]{1,40})/?$", views.profile, name="profile"),
    re_path(
        r"^@/(?P<username>[A-Za-z0-9_-]{1,40})/rating/(?P<kind>[a-z]{1,20})/(?P<speed>[a-z]{1,16})\.svg$",
        views.rating_chart,
        name="rating_chart",
    ),
    path("accounts/settings/", views.settings_page, name="settings"),
    path("accounts/settings/tokens/", views.new_token, name="new_token"),
    path("accounts/settings/tokens/revoke/", views.revoke_token, name="revoke_token"),
    path("accounts/close/", views.close, name="close"),
]
