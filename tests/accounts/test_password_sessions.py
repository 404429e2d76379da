"""A password changed or reset in browser V ends browser T's hold on the account at every
door: the page and its form posts, the socket (one already open loses the seat at once),
the lobby; V, which changed it, plays on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.services import account_of
from games.models import Game, Move
from games.services import players
from tests.web.helpers import next_board, open_seat_socket

pytestmark = pytest.mark.django_db(transaction=True)
OLD, NEW = "a-long-pass-phrase", "another-long-phrase"


def two_browsers() -> tuple[Client, Client, Game]:
    """T and V logged in as v; a game v started in V against a friend who joined; T knows it."""
    User.objects.create_user("v", email="v@example.com", password=OLD)
    t, v = Client(), Client()
    for browser in (t, v):
        assert browser.login(username="v", password=OLD)
    v.post("/games/new", {"kind": "quarto", "opponent": "human", "seat": "first"})
    game = Game.objects.get()
    friend = Client()
    friend.get(f"/join/{game.invite_code}")
    friend.post(f"/join/{game.invite_code}")
    assert Game.objects.get().status == Game.Status.PLAYING
    assert "Player 1: you" in t.get(game.get_absolute_url()).content.decode()
    return t, v, game


def change_password(v: Client) -> None:
    answer = v.post("/accounts/password/change/", {"oldpassword": OLD, "password1": NEW, "password2": NEW})
    assert answer.status_code == 302, answer.content.decode()[:500]


def moved(browser: Client, game: Game, text: str) -> bool:
    before = Move.objects.filter(game=game).count()
    browser.post(f"/games/{game.pk}/move", {"move": text, "ply": str(Game.objects.get(pk=game.pk).ply)})
    return Move.objects.filter(game=game).count() == before + 1


def test_a_password_change_ends_the_other_browsers_form_posts_and_pages() -> None:
    t, v, game = two_browsers()
    change_password(v)
    assert not moved(t, game, "15"), "T's form post plays no more"
    assert players.player_id(t.session) is None
    assert "Player 1: you" not in t.get(game.get_absolute_url()).content.decode()
    assert moved(v, game, "15"), "V, which changed it, plays on"
    assert "Player 1: you" in v.get(game.get_absolute_url()).content.decode()


def test_a_session_check_before_any_page_loads() -> None:
    """T loads no page (so Django never flushes its session): the session check alone refuses it."""
    t, _, _ = two_browsers()
    user = User.objects.get(username="v")
    user.set_password(NEW)  # any door (the admin, a command): the hash no longer matches
    user.save()
    account = account_of(user)
    assert account is not None
    session = t.session
    assert session.get(players.SESSION_FIELD) == account.player_id
    assert players.player_id(session) is None and players.identify(session) is None


def test_a_socket_open_in_the_other_browser_loses_the_seat_at_once(no_ai_reply: Any) -> None:
    t, v, game = two_browsers()
    cookie = t.cookies[settings.SESSION_COOKIE_NAME].value

    async def across_the_change() -> tuple[str, str, str]:
        comm, before = await open_seat_socket(game.pk, cookie)
        assert "Player 1: you" in before
        await sync_to_async(change_password)(v)
        after = await next_board(comm)
        await comm.send_to(text_data='{"move": "15", "ply": 0}')
        refusal = await comm.receive_from(timeout=5)
        await comm.disconnect()
        again, reopened = await open_seat_socket(game.pk, cookie)
        await again.disconnect()
        return after, refusal, reopened

    after, refusal, reopened = async_to_sync(across_the_change)()
    assert "Player 1: you" not in after and "Player 1: v" in after
    assert refusal and Move.objects.filter(game=game).count() == 0, "the socket's move is refused"
    assert "Player 1: you" not in reopened


def test_a_password_reset_by_mail_ends_every_logged_in_browser() -> None:
    t, v, game = two_browsers()
    mail.outbox.clear()
    stranger = Client()
    stranger.post("/accounts/password/reset/", {"email": "v@example.com"})
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", str(mail.outbox[0].body))
    assert link is not None
    form = stranger.get(link.group(1), follow=True)
    answer = stranger.post(form.redirect_chain[-1][0], {"password1": NEW, "password2": NEW})
    assert answer.status_code == 302
    assert not moved(t, game, "15") and not moved(v, game, "15")
    fresh = Client()
    assert fresh.login(username="v", password=NEW)
    assert moved(fresh, game, "15")
