"""The scripts' sentences: each language's catalog at its own address (/jsi18n/<code>/),
linked before the scripts by the pages that run them, in the page's language."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def script_sources(html: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', html)


def test_a_french_page_links_the_french_catalog_before_its_scripts() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    sources = script_sources(client.get("/lobby/").content.decode())
    assert "/jsi18n/fr/" in sources
    lobby = next(i for i, src in enumerate(sources) if "js/lobby" in src)
    assert sources.index("/jsi18n/fr/") < lobby
    catalog = client.get("/jsi18n/fr/")
    assert catalog.status_code == 200 and "javascript" in catalog["Content-Type"]
    body = catalog.content.decode()
    assert '"Copied": "Copi\\u00e9"' in body or '"Copied": "Copié"' in body
    assert "ngettext" in body and "interpolate" in body


def test_the_address_says_the_language_whatever_the_request_says() -> None:
    """One address, one answer: a cache may keep it for everyone."""
    answer = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/jsi18n/de/")
    assert '"Kopiert"' in answer.content.decode()
    assert "public" in answer["Cache-Control"] and "max-age=3600" in answer["Cache-Control"]
    spanish = " ".join(Client().get("/jsi18n/es/").content.decode().split())
    # Spanish has three plural forms in this site's catalogs; the catalog brings them all,
    # and only the site's own words (not the admin's calendar).
    assert '"%s second": [ "%s segundo", "%s segundos", "%s segundos" ]' in spanish
    assert "selected" not in spanish


@pytest.mark.parametrize("bad", ["xx", "FR", "fr-fr", "en;", "9" * 200])
def test_an_unknown_language_is_a_404(bad: str) -> None:
    assert Client().get(f"/jsi18n/{bad}/").status_code == 404


def test_an_english_page_links_the_english_catalog_and_a_page_without_scripts_none() -> None:
    client = Client()
    assert "/jsi18n/en/" in script_sources(client.get("/").content.decode())
    assert not any("jsi18n" in src for src in script_sources(client.get("/accounts/login/").content.decode()))
