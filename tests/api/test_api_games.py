"""The JSON API: creating, joining, reading and playing games, and every refusal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Move

from .api_helpers import SECOND_WINS, auth, create, error_of, move, play_through, post, two_players

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot(game_id: int) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    return game.ply, game.status, list(Move.objects.filter(game=game).values_list("text", flat=True))


# -- create and read ------------------------------------------------------------


def test_create_against_the_computer_returns_seat_token_and_state(client: Client) -> None:
    data = create(client)
    assert set(data) == {"id", "seat", "token", "invite", "invite_url", "state"}
    assert data["seat"] == 0 and len(data["token"]) >= 20 and data["invite_url"] is None
    assert data["invite"] is None
    state = data["state"]
    assert state["id"] == data["id"] and state["game"] == "quarto"
    assert state["status"] == "playing" and state["result"] is None
    assert state["to_move"] == 0 and state["ply"] == 0 and state["moves"] == []
    assert state["legal_moves"] == [str(p) for p in range(16)]
    assert state["phase"] == "give" and state["in_hand"] is None and state["available"] == list(range(16))
    assert [s["kind"] for s in state["seats"]] == ["human", "ai"]
    seat = Game.objects.get(pk=data["id"]).seat_list[0]
    assert seat.token_hash and seat.token_hash != data["token"], "only a hash of the token is stored"


def test_get_state_lists_rows_top_first_with_cell_names(client: Client) -> None:
    data = create(client)
    response = client.get(f"/api/v1/games/{data['id']}")
    assert response.status_code == 200
    board = response.json()["board"]
    assert [c["cell"] for c in board[0]] == ["a4", "b4", "c4", "d4"]
    assert [c["cell"] for c in board[-1]] == ["a1", "b1", "c1", "d1"]
    assert board[0][0] == {"cell": "a4", "piece": None, "traits": None}


def test_computer_moves_first_when_it_has_the_first_seat(client: Client) -> None:
    data = create(client, seat="second")
    state = data["state"]
    assert data["seat"] == 1 and state["ply"] == 1 and state["to_move"] == 1
    assert state["phase"] == "place" and state["in_hand"] is not None


def test_options_are_checked_by_the_rules(client: Client) -> None:
    assert create(client, options={"advanced": True})["state"]["options"] == {"advanced": True}
    response = post(client, "/api/v1/games", {"game": "quarto", "options": {"colour": 1}})
    assert error_of(response) == (400, "bad_option")
    assert "colour" in response.json()["detail"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "chess"}, "chess"),
        ({"game": "quarto", "level": "grandmaster"}, "level"),
    ],
)
def test_unknown_game_or_level_is_refused(client: Client, body: dict[str, Any], needle: str) -> None:
    response = post(client, "/api/v1/games", body)
    assert error_of(response) == (400, "bad_option")
    assert needle in response.json()["detail"]
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"game": "quarto", "colour": "red"},  # unknown field
        {"game": 7},  # wrong type
        {"game": "quarto", "opponent": "robot"},
        {"game": "quarto", "seat": 1},
        {"game": "quarto", "allow_hints": "yes"},
        {"game": "quarto", "options": {"advanced": [1, 2]}},
        {"game": "quarto", "options": {"advanced": "x" * 100}},
        {"game": "connect", "options": {"width": "7"}},  # a number in a string
        {"game": "quarto", "options": {f"o{i}": 1 for i in range(20)}},
        {},
        [],
    ],
)
def test_malformed_create_requests_are_invalid(client: Client, body: Any) -> None:
    response = post(client, "/api/v1/games", body)
    assert error_of(response) == (400, "invalid_request")
    assert Game.objects.count() == 0


@pytest.mark.parametrize("value", [7.5, "7", None, [7]])
def test_an_option_of_no_type_it_takes_is_said_in_one_sentence(client: Client, value: Any) -> None:
    response = post(client, "/api/v1/games", {"game": "connect", "options": {"width": value}})
    assert error_of(response) == (400, "invalid_request")
    assert response.json()["detail"] == "options.width: true or false, or a whole number."


def test_unknown_field_is_named(client: Client) -> None:
    response = post(client, "/api/v1/games", {"game": "quarto", "colour": "red"})
    assert "unknown field colour" in response.json()["detail"]


def test_body_that_is_not_json_is_invalid(client: Client) -> None:
    assert error_of(post(client, "/api/v1/games", "{not json")) == (400, "invalid_request")


def test_unknown_game_id_and_unknown_path_are_json_404s(client: Client) -> None:
    assert error_of(client.get("/api/v1/games/999")) == (404, "not_found")
    assert error_of(client.get("/api/v1/games/abc")) == (404, "not_found")
    assert error_of(client.get("/api/v1/nothing/here")) == (404, "not_found")


# -- moves ----------------------------------------------------------------------


def test_move_returns_the_new_state_with_the_computers_reply(client: Client) -> None:
    data = create(client)
    response = move(client, data["id"], "15", 0, data["token"])
    assert response.status_code == 200
    state = response.json()
    # Outside a server the computer answers at once: it places 15 and gives a piece.
    assert state["ply"] == 3 and state["moves"][0] == "15" and state["to_move"] == 0
    assert state["phase"] == "place"


@pytest.mark.parametrize(
    ("moves", "text", "code"),
    [
        ([], "a1", "wrong_phase"),
        ([], "16", "out_of_bounds"),
        ([], "zz", "bad_notation"),
        (["3"], "3", "wrong_phase"),
        (["3", "a1"], "3", "piece_unavailable"),
        (["3", "a1", "4"], "a1", "occupied"),
        (["3", "a1", "4"], "e9", "out_of_bounds"),
    ],
)
def test_illegal_moves_get_the_engines_code_and_change_nothing(
    client: Client, moves: list[str], text: str, code: str
) -> None:
    game_id, one, two = two_players(client)
    state = play_through(client, game_id, moves, {0: one, 1: two}).json()
    token = one if state["to_move"] == 0 else two
    before = snapshot(game_id)
    assert error_of(move(client, game_id, text, len(moves), token)) == (400, code)
    assert snapshot(game_id) == before


def test_missing_and_unknown_tokens_are_401(client: Client) -> None:
    data = create(client)
    response = move(client, data["id"], "5", 0, None)
    assert error_of(response) == (401, "no_token")
    assert response["WWW-Authenticate"] == "Bearer"
    assert error_of(move(client, data["id"], "5", 0, "not-a-token")) == (401, "unknown_token")
    assert error_of(move(client, data["id"], "5", 0, "x" * 500)) == (401, "unknown_token")
    basic = client.post(
        f"/api/v1/games/{data['id']}/moves",
        {"move": "5", "ply": 0},
        content_type="application/json",
        headers={"Authorization": "Basic abc"},
    )
    assert error_of(basic) == (401, "no_token")
    assert snapshot(data["id"])[0] == 0


def test_a_token_of_another_game_holds_no_seat_here(client: Client) -> None:
    mine = create(client)
    other = create(client)
    assert error_of(move(client, mine["id"], "5", 0, other["token"])) == (403, "not_your_seat")


def test_moving_out_of_turn_is_403(client: Client) -> None:
    game_id, one, two = two_players(client)
    assert error_of(move(client, game_id, "5", 0, two)) == (403, "not_your_turn")
    assert move(client, game_id, "5", 0, one).status_code == 200
    assert error_of(move(client, game_id, "a1", 1, one)) == (403, "not_your_turn")


def test_stale_ply_is_409_and_a_repeat_applies_once(client: Client) -> None:
    game_id, one, _two = two_players(client)
    assert move(client, game_id, "5", 0, one).status_code == 200
    assert error_of(move(client, game_id, "5", 0, one)) == (409, "stale")
    assert snapshot(game_id)[2] == ["5"]


def test_moves_wait_for_the_second_player(client: Client) -> None:
    created = create(client, opponent="human", level=None)
    assert created["state"]["status"] == "waiting" and created["state"]["legal_moves"] == []
    assert created["invite_url"] == f"http://testserver/join/{created['invite']}"
    assert error_of(move(client, created["id"], "5", 0, created["token"])) == (409, "waiting")


def test_finished_game_refuses_moves_with_409(client: Client) -> None:
    game_id, one, two = two_players(client)
    state = play_through(client, game_id, SECOND_WINS, {0: one, 1: two}).json()
    assert state["status"] == "finished" and state["to_move"] is None
    assert state["result"] == {"winner": 1, "lines": [["a1", "b1", "c1", "d1"]], "shared": ["short", "round"]}
    assert error_of(move(client, game_id, "12", len(SECOND_WINS), one)) == (409, "game_over")


@pytest.mark.parametrize(
    "body",
    [
        {"move": "5"},
        {"ply": 0},
        {"move": 5, "ply": 0},
        {"move": "5", "ply": "0"},
        {"move": "5", "ply": -1},
        {"move": "5", "ply": 0.5},
        {"move": "", "ply": 0},
        {"move": "x" * 17, "ply": 0},
        {"move": "5", "ply": 0, "seat": 0},
    ],
)
def test_malformed_moves_are_invalid(client: Client, body: dict[str, Any]) -> None:
    data = create(client)
    response = post(client, f"/api/v1/games/{data['id']}/moves", body, data["token"])
    assert error_of(response) == (400, "invalid_request")
    assert snapshot(data["id"])[0] == 0


# -- join -----------------------------------------------------------------------


@pytest.mark.parametrize("body", [None, {}, {"invite": None}, {"invite": "wrong"}, {"invite": "x" * 20}])
def test_join_without_the_invite_is_403_and_changes_nothing(client: Client, body: Any) -> None:
    created = create(client, opponent="human", level=None)
    response = post(client, f"/api/v1/games/{created['id']}/join", body)
    assert error_of(response) == (403, "bad_invite")
    game = Game.objects.get(pk=created["id"])
    assert game.status == Game.Status.WAITING and game.seat_list[1].is_open


def test_join_takes_the_free_seat_once(client: Client) -> None:
    created = create(client, opponent="human", level=None, seat="second")
    invite = {"invite": created["invite"]}
    joined = post(client, f"/api/v1/games/{created['id']}/join", invite)
    assert joined.status_code == 200
    body = joined.json()
    assert body["seat"] == 0 and body["token"] != created["token"]
    assert body["state"]["status"] == "playing" and [s["open"] for s in body["state"]["seats"]] == [
        False,
        False,
    ]
    assert error_of(post(client, f"/api/v1/games/{created['id']}/join", invite)) == (409, "no_open_seat")
    assert error_of(post(client, "/api/v1/games/999/join", invite)) == (404, "not_found")
    assert move(client, created["id"], "5", 0, body["token"]).status_code == 200


# -- limits and CSRF ----------------------------------------------------------------


def test_body_over_the_limit_is_413(client: Client, settings: Any) -> None:
    settings.API_MAX_BODY = 100
    response = post(client, "/api/v1/games", {"game": "quarto", "level": "x" * 200})
    assert error_of(response) == (413, "too_large")
    assert Game.objects.count() == 0


def test_rate_limit_is_429_with_retry_after(client: Client, settings: Any) -> None:
    settings.API_RATE_LIMIT = "3/minute"
    data = create(client)
    for _ in range(2):
        assert client.get(f"/api/v1/games/{data['id']}").status_code == 200
    response = client.get(f"/api/v1/games/{data['id']}")
    assert error_of(response) == (429, "rate_limited")
    assert 1 <= int(response["Retry-After"]) <= 60
    # Tokens are free to mint: neither a real one nor a made-up one opens a fresh count.
    for token in (data["token"], create_token_elsewhere(), "made-up"):
        refused = client.get(f"/api/v1/games/{data['id']}", headers=auth(token))
        assert error_of(refused) == (429, "rate_limited")


def create_token_elsewhere() -> str:
    """A valid token minted from another address (the limit there is untouched)."""
    token: str = create(Client(REMOTE_ADDR="10.9.9.9"))["token"]
    return token


def test_forwarded_address_counts_only_behind_a_trusted_proxy(client: Client, settings: Any) -> None:
    settings.API_RATE_LIMIT = "2/minute"
    data = create(client)
    path = f"/api/v1/games/{data['id']}"
    # Without a trusted proxy the header is the client's own word: ignored.
    assert client.get(path, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 200
    assert error_of(client.get(path, headers={"X-Forwarded-For": "203.0.113.2"})) == (429, "rate_limited")
    # Behind a trusted proxy each forwarded client has its own count; a spoofed entry
    # left of the proxy's own (the rightmost untrusted one) changes nothing.
    settings.TRUSTED_PROXIES = ["127.0.0.0/8"]
    proxied = Client(REMOTE_ADDR="127.0.0.1")
    one = {"X-Forwarded-For": "198.51.100.7"}
    spoofed = {"X-Forwarded-For": "1.2.3.4, 198.51.100.7"}
    assert proxied.get(path, headers=one).status_code == 200
    assert proxied.get(path, headers=spoofed).status_code == 200
    assert error_of(proxied.get(path, headers=one)) == (429, "rate_limited")
    assert proxied.get(path, headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 200


def test_api_needs_no_csrf_token() -> None:
    strict = Client(enforce_csrf_checks=True)
    data = create(strict)
    assert move(strict, data["id"], "5", 0, data["token"]).status_code == 200


# -- a whole game -------------------------------------------------------------------


def test_bot_plays_a_whole_game_against_the_computer(client: Client) -> None:
    rng = random.Random(7)
    data = create(client, level="beginner")
    game_id, token = data["id"], data["token"]
    state = data["state"]
    while state["status"] == "playing":
        assert state["to_move"] == data["seat"]
        response = move(client, game_id, rng.choice(state["legal_moves"]), state["ply"], token)
        assert response.status_code == 200, response.content
        state = response.json()
        again = client.get(f"/api/v1/games/{game_id}").json()
        assert again.pop("now") >= state.pop("now")  # the server's time of each answer
        assert again == state
    assert state["status"] == "finished" and state["ply"] == len(state["moves"]) <= 32
    result = state["result"]
    assert result["winner"] in (0, 1, None)
    assert (result["winner"] is None) == (result["lines"] == [])
    game = Game.objects.get(pk=game_id)
    assert game.is_finished and game.ply == state["ply"]
