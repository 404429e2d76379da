"""The page's resign, draw, takeback and rematch buttons, with htmx and without JavaScript."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def start(client: Client, kind: str = "tictactoe", **extra: str) -> Game:
    data = {
        "kind": kind,
        "opponent": "ai",
        "level": "beginner",
        "seat": "first",
        "allow_takebacks": "on",
        **extra,
    }
    assert client.post("/games/new", data).status_code == 303
    return Game.objects.latest("created")


def people(client: Client) -> tuple[Game, Client]:
    client.post(
        "/games/new", {"kind": "quarto", "opponent": "human", "seat": "first", "allow_takebacks": "on"}
    )
    game = Game.objects.latest("created")
    friend = Client()
    friend.post(f"/join/{game.invite_code}")
    return game, friend


def page(client: Client, game: Game) -> str:
    return client.get(game.get_absolute_url()).content.decode()


def test_resign_has_a_confirmation_step_and_ends_the_game(client: Client) -> None:
    game = start(client)
    html = page(client, game)
    confirm = '<details class="actions__confirm"><summary class="button" data-focus="resign">Resign</summary>'
    assert confirm in html
    assert "Really resign?" in html and f'action="/games/{game.pk}/resign"' in html
    response = client.post(f"/games/{game.pk}/resign", {"ply": 0})
    assert response.status_code == 302
    html = page(client, game)
    assert "You resigned: the computer (O) wins." in html and "Resign</summary>" not in html
    assert '[Termination "resigned"]' in client.get(f"/games/{game.pk}/record").content.decode()


def test_offer_draw_between_people_accept_with_htmx(client: Client) -> None:
    game, friend = people(client)
    answer = client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"}, headers=HTMX)
    # Done: the push brings the new position, so the answer swaps nothing (no second swap).
    assert answer.status_code == 204
    assert "You asked for a draw" in page(client, game)
    html = page(friend, game)
    assert "Player 1 asks for a draw." in html and ">Accept</button>" in html
    friend.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"}, headers=HTMX)
    assert "Draw agreed." in page(client, game) and "Draw agreed." in page(Client(), game)


def test_draw_against_the_computer_is_declined_in_the_status_line(client: Client) -> None:
    game = start(client)
    # No button offers it; a form posted all the same is answered.
    html = page(client, game)
    assert "Resign</summary>" in html and "Offer draw" not in html
    answer = client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"}, headers=HTMX)
    assert "The computer declines the draw" in answer.content.decode()
    assert Game.objects.get(pk=game.pk).offers == {}


def test_take_back_against_the_computer_is_counted(client: Client) -> None:
    game = start(client)
    assert ">Take back</button>" not in page(client, game)
    client.post(f"/games/{game.pk}/move", {"ply": 0, "move": "b2"})
    assert ">Take back</button>" in page(client, game)
    client.post(f"/games/{game.pk}/takeback", {"ply": 2, "answer": "yes"})
    html = page(client, game)
    assert "Takebacks: 1" in html and Game.objects.get(pk=game.pk).ply == 0
    stale = client.post(f"/games/{game.pk}/takeback", {"ply": 2, "answer": "yes"}, headers=HTMX)
    assert "The game has moved on" in stale.content.decode()


def test_takebacks_off_shows_no_button(client: Client) -> None:
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "level": "beginner", "seat": "first"})
    game = Game.objects.latest("created")
    assert game.allow_takebacks is False  # an unticked box
    client.post(f"/games/{game.pk}/move", {"ply": 0, "move": "b2"})
    assert ">Take back</button>" not in page(client, game)


def test_takeback_request_declined_by_the_friend(client: Client) -> None:
    game, friend = people(client)
    client.post(f"/games/{game.pk}/move", {"ply": 0, "move": "8"})
    client.post(f"/games/{game.pk}/takeback", {"ply": 1, "answer": "yes"})
    assert "Player 1 asks for a takeback." in page(friend, game)
    friend.post(f"/games/{game.pk}/takeback", {"ply": 1, "answer": "no"})
    assert "asks for a takeback" not in page(friend, game)


def test_rematch_against_the_computer_goes_to_the_new_game(client: Client) -> None:
    game = start(client)
    client.post(f"/games/{game.pk}/resign", {"ply": 0})
    assert ">Rematch</button>" in page(client, game)
    answer = client.post(f"/games/{game.pk}/rematch", {"ply": 0, "answer": "yes"}, headers=HTMX)
    new = Game.objects.get(pk=game.pk).rematch
    assert new is not None and answer["HX-Redirect"] == new.get_absolute_url()
    assert new.seat_list[0].is_ai
    spectator = page(Client(), game)
    assert "Go to the rematch" in spectator and f'href="/games/{new.pk}/"' in spectator


def test_spectators_get_no_buttons(client: Client) -> None:
    game = start(client)
    html = page(Client(), game)
    assert "Resign</summary>" not in html and "Offer draw" not in html
    refused = Client().post(f"/games/{game.pk}/resign", {"ply": 0}, headers=HTMX)
    assert "You do not hold a seat" in refused.content.decode()


def test_an_offer_s_buttons_are_for_the_players_who_may_answer_it(client: Client) -> None:
    client.post(
        "/games/new",
        {"kind": "connect", "opponent": "human", "seat": "first", "players": "3", "allow_takebacks": "on"},
    )
    game = Game.objects.latest("created")
    second, third = Client(), Client()
    for friend in (second, third):
        friend.post(f"/join/{game.invite_code}")
    client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"})
    second.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"})
    offerer, accepted, undecided, spectator = (page(c, game) for c in (client, second, third, Client()))
    assert "You asked for a draw: waiting for an answer." in offerer and ">Withdraw</button>" in offerer
    assert "Player 1 (X) asks for a draw. You said yes: waiting for the others." in accepted
    assert ">Withdraw</button>" in accepted and ">Accept</button>" not in accepted
    assert ">Accept</button>" in undecided and ">Decline</button>" in undecided
    # A spectator reads the offer; no button would answer it.
    assert "Player 1 (X) asks for a draw." in spectator
    assert not any(f">{word}</button>" in spectator for word in ("Accept", "Decline", "Withdraw"))


def test_a_finished_game_offers_play_again_to_its_players_only_and_forgets_who_started(
    client: Client,
) -> None:
    game = start(client)  # we start
    assert "You start." in page(client, game)
    client.post(f"/games/{game.pk}/resign", {"ply": 0})
    player, spectator = page(client, game), page(Client(), game)
    assert "You start." not in player
    assert ">Play again</button>" in player and ">Play again</button>" not in spectator
    assert ">Replay</a>" in spectator and ">Other games</a>" in spectator


def test_a_declined_offer_is_a_line_of_the_site_in_everyone_s_chat(client: Client) -> None:
    game, friend = people(client)
    client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"})
    friend.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "no"})
    said = {
        "Player 2 declined the draw offer.": (page(client, game), page(Client(), game)),
        "You declined the draw offer.": (page(friend, game),),
    }
    for words, pages in said.items():
        for html in pages:
            assert '<li class="chat__line is-site"><span class="chat__who">Site:</span>' in html
            assert f'<span class="chat__text">{words}</span>' in html


def test_a_line_of_the_site_is_said_in_each_reader_s_language(client: Client) -> None:
    game, _friend = people(client)
    client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "yes"})
    client.post(f"/games/{game.pk}/draw", {"ply": 0, "answer": "no"})
    url = game.get_absolute_url()
    spectator = Client().get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Joueur 1 a retiré son offre de nulle." in spectator
    mine = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Sie haben Ihr Remisangebot zurückgezogen." in mine
    # The stored line stays in English, for the admin and the API.
    assert [line.text for line in game.chat_lines.all()] == ["Player 1 withdrew the draw offer."]


def test_the_players_line_names_the_computer_s_level_and_a_person_in_the_reader_s_language(
    client: Client,
) -> None:
    game = start(client, kind="quarto")
    html = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "ordinateur (débutant)" in html
    game, _friend = people(client)
    spectator = Client().get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Joueur 2 : une personne" in spectator.replace("\xa0", " ")
