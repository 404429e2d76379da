"""Two people play Quarto through the invite link, each in their own browser context, while
a third context watches: a draw offer declined, a takeback accepted, a chat exchange, a
resignation and a rematch that all three pages follow; then one player closes their page,
the other sees them gone and, once the (shortened) abandonment time has passed, claims
the win."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .pages import (
    TIMEOUT,
    act,
    all_at_ply,
    answer,
    at_ply,
    invite_friend,
    offer,
    people,
    presence,
    rematch,
    resign,
    say,
    take_seat,
    watch_for_errors,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_two_people_and_a_spectator_through_a_whole_evening(quick_abandon_server: str, browser: Any) -> None:
    server = quick_abandon_server
    a, b, watcher = people(browser, 3)
    errors = watch_for_errors({"A": a, "B": b, "spectator": watcher})

    # A invites, B takes the seat through the link, a spectator opens the game.
    take_seat(b, invite_friend(a, server, "quarto"))
    b.wait_for_selector(".tray")
    watcher.goto(a.url)
    a.wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)
    # Each reads about the other, the spectator about both.
    presence(a, "Your opponent is connected.")
    presence(b, "Your opponent is connected. 1 watching.")
    presence(watcher, "Player 1 is connected. Player 2 is connected. 1 watching.")
    assert "Player 1" not in a.locator("#presence").inner_text()

    act(a)  # A's first turn is a give only
    act(b)
    act(b)
    act(a)
    act(a)
    at_ply(watcher, 5)

    # A draw offer, declined.
    offer(a, "Offer draw", [b, watcher], "a draw")
    answer(b, "Decline")
    a.get_by_role("button", name="Offer draw").wait_for(timeout=TIMEOUT)
    assert a.locator(".actions__offer").count() == 0

    # B plays a turn, asks to take it back; A accepts: everyone is back at ply 5.
    act(b)
    act(b)
    at_ply(a, 7)
    offer(b, "Take back", [a], "a takeback")
    answer(a, "Accept")
    all_at_ply([a, b, watcher], 5)
    for page in (a, b, watcher):
        page.locator(".actions__count", has_text="Takebacks: 1").wait_for(timeout=TIMEOUT)

    # A chat exchange the spectator reads.
    say(a, "good luck", [b, watcher])
    say(b, "you too", [a, watcher])

    # B resigns.
    resign(b)
    for page in (a, b, watcher):
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert "resigned: you win" in a.locator(".status__text").inner_text()

    # A offers a rematch, B accepts: both pages move to it, the spectator follows the link.
    rematch(a, [b], [watcher])

    # Sides swapped: B opens the rematch.
    b.wait_for_selector(".tray.is-giving", timeout=TIMEOUT)
    act(b)
    act(a)
    act(a)
    at_ply(watcher, 3)
    presence(a, "Your opponent is connected.")

    # B closes the page: A sees them gone, then may claim the win.
    b.context.close()
    presence(a, "Your opponent is not connected.")
    presence(watcher, "Player 1 is not connected. Player 2 is connected.")
    claim = a.get_by_role("button", name="Claim the win")
    claim.wait_for(timeout=TIMEOUT)
    assert watcher.get_by_role("button", name="Claim the win").count() == 0
    claim.click()
    a.locator(".status__text", has_text="left: you win").wait_for(timeout=TIMEOUT)
    watcher.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    for page in (a, watcher):
        page.context.close()
    assert not errors, errors[:5]


def test_a_spectator_whose_socket_never_opens_follows_the_rematch_by_the_poll(
    server: str, browser: Any
) -> None:
    """The rematch link reaches a page without a socket by its poll, and the page goes there."""
    a, b, watcher = people(browser, 3)
    errors = watch_for_errors({"A": a, "B": b})
    watcher.route_web_socket("**/ws/**", lambda socket: socket.close())
    take_seat(b, invite_friend(a, server, "quarto"))
    watcher.goto(a.url)
    assert watcher.locator("body[data-socket='open']").count() == 0
    act(a)
    at_ply(watcher, 1)  # by the poll
    resign(b)
    watcher.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    old = watcher.url
    offer(a, "Rematch", [b], "a rematch")
    answer(b, "Accept")
    watcher.wait_for_url(
        lambda url: url != old and re.search(r"/games/\d+/$", url) is not None, wait_until="commit"
    )
    at_ply(watcher, 0)
    assert watcher.url == b.url
    assert not errors, errors


def test_the_offerer_follows_the_rematch_when_its_own_answer_comes_after_the_push(
    server: str, browser: Any
) -> None:
    """The offer's answer is held back until the other player has accepted: by then a push
    has replaced the offer's form (its own events reach no listener) and brought the link."""
    a, b = people(browser, 2)
    take_seat(b, invite_friend(a, server, "quarto"))
    a.wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)
    resign(b)
    a.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    held: list[tuple[Any, Any]] = []
    a.route("**/rematch", lambda route: held.append((route, route.fetch())))
    old = a.url
    a.get_by_role("button", name="Rematch").click()
    b.locator(".actions__offer", has_text="a rematch").wait_for(timeout=TIMEOUT)
    a.locator(".actions__offer", has_text="You asked for a rematch").wait_for(timeout=TIMEOUT)
    answer(b, "Accept")
    a.locator("a[data-follow]").wait_for(timeout=TIMEOUT)  # pushed while the answer is held
    assert len(held) == 1 and a.url == old
    route, response = held[0]
    route.fulfill(response=response)
    a.wait_for_url(
        lambda url: url != old and re.search(r"/games/\d+/$", url) is not None, wait_until="commit"
    )
    at_ply(a, 0)
    b.wait_for_url(a.url)
