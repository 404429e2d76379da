"""What search engines and page audits read: robots.txt, a description on every page, the
API's docs page with a language and a viewport."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def description(html: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]+)">', html)
    assert found, "no description"
    return found.group(1)


def test_robots_txt_keeps_crawlers_to_the_pages() -> None:
    answer = Client().get("/robots.txt")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    text = answer.content.decode()
    assert "User-agent: *" in text
    for private in ("/api/", "/accounts/", "/admin/"):
        assert f"Disallow: {private}" in text


def test_every_page_has_its_own_description() -> None:
    User.objects.create_user("ann", password="a long secret 123")
    client = Client()
    pages = ["/", "/lobby/", "/games/history", "/ratings/", "/@/ann/"]
    said = {path: description(client.get(path).content.decode()) for path in pages}
    assert len(set(said.values())) == len(pages), said
    assert "ann" in said["/@/ann/"]


def test_a_french_reader_gets_a_french_description() -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/lobby/").content.decode()
    assert description(html).startswith("Rencontrez d\u2019autres joueurs")


def test_the_api_docs_page_has_a_language_a_viewport_and_a_description() -> None:
    html = Client().get("/api/v1/docs").content.decode()
    assert '<html lang="en">' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert description(html)
