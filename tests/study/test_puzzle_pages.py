"""The puzzles' pages: the next puzzle, actions posted by forms, a right one continued by
the solver's reply, a wrong one refuted in words on a board that takes no more clicks, the
win; an account's first try moves its puzzle rating and the page shows it."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from study import puzzle_rules
from study.models import Puzzle, PuzzleAttempt
from tests.ratings.helpers import new_account

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loaded() -> None:
    catalog.player_of("quarto").warm_up()
    call_command("load_puzzles", verbosity=0)


def one(theme: str) -> Puzzle:
    return next(p for p in Puzzle.objects.order_by("key") if p.themes == [theme] and len(p.answer) == 1)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def status_of(html: str) -> str:
    return text_of(
        html[html.index('<div id="status"') : html.index("</div>", html.index('<div id="status"'))]
    )


def enabled_buttons(html: str) -> int:
    return len(
        re.findall(r'<button class="(?:board__cell|tray__slot)[^>]*name="move"(?![^>]*disabled)', html)
    )


def winning(puzzle: Puzzle, moves: list[str]) -> str:
    """An action keeping the forced win after ``moves``, the soonest."""
    state = catalog.get(puzzle.kind).rules.replay(puzzle.options, [*puzzle.moves, *moves])
    wins = [v for v in puzzle_rules.solve(puzzle.kind, state) if v.value == "win"]
    return min(wins, key=lambda v: v.distance or 0).text


def hidden_moves(html: str) -> str:
    found = re.search(r'name="moves" value="([^"]*)"', html)
    assert found
    return found.group(1)


def test_the_next_puzzle_shows_its_position_to_anyone() -> None:
    client = Client()
    response = client.get("/puzzles/")
    assert response.status_code == 302
    page = client.get(response["Location"])
    html = page.content.decode()
    key = response["Location"].rstrip("/").rsplit("/", 1)[1]
    puzzle = Puzzle.objects.get(key=key)
    assert page.status_code == 200
    assert f"Player {puzzle.to_move + 1} to" in status_of(html) and "find the forced win" in html
    assert "Sign in to be rated" in html and f"Puzzle rating {round(puzzle.rating)}" in html
    assert enabled_buttons(html) > 0
    assert client.get("/puzzles/?game=chess").status_code == 400


def test_a_win_in_two_continues_with_the_reply_and_ends_solved() -> None:
    client = Client()
    puzzle = one("win_in_2")
    url = f"/puzzles/{puzzle.key}/"
    moves: list[str] = []
    replied = False
    for _ in range(8):
        html = client.post(url, {"moves": ",".join(moves), "move": winning(puzzle, moves)}).content.decode()
        if "Solved: you won." in html:
            break
        assert "Right." in status_of(html)
        replied = replied or "The solver's most stubborn reply: placed" in status_of(html)
        moves = hidden_moves(html).split(",")
    else:
        raise AssertionError("the puzzle was never solved")
    assert enabled_buttons(html) == 0 and "Next puzzle" in html
    assert replied and len(moves) >= 4  # place, give; the solver's place, give
    assert PuzzleAttempt.objects.count() == 0  # anonymous: no rating


def test_a_wrong_action_is_refuted_in_words_and_the_board_takes_no_more_clicks() -> None:
    puzzle = one("win_in_1")
    state = catalog.get(puzzle.kind).rules.replay(puzzle.options, puzzle.moves)
    wrong = next(str(m) for m in state.legal_moves() if str(m) not in puzzle.answer)
    response = Client().post(f"/puzzles/{puzzle.key}/", {"moves": "", "move": wrong})
    html = response.content.decode()
    said = status_of(html)
    assert response.status_code == 200
    assert "Not that" in said and "lets the forced win go" in said and "The solver's answer:" in said
    assert enabled_buttons(html) == 0
    assert f'href="/puzzles/{puzzle.key}/?moves="' in html  # try again from the start


def test_an_accounts_first_try_moves_its_rating_shown_on_the_page() -> None:
    account = new_account("puzzler")
    client = Client()
    client.force_login(account.user)
    puzzle = one("win_in_1")
    html = client.post(f"/puzzles/{puzzle.key}/", {"moves": "", "move": puzzle.answer[0]}).content.decode()
    assert "Solved: you won." in html
    change = re.search(r"Your puzzle rating: (\d+) \(\+(\d+)\)", text_of(html))
    assert change and int(change.group(2)) > 0
    assert PuzzleAttempt.objects.filter(user=account.user, puzzle=puzzle, solved=True).count() == 1
    page = client.get(f"/puzzles/{puzzle.key}/").content.decode()
    assert f"Your puzzle rating {change.group(1)}" in page


@pytest.mark.parametrize(("moves", "move"), [("", "zz"), ("", "99"), ("a1," * 200, "a1"), ("", "")])
def test_bad_actions_are_400s_that_change_nothing(moves: str, move: str) -> None:
    puzzle = one("win_in_1")
    response = Client().post(f"/puzzles/{puzzle.key}/", {"moves": moves, "move": move})
    assert response.status_code == 400
    assert 'class="status__error" role="alert"' in response.content.decode()
    puzzle.refresh_from_db()
    assert puzzle.plays == 0 and PuzzleAttempt.objects.count() == 0


def test_an_unknown_puzzle_is_a_404() -> None:
    assert Client().get("/puzzles/nope/").status_code == 404


def test_the_themes_are_shown_in_the_readers_language_and_addressed_by_their_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        "django.utils.translation._trans.pgettext", lambda context, text: f"«{context}: {text}»"
    )
    puzzle = next(p for p in Puzzle.objects.order_by("key") if p.themes[:2] == ["win_in_1", "safe_give"])
    html = Client().get(f"/puzzles/{puzzle.key}/").content.decode()
    facts = html[
        html.index('class="puzzle__facts"') : html.index("</p>", html.index('class="puzzle__facts"'))
    ]
    assert "«puzzle theme: win in 1», «puzzle theme: safe give»" in facts
    links = html[html.index('class="puzzle__themes"') :]
    assert "theme=win_in_1" in links and ">«puzzle theme: win in 1»</a>" in links
    assert "theme=safe_give" in links and ">«puzzle theme: safe give»</a>" in links
