"""The history page, the replay viewer, the admin's abort action and statistics page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Game, Seat
from games.services import moderation
from games.services.moves import Actor, ServiceError, create_game, import_game, play_move
from games.services.stats import game_stats
from games.web import history

from .helpers import SECOND_WINS, two_humans

pytestmark = pytest.mark.django_db

TTT_DRAW = ["a1", "b2", "c3", "a2", "a3", "b3", "b1", "c1", "c2"]


def as_player(client: Client, player_id: str) -> Client:
    session = client.session
    session["player_id"] = player_id
    session.save()
    return client


def finished(kind: str, moves: list[str]) -> Game:
    return import_game(kind, {}, moves).game


def test_history_lists_this_browser_s_games_and_everyone_s_finished_ones(client: Client) -> None:
    mine = create_game("tictactoe", opponent="ai", seat="first", player_id="me").game
    other_open = create_game("quarto", opponent="ai", seat="first", player_id="someone").game
    done = finished("quarto", SECOND_WINS)
    html = as_player(client, "me").get("/games/history").content.decode()
    assert f"/games/{mine.pk}/" in html and f"/games/{done.pk}/" in html
    assert f"/games/{other_open.pk}/" not in html  # someone else's game in play
    assert f"/games/{done.pk}/replay" in html
    assert 'href="/games/history"' in html  # the header links to it
    # The same words as the game pages: seats are players, the unnamed ones by number.
    assert "Player 2 won" in html and "Player 1, Player 2" in html
    assert "seat 2 won" not in html and "person" not in html
    assert '<th scope="col"></th>' not in html  # every column has a header


def test_history_filters_by_game(client: Client) -> None:
    quarto = finished("quarto", SECOND_WINS)
    ttt = finished("tictactoe", TTT_DRAW)
    html = client.get("/games/history?kind=tictactoe").content.decode()
    assert f"/games/{ttt.pk}/" in html and f"/games/{quarto.pk}/" not in html
    assert '<option value="tictactoe" selected>' in html
    html = client.get("/games/history?kind=nonsense").content.decode()  # unknown: all games
    assert f"/games/{ttt.pk}/" in html and f"/games/{quarto.pk}/" in html


def test_history_is_paginated(client: Client) -> None:
    games = [finished("tictactoe", TTT_DRAW) for _ in range(21)]
    first = client.get("/games/history").content.decode()
    assert "Page 1 of 2" in first and f"/games/{games[0].pk}/" not in first
    second = client.get("/games/history?page=2").content.decode()
    assert f"/games/{games[0].pk}/" in second
    assert client.get("/games/history?page=banana").status_code == 200


def test_replay_renders_each_ply_read_only(client: Client) -> None:
    game = finished("tictactoe", TTT_DRAW)
    html = client.get(f"/games/{game.pk}/replay?ply=2").content.decode()
    assert "Ply 2 of 9" in html
    assert html.count("grid__cell is-p") == 2  # two marks on the board at ply 2
    assert "<button" not in html.split('class="replay__board"')[1].split('class="replay__side"')[0]
    assert 'href="?ply=1"' in html and 'href="?ply=3"' in html and 'href="?ply=9"' in html
    assert 'aria-current="step"><a href="?ply=2">' in html
    last = client.get(f"/games/{game.pk}/replay").content.decode()
    assert "Ply 9 of 9" in last and last.count("grid__cell is-p") == 9
    start = client.get(f"/games/{game.pk}/replay?ply=0").content.decode()
    assert "grid__cell is-p" not in start and 'data-replay="prev" href="?ply=0"' in start


@pytest.mark.parametrize(
    ("ply", "shown", "words"),
    [
        ("x", 9, "is not a ply number"),
        ("99", 9, "The game has 9 plies"),
        ("-3", 0, "There is no ply -3"),
        ("1.5", 9, "is not a ply number"),
    ],
)
def test_replay_bad_plies_are_clamped_with_a_message(
    client: Client, ply: str, shown: int, words: str
) -> None:
    game = finished("tictactoe", TTT_DRAW)
    response = client.get(f"/games/{game.pk}/replay", {"ply": ply})
    html = response.content.decode()
    assert response.status_code == 200 and words in html and f"Ply {shown} of 9" in html


def test_replay_of_quarto_and_links_from_finished_games(client: Client) -> None:
    game = finished("quarto", SECOND_WINS)
    html = client.get(f"/games/{game.pk}/replay?ply=3").content.decode()
    assert html.count("board__piece") == 1 and "Ply 3 of 14" in html
    assert f'href="/games/{game.pk}/replay"' in client.get(f"/games/{game.pk}/").content.decode()
    assert client.get("/games/999/replay").status_code == 404


def test_abort_through_the_service_and_the_admin(client: Client) -> None:
    game = two_humans()
    aborted = moderation.abort_game(game.pk, "cheating   reported")
    assert aborted.status == Game.Status.ABORTED and aborted.result == {
        "reason": "aborted",
        "detail": "cheating reported",
    }
    with pytest.raises(ServiceError):
        moderation.abort_game(game.pk, "twice")
    with pytest.raises(ServiceError) as refused:
        play_move(game.pk, Actor(player_id="s-one"), "0", 0)
    assert refused.value.code == "game_over"
    assert "A moderator aborted this game" in client.get(f"/games/{game.pk}/").content.decode()

    other = create_game("quarto", opponent="ai", seat="first", player_id="p").game
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    response = client.post(
        "/admin/games/game/", {"action": "abort_games", "_selected_action": [other.pk], "reason": "test game"}
    )
    assert response.status_code == 302
    other.refresh_from_db()
    assert other.status == Game.Status.ABORTED and other.ai_due_at is None
    assert other.result is not None and other.result["detail"].startswith("test game")
    assert "aborted: test game" in client.get("/admin/games/game/").content.decode()


def test_an_abort_never_names_the_moderator(client: Client) -> None:
    game = create_game("quarto", opponent="ai", seat="first", player_id="p").game
    User.objects.create_superuser("modmaster", "mod@example.com", "pw")
    client.login(username="modmaster", password="pw")
    client.post("/admin/games/game/", {"action": "abort_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.result == {"reason": "aborted", "detail": "aborted by a moderator"}
    client.logout()
    for url in (f"/games/{game.pk}/", f"/api/v1/games/{game.pk}", "/games/"):
        assert "modmaster" not in client.get(url).content.decode()


def test_statistics_match_the_data(client: Client) -> None:
    ai_game = create_game("quarto", opponent="ai", level="beginner", seat="first", player_id="p").game
    create_game("tictactoe", opponent="ai", level="beginner", seat="first", player_id="p")
    finished("tictactoe", TTT_DRAW)
    won = finished("quarto", SECOND_WINS)
    waiting = create_game("connect", opponent="human", seat="first", player_id="p").game
    moderation.abort_game(waiting.pk, "no show")
    old = finished("quarto", SECOND_WINS)
    Game.objects.filter(pk=old.pk).update(created=timezone.now() - datetime.timedelta(days=3))

    stats = game_stats()
    today = stats.days[0]
    assert today[0] == timezone.localdate()
    assert today[2] == 5 and stats.days[3][2] == 1 and sum(d[2] for d in stats.days) == 6
    titles = stats.kinds
    assert dict(zip(titles, today[1], strict=True))["Quarto"] == 2
    assert stats.results == {"won": 2, "drawn": 1, "aborted": 1, "unfinished": 2}
    assert stats.levels == [("beginner", 2)]
    assert (stats.total, stats.against_people, stats.people_share) == (6, 4, "67%")
    assert won.status == Game.Status.WON and ai_game.status == Game.Status.PLAYING

    User.objects.create_superuser("admin", "admin@example.com", "pw")
    assert client.get("/admin/games/game/stats/").status_code == 302  # staff only
    client.login(username="admin", password="pw")
    assert 'href="/admin/games/game/stats/"' in client.get("/admin/games/game/").content.decode()
    html = client.get("/admin/games/game/stats/").content.decode()
    assert "Games per day" in html and "<td>2</td><td>1</td><td>1</td><td>2</td><td>6</td>" in html
    assert "4 of 6 games (67%)" in html


def test_a_winner_named_with_brackets_is_said_without_nesting_them(client: Client) -> None:
    named = two_humans()
    Seat.objects.filter(game=named, index=1).update(name="Bob (UK)")
    unnamed = two_humans()
    for game in (named, unnamed):
        finished_at = {"status": Game.Status.WON, "winner": 1, "result": {"winner": 1, "lines": []}}
        Game.objects.filter(pk=game.pk).update(**finished_at)
    html = client.get("/games/history").content.decode()
    assert "Bob (UK) won" in html and "(Bob (UK))" not in html
    assert "Player 2 won" in html  # a person without a name


def test_replay_describes_the_position_not_a_live_turn(client: Client) -> None:
    # A game against the computer, still in play: a past ply says what was played there.
    game = create_game("tictactoe", opponent="ai", seat="first", player_id="me").game
    play_move(game.pk, Actor(player_id="me"), "a1", expected_ply=0)
    html = client.get(f"/games/{game.pk}/replay?ply=1").content.decode()
    assert "thinking" not in html
    assert "Move 1 of " in html and "played a1. O (the computer) to move next." in html
    start = client.get(f"/games/{game.pk}/replay?ply=0").content.decode()
    assert "The start of the game: Player 1 (X) to move next." in start


def test_replay_last_ply_of_a_finished_game_says_the_result(client: Client) -> None:
    game = finished("tictactoe", TTT_DRAW)
    html = client.get(f"/games/{game.pk}/replay?ply=9").content.decode()
    assert "Move 9 of 9: Player 1 (X) played c2." in html and "thinking" not in html
    assert "Move 2 of 9: Player 2 (O) played b2. Player 1 (X) to move next." in (
        client.get(f"/games/{game.pk}/replay?ply=2").content.decode()
    )


def test_replay_cells_are_labelled_images_out_of_the_tab_order(client: Client) -> None:
    game = finished("quarto", SECOND_WINS)
    board = client.get(f"/games/{game.pk}/replay?ply=3").content.decode().split('class="replay__board"')[1]
    assert board.count('role="img" class="board__cell"') == 16
    assert "tabindex" not in board and '<span class="board__cell' not in board


def lost_to_the_computer(on_time: bool = False) -> Game:
    game = create_game("tictactoe", opponent="ai", level="beginner", seat="first", player_id="me").game
    ended = {"status": Game.Status.WON, "winner": 1, "result": {"winner": 1, "lines": []}}
    Game.objects.filter(pk=game.pk).update(
        **ended, reason=Game.Reason.TIMEOUT if on_time else Game.Reason.NORMAL
    )
    return game


def statuses(html: str) -> list[str]:
    return re.findall(r'data-label="Status">([^<]*)<', html)


def test_the_history_speaks_the_readers_language() -> None:
    lost_to_the_computer()
    french = as_player(Client(HTTP_ACCEPT_LANGUAGE="fr"), "me")
    html = french.get("/games/history").content.decode()
    assert "vous, ordinateur (débutant)" in html and "vous avez perdu" in html
    assert "you lost" not in html and "computer" not in html


def test_every_result_is_one_sentence_through_the_catalog(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    monkeypatch.setattr(history, "gettext", lambda text: f"«{text}»")
    lost_to_the_computer(on_time=True)
    lost_to_the_computer()
    unnamed = two_humans()
    Game.objects.filter(pk=unnamed.pk).update(status=Game.Status.WON, winner=1, reason=Game.Reason.TIMEOUT)
    assert statuses(client.get("/games/history").content.decode()) == [
        "«Player 2 won on time»",
        "«The computer won»",
        "«The computer won on time»",
    ]
    assert statuses(as_player(client, "me").get("/games/history").content.decode())[:2] == [
        "«you lost»",
        "«you lost on time»",
    ]
