"""Closed and banned accounts' seeks, a void, the rating bound, notices.
python accounts_round.py http://host:port ADMIN_NAME ADMIN_PASSWORD"""

from __future__ import annotations

import json
import re
import sys
import time

from lib import BASE, Browser, check, fresh_name, report, text_of

ADMIN, ADMIN_PASSWORD = sys.argv[2], sys.argv[3]
SEEK = {"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "rated": True, "seat": "first"}


def account(prefix: str) -> tuple[Browser, str, str]:
    br = Browser()
    name = fresh_name(prefix)
    assert br.signup(name).status_code == 302
    return br, br.token(), name


def admin() -> Browser:
    br = Browser()
    br.get("/admin/login/")
    r = br.post("/admin/login/?next=/admin/", {"username": ADMIN, "password": ADMIN_PASSWORD})
    assert r.status_code == 302, r.status_code
    return br


def admin_action(br: Browser, name: str, action: str) -> int:
    page = br.get(f"/admin/accounts/account/?q={name}").text
    pk = re.search(r'name="_selected_action" value="(\d+)"', page).group(1)
    r = br.post("/admin/accounts/account/", {"action": action, "_selected_action": pk, "index": "0"})
    return r.status_code


def ratings(br: Browser, name: str) -> list:
    return br.api("GET", f"/users/{name}").json()["ratings"]


def closed_and_banned() -> None:
    boss = admin()
    for how in ("close", "ban"):
        a, ta, na = account("cl")
        b, tb, nb = account("ac")
        open_seek = a.api("POST", "/seeks", SEEK, token=ta).json()
        taken = a.api("POST", "/seeks", SEEK, token=ta).json()
        game = b.api("POST", f"/seeks/{taken['id']}/accept", token=tb).json()
        a.api("POST", f"/games/{game['game']}/moves", {"move": "b2", "ply": 0}, token=taken["token"])
        b.api("POST", f"/games/{game['game']}/moves", {"move": "a1", "ply": 1}, token=tb)
        before = ratings(b, nb)
        if how == "close":
            a.get("/accounts/settings/")
            code = a.post("/accounts/close/", {"password": "a-long-pass-1234"}).status_code
        else:
            code = admin_action(boss, na, "ban")
        listed = [s["id"] for s in Browser().api("GET", "/seeks").json()]
        check(f"{how}d account's seeks", open_seek["id"] not in listed, f"{how} ({code}): seek still listed")
        c, tc, _ = account("ac")
        acc = c.api("POST", f"/seeks/{open_seek['id']}/accept", token=tc)
        check(
            f"{how}d account's seeks",
            acc.status_code in (404, 409),
            f"accept after {how} -> {acc.status_code} {acc.text[:80]}",
        )
        acc = Browser().api("POST", f"/seeks/{open_seek['id']}/accept")
        check(
            f"{how}d account's seeks",
            acc.status_code in (404, 409),
            f"anonymous accept after {how} -> {acc.status_code}",
        )
        mv = Browser().api(
            "POST", f"/games/{game['game']}/moves", {"move": "c3", "ply": 2}, token=taken["token"]
        )
        check(
            f"{how}d account's seeks",
            mv.status_code == 401,
            f"the taken seek's secret moves after {how} -> {mv.status_code} {mv.text[:80]}",
        )
        st = Browser().api("GET", f"/seeks/{taken['id']}", token=taken["token"])
        check(
            f"{how}d account's seeks",
            "token" not in st.text or st.status_code == 401 or st.json().get("token") is None,
            f"seek status with the secret -> {st.status_code} {st.text[:80]}",
        )
        for t in (ta, taken["token"]):
            r = Browser().api("POST", "/seeks", SEEK, token=t)
            check(
                f"{how}d account's seeks",
                r.status_code == 401,
                f"new seek with an old token after {how} -> {r.status_code}",
            )
        # b resigns the game a can no longer play: b's rating may change only as the game says
        b.api("POST", f"/games/{game['game']}/resign", token=tb)
        g = b.api("GET", f"/games/{game['game']}").json()
        after = ratings(b, nb)
        check(
            f"{how}d account's seeks",
            how == "close" or before == after,
            f"ban: opponent's rating {before} -> {after}, game {json.dumps(g.get('result'))[:120]}",
        )


def void_and_bound() -> None:
    boss = admin()
    cheat, tc, nc = account("ch")
    vict, tv, nv = account("vi")
    base = ratings(vict, nv)
    seek = cheat.api("POST", "/seeks", SEEK, token=tc).json()
    gid = vict.api("POST", f"/seeks/{seek['id']}/accept", token=tv).json()["game"]
    cheat.api("POST", f"/games/{gid}/moves", {"move": "b2", "ply": 0}, token=seek["token"])
    vict.api("POST", f"/games/{gid}/moves", {"move": "a1", "ply": 1}, token=tv)
    vict.api("POST", f"/games/{gid}/resign", token=tv)
    lost = ratings(vict, nv)
    check("rating bound", all(abs(r["rating"] - 1500) <= 700 for r in lost), f"after a loss {lost}")
    code = admin_action(boss, nc, "void_rated_games")
    time.sleep(1)
    back = ratings(vict, nv)
    norm = lambda rows: [(r["game"], r["speed"], r["rating"], r["rd"], r["games"]) for r in rows]  # noqa: E731
    check(
        "void restores rating, RD, games",
        code == 302
        and (
            (not base and all(r["games"] == 0 and r["rating"] == 1500 for r in back))
            or norm(base) == norm(back)
        ),
        f"void ({code}): before {base}, after loss {lost}, after void {back}",
    )
    page = text_of(
        Browser().get("/ratings/").text
        if Browser().get("/ratings/").status_code == 200
        else Browser().get("/leaderboards/").text
    )
    check("rating bound", "700" in page, "the ratings page does not say the bound")


def notices() -> None:
    a, _ta, na = account("nt")
    a.get("/accounts/email/")
    r = a.post("/accounts/email/", {"email": f"{na}@example.com", "action_add": ""})
    page = a.get("/accounts/email/").text
    check(
        "notices: address added becomes primary",
        r.status_code in (200, 302) and "primary" in page.lower(),
        f"add email -> {r.status_code}",
    )
    m = re.search(rf'value="{na}@example.com"[^>]*checked|checked[^>]*value="{na}@example.com"', page)
    check(
        "notices: address added becomes primary",
        bool(m) or "Primary" in text_of(page),
        "added address not marked primary",
    )


if __name__ == "__main__":
    started = time.time()
    for part, fn in [("closed", closed_and_banned), ("void", void_and_bound), ("notices", notices)]:
        print("--", part, flush=True)
        try:
            fn()
        except Exception as exc:
            check(part + " (script)", False, f"crashed: {exc!r}")
    report()
    print(f"{time.time() - started:.0f} s against {BASE}")
