"""Game emails: "your turn" in a correspondence game, and the end of a timed game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import notices
from accounts import services as accounts
from accounts.models import Account
from games import events
from games.events import GameEvent
from games.models import Game
from games.services import actions, timeouts
from games.services import moves as services
from games.services.moves import Actor, play_move
from quarto_site.config import site_url

pytestmark = pytest.mark.django_db
User = get_user_model()
Commit = Callable[..., Any]


@pytest.fixture(autouse=True)
def _send_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notices, "send", notices.send_now)


def account(name: str) -> Account:
    user = User.objects.create_user(name, email=f"{name}@example.com", password="a-long-pass-phrase")
    found = accounts.account_of(user)
    assert found is not None
    return found


@pytest.fixture
def alice() -> Account:
    return account("alice")


@pytest.fixture
def bob() -> Account:
    return account("bob")


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Commit) -> Iterator[None]:
    """Deliver the events published meanwhile, as a commit does."""
    with django_capture_on_commit_callbacks(execute=True):
        yield


def game_between(first: Account, second: Account, clock: dict[str, Any] | None, commit: Commit) -> Game:
    with commit(execute=True):
        game = services.create_game(
            "tictactoe", {}, opponent="human", seat="first", player_id=first.player_id, clock=clock
        ).game
        services.join_game(game.pk, invite=game.invite_code, player_id=second.player_id)
    return Game.objects.get(pk=game.pk)


def move(game: Game, who: Account, text: str, commit: Commit) -> None:
    game.refresh_from_db()
    with commit(execute=True):
        play_move(game.pk, Actor(player_id=who.player_id), text, game.ply)


def sent() -> list[tuple[list[str], str]]:
    return [(m.to, str(m.subject)) for m in mail.outbox]


def test_the_emails_are_subscribed_to_games_events() -> None:
    assert notices.on_game_event in events.subscribers()


def test_each_correspondence_turn_emails_the_player_to_move_once(
    alice: Account, bob: Account, fake_clock: Any, django_capture_on_commit_callbacks: Commit
) -> None:
    commit = django_capture_on_commit_callbacks
    game = game_between(alice, bob, {"days": 3}, commit)
    title = f"Tic-tac-toe #{game.pk}"
    assert sent() == [(["alice@example.com"], f"Your turn: {title}")], "the game began: alice's turn"
    body = mail.outbox[0].body
    assert f"It is your move in {title} against bob." in body
    assert "You have 3d 0h left (3 days per move)." in body
    assert f"http://localhost:8000/games/{game.pk}/" in body
    assert "http://localhost:8000/accounts/settings/" in body
    fake_clock.advance(3600)
    move(game, alice, "b2", commit)
    assert sent()[1:] == [(["bob@example.com"], f"Your turn: {title}")]
    events.deliver(GameEvent(game.pk, 1, "moved"))
    events.deliver(GameEvent(game.pk, 0, "joined"))
    assert len(mail.outbox) == 2, "an event delivered again sends nothing more"
    move(game, bob, "a1", commit)
    assert [m.to for m in mail.outbox] == [["alice@example.com"], ["bob@example.com"], ["alice@example.com"]]


def test_a_timed_game_that_ends_emails_everyone_in_it_once(
    alice: Account, bob: Account, django_capture_on_commit_callbacks: Commit
) -> None:
    commit = django_capture_on_commit_callbacks
    game = game_between(alice, bob, {"initial": 180, "increment": 2}, commit)
    assert sent() == [], "no turn emails in a real-time game"
    with commit(execute=True):
        actions.resign(game.pk, Actor(player_id=bob.player_id), None)
    title = f"Tic-tac-toe #{game.pk}"
    assert sorted(sent()) == [
        (["alice@example.com"], f"{title}: you won (resignation)"),
        (["bob@example.com"], f"{title}: you lost (resignation)"),
    ]
    assert f"http://localhost:8000/games/{game.pk}/replay" in mail.outbox[0].body
    events.deliver(GameEvent(game.pk, 0, "ended"))
    assert len(mail.outbox) == 2


def test_a_flag_by_the_sweep_is_emailed(
    alice: Account, bob: Account, fake_clock: Any, django_capture_on_commit_callbacks: Commit
) -> None:
    commit = django_capture_on_commit_callbacks
    game = game_between(alice, bob, {"days": 1}, commit)
    move(game, alice, "b2", commit)
    move(game, bob, "a1", commit)
    mail.outbox.clear()
    fake_clock.advance(86_401)
    with commit(execute=True):
        assert timeouts.sweep() == [game.pk]
    title = f"Tic-tac-toe #{game.pk}"
    assert sorted(sent()) == [
        (["alice@example.com"], f"{title}: you lost (time ran out)"),
        (["bob@example.com"], f"{title}: you won (time ran out)"),
    ]


def test_no_email_for_untimed_games_bots_closed_accounts_or_those_who_said_no(
    alice: Account, bob: Account, django_capture_on_commit_callbacks: Commit
) -> None:
    commit = django_capture_on_commit_callbacks
    untimed = game_between(alice, bob, None, commit)
    with commit(execute=True):
        actions.resign(untimed.pk, Actor(player_id=bob.player_id), None)
    assert sent() == []
    alice.email_turns = False
    alice.save()
    bob.bot = True
    bob.save()
    game = game_between(alice, bob, {"days": 2}, commit)
    move(game, alice, "b2", commit)
    with commit(execute=True):
        actions.resign(game.pk, Actor(player_id=bob.player_id), None)
    assert sent() == []
    carol, dave = account("carol"), account("dave")
    game = game_between(carol, dave, {"days": 2}, commit)
    assert len(mail.outbox) == 1
    accounts.close_account(carol)
    with commit(execute=True):
        actions.resign(game.pk, Actor(player_id=dave.player_id), None)
    assert sent()[1:] == [(["dave@example.com"], f"Tic-tac-toe #{game.pk}: you lost (resignation)")]


def test_a_failing_mail_server_never_breaks_the_move(
    alice: Account,
    bob: Account,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Commit,
) -> None:
    class Down:
        def send_messages(self, messages: Any) -> int:
            raise OSError("connection refused")

    monkeypatch.setattr(notices, "get_connection", Down)
    commit = django_capture_on_commit_callbacks
    game = game_between(alice, bob, {"days": 3}, commit)
    move(game, alice, "b2", commit)
    assert Game.objects.get(pk=game.pk).ply == 1
    assert "could not send 1 game email(s)" in caplog.text and "connection refused" in caplog.text


def test_the_settings_page_turns_the_emails_off(client: Client, alice: Account) -> None:
    client.force_login(alice.user)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="email_turns"' in page and "Email me when it is my turn" in page
    answer = client.post("/accounts/settings/", {"show_coordinates": "on"})
    assert answer.status_code == 303
    alice.refresh_from_db()
    assert alice.email_turns is False
    client.post("/accounts/settings/", {"email_turns": "on"})
    alice.refresh_from_db()
    assert alice.email_turns is True


def test_against_the_computer_each_reply_starts_a_turn_but_creating_the_game_does_not(
    alice: Account, django_capture_on_commit_callbacks: Commit
) -> None:
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        game = services.create_game(
            "tictactoe", {}, opponent="ai", seat="first", player_id=alice.player_id, clock={"days": 1}
        ).game
    assert sent() == [], "its creator is on its page"
    move(game, alice, "b2", commit)
    assert Game.objects.get(pk=game.pk).ply == 2, "the computer replied"
    assert sent() == [(["alice@example.com"], f"Your turn: Tic-tac-toe #{game.pk}")]
    assert "against computer (" in mail.outbox[0].body


def test_an_address_added_after_sign_up_becomes_primary_and_gets_the_turn_emails(
    client: Client, bob: Account, fake_clock: Any, django_capture_on_commit_callbacks: Commit
) -> None:
    user = User.objects.create_user("carol", password="a-long-pass-phrase")
    carol = accounts.account_of(user)
    assert carol is not None
    client.force_login(user)
    answer = client.post("/accounts/email/", {"action_add": "", "email": "carol@example.com"})
    assert answer.status_code in (200, 302)
    address = EmailAddress.objects.get(user=user)
    assert address.primary and User.objects.get(pk=user.pk).email == "carol@example.com"
    game_between(carol, bob, {"days": 3}, django_capture_on_commit_callbacks)
    assert [m.to for m in mail.outbox if "Your turn" in str(m.subject)] == [["carol@example.com"]]


def test_a_verified_address_that_is_not_primary_still_gets_them(
    bob: Account, fake_clock: Any, django_capture_on_commit_callbacks: Commit
) -> None:
    user = User.objects.create_user("dave", password="a-long-pass-phrase")
    dave = accounts.account_of(user)
    assert dave is not None
    EmailAddress.objects.create(user=user, email="dave@example.com", verified=True, primary=False)
    assert notices.address_of(dave) == "dave@example.com"
    game_between(dave, bob, {"days": 3}, django_capture_on_commit_callbacks)
    assert sent() == [(["dave@example.com"], f"Your turn: Tic-tac-toe #{Game.objects.get().pk}")]


def test_the_links_use_the_site_s_address(
    alice: Account, bob: Account, settings: Any, django_capture_on_commit_callbacks: Commit
) -> None:
    settings.SITE_URL = "https://quarto.example.org"
    game = game_between(alice, bob, {"initial": 180, "increment": 2}, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        actions.resign(game.pk, Actor(player_id=bob.player_id), None)
    assert all(f"https://quarto.example.org/games/{game.pk}/replay" in m.body for m in mail.outbox)
    assert not any("localhost" in m.body for m in mail.outbox)


def test_the_site_s_address_comes_from_the_setting_or_the_allowed_hosts() -> None:
    assert site_url("https://play.example.net/", ["x.example.org"], True) == "https://play.example.net"
    assert site_url("", ["localhost", "quarto.example.org"], True) == "https://quarto.example.org"
    assert site_url("", [".example.org", "*", "q.example.org"], False) == "http://q.example.org"
    assert site_url("", ["localhost", "127.0.0.1"], False) == "http://localhost:8000"


def test_a_move_in_a_game_without_a_clock_costs_the_emails_no_read(
    alice: Account, bob: Account, django_capture_on_commit_callbacks: Commit
) -> None:
    """A move's event says whether the game's clock runs: without one there is nothing to
    send, and the emails' subscriber reads nothing."""
    delivered: list[GameEvent] = []
    events.subscribe(delivered.append)
    try:
        free = game_between(alice, bob, None, django_capture_on_commit_callbacks)
        move(free, alice, "a1", django_capture_on_commit_callbacks)
        unclocked = delivered[-1]
        daily = game_between(alice, bob, {"days": 1}, django_capture_on_commit_callbacks)
        move(daily, alice, "a1", django_capture_on_commit_callbacks)
    finally:
        events.unsubscribe(delivered.append)
    assert (unclocked.kind, unclocked.clock_runs) == ("moved", False)
    assert (delivered[-1].kind, delivered[-1].clock_runs) == ("moved", True)
    with CaptureQueriesContext(connection) as reads:
        notices.on_game_event(unclocked)
    assert reads.captured_queries == []
    title = f"Tic-tac-toe #{daily.pk}"
    assert sent() == [([alice.user.email], f"Your turn: {title}"), ([bob.user.email], f"Your turn: {title}")]
