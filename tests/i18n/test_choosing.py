"""Which language a page speaks: the account's setting, then the footer's switcher (a
cookie), then Accept-Language; ``<html lang>`` says which. The switcher is a plain form."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Account

pytestmark = pytest.mark.django_db


def lang_of(html: str) -> str:
    start = html.index('<html lang="') + len('<html lang="')
    return html[start : html.index('"', start)]


def test_accept_language_chooses_and_the_page_says_so() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    page = client.get("/").content.decode()
    assert lang_of(page) == "fr"
    assert "Aller au contenu" in page and "Skip to content" not in page
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="ja").get("/").content.decode()) == "en"


def test_the_switcher_works_without_javascript_and_beats_accept_language() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    answer = client.post("/language/", {"language": "de", "next": "/lobby/"})
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    page = client.get("/").content.decode()
    assert lang_of(page) == "de" and "Zum Inhalt springen" in page
    # The footer offers every language, the current one chosen.
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page
    assert '<option value="fr" lang="fr">Français</option>' in page


@pytest.mark.parametrize("bad", ["xx", "", "fr-FR; DROP", "NaN", "9" * 500])
def test_an_unknown_language_is_a_400_that_changes_nothing(bad: str) -> None:
    client = Client()
    answer = client.post("/language/", {"language": bad, "next": "/"})
    assert answer.status_code == 400
    assert 'data-code="bad_language"' in answer.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert client.get("/language/").status_code == 405


def test_an_offsite_next_goes_home_instead() -> None:
    answer = Client().post("/language/", {"language": "es", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"


def test_the_account_setting_wins_and_the_switcher_sets_it() -> None:
    user = User.objects.create_user("lea", password="a long secret 123")
    Account.objects.create(user=user, language="es")
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert lang_of(client.get("/").content.decode()) == "es"
    client.post("/language/", {"language": "fr", "next": "/"})
    assert Account.objects.get(user=user).language == "fr"
    # Another browser of the same account follows the account, whatever it sends.
    other = Client(HTTP_ACCEPT_LANGUAGE="de")
    other.force_login(user)
    assert lang_of(other.get("/").content.decode()) == "fr"


def test_the_settings_page_sets_and_clears_the_language() -> None:
    user = User.objects.create_user("max", password="a long secret 123")
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    page = client.get("/accounts/settings/").content.decode()
    assert "Die Sprache des Browsers" in page
    fields = {"language": "es", "show_coordinates": "on", "confirm_resign": "on"}
    assert client.post("/accounts/settings/", fields).status_code == 303
    assert Account.objects.get(user=user).language == "es"
    assert lang_of(client.get("/").content.decode()) == "es"
    bad = client.post("/accounts/settings/", {**fields, "language": "klingon"})
    assert bad.status_code == 400 and Account.objects.get(user=user).language == "es"
    client.post("/accounts/settings/", {**fields, "language": ""})
    assert lang_of(client.get("/").content.decode()) == "de"


def test_the_account_pages_speak_french() -> None:
    user = User.objects.create_user("zoe", password="a long secret 123")
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(user)
    settings_page = client.get("/accounts/settings/").content.decode()
    api = "Jetons personnels de l\u2019API"
    for words in ("Réglages", "Enregistrer les préférences", api, "Se déconnecter"):
        assert words in settings_page
    profile = client.get("/@/zoe/").content.decode()
    assert "Membre depuis le" in profile and "Aucune partie terminée pour l\u2019instant." in profile
    refused = client.post("/accounts/settings/tokens/", {"name": ""})
    assert refused.status_code == 400 and "Ce champ est obligatoire." in refused.content.decode()
