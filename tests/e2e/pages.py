"""What a person does on a game page, for the browser tests."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

TURN_OR_END = "document.querySelector('.status__line.is-my-turn, .status__line.is-over') !== null"
TIMEOUT = 20000


def new_game(
    page: Any, server: str, kind: str, fields: dict[str, str], level: str = "", scripts: bool = True
) -> str:
    """A game against the computer where we move first, from the home page; its address.
    ``scripts``: the page runs JavaScript (it is live once its socket is open)."""
    page.goto(server + "/")
    card = page.locator(f".game-card--{kind}")
    if level:
        card.locator("select[name=level]").select_option(level)
    card.locator("select[name=seat]").select_option("first")
    for name, value in fields.items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button[type=submit]").click()
    page.wait_for_selector(".status__line.is-my-turn")
    # A click before the page's scripts have run is a plain form post: it plays, and the
    # page reloads. Tests that count reloads start once the page is live.
    if scripts:
        live(page)
    return str(page.url)


def invite_friend(page: Any, server: str, kind: str, fields: dict[str, str] | None = None) -> str:
    """A game against friends where we move first, from the home page; the invite link."""
    page.goto(server + "/")
    card = page.locator(f".game-card--{kind}")
    card.locator("select[name=opponent]").select_option("human")
    card.locator("select[name=seat]").select_option("first")
    for name, value in (fields or {}).items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button[type=submit]").click()
    invite = page.locator("#invite-url")
    invite.wait_for()
    return str(invite.input_value())


def take_seat(page: Any, invite: str) -> None:
    """Open an invite link and take the open seat."""
    page.goto(invite)
    page.locator("button", has_text="Take the open seat").click()


def wait_for_turn(page: Any) -> bool:
    """Wait until it is our turn or the game is over; True while the game goes on."""
    page.wait_for_function(TURN_OR_END, timeout=TIMEOUT)
    return bool(page.locator(".status__line.is-over").count() == 0)


def click_and_wait(page: Any, target: Any) -> None:
    """Click, then wait until the position on the page has moved on."""
    ply = page.locator(".status__line").get_attribute("data-ply")
    target.click()
    page.wait_for_function(
        f"document.querySelector('.status__line').dataset.ply !== '{ply}'", timeout=TIMEOUT
    )


def result(page: Any) -> str:
    return str(page.locator(".status__text").inner_text())


def record_frames(page: Any) -> list[str]:
    """The WebSocket frames the page receives from now on (call it before opening the page)."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


def wait_for_frame(page: Any, frames: list[str], timeout: float = 15) -> None:
    """Wait for the page's socket to send its first message (it has joined its game by then)."""
    deadline = time.monotonic() + timeout
    while not frames:
        assert time.monotonic() < deadline, "the page's socket sent nothing"
        page.wait_for_timeout(50)


# -- people playing each other, each in their own browser context, and spectators -----


def people(browser: Any, count: int) -> list[Any]:
    """``count`` pages, each in its own browser context (its own cookies: its own person)."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(count)]
    return [context.new_page() for context in contexts]


def watch_for_errors(pages: dict[str, Any]) -> list[str]:
    """Every console error and uncaught error of the ``pages`` (by name), as they come."""
    errors: list[str] = []
    for name, page in pages.items():
        page.on("pageerror", lambda error, name=name: errors.append(f"{name}: {error}"))
        page.on(
            "console",
            lambda m, name=name, page=page: (
                errors.append(f"{name} {page.url}: {m.text}") if m.type == "error" else None
            ),
        )
    return errors


def at_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f".status__line[data-ply='{ply}']", timeout=TIMEOUT)


def all_at_ply(pages: Sequence[Any], ply: int) -> None:
    for page in pages:
        at_ply(page, ply)


def ply_of(page: Any) -> int:
    return int(page.locator(".status__line").get_attribute("data-ply"))


def act(page: Any) -> None:
    """One Quarto action on our turn, like a person: give the first free piece or place on
    the first free cell; then wait for the page to show the next position."""
    page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    ply = ply_of(page)
    if page.locator(".tray.is-giving").count():
        page.locator("button.tray__slot:not([disabled])").first.click()
    else:
        page.locator(".board__cell.is-playable").first.click()
    at_ply(page, ply + 1)


def play_cell(page: Any, cell: str, watchers: Sequence[Any] = ()) -> None:
    """On our turn, click the grid cell named ``cell`` (``None``: the first playable one);
    then wait until our page and every page of ``watchers`` show the position after it."""
    page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    ply = ply_of(page)
    page.locator(f".grid__cell.is-playable[data-cell='{cell}']").click()
    all_at_ply([page, *watchers], ply + 1)


def marks(page: Any) -> dict[str, str]:
    """The grid's taken cells: cell name -> the symbol on it."""
    cells = page.locator(".grid__cell:has(.stone)")
    return {cells.nth(i).get_attribute("data-cell"): cells.nth(i).inner_text() for i in range(cells.count())}


def presence(page: Any, text: str) -> None:
    page.locator("#presence", has_text=text).wait_for(timeout=TIMEOUT)


def live(page: Any) -> None:
    """Wait until the page's socket is open (the server accepts it once it has joined the game)."""
    page.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)


def say(page: Any, text: str, readers: Sequence[Any]) -> None:
    """Send a chat line; wait until every page of ``readers`` shows it."""
    page.fill("#chat-text", text)
    page.locator("#chat-form button").click()
    for reader in (page, *readers):
        reader.locator("#chat .chat__line", has_text=text).wait_for(timeout=TIMEOUT)


def offer(page: Any, button: str, others: Sequence[Any], words: str) -> None:
    """Click an offer button ("Offer draw", "Take back", "Rematch"); wait until every page
    of ``others`` shows the offer (``words``: "a draw", "a takeback", "a rematch")."""
    page.get_by_role("button", name=button).click()
    page.locator(".actions__offer", has_text=f"You asked for {words}").wait_for(timeout=TIMEOUT)
    for other in others:
        other.locator(".actions__offer", has_text=words).wait_for(timeout=TIMEOUT)


def answer(page: Any, button: str) -> None:
    """Answer the pending offer: "Accept", "Decline" or "Withdraw"."""
    page.locator(".actions__offer").get_by_role("button", name=button).click()


def resign(page: Any) -> None:
    """Open "Really resign?" and answer it. The question stays open through the pushes
    that draw the actions again (see test_the_resign_question_stays_open_through_the_
    opponents_move); should the page itself be drawn anew, open it again."""
    question = page.locator(".actions__confirm")
    for _ in range(5):
        if question.get_attribute("open") is None:
            page.locator(".actions__confirm > summary").click()
        try:
            page.get_by_role("button", name="Yes, resign").click(timeout=TIMEOUT // 5)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the resign question never stayed open long enough to answer it")


def one_move_then_resign(first: Any, second: Any) -> Any:
    """Two players' pages of a game between people: the side to move makes a grid move (the
    first playable cell), the other resigns. The winner's page."""
    first.wait_for_selector(".status__line[data-ply]", timeout=TIMEOUT)
    second.wait_for_selector(".status__line[data-ply]", timeout=TIMEOUT)
    mover = first if first.locator(".status__line.is-my-turn").count() else second
    other = second if mover is first else first
    mover.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    mover.locator(".grid__cell.is-playable").first.click()
    other.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    resign(other)
    return mover


def rematch(offerer: Any, accepters: Sequence[Any], spectators: Sequence[Any]) -> str:
    """The offerer asks for a rematch, each accepter accepts it in turn; every page, the
    spectators' too, goes to the new game by itself. Its address, where every page is."""
    old = offerer.url
    offer(offerer, "Rematch", [*accepters, *spectators], "a rematch")
    for page in accepters:
        answer(page, "Accept")
        if page is not accepters[-1]:
            page.locator(".actions__offer", has_text="You said yes").wait_for(timeout=TIMEOUT)
    pages = [offerer, *accepters, *spectators]
    for index, page in enumerate(pages):
        # The new address, then the new game's position on the page: the load event adds nothing.
        try:
            page.wait_for_url(
                lambda url: url != old and re.search(r"/games/\d+/$", url) is not None, wait_until="commit"
            )
        except Exception as exc:
            links = page.locator("a[data-follow]").count()
            raise AssertionError(
                f"page {index} (0 offerer, then accepters, then spectators) stayed at {page.url}; "
                f"follow links on it: {links}; status: {page.locator('.status__text').inner_text()!r}"
            ) from exc
        at_ply(page, 0)
    assert len({page.url for page in pages}) == 1, [page.url for page in pages]
    return str(offerer.url)


def close(pages: Sequence[Any]) -> None:
    for page in pages:
        page.context.close()
