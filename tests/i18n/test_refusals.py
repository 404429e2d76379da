"""The rules' refusals in the reader's language: the pure errors keep an English template
and its words, and each door says them with gettext (the API by Accept-Language, a form by
the language cookie, a socket by its own language); the codes stay English."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games.engine import IllegalMove, OptionError
from games.engine.positions import PositionError
from games.formats import records
from games.kinds.quarto import rules as quarto
from games.kinds.ultimate import rules as ultimate
from games.models import Game
from games.services import moves as services
from quarto_site.asgi import application
from study import puzzle_rules
from tests.api.api_helpers import move, post, two_players
from tests.web.test_audiences import session_for

USED = "Piece 3 (short dark square hollow) is already used."


def used_piece() -> IllegalMove:
    state = quarto.RULES.new_state({}).play(quarto.parse_move("3")).play(quarto.parse_move("a1"))
    with pytest.raises(IllegalMove) as refused:
        state.play(quarto.parse_move("3"))
    return refused.value


def test_a_pure_refusal_keeps_its_template_and_words_and_says_them_later() -> None:
    error = used_piece()
    assert error.code == "piece_unavailable" and error.message == USED == str(error)
    assert error.template == "Piece %(piece)s (%(name)s) is already used."
    assert error.words["piece"] == 3
    # The words are said in the same language as the template: the piece's traits too.
    said = {
        "Piece %(piece)s (%(name)s) is already used.": "Pièce %(name)s n° %(piece)s : prise.",
        "dark": "foncée",
    }
    assert error.said(lambda text: said.get(text, text)) == "Pièce short foncée square hollow n° 3 : prise."
    with translation.override("fr"):
        assert error.said(gettext) == "La pièce 3 (basse foncée carrée creuse) est déjà utilisée."
    with translation.override("es"):
        assert error.said(gettext) == "La pieza 3 (baja oscura cuadrada hueca) ya está usada."


def test_a_refusal_inside_another_is_said_in_the_same_language() -> None:
    unreachable = PositionError(
        "unreachable", "No game reaches this position: %(reason)s", reason=used_piece()
    )
    assert unreachable.message == f"No game reaches this position: {USED}"
    with translation.override("de"):
        assert unreachable.said(gettext) == (
            "Keine Partie erreicht diese Stellung: "
            "Figur 3 (niedrige dunkle eckige hohle) ist schon verwendet."
        )
    option = OptionError("n", "%(name)s must be true or false.", name="gravity")
    assert (option.option, option.message) == ("n", "gravity must be true or false.")


def test_an_ultimate_refusal_names_the_boards_in_the_readers_language() -> None:
    state = ultimate.RULES.new_state({}).play(ultimate.parse_move("e5"))
    with pytest.raises(IllegalMove) as refused:
        state.play(ultimate.parse_move("a1"))
    assert refused.value.message == "a1 is not allowed: You must play in the centre board (d4-f6)."
    with translation.override("fr"):
        assert refused.value.said(gettext) == (
            "a1 n\u2019est pas permise\u00a0: vous devez jouer dans la grille centrale (d4-f6)."
        )


def test_a_records_line_and_reason_are_said_together() -> None:
    with pytest.raises(records.RecordError) as refused:
        records.load('[Game "quarto"]\n3 a1 3')
    assert str(refused.value) == f"line 2: 3: {USED}"
    assert (refused.value.where, refused.value.reason) == ("line 2", f"3: {USED}")
    with translation.override("fr"):
        assert refused.value.said(gettext) == (
            "ligne 2\u00a0: 3\u00a0: La pièce 3 (basse foncée carrée creuse) est déjà utilisée."
        )


@pytest.mark.django_db(transaction=True)
def test_the_api_says_an_illegal_move_in_french_and_keeps_the_code() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    game_id, first, second = two_players(client)
    assert move(client, game_id, "3", 0, first).status_code == 200
    assert move(client, game_id, "a1", 1, second).status_code == 200
    refused = move(client, game_id, "3", 2, second)
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "piece_unavailable",
        "detail": "La pièce 3 (basse foncée carrée creuse) est déjà utilisée.",
    }
    english = move(Client(), game_id, "3", 2, second).json()
    assert english == {"error": "piece_unavailable", "detail": USED}


@pytest.mark.django_db(transaction=True)
def test_the_api_says_a_bad_record_and_a_bad_option_in_german() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    refused = post(client, "/api/v1/records", json.dumps('[Game "quarto"]\n3 a1 3'))
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "bad_record",
        "detail": "Zeile 2: 3: Figur 3 (niedrige dunkle eckige hohle) ist schon verwendet.",
    }
    body = {"game": "connect", "opponent": "human", "options": {"width": 3, "height": 3, "n": 7}}
    option = post(client, "/api/v1/games", body)
    assert option.json() == {
        "error": "bad_option",
        "detail": "n muss auf einem 3x3-Brett zwischen 3 und 3 liegen, nicht 7.",
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "n doit aller de 3 à 3 sur un plateau de 3x3, pas 7."),
        ("es", "n debe ir de 3 a 3 en un tablero de 3x3, no 7."),
    ],
)
def test_a_new_game_form_says_the_rules_refusal_in_the_cookies_language(language: str, said: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    form = {"kind": "connect", "opponent": "human", "seat": "first", "width": "3", "height": "3", "n": "7"}
    response = client.post("/games/new", form)
    assert response.status_code == 400 and Game.objects.count() == 0
    assert f'<span id="connect-n-error" class="new-game__error" role="alert">{said}</span>' in (
        response.content.decode()
    )


def tictactoe_between(one: str, two: str) -> Game:
    game = services.create_game("tictactoe", {}, opponent="human", seat="first", player_id=one).game
    services.join_game(game.pk, invite=game.invite_code, player_id=two)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db(transaction=True)
async def test_a_socket_says_the_refusal_in_its_own_language() -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    await database_sync_to_async(services.play_move)(game.pk, services.Actor(player_id="p-one"), "b2", 0)
    session = await database_sync_to_async(session_for)("p-two")
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game.pk}/?format=json",
        headers=[
            (b"origin", b"http://localhost"),
            (b"accept-language", b"fr-FR,fr;q=0.9"),
            (b"cookie", f"sessionid={session}".encode()),
        ],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.receive_from(timeout=5)  # the current position
    await comm.send_to(text_data=json.dumps({"move": "b2", "ply": 1}))
    answer = json.loads(await comm.receive_from(timeout=5))
    assert answer == {"type": "error", "code": "occupied", "message": "La case b2 est déjà prise par X."}
    await comm.disconnect()


def test_the_record_importer_says_a_refusal_in_the_terminals_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    path = tmp_path / "bad.txt"
    path.write_text('[Game "quarto"]\n3 a1 3')
    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(path), stdout=io.StringIO())
    said = "línea 2: 3: La pieza 3 (baja oscura cuadrada hueca) ya está usada."
    assert str(refused.value) == f"{path}: {said}"


@pytest.mark.django_db
def test_the_lobbys_seek_form_says_the_rules_and_the_clocks_refusals_in_french() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    option = client.post("/lobby/seeks", {"game": "connect", "connect.width": "99", "clock": "unlimited"})
    assert option.status_code == 400
    assert "width doit aller de 3 à 12, pas 99." in option.content.decode()
    clock = client.post("/lobby/seeks", {"game": "tictactoe", "clock": "soon"})
    assert clock.status_code == 400
    said = "Écrivez une pendule sous la forme minutes+secondes (3+2), 3d ou unlimited."
    assert said in clock.content.decode()


def test_a_puzzle_attempts_reason_crosses_the_solvers_process_and_is_said_whole() -> None:
    reason = puzzle_rules.reason(used_piece())
    template = "Action %(number)d (%(text)s): %(reason)s"
    attempt = puzzle_rules.BadAttempt("piece_unavailable", template, number=3, text="3", reason=reason)
    refused = pickle.loads(pickle.dumps(attempt))
    assert refused.message == f"Action 3 (3): {USED}"
    with translation.override("fr"):
        assert refused.said(gettext) == (
            "Action 3 (3)\u00a0: La pièce 3 (basse foncée carrée creuse) est déjà utilisée."
        )


@pytest.mark.django_db
def test_the_record_importer_says_its_own_lines_in_the_terminals_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    path = tmp_path / "good.txt"
    path.write_text('[Game "tictactoe"]\n1. b2 a1\n')
    out = io.StringIO()
    call_command("import_record", str(path), stdout=out)
    assert "(2 actions," in out.getvalue() and "Imported" not in out.getvalue()
    assert "Jeton d\u2019API" in out.getvalue()
    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(tmp_path / "missing.txt"), stdout=io.StringIO())
    assert str(refused.value).startswith("Impossible de lire ")
