"""Lighthouse's four scores for the site's main pages, on a phone and on a desktop.

Starts the site as it is served (collected static files: hashed, compressed; DEBUG off) on a
fresh SQLite file, with an account that has played and a game in play, then runs Lighthouse
(pinned in bench/lighthouse/package.json) in Debian's Chromium against each page and prints
one row per page and form factor: performance, accessibility, best practices, SEO (0-100).
The rules page is measured when the site has one.

    npm ci --prefix bench/lighthouse        # once: Lighthouse itself, from the npm registry
    .venv/bin/python bench/lighthouse.py [--port 9600] [--only home,lobby] [--details]

``--details`` lists, under each row, the audits that cost points. ``CHROME_PATH`` chooses the
browser (default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
ASGI = "quarto_site.asgi:application"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")

# Run in the site's own shell: an account with a finished game (its profile has a history),
# and a Quarto game in play against the computer, the person to move.
SETUP = """
from django.contrib.auth.models import User
from django.test import Client
User.objects.create_user("lighthouse", password="a long secret 123")
client = Client(HTTP_HOST="127.0.0.1")  # a host the settings allow
client.login(username="lighthouse", password="a long secret 123")
new = {"kind": "tictactoe", "opponent": "ai", "level": "beginner", "seat": "first"}
client.post(client.post("/games/new", new)["Location"].rstrip("/") + "/resign")
new = {"kind": "quarto", "opponent": "ai", "level": "beginner", "seat": "first"}
print("GAME", client.post("/games/new", new)["Location"])
"""


def manage(env: dict[str, str], *args: str) -> str:
    command = [sys.executable, "manage.py", *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"manage.py {args[0]} failed:\n{done.stderr}")
    return done.stdout


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except (OSError, urllib.error.HTTPError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def exists(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def audit(url: str, desktop: bool, out: Path) -> dict[str, object]:
    flags = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}"]
    command += [f"--chrome-flags={flags}", "--only-categories=" + ",".join(CATEGORIES)]
    if desktop:
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    for _ in range(2):  # once more when the browser failed to start or load (a busy machine)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode == 0:
            report: dict[str, object] = json.loads(out.read_text())
            return report
    raise RuntimeError((done.stderr.strip().splitlines() or ["no message"])[-1])


def losses(report: dict[str, object]) -> list[str]:
    """The audits with a weight that did not score full marks, by category."""
    categories: dict[str, dict[str, object]] = report["categories"]  # type: ignore[assignment]
    audits: dict[str, dict[str, object]] = report["audits"]  # type: ignore[assignment]
    lines = []
    for name, category in categories.items():
        for ref in category["auditRefs"]:  # type: ignore[attr-defined]
            found = audits[ref["id"]]
            score = found.get("score")
            if ref["weight"] and score is not None and float(score) < 1:  # type: ignore[arg-type]
                lines.append(f"      {name}: {ref['id']} ({found.get('displayValue') or score})")
    if lines:  # where the main thread's time went (what blocking time is made of)
        details: Any = audits.get("mainthread-work-breakdown", {}).get("details") or {}
        items = details.get("items", [])
        spent = ", ".join(f"{i['groupLabel']} {i['duration']:.0f} ms" for i in items[:5])
        lines.append(f"      main thread: {spent}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=9600)
    parser.add_argument("--only", default="", help="page names, comma-separated")
    parser.add_argument("--details", action="store_true", help="list the audits that cost points")
    parser.add_argument("--forms", default="mobile,desktop", help="form factors, comma-separated")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: npm ci --prefix bench/lighthouse")

    with tempfile.TemporaryDirectory(prefix="lighthouse-") as folder:
        env = {
            **os.environ,
            "SQLITE_PATH": f"{folder}/db.sqlite3",
            "STATIC_ROOT": f"{folder}/static",
            "SECRET_KEY": "lighthouse-bench-only",
            "DJANGO_DEBUG": "0",
        }
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        game = manage(env, "shell", "-c", SETUP).split("GAME", 1)[1].strip()
        base = f"http://127.0.0.1:{args.port}"
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "daphne"), "-p", str(args.port), ASGI],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(base + "/healthz")
            pages = {
                "home": "/",
                "lobby": "/lobby/",
                "game in play": game,
                "profile": "/@/lighthouse/",
                "leaderboards": "/ratings/",
                "rules": "/rules/quarto/",
                "analysis board": "/analysis/quarto/",
            }
            if not exists(base + pages["rules"]):
                del pages["rules"]
            if args.only:
                pages = {name: path for name, path in pages.items() if name in args.only.split(",")}
            print(f"{'page':<16} {'form':<8} " + " ".join(f"{c[:13]:>13}" for c in CATEGORIES))
            for name, path in pages.items():
                for desktop in [form == "desktop" for form in args.forms.split(",")]:
                    form = "desktop" if desktop else "mobile"
                    try:
                        report = audit(base + path, desktop, Path(folder) / "report.json")
                    except RuntimeError as error:
                        print(f"{name:<16} {form:<8} failed: {error}", flush=True)
                        continue
                    categories: dict[str, dict[str, float]] = report["categories"]  # type: ignore[assignment]
                    scores = [round(100 * categories[c]["score"]) for c in CATEGORIES]
                    print(f"{name:<16} {form:<8} " + " ".join(f"{s:>13}" for s in scores), flush=True)
                    if args.details:
                        print("\n".join(losses(report)) or "      (nothing lost)", flush=True)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:  # a socket left open keeps it waiting
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
