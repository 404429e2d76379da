"""The terminal player speaks the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""

from __future__ import annotations

import pytest

from games.management.commands.play import terminal_language
from tests.cli.test_play_command import play


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANGUAGE": "ja:de_AT", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LC_ALL": "es_ES.UTF-8@euro", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LC_MESSAGES": "POSIX"}, "en"),
        ({}, "en"),
    ],
    ids=["lang", "c-locale", "language-list", "lc-all-first", "posix", "nothing"],
)
def test_the_language_comes_from_the_locale_variables(environ: dict[str, str], language: str) -> None:
    assert terminal_language(environ) == language


@pytest.mark.django_db(transaction=True)
def test_a_game_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    out = play(["help", "zz", "quit"], "tictactoe", "--seat", "first", "--level", "beginner")
    assert "vous contre l\u2019ordinateur (beginner), vous commencez. Tapez help ou quit." in out
    assert "Permis\u00a0: a1 " in out and "Ou\u00a0: resign (abandonner)" in out
    assert "Réessayez (help liste les actions permises)." in out
    assert "Partie n°\u00a0" in out and "quittée\u00a0; elle est enregistrée, inachevée." in out
    assert "Type help" not in out and "Left game" not in out


@pytest.mark.django_db(transaction=True)
def test_the_end_in_german(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "de_DE")
    out = play(["resign"], "tictactoe", "--seat", "first", "--level", "beginner")
    assert "Sie haben aufgegeben: der Computer gewinnt. Partie #" in out
    assert out.rstrip().endswith("ist gespeichert.")
