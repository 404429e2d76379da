"""One ranking of analysed actions, read alike by the analysis board's list, its "best"
label, its status line and the board's outlined control; and the values said in the
reader's language."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import ai
from games.ai.base import DRAW, LOSS, WIN, ActionValue, ranked
from games.presenting.presenters import annotate_controls, hint_info
from study import board, pages, positions

# After the first give on the empty board: proved draws and estimates mixed, an estimate
# above zero, a draw, a win and losses of each length.
MIXED = [
    ActionValue("d3", None, False, score=0.11),
    ActionValue("c1", None, False, score=-0.25),
    ActionValue("a1", DRAW, True, 15, 0.0),
    ActionValue("b2", DRAW, True, 15, 0.0),
    ActionValue("c4", LOSS, True, 4, -1.0),
    ActionValue("d4", LOSS, True, 8, -1.0),
]


def test_proved_wins_then_draws_then_estimates_then_losses() -> None:
    values = [
        *MIXED,
        ActionValue("a2", WIN, True, 9, 1.0),
        ActionValue("a3", WIN, True, 3, 1.0),
        ActionValue("a4", WIN, False, None, 1.0),  # a win of unknown length
    ]
    order = [v.text for v in ranked(values)]
    assert order == ["a3", "a2", "a4", "a1", "b2", "d3", "c1", "d4", "c4"]
    best = ai.best_value(values)
    assert best is not None and best.text == "a3"


def test_the_list_the_best_label_and_the_outlined_control_agree() -> None:
    where = positions.resolve("quarto", {}, moves=["0"])
    rows = board.value_rows(where, MIXED)
    assert [row["move"] for row in rows] == ["a1", "b2", "d3", "c1", "d4", "c4"]
    assert [row["is_best"] for row in rows] == [True] + [False] * 5
    best = ai.best_value(MIXED)
    assert best is not None and best.text == "a1"
    controls = board.board_context(where, playable=True, values=MIXED)["controls"]
    outlined = [c["move"] for c in controls if c.get("is_best")]
    assert outlined == ["a1"]


@pytest.mark.django_db
def test_the_page_names_one_best_action(monkeypatch: pytest.MonkeyPatch) -> None:
    async def analyse(*args: Any, **kwargs: Any) -> list[ActionValue]:
        return list(MIXED)

    monkeypatch.setattr("study.pages.ai_runner.analyse", analyse)
    html = Client().get("/analysis/quarto/", {"moves": "0"}).content.decode()
    rows = re.findall(r'<li class="analysis__row( is-best)?">\s*<button[^>]*value="([^"]+)"', html)
    assert [move for _, move in rows][:3] == ["a1", "b2", "d3"]
    assert [move for best, move in rows if best] == ["a1"]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "Best: a1 (draws)." in text


def test_values_in_english_words() -> None:
    with translation.override("en"):
        said = [hint_info(v)["words"] for v in MIXED]
        assert said == [
            "estimate +0.11",
            "estimate -0.25",
            "draws",
            "draws",
            "loses in 4 plies",
            "loses in 8 plies",
        ]
        assert hint_info(ActionValue("a1", WIN, True, 1, 1.0))["words"] == "wins in 1 ply"
        assert hint_info(ActionValue("a1", WIN, True, 5, 1.0))["words"] == "wins in 5 plies"
        assert hint_info(ActionValue("a1", LOSS, True, 0, -1.0))["words"] == "loses"
        assert board.short(ActionValue("a1", None, False, score=0.26)) == "+0.3"
        controls = [{"move": "a1", "label": "a1"}, {"move": "b2", "label": "b2"}]
        annotate_controls(controls, MIXED)
        assert [c["label"] for c in controls] == ["a1, best move, draws", "b2, draws"]


def test_an_estimate_in_french() -> None:
    # "estimate %(score)s" is in the catalog; the number is written the French way
    with translation.override("fr"):
        assert hint_info(MIXED[0])["words"] == "estimation +0,11"
        assert board.short(ActionValue("a1", None, False, score=-0.26)) == "-0,3"


def test_the_replays_links_here_say_where_they_open() -> None:
    game = SimpleNamespace(is_finished=True, kind="quarto", ply=12, pk=7)
    with translation.override("en"):
        said = [pages.position_link(game, ply) for ply in (0, 5, 12)]  # type: ignore[arg-type]
    assert said == [
        ("Analyse from the start", "/analysis/game/7/?ply=0"),
        ("Analyse from here", "/analysis/game/7/?ply=5"),
        ("Analyse the final position", "/analysis/game/7/?ply=12"),
    ]
