"""The site's own chat lines and the names they say: no way to write in the site's voice.

A player's actions (declining or withdrawing an offer) add lines of the site to the chat;
they count against that player's chat budget, a muted player is named by their seat, and
a display name may not pass for the site, a moderator or a seat.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import ChatLine, Game
from games.services import actions, chat
from games.services.moves import ServiceError, import_game

from .helpers import ONE, TWO, two_humans

pytestmark = pytest.mark.django_db


def toggle_draw(game: Game, times: int) -> None:
    for _ in range(times):
        actions.draw(game.pk, ONE, True, None)
        actions.draw(game.pk, ONE, False, None)


def site_lines(game: Game) -> list[str]:
    return list(ChatLine.objects.filter(game=game, seat=None).order_by("pk").values_list("text", flat=True))


def test_site_lines_from_a_player_s_actions_count_against_their_chat_budget(settings: Any) -> None:
    settings.RATE_LIMIT_CHAT = "3/minute"
    game = two_humans()
    chat.set_name(game.pk, ONE, "Xena")
    toggle_draw(game, 10)
    assert site_lines(game) == ["Xena withdrew the draw offer."] * 3
    assert Game.objects.get(pk=game.pk).offers == {}  # the offers themselves still work
    with pytest.raises(ServiceError) as refused:
        chat.say(game.pk, ONE, "and a line of my own")
    assert refused.value.code == "rate_limited"
    chat.say(game.pk, TWO, "the other player's budget is their own")
    actions.draw(game.pk, TWO, True, None)
    actions.draw(game.pk, TWO, False, None)
    assert site_lines(game)[-1] == "Player 2 withdrew the draw offer."


def test_a_muted_player_s_name_is_not_echoed_their_seat_is_named() -> None:
    game = two_humans()
    chat.set_name(game.pk, ONE, "Buy cheap stuff")
    seat = Game.objects.get(pk=game.pk).seat_list[0]
    chat.mute_keys(set(chat.seat_keys(seat)))
    toggle_draw(game, 1)
    assert site_lines(game) == ["Player 1 withdrew the draw offer."]


NOT_NAMES = [
    "Player 1",
    "player2",
    "PLAYER 12",
    "Player_1",
    "Player-3",
    "Site",
    "the site",
    "Moderator",
    "moderators",
    "Admin",
    "Your opponent",
    "opponent",
    "Computer",
    "computer casual",
    "Computer - strong",
    "\uff30\uff4c\uff41\uff59\uff45\uff52 \uff11",  # "Player 1" in full-width letters and digit
    # Look-alike letters of other scripts, spaced or Roman (issue 30).
    "\u041c\u043ederator",  # "Moderator" with Cyrillic Em and O
    "\u0405ite",  # "Site" with Cyrillic Dze
    "\u0420layer 1",  # "Player 1" with Cyrillic Er
    "c\u03bfmputer casual",  # "computer casual" with Greek omicron
    "Mod erator",
    "S i t e",
    "Player I",
    "Player II",
    "Player \u0406\u0406",  # Cyrillic Byelorussian-Ukrainian I
    "Player \u2161",  # the Roman numeral sign two
    "Player Two",
    "deleted player",
    "Deleted-Player",
    # ASCII look-alikes: capital I and 1 for a small l, 0 for an O.
    "PIayer 1",
    "P1ayer 2",
    "M0derator",
    "C0mputer casual",
    # Digits for the letters they stand for.
    "Adm1n",
    "Pl4yer 1",
    "M0d3rator",
    "5ite",
    "Y0u",
]


@pytest.mark.parametrize("name", NOT_NAMES)
def test_names_that_pass_for_the_site_a_moderator_or_a_seat_are_refused(name: str) -> None:
    with pytest.raises(ServiceError) as refused:
        chat.clean_name(name)
    assert refused.value.code == "bad_name"
    assert "the site uses it" in refused.value.message


@pytest.mark.parametrize(
    "name",
    [
        "Playful",
        "Player One Fan",
        "Sitar",
        "Comp",
        "Modest",
        "Opponent Two",
        "Zoë",
        "Мария",
        "Søren",
        "Alex1",
        "R2D2",
    ],
)
def test_names_near_them_pass(name: str) -> None:
    assert chat.clean_name(name) == name


def test_the_page_refuses_such_a_name_with_a_sentence(client: Client) -> None:
    game = two_humans()
    session = client.session
    session["player_id"] = "s-one"
    session.save()
    plain = client.post(f"/games/{game.pk}/name", {"name": "Moderator"})
    assert plain.status_code == 400
    form = re.search(r'<form class="game__name".*?</form>', plain.content.decode(), re.S)
    assert form is not None and 'value="Moderator"' in form.group(0)
    assert "“Moderator” would pass for the site" in form.group(0) and 'aria-invalid="true"' in form.group(0)
    htmx = client.post(f"/games/{game.pk}/name", {"name": "Player 2"}, headers={"HX-Request": "true"})
    html = htmx.content.decode()
    assert htmx.status_code == 200 and html.startswith('<form class="game__name"')
    assert 'value="Player 2"' in html and "“Player 2” would pass for the site" in html
    assert [s.name for s in Game.objects.get(pk=game.pk).seat_list] == ["", ""]


@pytest.mark.parametrize(
    "names", [["Site", "Bob"], ["Ann", "Player 1"], ["<b>Ann</b>", "Bob"], ["x" * 41, "Bob"]]
)
def test_names_in_an_imported_record_go_through_the_same_check(names: list[str]) -> None:
    with pytest.raises(ServiceError) as refused:
        import_game("tictactoe", {}, ["a1"], names=names)
    assert refused.value.code == "bad_record" and "name" in refused.value.message
    assert Game.objects.count() == 0


def test_good_and_missing_names_in_a_record_are_kept() -> None:
    game = import_game("tictactoe", {}, ["a1"], names=["  Ann ", ""]).game
    assert [s.name for s in game.seat_list] == ["Ann", ""]


def test_the_site_s_own_words_for_unnamed_seats_give_unnamed_seats() -> None:
    game = import_game("tictactoe", {}, ["a1"], names=["computer (casual)", "person"]).game
    assert [s.name for s in game.seat_list] == ["", ""]
    assert [s.called for s in game.seat_list] == ["Player 1", "Player 2"]


def test_a_name_kept_from_before_that_passes_for_the_site_is_not_carried_to_new_games(client: Client) -> None:
    session = client.session
    session["player_id"] = "s-old"
    session["display_name"] = "Moderator"
    session.save()
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "level": "casual", "seat": "first"})
    game = Game.objects.get()
    assert [s.name for s in game.seat_list if not s.is_ai] == [""]
