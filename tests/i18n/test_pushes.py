"""Pushes in the reader's language: each change is rendered once per audience and language
that has a socket open, and each socket gets its own language."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.presenting import audiences
from games.services.moves import Actor, play_move
from quarto_site.asgi import application
from quarto_site.languages import scope_language
from tests.web.test_audiences import board_frames, count_audiences, session_for, two_humans

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")


def socket(
    game_id: int, language: str, session_key: str | None = None, cookie: bool = False
) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"accept-language", f"{language},en;q=0.5".encode())]
    cookies = [f"sessionid={session_key}"] if session_key else []
    if cookie:  # the footer's switcher (or the account's setting) beats Accept-Language
        headers[1] = (b"accept-language", b"de")
        cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


def test_a_socket_reads_the_cookie_then_accept_language() -> None:
    def scope(*headers: tuple[bytes, bytes], cookies: dict[str, str] | None = None) -> dict[str, object]:
        return {"headers": list(headers), "cookies": cookies or {}}

    assert scope_language(scope((b"accept-language", b"fr-CA,fr;q=0.9"))) == "fr"
    assert scope_language(scope((b"accept-language", b"ja, es;q=0.5"))) == "es"
    assert scope_language(scope((b"accept-language", b"ja"))) == "en"
    assert scope_language(scope((b"accept-language", b"fr"), cookies={"django_language": "de"})) == "de"
    assert scope_language(scope(cookies={"django_language": "klingon"})) == "en"


async def test_an_english_and_a_french_viewer_each_get_their_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    renders = count_audiences(monkeypatch, audiences, "render")
    game = await database_sync_to_async(two_humans)()
    one = await database_sync_to_async(session_for)("p-one")
    seat_fr = socket(game.pk, "fr", one, cookie=True)
    watch_en, watch_fr, watch_fr_too = socket(game.pk, "en"), socket(game.pk, "fr"), socket(game.pk, "fr")
    everyone = [watch_en, watch_fr, watch_fr_too, seat_fr]
    for comm in everyone:
        assert (await comm.connect())[0]
        await board_frames(comm, 1, timeout=20)
    renders.clear()
    await database_sync_to_async(play_move)(game.pk, Actor(player_id="p-one"), "15", 0)
    pushed = {id(comm): (await board_frames(comm, 1, timeout=20))[0] for comm in everyone}
    assert sorted(renders) == ["seat-0.fr", "watch", "watch.fr"], "once per audience and language"
    assert "Remaining pieces" in pushed[id(watch_en)] and "Pièces restantes" not in pushed[id(watch_en)]
    for comm in (seat_fr, watch_fr, watch_fr_too):
        assert "Pièces restantes" in pushed[id(comm)] and "Remaining pieces" not in pushed[id(comm)]
    assert pushed[id(watch_fr)] == pushed[id(watch_fr_too)]
    # Once the English spectator leaves, English is rendered no more.
    await watch_en.disconnect()
    renders.clear()
    await database_sync_to_async(play_move)(game.pk, Actor(player_id="p-two"), "a1", 1)
    for comm in (seat_fr, watch_fr, watch_fr_too):
        await board_frames(comm, 1, timeout=20)
    assert sorted(renders) == ["seat-0.fr", "watch.fr"]
    for comm in (seat_fr, watch_fr, watch_fr_too):
        await comm.disconnect()
