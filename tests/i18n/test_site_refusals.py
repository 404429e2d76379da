"""The refusals of the apps beside games (the lobby, tournaments, puzzles, ratings) in the
reader's language: through the API by Accept-Language, through the forms by the language
cookie. The codes stay English."""

from __future__ import annotations

import pickle

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games import catalog
from games.engine import MoveError
from study import puzzle_rules
from study.models import Puzzle
from tests.api.api_helpers import post

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"


def speaking(language: str) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def with_cookie(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_a_seek_refused_over_the_api_is_said_in_french() -> None:
    seek = {"game": "tictactoe", "rated": True, "clock": {"initial": 180, "increment": 2}}
    refused = post(speaking("fr-FR,fr;q=0.9"), "/api/v1/seeks", seek)
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "rated_needs_account",
        "detail": f"Les parties classées se jouent entre comptes{NBSP}: connectez-vous d\u2019abord.",
    }
    unknown = post(speaking("fr"), "/api/v1/seeks", {"game": "chess"}).json()
    assert unknown["error"] == "unknown_game"
    assert unknown["detail"].startswith(f"Jeu inconnu{NBSP}: 'chess'{NBSP}; jeux connus{NBSP}: quarto")
    english = post(Client(), "/api/v1/seeks", seek).json()
    assert english["detail"] == "Rated games are between accounts: log in first."


def test_an_unknown_leaderboard_over_the_api_in_german() -> None:
    answer = speaking("de").get("/api/v1/leaderboards/chess/blitz")
    assert answer.status_code == 404
    assert answer.json() == {"error": "unknown_game", "detail": "Es gibt kein Spiel 'chess'."}
    speed = speaking("de").get("/api/v1/leaderboards/quarto/slow").json()
    assert speed == {
        "error": "unknown_speed",
        "detail": "speed muss einer dieser Werte sein: bullet, blitz, rapid, classical, correspondence.",
    }


def test_the_seek_form_says_its_refusal_in_the_cookies_language() -> None:
    client = with_cookie("fr")
    base = {"clock": "3+2", "mode": "casual", "seat": "random"}
    page = client.post("/lobby/seeks", {**base, "game": "tictactoe", "rating_min": "lots"})
    assert page.status_code == 400
    assert "Un classement est un nombre entier de 0 à 4000." in page.content.decode()
    # an option's label is said in French inside the sentence
    page = client.post("/lobby/seeks", {**base, "game": "connect", "connect.width": "wide"})
    assert page.status_code == 400
    assert f"Largeur{NBSP}: il faut un nombre entier." in page.content.decode()


def test_a_tournament_refused_to_a_visitor_is_said_in_spanish() -> None:
    client = with_cookie("es")
    form = {"kind": "arena", "game": "quarto", "clock": "3+2", "minutes": "30", "starts_in": "5"}
    page = client.post("/tournaments/new", form, follow=True)
    assert page.status_code == 200
    assert "Los torneos los crean las cuentas: inicia sesión primero." in page.content.decode()


def test_a_bad_puzzle_attempt_is_said_in_french_from_the_solvers_process() -> None:
    catalog.player_of("quarto").warm_up()
    call_command("load_puzzles")
    puzzle = Puzzle.objects.order_by("key").first()
    assert puzzle is not None
    refused = post(speaking("fr"), f"/api/v1/puzzles/{puzzle.key}/attempt", {"moves": ["zz"]})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_notation"
    assert refused.json()["detail"].startswith(f"Action 1 (zz){NBSP}: ")


def test_a_bad_attempt_keeps_its_template_and_words_and_says_them_later() -> None:
    refused = puzzle_rules.BadAttempt(
        "game_over", "Action %(number)d: the puzzle's game is over already.", number=3
    )
    assert refused.template == "Action %(number)d: the puzzle's game is over already."
    assert refused.words == {"number": 3}
    assert refused.message == "Action 3: the puzzle's game is over already."
    with translation.override("fr"):
        assert refused.said(gettext) == f"Action 3{NBSP}: la partie du problème est déjà finie."
    with translation.override("es"):
        assert refused.said(gettext) == "Acción 3: la partida del problema ya ha terminado."
    # it crosses the analysis pool's processes whole
    again = pickle.loads(pickle.dumps(refused))
    assert (again.code, again.template, again.words, again.message) == (
        refused.code,
        refused.template,
        refused.words,
        refused.message,
    )


def test_the_rules_refusal_inside_an_attempt_is_kept_as_a_reason() -> None:
    inner = MoveError("occupied", "b2 is already taken.")
    refused = puzzle_rules.BadAttempt(
        "occupied",
        "Action %(number)d (%(text)s): %(reason)s",
        number=1,
        text="b2",
        reason=puzzle_rules.reason(inner),
    )
    assert refused.message == "Action 1 (b2): b2 is already taken."
    with translation.override("de"):
        assert refused.said(gettext) == "Aktion 1 (b2): b2 is already taken."
    assert pickle.loads(pickle.dumps(refused)).said(str) == refused.message
