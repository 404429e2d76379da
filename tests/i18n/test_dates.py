"""Dates on pages in the reader's locale (Django's named formats), not a fixed English pattern."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client

from tests.tournaments.helpers import tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CHRISTMAS_EVE = datetime(2030, 12, 24, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("fr", "24/12/2030 18:30"),
        ("de", "24.12.2030 18:30"),
        ("es", "24/12/2030 18:30"),
        ("en", "12/24/2030 6:30 p.m."),
    ],
)
def test_the_tournament_list_says_a_start_in_the_readers_format(language: str, shown: str) -> None:
    made = tournament(name="Eve", starts_in=600)
    Tournament.objects.filter(pk=made.pk).update(starts_at=CHRISTMAS_EVE)
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/tournaments/").content.decode()
    assert f'datetime="2030-12-24T18:30:00+00:00">{shown}</time>' in page


def test_the_waiting_page_is_french_for_a_french_reader() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.post("/lobby/pairing", {"game": "tictactoe", "clock": "3+2"})
    page = client.get("/lobby/wait").content.decode()
    assert "En attente d\u2019un adversaire" in page and "Waiting for" not in page
    assert "Retour au salon" in page
