"""Pages that load at once: one stylesheet, joined from its sources and kept up to date;
nothing else that holds up the first drawing; htmx only on the pages that swap parts of
themselves; the collected bundle hashed and compressed both ways."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.templatetags.static import static
from django.test import Client

from games.presenting import stylesheets
from quarto_site.staticstorage import StaticStorage

pytestmark = pytest.mark.django_db

HTMX = "django_htmx/htmx-2.min.js"


def head(html: str) -> str:
    return html.split("</head>", 1)[0]


def test_the_committed_bundle_is_its_sources_joined() -> None:
    assert stylesheets.bundle_path().read_text() == stylesheets.bundle_text()
    call_command("bundle_css", "--check")


def test_the_check_fails_on_a_stale_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stylesheets, "bundle_text", lambda: "/* changed */\n")
    with pytest.raises(CommandError, match="out of date"):
        call_command("bundle_css", "--check")


def test_every_stylesheet_of_the_site_is_in_the_bundle() -> None:
    # Every stylesheet in a static folder of the project, by its static path.
    root = stylesheets.bundle_path().parents[2]
    skipped = {".venv", "node_modules", "staticfiles", "bundle", "ninja"}
    found = {
        path.as_posix().split("/static/", 1)[1]
        for path in root.rglob("static/**/*.css")
        if not skipped & set(path.relative_to(root).parts)
    }
    assert found == set(stylesheets.sources()), found ^ set(stylesheets.sources())


def pages() -> dict[str, str]:
    User.objects.create_user("ann", password="a long secret 123")
    client = Client()
    new = {"kind": "tictactoe", "opponent": "ai", "level": "beginner", "seat": "first"}
    game = client.post("/games/new", new)
    addresses = ["/", "/lobby/", "/games/history", "/ratings/", "/@/ann/", "/tournaments/", game["Location"]]
    addresses += ["/rules/", "/rules/quarto/", "/learn/quarto/", "/analysis/quarto/", "/puzzles/"]
    addresses += [game["Location"].rstrip("/") + "/replay"]
    return {path: client.get(path, follow=True).content.decode() for path in addresses}


def test_a_page_waits_on_one_stylesheet_and_no_script() -> None:
    for path, html in pages().items():
        links = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert links == [static(stylesheets.BUNDLE)], (path, links)
        for script in re.findall(r"<script[^>]*>", head(html)):
            assert " defer" in script or " async" in script or 'type="module"' in script, (path, script)


def test_htmx_comes_only_with_the_pages_that_use_it() -> None:
    for path, html in pages().items():
        uses = re.search(r"\shx-(?!headers)[a-z-]+=|\sws-connect=", html) is not None
        assert (static(HTMX) in html) == uses, path


def test_the_collected_bundle_is_hashed_and_compressed(tmp_path: Path) -> None:
    storage = StaticStorage(location=tmp_path, base_url="/static/")
    target = tmp_path / stylesheets.BUNDLE
    target.parent.mkdir(parents=True)
    target.write_text(stylesheets.bundle_path().read_text())
    list(storage.post_process({stylesheets.BUNDLE: (storage, stylesheets.BUNDLE)}))
    hashed = storage.stored_name(stylesheets.BUNDLE)
    assert re.fullmatch(r"bundle/site\.[0-9a-f]{12}\.css", hashed), hashed
    for suffix in ("", ".gz", ".br"):
        assert (tmp_path / (hashed + suffix)).is_file(), suffix
    assert not target.exists()  # the plain name is not kept: pages link the hashed one
    assert (tmp_path / (hashed + ".br")).stat().st_size < (tmp_path / hashed).stat().st_size / 4
