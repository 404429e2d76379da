"""Two-part moves in the browser (static/js/parts.js), for every game of the catalog whose
board offers them: a click chooses the first part and marks its ends; a push that
re-renders the board between the two clicks keeps the choice; the second click plays.
By the keyboard too: Enter on a first part, the arrows to an end, Enter."""

from __future__ import annotations

from typing import Any

import pytest

from games import catalog

from .pages import TIMEOUT, all_at_ply, invite_friend, live, offer, people, take_seat, watch_for_errors

pytestmark = pytest.mark.browser


def first_part(kind: str) -> tuple[str, str, str]:
    """The first control with ends on the new board: its part, its first end's cell and move."""
    spec = catalog.get(kind)
    controls = spec.board_after(spec.rules.new_state({}), [], True)["controls"]
    control = next(c for c in controls if c.get("ends"))
    return control["part"], control["ends"][-1]["cell"], control["ends"][-1]["move"]


def board_has_parts(kind: str) -> bool:
    spec = catalog.get(kind)
    return any(c.get("ends") for c in spec.board_after(spec.rules.new_state({}), [], True)["controls"])


TWO_PART = [kind for kind in sorted(catalog.CATALOG) if board_has_parts(kind)]


def seated(server: str, browser: Any, kind: str) -> tuple[Any, Any, list[str]]:
    mover, other = people(browser, 2)
    errors = watch_for_errors({"mover": mover, "other": other})
    invite = invite_friend(mover, server, kind)
    take_seat(other, invite)
    mover.wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)
    all_at_ply([mover, other], 0)
    live(mover)
    live(other)
    return mover, other, errors


def chosen(page: Any, part: str, end: str) -> None:
    page.wait_for_selector(
        f"#board button[data-part='{part}'].is-chosen[aria-pressed='true']", timeout=TIMEOUT
    )
    page.wait_for_selector(f"#board button[data-cell='{end}'].is-end[name='move']", timeout=TIMEOUT)


@pytest.mark.parametrize("kind", TWO_PART)
def test_a_push_between_the_two_clicks_keeps_the_first(server: str, browser: Any, kind: str) -> None:
    part, end, move = first_part(kind)
    mover, other, errors = seated(server, browser, kind)
    mover.locator(f"#board button[data-part='{part}']").click()
    chosen(mover, part, end)
    assert mover.locator(".status__line").get_attribute("data-ply") == "0"  # nothing played yet
    # The opponent's draw offer is pushed to the mover's page: its board is rendered anew.
    mover.evaluate("() => document.querySelector('#board .grid').setAttribute('data-before-push', '')")
    offer(other, "Offer draw", [mover], "a draw")
    mover.wait_for_selector("#board .grid:not([data-before-push])", timeout=TIMEOUT)
    chosen(mover, part, end)
    mover.locator(f"#board button[data-cell='{end}']").click()
    all_at_ply([mover, other], 1)
    assert mover.locator(".game__record").count() == 1
    assert other.locator(f"#board button[data-cell='{end}'] .stone").count() == 1
    # the choice was spent with the move: nothing is chosen on the next position
    assert mover.locator("#board .is-chosen").count() == 0
    assert errors == [], errors
    del move


@pytest.mark.parametrize("kind", TWO_PART)
def test_by_the_keyboard_enter_chooses_the_arrows_reach_an_end_and_enter_plays(
    server: str, browser: Any, kind: str
) -> None:
    part, end, _ = first_part(kind)
    mover, other, errors = seated(server, browser, kind)
    mover.locator(f"#board button[data-part='{part}']").focus()
    mover.keyboard.press("Enter")
    chosen(mover, part, end)
    mover.keyboard.press("Escape")  # taken back
    mover.wait_for_selector("#board .grid:not(:has(.is-chosen))", timeout=TIMEOUT)
    mover.keyboard.press("Space")
    chosen(mover, part, end)
    for _ in range(8):
        if mover.evaluate(f"() => document.activeElement?.dataset.cell === '{end}'"):
            break
        mover.keyboard.press("ArrowRight" if end[0] > part[0] else "ArrowUp")
    assert mover.evaluate("() => document.activeElement?.classList.contains('is-end')")
    mover.keyboard.press("Enter")
    all_at_ply([mover, other], 1)
    assert errors == [], errors
