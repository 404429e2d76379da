# ruff: noqa: RUF001, E501  (look-alike letters and whole records are the point of these lines)
"""HTTP attacks of the second round against one server: python http_round.py http://host:port [parts]"""

from __future__ import annotations

import concurrent.futures as cf
import json
import sys
import time

from lib import BASE, Browser, check, field_error, fresh_name, report, text_of

PARTS = sys.argv[2].split(",") if len(sys.argv) > 2 else ["all"]


def want(part: str) -> bool:
    return "all" in PARTS or part in PARTS


ODD_RAW = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "1" + "0" * 400,
    "-5",
    "true",
    '"²"',
    '"180"',
    "1.5e3",
    "null",
]


def two_accounts() -> tuple[Browser, str, Browser, str]:
    a, b = Browser(), Browser()
    assert a.signup(fresh_name("a")).status_code == 302
    assert b.signup(fresh_name("b")).status_code == 302
    return a, a.token(), b, b.token()


def odd_numbers() -> None:
    anon = Browser()
    a = Browser()
    a.signup(fresh_name("odd"))
    tok = a.token()
    for raw in ODD_RAW:
        for clock in (
            f'{{"initial": {raw}, "increment": 2}}',
            f'{{"initial": 180, "increment": {raw}}}',
            f'{{"days": {raw}}}',
        ):
            bodies = {
                "/games": f'{{"game": "tictactoe", "opponent": "human", "clock": {clock}}}',
                "/seeks": f'{{"game": "tictactoe", "clock": {clock}}}',
                "/records": f'{{"game": "tictactoe", "clock": {clock}, "moves": ["b2"]}}',
            }
            for door, body in bodies.items():
                r = anon.api("POST", door, raw=body)
                ok = (
                    r.status_code == 400
                    if raw not in ("1.5e3", "null", '"180"')
                    else r.status_code in (201, 400)
                )
                check("odd numbers: API clock", ok, f"{door} {clock} -> {r.status_code} {r.text[:80]}")
            # pairing needs a token; answer must come back (204 after a wait would be a valid clock)
            if raw not in ("1.5e3", "null", '"180"'):
                r = a.api("POST", "/pairing", raw=f'{{"game": "tictactoe", "clock": {clock}}}', token=tok)
                check(
                    "odd numbers: API clock",
                    r.status_code == 400,
                    f"/pairing {clock} -> {r.status_code} {r.text[:80]}",
                )
    # pages
    home = Browser()
    home.get("/")
    for value in ["inf", "nan", "1e400", "-inf", "²", "٣", "1" * 500, "-3"]:
        form = {
            "kind": "tictactoe",
            "opponent": "human",
            "seat": "first",
            "clock": "custom",
            "clock_minutes": value,
            "clock_increment": "2",
        }
        r = home.post("/games/new", form)
        check(
            "odd numbers: page forms",
            r.status_code == 400 and field_error(r.text) and value in r.text,
            f"/games/new clock_minutes={value} -> {r.status_code}",
        )
        r = home.post("/games/new", {**form, "clock": f"{value}+0"})
        check(
            "odd numbers: page forms",
            r.status_code in (400,),
            f"/games/new clock={value}+0 -> {r.status_code}",
        )
        lob = a.post(
            "/lobby/seeks",
            {
                "game": "tictactoe",
                "mode": "rated",
                "clock": "3+2",
                "seat": "random",
                "rating_min": value,
                "rating_max": "",
            },
        )
        check(
            "odd numbers: page forms",
            lob.status_code == 400 and field_error(lob.text),
            f"/lobby/seeks rating_min={value} -> {lob.status_code}",
        )
        lob = a.post(
            "/lobby/seeks", {"game": "tictactoe", "mode": "casual", "clock": f"{value}+0", "seat": "random"}
        )
        check(
            "odd numbers: page forms",
            lob.status_code == 400,
            f"/lobby/seeks clock={value}+0 -> {lob.status_code}",
        )


def records() -> None:
    anon = Browser()
    head = '[Game "tictactoe"]\n[TimeControl "180+2"]\n\n'
    for clk in ["597:00:00", "500:00:00.1", "9999:59:59", "0:00:" + "9" * 400, "٣:00:00", "-1:00:00"]:
        r = anon.api(
            "POST", "/records", json.dumps(head + f"1. b2 {{[%clk {clk}]}} 2. a1 {{[%clk 0:03:00]}}\n")
        )
        check(
            "records: clock ranges",
            r.status_code == 400 and r.json().get("error") == "bad_record",
            f"[%clk {clk[:20]}] -> {r.status_code} {r.text[:100]}",
        )
    for first in ["2147483648", "99999999999999999999", "1800000001", "1" + "0" * 400, "NaN", "1e400", "-1"]:
        raw = f'{{"game": "tictactoe", "clock": {{"initial": 180, "increment": 2}}, "moves": ["b2", "a1"], "clocks": [{first}, 1]}}'
        r = anon.api("POST", "/records", raw=raw)
        check(
            "records: clock ranges",
            r.status_code == 400 and r.json().get("error") == "bad_record",
            f"clocks [{first[:20]}] -> {r.status_code} {r.text[:100]}",
        )
    r = anon.api(
        "POST",
        "/records",
        raw='{"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "moves": ["b2", "a1"], "clocks": [1800000000, 1]}',
    )
    check(
        "records: clock ranges",
        r.status_code == 201,
        f"clocks at the limit -> {r.status_code} {r.text[:100]}",
    )


def rated_help() -> None:
    a, ta, b, tb = two_accounts()
    seek = a.api(
        "POST",
        "/seeks",
        {"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "rated": True, "seat": "first"},
        token=ta,
    )
    assert seek.status_code == 201, seek.text
    acc = b.api("POST", f"/seeks/{seek.json()['id']}/accept", token=tb).json()
    gid = acc["game"]
    st = a.api("GET", f"/seeks/{seek.json()['id']}", token=ta).json()
    check("rated: no engine help", st["status"] == "taken", str(st))
    for who, tok in (("seeker", ta), ("acceptor", tb)):
        r = a.api("GET", f"/games/{gid}/analysis", token=tok)
        check(
            "rated: no engine help",
            r.status_code == 403 and r.json()["error"] == "rated",
            f"{who} analysis -> {r.status_code} {r.text[:80]}",
        )
    for br in (a, b):
        page = br.get(f"/games/{gid}/").text
        check("rated: no engine help", f"/games/{gid}/hint" not in page, "hint button on a rated page")
        h = br.get(f"/games/{gid}/hint", headers={"HX-Request": "true"})
        check(
            "rated: no engine help",
            "hint--" not in h.text and h.status_code < 500,
            f"hint -> {h.status_code}",
        )
    # resign at ply 0 (and after one move): aborted, nobody rated
    before = b.api("GET", "/account", token=tb).json()["ratings"]
    r = b.api("POST", f"/games/{gid}/resign", token=tb)
    g = b.api("GET", f"/games/{gid}").json()
    after = b.api("GET", "/account", token=tb).json()["ratings"]
    check(
        "rating farming: resign at ply 0",
        r.status_code == 200 and before == after and "no_start" in json.dumps(g),
        f"resign ply0 -> {r.status_code} {json.dumps(g)[:200]} ratings {before} -> {after}",
    )
    # a second seek: one move by the first seat, then the second resigns
    seek = a.api(
        "POST",
        "/seeks",
        {"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "rated": True, "seat": "first"},
        token=ta,
    )
    gid = b.api("POST", f"/seeks/{seek.json()['id']}/accept", token=tb).json()["game"]
    seat_tok = a.api("GET", f"/seeks/{seek.json()['id']}", token=ta).json()
    m = a.api("POST", f"/games/{gid}/moves", {"move": "b2", "ply": 0}, token=ta)
    r = b.api("POST", f"/games/{gid}/resign", token=tb)
    after2 = b.api("GET", "/account", token=tb).json()["ratings"]
    check(
        "rating farming: resign at ply 0",
        before == after2,
        f"resign after one move ({m.status_code}, {seat_tok}) -> {r.status_code} ratings {before} -> {after2}",
    )
    # takeback against the computer in a rated game (if a level is rated)
    c = Browser()
    c.signup(fresh_name("tk"))
    tc = c.token()
    levels = ["club", "casual", "strong", "expert", "master", "beginner"]
    made = None
    for level in levels:
        made = c.api(
            "POST",
            "/games",
            {
                "game": "tictactoe",
                "opponent": "ai",
                "level": level,
                "seat": "first",
                "rated": True,
                "clock": {"initial": 180, "increment": 2},
            },
            token=tc,
        )
        if made.status_code == 201:
            break
    if made is not None and made.status_code == 201:
        g = made.json()
        gid, stok = g["id"], g["token"] or tc
        c.api("POST", f"/games/{gid}/moves", {"move": "b2", "ply": 0}, token=stok)
        time.sleep(3)
        tb_r = c.api("POST", f"/games/{gid}/takeback/yes", token=stok)
        page = c.get(f"/games/{gid}/")
        check(
            "rated: no engine help",
            tb_r.status_code in (403, 404, 409) and f"/games/{gid}/takeback" not in page.text,
            f"rated v computer takeback -> {tb_r.status_code} {tb_r.text[:100]}",
        )
        an = c.api("GET", f"/games/{gid}/analysis", token=stok)
        check(
            "rated: no engine help",
            an.status_code == 403,
            f"rated v computer analysis by seat token -> {an.status_code}",
        )
        an = c.api("GET", f"/games/{gid}/analysis", token=tc)
        check(
            "rated: no engine help",
            an.status_code == 403,
            f"rated v computer analysis by personal token -> {an.status_code}",
        )
        # copy through a record
        rec = c.api("GET", f"/games/{gid}/record?format=json")
        imp = c.api("POST", "/records", raw=rec.text)
        if imp.status_code == 201:
            an = c.api("GET", f"/games/{imp.json()['id']}/analysis", token=imp.json()["token"])
            check(
                "rated: no engine help",
                an.status_code == 403,
                f"analysis of an imported copy -> {an.status_code}",
            )
    else:
        print(
            "  (no rated computer level on this server:", made.text[:100] if made is not None else None, ")"
        )


def personal_token_analysis() -> None:
    a = Browser()
    a.signup(fresh_name("an"))
    tok = a.token()
    g = a.api("POST", "/games", {"game": "tictactoe", "opponent": "human", "seat": "first"}, token=tok).json()
    for t in (tok, "nonsense-token", g["token"]):
        r = a.api("GET", f"/games/{g['id']}/analysis", token=t)
        check(
            "analysis with a personal token",
            r.status_code in (200, 401, 403),
            f"-> {r.status_code} {r.text[:100]}",
        )
    # revoked token on seeks
    name = a.api("GET", "/account", token=tok).json()["tokens"][0]
    d = a.api("DELETE", f"/account/tokens/{name}")
    r = a.api("POST", "/seeks", {"game": "tictactoe", "clock": {"initial": 180, "increment": 2}}, token=tok)
    check(
        "revoked token on seeks",
        d.status_code == 204 and r.status_code == 401,
        f"revoke {d.status_code}; seek -> {r.status_code} {r.text[:80]}",
    )
    r = a.api("GET", "/seeks/1", token=tok)
    check("revoked token on seeks", r.status_code in (401, 404), f"get seek with revoked -> {r.status_code}")


def floods() -> None:
    made = 0
    most = 0
    codes: dict[int, int] = {}
    for _ in range(35):
        br = Browser()  # cookie-less: a new session each
        br.get("/lobby/")
        r = br.post("/lobby/seeks", {"game": "tictactoe", "mode": "casual", "clock": "3+2", "seat": "random"})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
        made += r.status_code in (302, 303)
        most = max(most, len(Browser().api("GET", "/seeks").json()))
    check(
        "seek floods: pages, cookie-less",
        most <= 10,
        f"35 cookie-less posts made {made} ({codes}), at most {most} open at once",
        105,
    )
    api_made = 0
    for _ in range(20):
        r = Browser().api("POST", "/seeks", {"game": "connect", "clock": {"days": 3}})
        api_made += r.status_code == 201
        most = max(most, len(Browser().api("GET", "/seeks").json()))
        if r.status_code == 201:
            lapses = [s for s in Browser().api("GET", "/seeks").json() if s["id"] == r.json()["id"]]
            check(
                "correspondence lapse", bool(lapses) and lapses[0]["lapses"] is not None, f"lapses {lapses}"
            )
    check(
        "seek floods: API, per address",
        most <= 10,
        f"API anonymous seeks after 35 page ones: {api_made} made, at most {most} open at once",
        40,
    )
    r = Browser().api("POST", "/seeks", {"game": "tictactoe", "clock": {"days": 3, "paused": True}})
    check(
        "paused clock refused",
        r.status_code == 400 and r.json()["error"] == "bad_clock",
        f"-> {r.status_code} {r.text[:80]}",
    )
    acc = Browser()
    acc.signup(fresh_name("pz"))
    r = acc.api(
        "POST", "/pairing", {"game": "tictactoe", "clock": {"days": 3, "paused": True}}, token=acc.token()
    )
    check("paused clock refused", r.status_code == 400, f"pairing paused -> {r.status_code} {r.text[:80]}")


def usernames() -> None:
    base = fresh_name("race")
    variants = [base, base.upper(), base.capitalize(), base.swapcase()] * 4
    with cf.ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(lambda n: Browser().signup(n).status_code, variants))
    check(
        "username case race (16 at once)",
        codes.count(302) == 1,
        f"16 sign-ups: {codes.count(302)} accounts ({codes})",
        32,
    )
    log = Browser().login(base.upper())
    check(
        "username case race (16 at once)",
        log.status_code == 302,
        f"log in in another case -> {log.status_code}",
    )
    for name in [
        "Player1",
        "Computer1",
        "Moderator_",
        "Site-",
        "deleted-player",
        "PIayer1",
        "M0derator",
        "Player_I",
        "Modera7or",
        "Sіte",
        "Opponent",
        "YourOpponent",
    ]:
        r = Browser().signup(name)
        check(
            "confusable usernames",
            r.status_code == 200 and field_error(r.text),
            f"sign-up {name!r} -> {r.status_code}",
        )
    # display names on a game: /games/<id>/name
    br = Browser()
    br.get("/")
    r = br.post("/games/new", {"kind": "tictactoe", "opponent": "human", "seat": "first", "clock": ""})
    gid = r.headers.get("Location", "").strip("/").split("/")[-1]
    for name in [
        "Моderator",
        "Ѕite",
        "Рlayer 1",
        "cοmputer casual",
        "Mod erator",
        "Player I",
        "ＰＬＡＹＥＲ１",
        "Your opponent",
        "S i t e",
        "Player\u200b1",
    ]:
        r = br.post(f"/games/{gid}/name", {"name": name})
        check(
            "confusable display names",
            r.status_code in (400, 403)
            or "bad_name" in r.text
            or "cannot" in text_of(r.text).lower()
            or "not allowed" in text_of(r.text).lower(),
            f"display name {name!r} -> {r.status_code} {text_of(r.text)[:120]}",
        )


def sockets_cap() -> None:
    pass


if __name__ == "__main__":
    started = time.time()
    for part, fn in [
        ("odd", odd_numbers),
        ("records", records),
        ("rated", rated_help),
        ("token", personal_token_analysis),
        ("floods", floods),
        ("names", usernames),
    ]:
        if want(part):
            print("--", part, flush=True)
            try:
                fn()
            except Exception as exc:
                check(part + " (script)", False, f"crashed: {exc!r}")
    report()
    print(f"{time.time() - started:.0f} s against {BASE}")
