"""The templates' shape: one file per game with its named parts, no include-only files,
no shared template that asks which game it is showing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.templatetags.static import static
from django.test import Client

from games import catalog
from games.presenting import stylesheets

from ..kinds import KINDS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# Every template: the shared ones, and each game's in its package.
ALL_TEMPLATES = [*TEMPLATES.rglob("*.html"), *(ROOT / "games" / "kinds").glob("*/templates/**/*.html")]
GAME_PARTS = ("board", "pieces", "human_opponent")
PAGE_PARTS = ("status", "live_notice", "board", "pieces", "seats", "hint")


@pytest.mark.parametrize("kind", KINDS)
def test_each_game_has_one_template_with_its_parts(kind: str) -> None:
    for part in GAME_PARTS:
        get_template(f"{catalog.get(kind).template}#{part}")


def test_the_game_page_names_its_parts() -> None:
    for part in PAGE_PARTS:
        get_template(f"games/game.html#{part}")
    get_template("games/replay.html#study")


def test_no_template_only_includes_another() -> None:
    assert len(ALL_TEMPLATES) > len(list(TEMPLATES.rglob("*.html")))
    for path in ALL_TEMPLATES:
        text = re.sub(r"\{%\s*load [^%]*%\}|\{#.*?#\}", "", path.read_text()).strip()
        assert not re.fullmatch(r"\{%\s*include [^%]*%\}", text), path


def test_shared_templates_do_not_branch_on_the_game() -> None:
    for path in TEMPLATES.rglob("*.html"):
        assert not re.search(r"kind\s*==", path.read_text()), path


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.django_db
def test_each_game_s_stylesheets_live_in_its_package_and_pages_get_them(kind: str, client: Client) -> None:
    spec = catalog.get(kind)
    package = ROOT / "games" / "kinds" / kind
    for path in (*spec.stylesheets, *spec.scripts):
        found = finders.find(path)
        assert isinstance(found, str) and Path(found).is_relative_to(package), path
    # Joined into the site's one stylesheet, which every page links.
    assert all(f"/* {path} */" in stylesheets.bundle_path().read_text() for path in spec.stylesheets)
    page = client.get("/").content.decode()
    assert f'href="{static(stylesheets.BUNDLE)}"' in page


def test_shared_stylesheets_and_scripts_never_name_a_game() -> None:
    shared = [*(ROOT / "static" / "css").glob("*.css"), *(ROOT / "static" / "js").glob("*.js")]
    for path in shared:
        text = path.read_text()
        named = [kind for kind in KINDS if re.search(rf"[-.]{kind}\b|\b{kind}[-_](?!site)", text)]
        assert named == [], f"{path.name} names {named}"
