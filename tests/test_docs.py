"""The docs' table of games is the catalog's: scripts/games_table.py makes it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from games import catalog

ROOT = Path(__file__).resolve().parent.parent


def games_table() -> ModuleType:
    spec = importlib.util.spec_from_file_location("games_table", ROOT / "scripts" / "games_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_table_of_games_is_the_catalog_s() -> None:
    script = games_table()
    doc = script.DOC.read_text()
    assert script.with_table(doc) == doc, "run: python scripts/games_table.py --write"
    for spec in catalog.CATALOG.values():
        assert f"`games/kinds/{spec.kind}/`" in doc


def test_the_table_has_a_row_per_game() -> None:
    lines = games_table().table().splitlines()
    assert len(lines) == 2 + len(catalog.CATALOG)
