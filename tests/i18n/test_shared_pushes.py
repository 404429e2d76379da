"""The lobby's and a tournament's pushes in the reader's language: each change is rendered
once per language their sockets read, and each socket gets its own (games/presenting/spoken.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from lobby import live as lobby_live
from lobby import presenting as lobby_presenting
from lobby import services as lobby
from quarto_site.asgi import application
from tests.lobby.helpers import browser
from tests.tournaments.helpers import tournament, user
from tournaments import live as tournament_live
from tournaments import presenting as tournament_presenting
from tournaments import services as tournaments
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _pushes_done() -> Iterator[None]:
    """The pushes a test scheduled run before its database goes away."""
    yield
    lobby_live.flush()
    tournament_live.flush()


def socket(path: str, language: str) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"accept-language", f"{language},en;q=0.5".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


def counted(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> Counter[str]:
    """How many renderings ``module.name`` made, per active language."""
    calls: Counter[str] = Counter()
    real: Callable[..., str] = getattr(module, name)

    def counting(*args: object) -> str:
        calls[translation.get_language() or ""] += 1
        return real(*args)

    monkeypatch.setattr(module, name, counting)
    return calls


async def until(page: WebsocketCommunicator, wanted: str) -> str:
    """The first frame that holds ``wanted`` (a push may show a state on the way)."""
    seen = []
    for _ in range(10):
        html: str = await page.receive_from(timeout=10)
        if wanted in html:
            return html
        seen.append(html[:120])
    raise AssertionError(f"no frame with {wanted!r}: {seen}")


async def test_the_lobby_speaks_each_sockets_language(monkeypatch: pytest.MonkeyPatch) -> None:
    english, french, german = (socket("/ws/lobby/", code) for code in ("en", "fr", "de"))
    french_home = socket("/ws/lobby/?part=pools", "fr")
    first = {}
    for name, page in (("en", english), ("fr", french), ("de", german), ("fr-home", french_home)):
        assert (await page.connect(timeout=5))[0]
        first[name] = await page.receive_from(timeout=5)
    assert "No open games right now" in first["en"]
    assert "Aucune partie ouverte" in first["fr"] and "No open games" not in first["fr"]
    assert "Gerade keine offenen Partien" in first["de"]
    assert "(0 en attente)" in first["fr-home"] and "waiting" not in first["fr-home"]
    assert "(0 waiting)" in first["en"]
    renders = counted(monkeypatch, lobby_presenting, "render_live")
    made = await database_sync_to_async(lobby.create_seek)(browser(), "tictactoe")
    pushed = {lang: await until(page, f'data-seek="{made.seek.pk}"') for lang, page in
              (("en", english), ("fr", french), ("de", german))}  # fmt: skip
    assert "Anonymous" in pushed["en"] and "Accept" in pushed["en"]
    assert "Anonyme" in pushed["fr"] and ">Accepter<" in pushed["fr"] and "Anonymous" not in pushed["fr"]
    assert "Anonym" in pushed["de"] and "Anonymous" not in pushed["de"]
    assert set(renders) == {"en", "fr", "de"} and len(set(renders.values())) == 1, "as often in each"
    for page in (english, french, german, french_home):
        await page.disconnect()


async def test_a_tournaments_standings_speak_each_sockets_language(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.TOURNAMENT_TICK = 0  # no timer: only the join changes the page
    made = await database_sync_to_async(tournament)(rated=False)
    path = f"/ws/tournaments/{made.pk}/"
    english, french, spanish = (socket(path, code) for code in ("en", "fr", "es"))
    for page in (english, french, spanish):
        assert (await page.connect(timeout=5))[0]
    assert "Nobody has joined yet" in await english.receive_from(timeout=5)
    assert "Personne n\u2019a encore rejoint" in await french.receive_from(timeout=5)
    assert "Nobody" not in await spanish.receive_from(timeout=5)
    renders = counted(monkeypatch, tournament_presenting, "render_live")
    ann = await database_sync_to_async(user)("ann")
    await database_sync_to_async(tournaments.join)(made.pk, ann)
    pushed = {code: await until(page, 'data-player="ann"') for code, page in
              (("en", english), ("fr", french), ("es", spanish))}  # fmt: skip
    assert ">Standings<" in pushed["en"] and ">Score<" in pushed["en"]
    assert ">Classement du tournoi<" in pushed["fr"] and ">Standings<" not in pushed["fr"]
    assert ">Clasificación<" in pushed["es"] and ">Standings<" not in pushed["es"]
    assert set(renders) == {"en", "fr", "es"} and len(set(renders.values())) == 1, "as often in each"
    for page in (english, french, spanish):
        await page.disconnect()


@pytest.mark.parametrize(
    ("language", "score", "buchholz", "sonneborn"),
    [("en", "2.5", "3.5", "1.75"), ("fr", "2,5", "3,5", "1,75"), ("de", "2,5", "3,5", "1,75")],
)
def test_swiss_scores_are_written_as_the_reader_writes_numbers(
    language: str, score: str, buchholz: str, sonneborn: str
) -> None:
    made = tournament("swiss", rated=False)
    ann = user("ann")
    tournaments.join(made.pk, ann)
    Entry.objects.filter(tournament=made, user=ann).update(score=5, buchholz=7, sonneborn=7, sheet="2 1 2 B")
    with translation.override(language):
        html = tournament_presenting.render_live(made.pk)
    row = html[html.index('data-player="ann"') :]
    row = " ".join(row[: row.index("</tr>")].split())
    assert 'data-score="2.5"' in row, "the data stays for programs"
    assert f">{score}</td> <td>{buchholz}</td><td>{sonneborn}</td>" in row
    assert ">1 ½ 1 B<" in row, "a Swiss sheet in points: a win, a draw, a win, a bye"
