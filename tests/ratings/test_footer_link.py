"""The leaderboards are one click from every page: the footer links to them."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "word"), [("en", "Ratings"), ("fr", "Classements")])
def test_the_footer_links_to_the_ratings(language: str, word: str) -> None:
    html = Client().get("/lobby/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    footer = html[html.index('<footer class="site-footer">') : html.index("</footer>")]
    assert f'<a href="/ratings/">{word}</a>' in footer
    assert Client().get("/ratings/").status_code == 200
