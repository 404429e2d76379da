"""The admin names the site's apps and models in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def admin_index(language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(User.objects.create_superuser("root", password="x" * 12))
    answer = client.get("/admin/")
    assert answer.status_code == 200
    return answer.content.decode()


def names(html: str) -> set[str]:
    """The app captions and model links of the index."""
    captions = re.findall(r'class="section"[^>]*>([^<]+)</a>', html)
    models = re.findall(r'<th scope="row" id="[\w-]+">\s*<a href="[^"]+"[^>]*>([^<]+)</a>', html)
    return {*captions, *models}


def test_the_admin_index_in_french_names_the_sites_models_in_french() -> None:
    shown = names(admin_index("fr"))
    wanted = {"Parties", "Messages de discussion", "Propositions", "Tournois", "Appariements", "Comptes"}
    assert wanted <= shown, shown
    assert "Games" not in shown and "Seeks" not in shown and "Chat lines" not in shown


@pytest.mark.parametrize(("language", "games"), [("de", "Partien"), ("es", "Partidas"), ("en", "Games")])
def test_each_language_names_the_games(language: str, games: str) -> None:
    assert games in names(admin_index(language))
