"""The JSON API's refusals: the code stays English for programs, the sentence follows the
request's Accept-Language, on the lean path (quarto_site/lean.py) as on the full chain."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as accounts
from quarto_site.asgi import application
from tests.api.api_helpers import move, post, two_players

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_refused_move_is_said_in_french_with_the_code_in_english() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    game_id, _first, second = two_players(client)
    answer = move(client, game_id, "3", 0, second)
    assert answer.status_code == 403
    assert answer.json() == {"error": "not_your_turn", "detail": "Ce n\u2019est pas votre tour."}
    stale = move(client, game_id, "3", 5, second).json()
    assert stale["error"] == "stale" and stale["detail"].startswith("La partie a avancé (demi-coup 0,")
    english = move(Client(), game_id, "3", 0, second).json()
    assert english == {"error": "not_your_turn", "detail": "It is not your turn."}


def test_a_chat_refusal_and_a_join_refusal_in_spanish() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    game_id, first, _second = two_players(client)
    empty = post(client, f"/api/v1/games/{game_id}/chat", {"text": "   "}, first)
    assert empty.status_code == 400
    assert empty.json() == {"error": "empty", "detail": "Di algo: el mensaje está vacío."}
    refused = post(client, f"/api/v1/games/{game_id}/join", {"invite": "nope"}).json()
    assert refused["detail"] == "Para unirte hace falta el código de invitación de esta partida."


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("fr", "Aucun point d\u2019accès à /api/v1/nothing\u00a0; voir /api/v1/docs."),
        ("de", "Unter /api/v1/nothing gibt es keinen Endpunkt; siehe /api/v1/docs."),
        ("es", "No hay ningún punto de acceso en /api/v1/nothing; consulta /api/v1/docs."),
        ("ja", "No endpoint at /api/v1/nothing; see /api/v1/docs."),
    ],
)
async def test_the_lean_path_speaks_the_clients_language(language: str, detail: str) -> None:
    headers = [(b"host", b"testserver"), (b"accept-language", language.encode())]
    communicator = HttpCommunicator(application, "GET", "/api/v1/nothing", headers=headers)
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 404
    assert json.loads(response["body"]) == {"error": "not_found", "detail": detail}
    sent = dict(response["headers"])
    assert b"Accept-Language" in sent[b"Vary"]
    # The lean path has no session: its answers set no cookie, the language one included.
    assert b"Set-Cookie" not in sent


async def test_the_next_lean_request_is_not_left_in_the_previous_ones_language() -> None:
    for language, word in [(b"fr", "Envoyez"), (b"", "Send")]:
        headers = [
            (b"host", b"testserver"),
            (b"accept-language", language),
            (b"content-type", b"application/json"),
        ]
        post = HttpCommunicator(application, "POST", "/api/v1/games/1/moves", body=b"{}", headers=headers)
        response = await post.get_response(timeout=10)
        assert response["status"] == 401
        assert json.loads(response["body"])["detail"].startswith(word)


def german_bot() -> str:
    """A personal token whose account reads German."""
    account = accounts.account_of(User.objects.create_user("hans", password="a-long-pass-phrase"))
    assert account is not None
    account.language = "de"
    account.save(update_fields=["language"])
    return accounts.create_token(account, "bot")


GERMAN_EMPTY = "Sagen Sie etwas: Die Nachricht ist leer."


def test_a_personal_tokens_account_language_comes_before_accept_language() -> None:
    token = german_bot()
    body = {"game": "tictactoe", "opponent": "human", "seat": "first"}
    created = post(Client(), "/api/v1/games", body, token)
    assert created.status_code == 201
    chat = f"/api/v1/games/{created.json()['id']}/chat"
    for client in (Client(), Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")):
        answer = post(client, chat, {"text": " "}, token)
        assert answer.json() == {"error": "empty", "detail": GERMAN_EMPTY}
    # Another client's token, or none, is back to Accept-Language.
    seat = post(Client(), "/api/v1/games", body).json()
    french = post(
        Client(HTTP_ACCEPT_LANGUAGE="fr"), f"/api/v1/games/{seat['id']}/chat", {"text": " "}, seat["token"]
    )
    assert french.json()["detail"] == "Dites quelque chose\u00a0: le message est vide."


async def test_the_lean_path_reads_a_personal_tokens_account_language() -> None:
    token = await database_sync_to_async(german_bot)()
    headers = [
        (b"host", b"testserver"),
        (b"accept-language", b"fr"),
        (b"content-type", b"application/json"),
        (b"authorization", f"Bearer {token}".encode()),
    ]
    body = json.dumps({"game": "tictactoe", "opponent": "human", "seat": "first"}).encode()
    created = await HttpCommunicator(
        application, "POST", "/api/v1/games", body=body, headers=headers
    ).get_response(timeout=10)
    game_id = json.loads(created["body"])["id"]
    empty = json.dumps({"text": " "}).encode()
    chat = HttpCommunicator(application, "POST", f"/api/v1/games/{game_id}/chat", body=empty, headers=headers)
    response = await chat.get_response(timeout=10)
    assert json.loads(response["body"]) == {"error": "empty", "detail": GERMAN_EMPTY}
