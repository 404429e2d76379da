"""The analysis board, the puzzles and the review's graph in a real browser, at phone and
laptop widths: a position set up by clicks, the best action read off the list and
outlined on the board, a click and the keyboard moving along, a variation kept beside
the main line; a puzzle failed then solved, anonymously and with an account (rated),
at both widths; a point of the review's graph opening its ply on the same page, with the
action played and the best one drawn, and on to the analysis board."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, Processes, embedded_env, wait_for_the_computer
from .test_accessibility import AXE, violations
from .test_accounts import fits, sign_up
from .test_narrow_pages import import_record

pytestmark = pytest.mark.browser

NEAR_END = ".157/b.e0/d2.c/..9a_8_1"  # Quarto, five cells empty, player 1 to place piece 8
SIZES = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1366, "height": 900}}
SHOTS = os.environ.get("STUDY_SCREENSHOTS")  # a folder: each page's screenshot at each size


@pytest.fixture(scope="module")
def study_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded set-up with the shipped puzzles loaded."""
    folder = tmp_path_factory.mktemp("study")
    processes = Processes(folder, embedded_env(folder, {"HINT_BUDGET": "1.0"}))
    processes.migrate()
    processes.manage("load_puzzles")
    try:
        url = processes.daphne("daphne")
        wait_for_the_computer(url)  # the search processes started and their players loaded
        yield url
    finally:
        processes.stop()


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    context = browser.new_context(viewport=SIZES[request.param])
    yield request.param, context.new_page()
    context.close()


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_the_analysis_board_shows_the_best_action_and_moves_along(
    study_server: str, sized: tuple[str, Any]
) -> None:
    size, page = sized
    page.goto(f"{study_server}/analysis/quarto/?position={NEAR_END}")
    best_row = page.locator(".analysis__row.is-best")
    best = best_row.locator("button").inner_text().strip()
    assert "estimate" not in best_row.inner_text()
    # the best cell is outlined on the board, and it is that cell's hint that says so
    cell = page.locator(f'#board button[data-cell="{best}"]')
    assert cell.locator(".hint.is-best").count() == 1
    outline = cell.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline == "solid"
    assert fits(page)
    shoot(page, f"analysis-{size}")
    # the keyboard moves between the cells as on the game page
    page.locator("#board button:not([disabled])").first.focus()
    first = page.evaluate("document.activeElement.dataset.cell")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.cell") not in (None, first)
    # a click on the best cell plays it: now a piece is to be given
    cell.click()
    page.wait_for_selector(".status__text:has-text('to choose a piece to give')")
    assert "moves=" in page.url and page.locator("#pieces button.tray__slot:not([disabled])").count() >= 1


# NEAR_END's pieces by cell, and its piece in hand (8), set up by clicks from an empty board.
SET_UP = {
    "b4": 1,
    "c4": 5,
    "d4": 7,
    "a3": 11,
    "c3": 14,
    "d3": 0,
    "a2": 13,
    "b2": 2,
    "d2": 12,
    "c1": 9,
    "d1": 10,
}


def test_a_position_set_up_by_clicks_shows_its_best_action(study_server: str, sized: tuple[str, Any]) -> None:
    size, page = sized
    page.goto(f"{study_server}/analysis/quarto/")
    page.get_by_role("link", name="Set up a position").click()
    for cell, piece in SET_UP.items():
        page.locator(f'a[data-pen="{piece}"]').click()
        page.locator(f'a[data-cell="{cell}"]').click()
        assert page.locator(f'a[data-cell="{cell}"] .piece').count() == 1
    page.locator('a[data-pen="8"]').click()
    page.locator('a[data-hand="put"]').click()
    assert page.locator("code").first.inner_text() == NEAR_END.replace("_", " ")
    assert page.locator(".setup__problem").count() == 0  # player 1 to place: the rules agree
    assert fits(page)
    shoot(page, f"setup-{size}")
    page.get_by_role("link", name="Analyse this position").click()
    best_row = page.locator(".analysis__row.is-best")
    best = best_row.locator("button").inner_text().strip()
    assert "estimate" not in best_row.inner_text()  # exact: the solver reaches it
    assert f"Best: {best}" in page.locator("#status").inner_text()
    # the best cell and the piece in hand that goes there are outlined
    cell = page.locator(f'#board button[data-cell="{best}"]')
    assert cell.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    hand = page.locator(".tray__slot--hand")
    assert hand.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    # a variation: the best cell, back, another cell: both kept, each a link back
    cell.click()
    page.wait_for_selector(".status__text:has-text('to choose a piece to give')")
    page.get_by_role("link", name="The set-up position").click()
    other = page.locator(f'#board button.board__cell:not([disabled]):not([data-cell="{best}"])').first
    other.click()
    page.wait_for_selector(".analysis__variation")
    # the set-up is 23 actions from the start: the main line's first action is the 24th
    page.locator(".analysis__line > li > a", has_text="24. ").first.click()
    page.wait_for_selector(".analysis__variation")
    assert "lines=" in page.url and page.locator(".analysis__line a[aria-current]").inner_text().startswith(
        "24."
    )


def puzzle_with(themes: list[str], phase_cell: bool) -> dict[str, Any]:
    """A shipped puzzle of those themes whose one answer is a cell (or a piece)."""
    data = json.loads((ROOT / "study" / "data" / "quarto-puzzles.json").read_text())
    for item in data:
        if (
            item["themes"] == themes
            and len(item["answer"]) == 1
            and item["answer"][0][0].isalpha() == phase_cell
        ):
            return dict(item)
    raise AssertionError(f"no puzzle {themes}")


def control(answer: str) -> str:
    return (
        f'#board button[data-cell="{answer}"]'
        if answer[0].isalpha()
        else f'#pieces button[data-piece="{answer}"]'
    )


@pytest.mark.parametrize("who", ["anonymous", "account"])
def test_a_puzzle_failed_then_solved_anonymously_and_with_an_account(
    study_server: str, sized: tuple[str, Any], who: str
) -> None:
    size, page = sized
    if who == "account":
        sign_up(page, study_server, f"puzzler{size}")
    puzzle = puzzle_with(["win_in_1"], phase_cell=True)
    page.goto(f"{study_server}/puzzles/{puzzle['id']}/")
    assert "find the forced win" in page.locator("#status").inner_text()
    shoot(page, f"puzzle-{who}-{size}")
    wrong = page.locator("#board button.board__cell:not([disabled])")
    for index in range(wrong.count()):
        if wrong.nth(index).get_attribute("data-cell") != puzzle["answer"][0]:
            wrong.nth(index).click()
            break
    page.wait_for_selector(".puzzle__verdict--failed")
    assert "The solver's answer:" in page.locator("#status").inner_text()
    assert page.locator("#board button:not([disabled])").count() == 0
    assert fits(page)
    shoot(page, f"puzzle-failed-{who}-{size}")
    page.get_by_role("link", name="Try again").click()
    page.locator(control(puzzle["answer"][0])).click()
    page.wait_for_selector(".puzzle__verdict--solved")
    if who == "account":
        # the account's first try was the failed one: it is rated once, and the page says so
        assert "Your puzzle rating" in page.locator("main").inner_text()
    else:
        assert "Sign in to be rated" in page.locator("main").inner_text()
    shoot(page, f"puzzle-solved-{who}-{size}")


SECOND_WINS = ["8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1"]


def test_a_point_of_the_review_graph_opens_its_ply_and_the_analysis_board(
    study_server: str, sized: tuple[str, Any]
) -> None:
    size, page = sized
    game = import_record(study_server, "quarto", SECOND_WINS)
    page.goto(f"{study_server}/games/{game}/review")  # the old address: the one page
    graph = page.locator(".eval__graph:visible")
    graph.wait_for()  # the table and the graph come once computed
    assert "/replay?ply=14" in page.url
    assert fits(page)
    # a phone gets the taller graph: larger than the wide one squeezed to its width
    height = graph.bounding_box()["height"]
    assert height > 200 if size == "phone" else height > 150
    shoot(page, f"review-{size}")
    graph.locator('.eval__link[href$="?ply=12"]').click()
    page.wait_for_selector(".replay__ply:has-text('Ply 12 of 14')")
    # the action played there and the best one drawn on the board, the values beside
    assert page.locator(".replay__board .is-played").count() >= 1
    assert page.locator(".replay__board .is-best-move").count() >= 1
    side = page.locator(".replay__review").inner_text()
    assert "Played:" in side and "Value before" in side and "blunder" in side
    assert page.locator('.eval__graph:visible .eval__link[aria-current="step"][href$="?ply=12"]').count() == 1
    page.get_by_role("link", name="Analyse from here").click()
    page.wait_for_selector(".analysis__row")
    assert page.url.endswith("moves=" + "%2C".join(SECOND_WINS[:12]))
    assert "Player 1 to choose a piece to give" in page.locator("#status").inner_text()


def test_no_serious_violation_on_the_study_pages(study_server: str, browser: Any) -> None:
    """axe over the analysis board, a puzzle (before and after a wrong try) and a review
    with its graph, at both widths (a context of its own bypasses the site's policy for
    the injected script, as tests/e2e/test_accessibility.py does)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci --prefix tests/e2e")
    game = import_record(study_server, "quarto", SECOND_WINS)
    puzzle = puzzle_with(["win_in_1"], phase_cell=True)
    found: dict[str, list[str]] = {}
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        page = context.new_page()
        page.goto(f"{study_server}/analysis/quarto/?position={NEAR_END}")
        found[f"analysis {size}"] = violations(page)
        page.goto(f"{study_server}/puzzles/{puzzle['id']}/")
        found[f"puzzle {size}"] = violations(page)
        page.goto(f"{study_server}/games/{game}/review")
        page.wait_for_selector(".eval__graph:visible")
        found[f"review {size}"] = violations(page)
        page.goto(f"{study_server}/analysis/quarto/?edit={NEAR_END}&pen=3")
        found[f"set-up {size}"] = violations(page)
        context.close()
    assert {name: v for name, v in found.items() if v} == {}
