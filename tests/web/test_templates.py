"""The templates' shape: one file per game with its named parts, no include-only files,
no shared template that asks which game it is showing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template

from ..kinds import KINDS

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
GAME_PARTS = ("board", "pieces", "human_opponent")
PAGE_PARTS = ("status", "live_notice", "board", "pieces", "seats", "hint")


@pytest.mark.parametrize("kind", KINDS)
def test_each_game_has_one_template_with_its_parts(kind: str) -> None:
    for part in GAME_PARTS:
        get_template(f"games/kinds/{kind}.html#{part}")


def test_the_game_page_names_its_parts() -> None:
    for part in PAGE_PARTS:
        get_template(f"games/game.html#{part}")
    get_template("games/review.html#table")


def test_no_template_only_includes_another() -> None:
    for path in TEMPLATES.rglob("*.html"):
        text = re.sub(r"\{%\s*load [^%]*%\}|\{#.*?#\}", "", path.read_text()).strip()
        assert not re.fullmatch(r"\{%\s*include [^%]*%\}", text), path


def test_shared_templates_do_not_branch_on_the_game() -> None:
    for path in TEMPLATES.rglob("*.html"):
        assert not re.search(r"kind\s*==", path.read_text()), path
