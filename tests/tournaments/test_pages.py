"""Tournament pages: the list, a tournament with its standings, flame and podium, join and
withdraw without JavaScript, the page that follows a player, the home page's part, and the
socket that pushes one rendering per change to every page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from quarto_site.asgi import application
from tests.tournaments.helpers import entry, tournament, user, win
from tournaments import pairing, presenting, services
from tournaments.models import Entry, Tournament

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def logged_in(client: Client, name: str) -> Any:
    made = user(name)
    client.force_login(made)
    return made


@pytest.mark.django_db
def test_the_list_shows_upcoming_running_and_finished(client: Client) -> None:
    soon = tournament(name="Soon", starts_in=600)
    now = tournament(name="Now")
    over = tournament(name="Over")
    Tournament.objects.filter(pk=over.pk).update(status=Tournament.Status.FINISHED, ends_at=timezone.now())
    pairing.tick()
    page = client.get("/tournaments/").content.decode()
    upcoming, running, finished = page.index("Upcoming"), page.index("Running"), page.index("Finished")
    assert running < page.index(">Now<") < upcoming < page.index(">Soon<") < finished < page.index(">Over<")
    assert soon.pk and now.pk
    home = client.get("/").content.decode()
    assert "/tournaments/" in home and ">Now<" in home


@pytest.mark.django_db
def test_join_and_withdraw_work_without_javascript(client: Client) -> None:
    t = tournament()
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Log in" in page
    ann = logged_in(client, "ann")
    assert f'action="/tournaments/{t.pk}/join"' in client.get(f"/tournaments/{t.pk}/").content.decode()
    answer = client.post(f"/tournaments/{t.pk}/join")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{t.pk}/"
    client.post(f"/tournaments/{t.pk}/join")
    assert Entry.objects.filter(tournament=t, user=ann).count() == 1
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Withdraw" in page and 'data-player="ann"' in page
    client.post(f"/tournaments/{t.pk}/withdraw")
    assert entry(t, ann).withdrawn
    assert "Join again" in client.get(f"/tournaments/{t.pk}/").content.decode()
    assert client.get(f"/tournaments/{t.pk}/join").status_code == 405
    assert client.get("/tournaments/999999/").status_code == 404


@pytest.mark.django_db
def test_the_follow_page_sends_a_player_to_its_game(client: Client) -> None:
    t = tournament(rated=False)
    ann = logged_in(client, "ann")
    services.join(t.pk, ann)
    waiting = client.get(f"/tournaments/{t.pk}/play")
    assert waiting.status_code == 200 and "Waiting for your next game" in waiting.content.decode()
    services.join(t.pk, user("bob"))
    pairing.tick()
    game = entry(t, ann).game_id
    answer = client.get(f"/tournaments/{t.pk}/play")
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game}/"


@pytest.mark.django_db
def test_standings_show_the_flame_and_the_end_a_podium() -> None:
    t = tournament(rated=False)
    ann, bob, cid = user("ann"), user("bob"), user("cid")
    for p in (ann, bob, cid):
        services.join(t.pk, p)
    Entry.objects.filter(tournament=t, user=ann).update(score=4, streak=2)
    html = presenting.render_live(t.pk)
    assert 'hx-swap-oob="outerHTML:#tournament-now"' in html
    row = html[html.index('data-player="ann"') :]
    assert "standings__fire" in row[: row.index("</tr>")]
    assert "podium" not in html
    tournament_row = Tournament.objects.get(pk=t.pk)
    services.finish(tournament_row, timezone.now())
    html = presenting.render_live(t.pk)
    podium = html[html.index('class="podium"') :]
    assert podium.index("ann") < podium.index("</ol>")


async def pushed_until(page: WebsocketCommunicator, wanted: Callable[[str], bool]) -> str:
    """The first push that shows the wanted state (earlier ones may show a state on the way)."""
    seen: list[str] = []
    for _ in range(10):
        html: str = await page.receive_from(timeout=10)
        if wanted(html):
            return html
        seen.append(html[:200])
    raise AssertionError(f"ten pushes without the state: {seen}")


@pytest.mark.backends
@pytest.mark.django_db(transaction=True)
async def test_every_page_gets_the_standings_on_connect_and_after_a_change() -> None:
    t = await database_sync_to_async(tournament)(rated=False)
    pages = [
        WebsocketCommunicator(application, f"/ws/tournaments/{t.pk}/", headers=HEADERS) for _ in range(2)
    ]
    for page in pages:
        connected, _ = await page.connect(timeout=5)
        assert connected
        assert "Nobody has joined yet" in await page.receive_from(timeout=5)
    ann, bob = await database_sync_to_async(user)("ann"), await database_sync_to_async(user)("bob")
    await database_sync_to_async(services.join)(t.pk, ann)
    await database_sync_to_async(services.join)(t.pk, bob)
    for page in pages:  # a push close to the joins may show one of them: wait for the state
        await pushed_until(page, lambda html: 'data-player="ann"' in html and 'data-player="bob"' in html)
    await database_sync_to_async(pairing.pair)(t.pk)
    for page in pages:
        await pushed_until(page, lambda html: "standings__playing" in html)
    game = (await database_sync_to_async(entry)(t, ann)).game_id
    follow = WebsocketCommunicator(application, f"/ws/tournaments/{t.pk}/follow/", headers=HEADERS)
    assert (await follow.connect(timeout=5))[0]
    await database_sync_to_async(win)(game or 0, 0)
    for page in pages:
        await pushed_until(page, lambda html: 'data-score="2"' in html)
    for page in [*pages, follow]:
        await page.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_games_end_pairs_its_players_again_without_waiting_for_the_tick(settings: Any) -> None:
    import asyncio

    from tournaments import live
    from tournaments.models import Pairing

    settings.TOURNAMENT_TICK = 3600  # the timer would not come in this test's time
    live.bind(asyncio.get_running_loop())
    try:
        t = await database_sync_to_async(tournament)(rated=False)
        for name in ("ann", "bob", "cid", "dan"):
            await database_sync_to_async(services.join)(t.pk, await database_sync_to_async(user)(name))
        assert await database_sync_to_async(pairing.pair)(t.pk) == 2
        first_games = await database_sync_to_async(
            lambda: list(Pairing.objects.filter(tournament=t).values_list("game_id", flat=True))
        )()
        for game in first_games:
            await database_sync_to_async(win)(game or 0, 0)
        count = database_sync_to_async(lambda: Pairing.objects.filter(tournament=t).count())
        for _ in range(100):  # wait for the state, up to 10 s
            if await count() == 4:
                break
            await asyncio.sleep(0.1)
        assert await count() == 4
    finally:
        live._bound = None


@pytest.mark.django_db
def test_a_tournament_games_page_names_it_and_leads_its_players_on(client: Client) -> None:
    t = tournament(rated=False, name="Evening Arena")
    ann = logged_in(client, "ann")
    services.join(t.pk, ann)
    services.join(t.pk, user("bob"))
    pairing.tick()
    game = entry(t, ann).game_id
    page = client.get(f"/games/{game}/").content.decode()
    assert "Evening Arena" in page
    assert f'data-follow-socket="/ws/tournaments/{t.pk}/follow/?after={game}"' in page
    spectator = Client().get(f"/games/{game}/").content.decode()
    assert "Evening Arena" in spectator and "data-follow-socket" not in spectator


@pytest.mark.django_db
def test_the_follow_socket_looks_past_the_game_a_page_shows() -> None:
    from tournaments.live import game_of, next_game

    t = tournament(rated=False)
    ann = user("ann")
    services.join(t.pk, ann)
    services.join(t.pk, user("bob"))
    pairing.tick()
    mine = entry(t, ann)
    assert next_game(t.pk, mine.player_id, None) == f"/games/{mine.game_id}/"
    assert next_game(t.pk, mine.player_id, mine.game_id) is None
    assert (
        game_of(b"after=12") == 12
        and game_of(b"after=\xc2\xb2") is None
        and game_of(b"after=" + b"9" * 40) is None
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"clock": {"days": 3}}, "clock"),
        ({"clock": {"initial": 1e400}}, "clock"),
        ({"minutes": ""}, "minutes"),
    ],
)
def test_the_admin_refuses_what_the_api_refuses(fields: dict[str, Any], field: str) -> None:
    import json

    from tournaments.admin import TournamentForm

    data = {
        "name": "Staff Arena",
        "kind": "arena",
        "game": "tictactoe",
        "options": "{}",
        "clock": json.dumps({"initial": 180, "increment": 2}),
        "minutes": "30",
        "round": "0",
        "starts_at": "2030-01-01 12:00:00",
        "status": "10",
    }
    good = TournamentForm(data=data)
    assert good.is_valid(), good.errors
    bad = {**data, **{k: json.dumps(v) if isinstance(v, dict) else v for k, v in fields.items()}}
    form = TournamentForm(data=bad)
    assert not form.is_valid() and field in form.errors


@pytest.mark.django_db
def test_staff_make_a_tournament_in_the_admin(client: Client) -> None:
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("root"))
    assert client.get("/admin/tournaments/tournament/add/").status_code == 200
    form = {"name": "Staff Arena", "kind": "arena", "game": "quarto", "options": "{}", "minutes": "27"}
    form |= {"clock": '{"initial": 180, "increment": 2}', "status": "10"}
    form |= {"starts_at_0": "2030-01-01", "starts_at_1": "12:00:00"}
    form |= {"entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"}
    answer = client.post("/admin/tournaments/tournament/add/", form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    made = Tournament.objects.get(name="Staff Arena")
    assert made.created_by is not None and made.created_by.username == "root" and made.minutes == 27


@pytest.mark.django_db(transaction=True)
async def test_a_socket_for_no_tournament_is_closed() -> None:
    page = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    connected, _ = await page.connect(timeout=5)
    assert connected
    closed = await page.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4004}
    await page.disconnect()  # the consumer ends: nothing of it outlives the test's database


@pytest.mark.django_db
def test_an_account_makes_a_tournament_from_the_list_page(client: Client) -> None:
    assert "to make a tournament" in client.get("/tournaments/").content.decode()
    logged_in(client, "ann")
    form = {
        "kind": "swiss",
        "game": "quarto",
        "clock": "3+2",
        "rounds": "4",
        "minutes": "30",
        "starts_in": "5",
    }
    answer = client.post("/tournaments/new", form)
    made = Tournament.objects.get()
    assert answer["Location"] == f"/tournaments/{made.pk}/"
    assert (made.kind, made.rounds, made.minutes, made.rated) == ("swiss", 4, None, False)
    for bad in (
        {"rounds": "NaN"},
        {"rounds": "99999999999999999999"},
        {"clock": "lots"},
        {"starts_in": "-1"},
    ):
        refused = client.post("/tournaments/new", {**form, **bad}, follow=True)
        assert refused.redirect_chain[-1][0] == "/tournaments/" and 'role="alert"' in refused.content.decode()
    assert Tournament.objects.count() == 1


@pytest.mark.django_db
def test_each_players_games_are_listed_as_links_to_their_replays() -> None:
    t = tournament(kind="swiss", rated=False)
    ann, bob, cid = user("ann"), user("bob"), user("cid")
    for p in (ann, bob, cid):
        services.join(t.pk, p)
    services.start(Tournament.objects.get(pk=t.pk), timezone.now())
    pairing.pair(t.pk)
    from tournaments.models import Pairing

    played = Pairing.objects.get(tournament=t, game__isnull=False)
    win(played.game_id or 0, 0)
    html = presenting.render_live(t.pk)
    for person in (played.first.user, played.second.user if played.second else None):
        assert person is not None
        row = html[html.index(f'data-player="{person.username}"') :]
        row = row[: row.index("</tr>")]
        assert f'href="/games/{played.game_id}/replay"' in row, row
    (bye,) = {"ann", "bob", "cid"} - {
        played.first.user.username,
        played.second.user.username if played.second else "",
    }
    row = html[html.index(f'data-player="{bye}"') :]
    sheet = row[row.index('class="standings__sheet"') : row.index("</tr>")]
    assert ">B<" in sheet and "href" not in sheet
