"""The game emails in each reader's language (the account's own), whatever the language of
the request whose move sent them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.utils import translation

from accounts import notices
from accounts.models import Account
from games.services import actions
from games.services.moves import Actor
from tests.accounts.test_notices import account, game_between, move, sent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _send_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notices, "send", notices.send_now)


def speaking(name: str, language: str) -> Account:
    found = account(name)
    Account.objects.filter(pk=found.pk).update(language=language)
    found.refresh_from_db()
    return found


def test_a_games_end_is_said_to_each_player_in_their_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    commit = django_capture_on_commit_callbacks
    alice, bob = speaking("alice", "fr"), speaking("bob", "")
    game = game_between(alice, bob, {"initial": 180, "increment": 2}, commit)
    with translation.override("de"), commit(execute=True):  # the resigning request's language
        actions.resign(game.pk, Actor(player_id=bob.player_id), None)
    title = f"Tic-tac-toe #{game.pk}"
    assert sorted(sent()) == [
        (["alice@example.com"], f"{title}\u00a0: vous avez gagné (abandon)"),
        (["bob@example.com"], f"{title}: you lost (resignation)"),
    ]
    french = next(m.body for m in mail.outbox if m.to == ["alice@example.com"])
    assert f"{title} contre bob est terminée\u00a0: vous avez gagné (abandon)." in french
    assert "Vous pouvez arrêter ces e-mails dans vos réglages" in french


def test_a_turn_is_said_in_spanish(django_capture_on_commit_callbacks: Any, fake_clock: Any) -> None:
    commit = django_capture_on_commit_callbacks
    alice, bob = speaking("alice", "es"), speaking("bob", "de")
    game = game_between(alice, bob, {"days": 3}, commit)
    assert sent() == [(["alice@example.com"], f"Te toca: Tic-tac-toe #{game.pk}")]
    assert f"Te toca jugar en Tic-tac-toe #{game.pk} contra bob." in mail.outbox[0].body
    move(game, alice, "b2", commit)
    assert sent()[1] == (["bob@example.com"], f"Sie sind am Zug: Tic-tac-toe #{game.pk}")
