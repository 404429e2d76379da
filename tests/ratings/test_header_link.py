"""The leaderboards are one click from every page: the header links to them."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "word"), [("en", "Ratings"), ("fr", "Classements")])
def test_the_header_links_to_the_ratings(language: str, word: str) -> None:
    html = Client().get("/lobby/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    header = html[html.index('<header class="site-header">') : html.index("</header>")]
    assert f'<a class="site-header__link" href="/ratings/">{word}</a>' in header
    assert Client().get("/ratings/").status_code == 200
