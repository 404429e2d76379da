"""People play the cousins through the invite link, each in their own browser context, while
another context watches: tic-tac-toe (a chat exchange, a draw offer declined), Connect Four
(a takeback accepted), Ultimate (a resignation) and three-player connect-N, where two
friends take the seats of one invite link (a takeback both others accept). Every game ends
on each page with the same result, seen from that page's side, and a rematch every page
follows, with the seats swapped (two players) or rotated (three)."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import (
    TIMEOUT,
    all_at_ply,
    answer,
    invite_friend,
    live,
    marks,
    offer,
    people,
    play_cell,
    rematch,
    resign,
    say,
    take_seat,
    watch_for_errors,
)

pytestmark = pytest.mark.browser


def seated(
    server: str, browser: Any, kind: str, players: int, fields: dict[str, str] | None = None
) -> tuple[list[Any], list[str]]:
    """``players`` people in one game (the first invites, the others take the open seats
    through the link) and a spectator: their pages in seat order, the spectator's last, and
    the list their console errors and uncaught errors go to."""
    pages = people(browser, players + 1)
    errors = watch_for_errors(
        {f"seat {i + 1}": page for i, page in enumerate(pages[:-1])} | {"spectator": pages[-1]}
    )
    *friends, watcher = pages
    invite = invite_friend(friends[0], server, kind, fields)
    for friend in friends[1:]:
        take_seat(friend, invite)
        friend.wait_for_selector(".status__line", timeout=TIMEOUT)
    friends[0].wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)
    watcher.goto(friends[0].url)
    all_at_ply(pages, 0)
    for page in pages:
        live(page)
    return pages, errors


def play(moves: list[tuple[Any, str]], pages: list[Any]) -> None:
    """Each (page, cell) in turn; every page, the spectator's too, follows each move."""
    for page, cell in moves:
        play_cell(page, cell, [p for p in pages if p is not page])


def ends_alike(texts: dict[Any, str], winning: int) -> None:
    """Every page says the game is over in its own words, and shows the same board."""
    for page, text in texts.items():
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
        assert page.locator(".status__text").inner_text() == text
        assert page.locator(".grid__cell.is-winning").count() == winning
    boards = [marks(page) for page in texts]
    assert all(board == boards[0] for board in boards), boards


def me_in_panel(page: Any) -> int:
    """Which seat the players panel calls "you" on this page."""
    items = page.locator(".players__item")
    return next(i for i in range(items.count()) if ": you" in items.nth(i).inner_text())


def seats_moved_on(pages: list[Any], watcher: Any, first_cell: str) -> None:
    """After a rematch, every person sits one seat on (two players swap): the panels say
    so, the new first seat opens the game and the spectator sees its mark as seat 1's."""
    count = len(pages)
    for seat, page in enumerate(pages):
        assert me_in_panel(page) == (seat + 1) % count, (seat, page.locator(".players").inner_text())
    opener = pages[-1]
    play_cell(opener, first_cell, [*pages[:-1], watcher])
    assert marks(watcher) == {first_cell: "X"}
    pages[0].wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)


def test_tictactoe_chat_and_a_declined_draw(server: str, browser: Any) -> None:
    pages, errors = seated(server, browser, "tictactoe", 2)
    x, o, watcher = pages
    play([(x, "a1"), (o, "a2")], pages)
    say(x, "nice opening", [o, watcher])
    say(o, "thanks", [x, watcher])
    offer(o, "Offer draw", [x, watcher], "a draw")
    assert watcher.locator(".actions__offer button").count() == 0
    answer(x, "Decline")
    for page in pages:
        page.locator(".actions__offer").wait_for(state="detached", timeout=TIMEOUT)
    play([(x, "b1"), (o, "b2"), (x, "c1")], pages)
    ends_alike({x: "You win!", o: "You lose: Player 1 (X) wins.", watcher: "Player 1 (X) wins!"}, 3)
    rematch(o, [x], [watcher])
    seats_moved_on([x, o], watcher, "b2")
    for page in pages:
        page.context.close()
    assert not errors, errors[:5]


def test_connect_four_with_a_takeback(server: str, browser: Any) -> None:
    pages, errors = seated(server, browser, "connect", 2)
    x, o, watcher = pages
    # Where a stone would land: shown to the player to move, not to the others.
    assert [page.locator(".grid__cell.is-landing").count() for page in pages] == [7, 0, 0]
    play([(x, "a1"), (o, "b1"), (x, "a2"), (o, "g1")], pages)
    # O meant b2: O asks to take g1 back, X accepts.
    offer(o, "Take back", [x, watcher], "a takeback")
    answer(x, "Accept")
    all_at_ply(pages, 3)
    for page in pages:
        page.locator(".actions__count", has_text="Takebacks: 1").wait_for(timeout=TIMEOUT)
        assert "g1" not in marks(page)
    play([(o, "b2"), (x, "a3"), (o, "b3"), (x, "a4")], pages)
    ends_alike({x: "You win!", o: "You lose: Player 1 (X) wins.", watcher: "Player 1 (X) wins!"}, 4)
    rematch(x, [o], [watcher])
    seats_moved_on([x, o], watcher, "d1")
    for page in pages:
        page.context.close()
    assert not errors, errors[:5]


def test_ultimate_to_a_resignation(server: str, browser: Any) -> None:
    pages, errors = seated(server, browser, "ultimate", 2)
    x, o, watcher = pages
    play([(x, "e5"), (o, "e4"), (x, "e2"), (o, "e6")], pages)
    resign(o)
    ends_alike(
        {
            x: "Player 2 (O) resigned: you win.",
            o: "You resigned: Player 1 (X) wins.",
            watcher: "Player 2 (O) resigned: Player 1 (X) wins.",
        },
        0,
    )
    rematch(o, [x], [watcher])
    seats_moved_on([x, o], watcher, "e5")
    for page in pages:
        page.context.close()
    assert not errors, errors[:5]


def test_three_people_play_connect_through_one_invite(server: str, browser: Any) -> None:
    fields = {"players": "3", "width": "5", "height": "4", "n": "3"}
    pages, errors = seated(server, browser, "connect", 3, fields)
    x, o, a, watcher = pages
    assert [me_in_panel(page) for page in (x, o, a)] == [0, 1, 2]
    play([(x, "a1"), (o, "b1"), (a, "c1"), (x, "a2"), (o, "b2"), (a, "c2")], pages)
    # A takes c2 back: both other players must accept.
    offer(a, "Take back", [x, o, watcher], "a takeback")
    answer(x, "Accept")
    x.locator(".actions__offer", has_text="You said yes: waiting for the others.").wait_for(timeout=TIMEOUT)
    all_at_ply(pages, 6)
    answer(o, "Accept")
    all_at_ply(pages, 5)
    play([(a, "d1"), (x, "a3")], pages)
    ends_alike(
        {
            x: "You win!",
            o: "You lose: Player 1 (X) wins.",
            a: "You lose: Player 1 (X) wins.",
            watcher: "Player 1 (X) wins!",
        },
        3,
    )
    rematch(o, [a, x], [watcher])
    seats_moved_on([x, o, a], watcher, "c1")
    for page in pages:
        page.context.close()
    assert not errors, errors[:5]


def test_the_resign_question_stays_open_through_the_opponents_move(server: str, browser: Any) -> None:
    pages, errors = seated(server, browser, "tictactoe", 2)
    x, o, watcher = pages
    play([(x, "a1"), (o, "b2")], pages)
    question = o.locator(".actions__confirm")
    o.locator(".actions__confirm > summary").click()
    assert question.get_attribute("open") is not None
    play([(x, "c3")], pages)
    # The push of that move drew O's actions again (their forms carry the new ply).
    o.wait_for_selector('.actions__confirm input[name="ply"][value="3"]', state="attached", timeout=TIMEOUT)
    assert question.get_attribute("open") is not None
    o.get_by_role("button", name="Yes, resign").click()
    ends_alike(
        {
            x: "Player 2 (O) resigned: you win.",
            o: "You resigned: Player 1 (X) wins.",
            watcher: "Player 2 (O) resigned: Player 1 (X) wins.",
        },
        0,
    )
    for page in pages:
        page.context.close()
    assert not errors, errors[:5]
