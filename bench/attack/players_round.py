"""What a player meets: two browser contexts that share nothing, at 360 and 1366 px, screenshots.
/work/main/.venv/bin/python players_round.py http://host:port OUTDIR"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from lib import check, fresh_name, report

BASE, OUT = sys.argv[1], Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
PASSWORD = "a-long-pass-1234"


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def run(width: int) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        one = browser.new_context(viewport={"width": width, "height": 800})
        two = browser.new_context(viewport={"width": width, "height": 800})
        a, b = one.new_page(), two.new_page()
        na, nb = fresh_name("bob").lower(), fresh_name("eve").lower()
        # Sign-up page: a <main>, the rule before any error, the words of the header.
        a.goto(BASE + "/accounts/signup/")
        shot(a, f"{width}-signup")
        html = a.content()
        check("player: sign-up/log-in pages", "<main" in html, f"{width}: sign-up has no <main>")
        check(
            "player: sign-up/log-in pages",
            re.search(r"3.{0,5}20", a.inner_text("main")) is not None,
            f"{width}: the 3-20 rule not shown up front",
        )
        button = a.locator("main button[type=submit], main input[type=submit]").first
        box = button.bounding_box()
        check(
            "player: sign-up/log-in pages",
            box is not None and box["height"] >= 32,
            f"{width}: sign-up button {box}",
        )
        a.fill("input[name=username]", na)
        a.fill("input[name=password1]", PASSWORD)
        a.fill("input[name=password2]", PASSWORD)
        button.click()
        a.wait_for_load_state()
        b.goto(BASE + "/accounts/login/")
        shot(b, f"{width}-login")
        words = b.inner_text("main").lower()
        check("player: sign-up/log-in pages", "sign in" not in words, f"{width}: log-in page says 'sign in'")
        b.goto(BASE + "/accounts/signup/")
        b.fill("input[name=username]", nb)
        b.fill("input[name=password1]", PASSWORD)
        b.fill("input[name=password2]", PASSWORD)
        b.locator("main button[type=submit]").first.click()
        b.wait_for_load_state()
        # Skip link: the first Tab reaches it.
        a.goto(BASE + "/")
        a.keyboard.press("Tab")
        focused = a.evaluate("document.activeElement && document.activeElement.textContent")
        check(
            "player: skip link",
            focused is not None and "skip" in focused.lower(),
            f"{width}: first Tab on {focused!r}",
        )
        # A game between the two through the invite: a creates, b joins.
        a.goto(BASE + "/")
        shot(a, f"{width}-home")
        form = a.locator("form:has(input[name=kind][value=tictactoe])").first
        human = form.locator("input[name=opponent][value=human]")
        if human.count():
            human.first.check()
        else:
            form.locator("select[name=opponent]").select_option("human")
        form.locator("button[type=submit]").last.click()
        a.wait_for_url(re.compile(r"/games/\d+/"))
        gid = re.search(r"/games/(\d+)/", a.url).group(1)
        code = re.search(r"/join/([A-Za-z0-9_-]+)", a.content()).group(1)
        b.goto(BASE + f"/join/{code}")
        b.locator("main form button[type=submit]").first.click()
        b.wait_for_url(re.compile(r"/games/\d+/"))
        time.sleep(1)
        a.reload()
        shot(a, f"{width}-game")
        text = a.inner_text("body")
        check(
            "player: names as typed",
            na in text and na.capitalize() not in text,
            f"{width}: {na} re-capitalised on the game page",
        )
        # resign (b) then look at the panel: nobody outlined "to move"
        b.goto(BASE + f"/games/{gid}/")
        opener = b.locator("summary", has_text=re.compile("Resign", re.I))
        if opener.count():
            opener.first.click()
        b.locator(f"form[action='/games/{gid}/resign'] button").first.click()
        time.sleep(1.5)
        a.reload()
        shot(a, f"{width}-game-ended")
        tomove = a.locator(".to-move, [aria-current], .player--to-move, .seat--to-move").count()
        check(
            "player: panel after the end",
            tomove == 0,
            f"{width}: {tomove} element(s) marked to move after the end",
        )
        text = a.inner_text("body")
        check(
            "player: names as typed",
            na.capitalize() not in text and nb.capitalize() not in text,
            f"{width}: re-capitalised after the end",
        )
        a.goto(BASE + f"/@/{na}")
        shot(a, f"{width}-profile")
        a.goto(BASE + "/games/history")
        shot(a, f"{width}-history")
        check(
            "player: names as typed",
            na.capitalize() not in a.inner_text("body"),
            f"{width}: history re-capitalises",
        )
        # Own seek in the lobby shows no Accept
        a.goto(BASE + "/lobby/")
        form = a.locator("form[action='/lobby/seeks']").first
        form.locator("button[type=submit]").first.click()
        a.wait_for_load_state()
        a.goto(BASE + "/lobby/")
        shot(a, f"{width}-lobby-own-seek")
        mine = a.locator("li, tr, article").filter(has_text=na)
        accept = mine.locator("button", has_text=re.compile("Accept", re.I)).count() if mine.count() else 0
        check("player: own seek", accept == 0, f"{width}: own seek shows Accept ({accept})")
        browser.close()


if __name__ == "__main__":
    import lib

    lib.BASE = BASE
    for w in (360, 1366):
        try:
            run(w)
        except Exception as exc:
            check("players (script)", False, f"{w}: crashed {exc!r}"[:300])
    report()
