"""The chat and display names: the service's limits and refusals, the page, the admin and the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import ChatLine, ChatMute, Game
from games.services import chat
from games.services.moves import Actor, ServiceError, create_game

from .helpers import ONE, TWO, two_humans

pytestmark = pytest.mark.django_db


def as_player(client: Client, player_id: str) -> Client:
    session = client.session
    session["player_id"] = player_id
    session.save()
    return client


def test_a_player_says_a_line_stored_with_the_game_and_published(django_capture_on_commit_callbacks) -> None:  # type: ignore[no-untyped-def]
    game = two_humans()
    with django_capture_on_commit_callbacks() as callbacks:
        line = chat.say(game.pk, ONE, "  good   luck\n ")
    assert (line.game_id, line.seat, line.text, line.hidden) == (game.pk, 0, "good luck", False)
    assert len(callbacks) == 1  # the "chat" event, delivered after commit
    assert [ln.text for ln in chat.visible_lines(game)] == ["good luck"]


def test_spectators_read_only() -> None:
    game = two_humans()
    with pytest.raises(ServiceError) as refused:
        chat.say(game.pk, Actor(player_id="a-spectator"), "hello")
    assert refused.value.code == "not_your_seat" and "Spectators read" in refused.value.message
    assert not ChatLine.objects.exists()


@pytest.mark.parametrize(
    ("text", "code"), [("", "empty"), ("   \n\t", "empty"), ("x" * 301, "too_long"), (None, "bad_text")]
)
def test_empty_long_and_non_text_lines_are_refused(text: object, code: str) -> None:
    game = two_humans()
    with pytest.raises(ServiceError) as refused:
        chat.say(game.pk, ONE, text)
    assert refused.value.code == code


def test_300_characters_pass_and_control_characters_go() -> None:
    game = two_humans()
    assert len(chat.say(game.pk, ONE, "y" * 300).text) == 300
    assert chat.say(game.pk, TWO, "a\x00b\x1bc").text == "abc"


def test_each_player_is_rate_limited_on_their_own(settings) -> None:  # type: ignore[no-untyped-def]
    settings.RATE_LIMIT_CHAT = "2/minute"
    game = two_humans()
    chat.say(game.pk, ONE, "one")
    chat.say(game.pk, ONE, "two")
    with pytest.raises(ServiceError) as refused:
        chat.say(game.pk, ONE, "three")
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    chat.say(game.pk, TWO, "the other player still may")
    assert ChatLine.objects.count() == 3


def test_a_muted_player_is_refused_with_a_clear_message_in_every_game() -> None:
    game = two_humans()
    chat.say(game.pk, ONE, "spam")
    assert chat.mute_authors(ChatLine.objects.all()) == 1
    with pytest.raises(ServiceError) as refused:
        chat.say(game.pk, ONE, "more spam")
    assert refused.value.code == "muted" and "muted you" in refused.value.message
    other = create_game("quarto", opponent="ai", seat="first", player_id="s-one").game
    with pytest.raises(ServiceError):
        chat.say(other.pk, ONE, "elsewhere")
    chat.say(game.pk, TWO, "the other one is not muted")


def test_hidden_lines_are_not_shown() -> None:
    game = two_humans()
    chat.say(game.pk, ONE, "rude")
    chat.say(game.pk, TWO, "kind")
    chat.hide_lines(ChatLine.objects.filter(text="rude"))
    assert [ln.text for ln in chat.visible_lines(game)] == ["kind"]


@pytest.mark.parametrize(
    ("name", "clean"),
    [
        ("  Ann  ", "Ann"),
        ("Zoë_2.0-b", "Zoë_2.0-b"),
        ("Jo   Lee", "Jo Lee"),
        ("x" * 24, "x" * 24),
        ("O'Neil", "O'Neil"),
        ("D\u2019Arcy", "D\u2019Arcy"),
        ("Zoe\u0308", "Zoë"),  # the accent typed as its own mark
        ("Søren Kierkegård", "Søren Kierkegård"),
    ],
)
def test_good_names(name: str, clean: str) -> None:
    assert chat.clean_name(name) == clean


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "<script>", "a&b", "Ann!", "The Computer", "you", 7])
def test_bad_names(name: object) -> None:
    with pytest.raises(ServiceError) as refused:
        chat.clean_name(name)
    assert refused.value.code == "bad_name"


def test_only_players_name_their_own_seat() -> None:
    game = two_humans()
    assert chat.set_name(game.pk, TWO, " Bea ") == "Bea"
    assert [s.name for s in Game.objects.get(pk=game.pk).seat_list] == ["", "Bea"]
    with pytest.raises(ServiceError):
        chat.set_name(game.pk, Actor(player_id="stranger"), "Eve")


def test_the_page_shows_lines_escaped_and_a_form_to_players_only(client: Client) -> None:
    game = two_humans()
    chat.say(game.pk, ONE, "<script>alert(1)</script> & hi")
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; hi" in html and "<script>alert" not in html
    assert 'id="chat-form"' not in html and "Spectators read the chat" in html
    html = as_player(client, "s-two").get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat-form"' in html and "Spectators read" not in html


def test_the_chat_form_works_without_and_with_htmx(client: Client) -> None:
    game = two_humans()
    as_player(client, "s-one")
    response = client.post(f"/games/{game.pk}/chat", {"text": "hello"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    response = client.post(f"/games/{game.pk}/chat", {"text": "x" * 301}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "at most 300 characters" in html
    assert 'id="chat" hx-swap-oob="innerHTML"' in html and "hello" in html
    assert ChatLine.objects.count() == 1


def test_the_chat_is_pushed_with_the_other_partials() -> None:
    from games.presenting import presenters

    game = two_humans()
    chat.say(game.pk, ONE, "pushed")
    html = presenters.render_partials(Game.objects.get(pk=game.pk), Actor())
    assert '<div id="chat" hx-swap-oob="innerHTML">' in html and "pushed" in html


def test_a_name_set_on_the_page_is_shown_and_kept_for_the_next_game(client: Client) -> None:
    game = two_humans()
    as_player(client, "s-one")
    assert client.post(f"/games/{game.pk}/name", {"name": "Ann"}).status_code == 303
    assert client.session["display_name"] == "Ann"
    spectator = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Player 1: Ann" in spectator
    response = client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "seat": "first"})
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code in (302, 303) and new.seat_list[0].name == "Ann"
    assert "Ann" in client.get(f"/games/{new.pk}/record").content.decode()
    client.post(f"/games/{game.pk}/name", {"name": "<b>"})
    assert Game.objects.get(pk=game.pk).seat_list[0].name == "Ann"  # refused, unchanged


def test_admin_reads_hides_and_mutes(client: Client) -> None:
    game = two_humans()
    chat.say(game.pk, ONE, "nasty words")
    chat.say(game.pk, TWO, "fine words")
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    listing = client.get("/admin/games/chatline/").content.decode()
    assert "nasty words" in listing and "fine words" in listing
    assert "nasty words" in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    nasty = ChatLine.objects.get(text="nasty words")
    client.post("/admin/games/chatline/", {"action": "hide_lines", "_selected_action": [nasty.pk]})
    assert ChatLine.objects.get(pk=nasty.pk).hidden
    assert "nasty words" not in Client().get(f"/games/{game.pk}/").content.decode()
    client.post("/admin/games/chatline/", {"action": "mute_authors", "_selected_action": [nasty.pk]})
    assert ChatMute.objects.filter(key="s-one").exists()
    with pytest.raises(ServiceError, match="muted"):
        chat.say(game.pk, ONE, "again")
