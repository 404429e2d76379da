"""Shared helpers for the second round: a browser (cookies, CSRF), accounts, tallies."""

from __future__ import annotations

import collections
import json
import re
import secrets
import sys

import requests

BASE = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].startswith("http") else "http://127.0.0.1:9800"
TALLY: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])  # requests, held, not held
FAILS: list[str] = []


def check(kind: str, ok: bool, what: str, requests_made: int = 1) -> None:
    row = TALLY[kind]
    row[0] += requests_made
    row[1 if ok else 2] += 1
    if not ok:
        FAILS.append(f"{kind}: {what}")
        print("  NOT HELD:", kind, what, flush=True)


def report() -> None:
    print("\n== tally ==")
    for kind, (n, held, broke) in TALLY.items():
        print(f"{kind:40s} requests={n:5d} held={held:4d} not_held={broke}")
    print("failures:", len(FAILS))
    for f in FAILS:
        print(" -", f)


class Browser:
    def __init__(self, base: str = BASE) -> None:
        self.base = base
        self.s = requests.Session()
        self.s.headers["Origin"] = base

    def csrf(self) -> str:
        token = self.s.cookies.get("csrftoken")
        if not token:
            self.s.get(self.base + "/")
            token = self.s.cookies.get("csrftoken")
        return token or ""

    def get(self, path: str, **kw):  # type: ignore[no-untyped-def]
        return self.s.get(self.base + path, allow_redirects=False, **kw)

    def post(self, path: str, data: dict | None = None, **kw):  # type: ignore[no-untyped-def]
        data = dict(data or {})
        data["csrfmiddlewaretoken"] = self.csrf()
        headers = {"Referer": self.base + path, **kw.pop("headers", {})}
        return self.s.post(self.base + path, data=data, headers=headers, allow_redirects=False, **kw)

    def api(self, method: str, path: str, body=None, token: str | None = None, raw: str | None = None):  # type: ignore[no-untyped-def]
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.csrf(), "Referer": self.base + "/"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        return self.s.request(method, self.base + "/api/v1" + path, data=data, headers=headers)

    def signup(self, name: str, password: str = "a-long-pass-1234") -> requests.Response:
        self.get("/accounts/signup/")
        return self.post(
            "/accounts/signup/", {"username": name, "password1": password, "password2": password, "email": ""}
        )

    def login(self, name: str, password: str = "a-long-pass-1234") -> requests.Response:
        self.get("/accounts/login/")
        return self.post("/accounts/login/", {"login": name, "password": password})

    def token(self) -> str:
        answer = self.api("POST", "/account/tokens", {"name": "t" + secrets.token_hex(3)})
        assert answer.status_code == 201, answer.text
        return answer.json()["token"]


def fresh_name(prefix: str = "u") -> str:
    return prefix + secrets.token_hex(4)


def field_error(html: str) -> bool:
    return 'aria-invalid="true"' in html or "errorlist" in html


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
