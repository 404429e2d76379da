"""What a screen reader hears of the cousins' boards (cells, small boards, cubes, the
players panel and the rules sentence), said in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.test_action_pages import start

pytestmark = pytest.mark.django_db(transaction=True)
NB = "\u00a0"


def french_page(kind: str) -> str:
    client = Client()
    game = start(client, kind)
    return client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()


@pytest.mark.parametrize("kind", ["tictactoe", "connect", "ultimate", "quixo"])
def test_the_board_and_players_panel_in_french(kind: str) -> None:
    html = french_page(kind)
    assert 'aria-label="Plateau"' in html and ">Joueurs</h2>" in html
    assert f"a1{NB}: vide" in html and f"<span>X{NB}: vous</span>" in html
    for english in ('aria-label="Board"', ">Players<", ": empty", ", playable", "push the cube"):
        assert english not in html, english


def test_each_games_own_words_in_french() -> None:
    assert f"4 en ligne gagnent{NB}; les pions tombent dans la case libre la plus basse." in french_page(
        "connect"
    )
    ultimate = french_page("ultimate")
    assert f'aria-label="grille en haut à gauche (a7-c9){NB}: ouverte, jouable"' in ultimate
    assert "Jouez dans une grille en surbrillance" in ultimate
    quixo = french_page("quixo")
    assert f"a1{NB}: vide, prendre ce cube" in quixo
    assert "repousser ici le cube pris en a1" in quixo
