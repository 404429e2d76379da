"""The guided first game of Quarto: each of the five steps accepts its right action and
refuses a wrong one with its word, keeping the step; a tampered state is a 400 that says
so; nothing is written to the games; the last step leads to a game against the beginner."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.core import signing
from django.test import Client

from games.kinds.quarto import rules as quarto
from games.models import Game
from learn import lesson, steps

pytestmark = pytest.mark.django_db

URL = "/learn/quarto/"
# Each step: (a right action, a wrong action, a part of the word the wrong one gets).
ACTIONS = {
    "give": ("3", "4", "is tall"),
    "place": ("b2", "a4", "not on the diagonal"),
    "line": ("d2", "a1", "still open"),
    "safe": ("0", "5", "wins at once on d2"),
    "win": ("c4", "a1", "No four pieces share a trait"),
}


def state_of(html: str) -> str:
    found = re.search(r'name="state" value="([^"]+)"', html)
    assert found, "no state in the form"
    return found.group(1)


def at_step(client: Client, index: int) -> str:
    return client.get(f"{URL}?state={lesson.Progress(index, '').sign()}").content.decode()


def play(client: Client, index: int, move: str) -> Any:
    """The answer to ``move`` posted from step ``index``'s page (its form's state)."""
    return client.post(URL, {"state": state_of(at_step(client, index)), "move": move})


def test_the_lesson_starts_at_the_first_step_without_any_state(client: Client) -> None:
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Step 1 of 5: Give a piece" in html
    assert "Give your opponent a short piece." in html
    assert '<meta name="description" content="Learn Quarto in five short steps' in html
    assert re.search(r'<button class="tray__slot"[^>]*value="0"(?![^>]*disabled)', html)  # a live piece


@pytest.mark.parametrize("index", range(len(steps.STEPS)))
def test_each_step_accepts_its_right_action(client: Client, index: int) -> None:
    step = steps.STEPS[index]
    response = play(client, index, ACTIONS[step.key][0])
    assert response.status_code == 303
    page = client.get(response["Location"]).content.decode()
    assert str(step.right) in html.unescape(page)
    last = index == len(steps.STEPS) - 1
    assert ("Play the beginner" in page) == last
    assert ('rel="next"' in page) == (not last)
    assert Game.objects.count() == 0


@pytest.mark.parametrize("index", range(len(steps.STEPS)))
def test_each_step_refuses_a_wrong_action_with_its_word_keeping_the_step(client: Client, index: int) -> None:
    _right, wrong, word = ACTIONS[steps.STEPS[index].key]
    response = play(client, index, wrong)
    page = response.content.decode()
    assert response.status_code == 200
    assert word in page
    assert "Not that:" in page
    assert f"Step {index + 1} of 5" in page
    assert lesson.read_state(state_of(page)) == lesson.Progress(index, "")
    assert Game.objects.count() == 0


def test_the_rules_refusal_is_the_word_for_an_impossible_action(client: Client) -> None:
    state = state_of(at_step(client, 1))  # place: b3 holds a piece already
    html = client.post(URL, {"state": state, "move": "b3"}).content.decode()
    assert "b3 is already taken." in html
    html = client.post(URL, {"state": state, "move": "z9"}).content.decode()
    assert "Not that:" in html and "Step 2 of 5" in html


def test_the_win_step_shows_the_winning_line(client: Client) -> None:
    state = state_of(at_step(client, 4))
    shown = client.get(client.post(URL, {"state": state, "move": "c4"})["Location"]).content.decode()
    assert shown.count("board__cell is-winning") == 4
    assert 'name="level" value="beginner"' in shown


@pytest.mark.parametrize(
    "state",
    [
        "not-a-signed-value",
        signing.dumps({"s": 1, "a": ""}, salt="another.salt"),
        signing.dumps({"s": 9, "a": ""}, salt=lesson.SALT),
        signing.dumps({"s": 0, "a": "4"}, salt=lesson.SALT),  # signed, but a wrong action
        signing.dumps(["s", 1], salt=lesson.SALT),
        "x" * 500,
    ],
    # Signed values carry a timestamp: ids of their own keep both workers' lists alike.
    ids=["unsigned", "other-salt", "no-such-step", "wrong-action", "not-a-dict", "too-long"],
)
def test_a_tampered_state_is_a_400_that_says_so(client: Client, state: str) -> None:
    for response in (client.get(URL, {"state": state}), client.post(URL, {"state": state, "move": "3"})):
        assert response.status_code == 400
        assert "This lesson's state was changed or damaged" in html.unescape(response.content.decode())
    assert Game.objects.count() == 0


def test_a_changed_state_in_an_address_is_refused(client: Client) -> None:
    state = lesson.Progress(2, "").sign()
    payload, signature = state.rsplit(":", 1)
    forged = lesson.Progress(3, "").sign().rsplit(":", 1)[0] + ":" + signature
    assert client.get(URL, {"state": forged}).status_code == 400
    assert client.get(URL, {"state": f"{payload}:{signature}"}).status_code == 200


def test_the_next_step_link_leads_on(client: Client) -> None:
    state = state_of(at_step(client, 0))
    shown = client.get(client.post(URL, {"state": state, "move": "3"})["Location"]).content.decode()
    href = re.search(r'href="([^"]+)" rel="next"', shown)
    assert href
    query = parse_qs(urlparse(href.group(1).replace("&amp;", "&")).query)
    assert lesson.read_state(query["state"][0]) == lesson.Progress(1, "")


def test_play_the_beginner_starts_a_game_against_the_beginner(client: Client) -> None:
    state = state_of(at_step(client, 4))
    shown = client.get(client.post(URL, {"state": state, "move": "c4"})["Location"]).content.decode()
    form = re.search(r'<form method="post" action="/games/new">(.*?)</form>', shown, re.S)
    assert form
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    response = client.post("/games/new", fields)
    assert response.status_code == 303
    game = Game.objects.get()
    assert game.kind == "quarto"
    assert game.ai_level == "beginner"


@pytest.mark.parametrize(
    ("index", "wrong", "said"),
    [
        (0, "4", "La pièce 4 est haute (haute claire carrée pleine)."),
        (3, "5", "Avec la pièce 5 (haute foncée carrée pleine)"),
    ],
)
def test_a_wrong_piece_is_described_in_the_readers_language(index: int, wrong: str, said: str) -> None:
    french = Client(HTTP_ACCEPT_LANGUAGE="fr")
    state = state_of(french.get(f"{URL}?state={lesson.Progress(index, '').sign()}").content.decode())
    page = html.unescape(french.post(URL, {"state": state, "move": wrong}).content.decode())
    assert said in page
    assert "(tall " not in page  # the piece in English


@pytest.mark.parametrize(("index", "wrong"), [(2, "a1"), (4, "a1")])
def test_a_sentence_naming_a_trait_is_one_translated_sentence(
    monkeypatch: pytest.MonkeyPatch, index: int, wrong: str
) -> None:
    monkeypatch.setattr(steps, "gettext", lambda text: f"<<{text}>>")
    step = steps.STEPS[index]
    _after, word = steps.judge(step, lesson.position_of(lesson.Progress(index, "")), wrong)
    assert word is not None and word.startswith("<<") and word.endswith(">>")
    sentences = (*steps.STILL_OPEN.values(), *steps.FIND_THE_LINE.values())
    assert word[2:-2] in [sentence % {"cell": "d2"} for sentence in sentences]
    for table in (steps.STILL_OPEN, steps.FIND_THE_LINE):  # a sentence for every trait
        assert set(table) == {trait for _bit, *traits in quarto.TRAITS for trait in traits}
        assert all(f" {trait}" in sentence for trait, sentence in table.items())
