"""The links about a game that other pages show (games' game-link hook)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext

from games import catalog
from learn.steps import KIND


def rules_link(kind: str) -> tuple[str, str] | None:
    if kind not in catalog.CATALOG:
        return None
    title = catalog.get(kind).title
    return gettext("Rules of %(game)s") % {"game": title}, reverse("learn:rules", args=[kind])


def lesson_link(kind: str) -> tuple[str, str] | None:
    if kind != KIND:
        return None
    return gettext("Learn by playing: a guided first game"), reverse("learn:quarto")
