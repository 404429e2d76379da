"""The study pages (the analysis board, a puzzle) in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "fr",
            [
                "Plateau d\u2019analyse : Quarto",
                "Toutes les actions, la meilleure d\u2019abord",
                "Le chemin jusqu\u2019ici",
            ],
        ),
        ("de", ["Analysebrett: Quarto", "Alle Züge, der beste zuerst", "Der Weg hierher"]),
        (
            "es",
            ["Tablero de análisis: Quarto", "Todas las acciones, la mejor primero", "El camino hasta aquí"],
        ),
    ],
)
def test_the_analysis_board_speaks_the_readers_language(language: str, words: list[str]) -> None:
    catalog.player_of("quarto").warm_up()
    page = text_of(Client(HTTP_ACCEPT_LANGUAGE=language).get("/analysis/quarto/").content.decode())
    for said in words:
        assert said in page
    for english in ("Every action", "The way here", "The site's games", "Open a position"):
        assert english not in page


def test_a_puzzle_speaks_french() -> None:
    catalog.player_of("quarto").warm_up()
    call_command("load_puzzles", verbosity=0)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    page = text_of(client.get(client.get("/puzzles/?game=quarto")["Location"]).content.decode())
    assert "Problème : Quarto" in page and "trouvez le gain forcé" in page
    assert "Connectez-vous pour être classé" in page and "Votre chemin" in page
    for english in ("find the forced win", "Sign in", "Your way", "Puzzle rating"):
        assert english not in page
