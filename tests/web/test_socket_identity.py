"""The page and its socket decide who the viewer is by one function: a session that
ended (logged out) is a spectator on both, however its old cookie is replayed."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import Client

from games.models import Game
from tests.web.helpers import next_board, open_seat_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def socket_html(game_id: int, cookie: str) -> str:
    comm, html = await open_seat_socket(game_id, cookie)
    await comm.disconnect()
    return html


def page_html(game_id: int, cookie: str) -> str:
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = cookie
    return replay.get(f"/games/{game_id}/").content.decode()


def game_waiting_for_a_friend(client: Client) -> tuple[Game, str]:
    """A game ``client`` started against a friend, and its session cookie."""
    client.post("/games/new", {"kind": "quarto", "opponent": "human", "seat": "first"})
    return Game.objects.get(), client.cookies[settings.SESSION_COOKIE_NAME].value


def test_a_logged_out_session_is_a_spectator_on_the_page_and_the_socket(
    client: Client, no_ai_reply: Any
) -> None:
    game, cookie = game_waiting_for_a_friend(client)
    invite = f"/join/{game.invite_code}"
    seat_form = "Player 1: you"
    assert invite in page_html(game.pk, cookie)
    assert seat_form in async_to_sync(socket_html)(game.pk, cookie), "the seat's partials, before"

    client.logout()  # the session is flushed; a copy of its cookie is replayed below

    assert invite not in page_html(game.pk, cookie)
    assert seat_form not in page_html(game.pk, cookie) and "Player 1: person" in page_html(game.pk, cookie)
    after = async_to_sync(socket_html)(game.pk, cookie)
    assert seat_form not in after and invite not in after, "the seat's partials and invite after logout"


def test_a_socket_open_when_its_browser_logs_out_becomes_a_spectators(
    client: Client, no_ai_reply: Any
) -> None:
    game, cookie = game_waiting_for_a_friend(client)
    invite = f"/join/{game.invite_code}"

    async def across_the_logout() -> str:
        comm, before = await open_seat_socket(game.pk, cookie)
        assert "Player 1: you" in before and invite in before
        await sync_to_async(client.logout)()  # the same browser, in another tab
        after = await next_board(comm)
        await comm.disconnect()
        return after

    after = async_to_sync(across_the_logout)()
    assert "Player 1: you" not in after and invite not in after
    assert "Player 1: person" in after


def test_sockets_of_an_account_closed_elsewhere_become_spectators_at_once(no_ai_reply: Any) -> None:
    """Another browser of the account holds a seat's socket; the account is closed from the
    first browser: that socket gets the spectators' view, and so does its next one."""
    from django.contrib.auth.models import User

    from accounts.services import account_of, close_account

    User.objects.create_user("alice", password="a-long-pass-phrase")
    first, other = Client(), Client()
    for browser in (first, other):
        assert browser.login(username="alice", password="a-long-pass-phrase")
    game, _ = game_waiting_for_a_friend(first)
    page_html(game.pk, other.cookies[settings.SESSION_COOKIE_NAME].value)  # known to play as alice
    cookie = other.cookies[settings.SESSION_COOKIE_NAME].value

    async def across_the_closing() -> str:
        comm, before = await open_seat_socket(game.pk, cookie)
        assert "Player 1: you" in before

        def close() -> None:
            account = account_of(User.objects.get(username="alice"))
            assert account is not None
            close_account(account)

        await sync_to_async(close)()
        after = await next_board(comm)
        while "Player 1: you" in after:  # a frame rendered before the closing may come first
            after = await next_board(comm)
        await comm.disconnect()
        return after

    after = async_to_sync(across_the_closing)()
    assert "Player 1: you" not in after and f"/join/{game.invite_code}" not in after
    assert "Player 1: you" not in async_to_sync(socket_html)(game.pk, cookie)
