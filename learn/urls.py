from django.urls import path

from learn import lesson, rules

app_name = "learn"

urlpatterns = [
    path("rules/", rules.index, name="index"),
    path("rules/<str:kind>/", rules.rules_page, name="rules"),
    path("learn/quarto/", lesson.page, name="quarto"),
]
