"""A hint and the review name an action as the page shows it: a Quarto piece by its
looks (the tray shows no numbers), a cell by its name; the hinted piece is marked on
the tray."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from games.ai.base import ReviewEntry
from games.kinds.quarto.rules import piece_name
from games.models import Game
from games.presenting import sentences

from .helpers import SECOND_WINS, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def test_a_quarto_hint_names_the_piece_and_marks_it_on_the_tray(client: Client) -> None:
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first", "allow_hints": "on"}
    client.post("/games/new", data)
    game = Game.objects.latest("created")
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    hint = re.search(r'<p class="status__hint">Hint: ([^<]*)</p>', html)
    assert hint, html[:2000]
    best = re.findall(r'<button class="tray__slot is-best"[^>]*data-piece="(\d+)"', html)
    assert len(best) == 1  # one piece marked on the tray
    assert hint.group(1).startswith(f"the {piece_name(int(best[0]))} piece (")
    assert not re.search(r"Hint: \d", html)


def test_a_tictactoe_hint_names_the_cell(client: Client) -> None:
    data = {"kind": "tictactoe", "opponent": "ai", "level": "perfect", "seat": "first", "allow_hints": "on"}
    client.post("/games/new", data)
    game = Game.objects.latest("created")
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert re.search(r'<p class="status__hint">Hint: [a-c][1-3] \(draws\)\.</p>', html)


def test_the_review_names_the_piece_that_kept_it() -> None:
    game = two_humans()
    entries = [
        ReviewEntry(ply + 1, 0, text, None, None, None, None, None, None)
        for ply, text in enumerate(SECOND_WINS[:10])
    ]
    # Ply 11 gives piece 2; the best give there was piece 5.
    entries.append(ReviewEntry(11, 1, "2", "blunder", "draw", None, "loss", 3, "5", turning_point=True))
    rows = sentences.review_rows(game, entries, [])
    assert rows[-1]["best"] == f"the {piece_name(5)} piece" and rows[1]["best"] == ""
    html = render_to_string("games/replay.html#study", {"game": game, "judged": rows, "turning": rows[-1]})
    assert f"; the {piece_name(5)} piece kept it." in html
    assert f"<td>loss in 3</td><td>the {piece_name(5)} piece</td>" in html  # the Best column
