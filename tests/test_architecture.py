"""Layering rules from docs/architecture.md, checked on the source itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
STDLIB = set(sys.stdlib_module_names)
WRITES = {
    "save",
    "create",
    "update",
    "delete",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
}


def python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "migrations" not in p.parts)


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                package = path.relative_to(ROOT).with_suffix("").parts[: -node.level]
                names.append(".".join([*package, node.module] if node.module else package))
            else:
                names.append(node.module or "")
    return names


def top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("path", python_files(GAMES / "engine"), ids=lambda p: p.name)
def test_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    for name in imported_modules(path):
        assert top(name) in STDLIB or name.startswith("games.engine"), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", python_files(GAMES / "ai"), ids=lambda p: p.name)
def test_ai_imports_no_django_and_no_web_code(path: Path) -> None:
    for name in imported_modules(path):
        assert top(name) != "django" and top(name) != "channels", f"{path.name} imports {name}"
        if top(name) == "games":
            assert name.startswith(("games.engine", "games.ai")), f"{path.name} imports {name}"


def writer_calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            receiver = ast.unparse(node.func.value)
            if receiver.startswith(("request.session", "self.scope")):
                continue  # the browser's own session, not a game
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node.func)}")
    return found


EDGE_MODULES = [
    p
    for p in [
        GAMES / "views.py",
        GAMES / "consumers.py",
        GAMES / "api.py",
        *python_files(GAMES / "management"),
    ]
    if p.exists()
]


@pytest.mark.parametrize("path", EDGE_MODULES, ids=lambda p: p.name)
def test_views_consumers_and_commands_change_games_only_through_the_service(path: Path) -> None:
    assert writer_calls(path) == []


def test_the_guard_catches_a_direct_write(tmp_path: Path) -> None:
    bad = tmp_path / "views.py"
    bad.write_text("def view(request):\n    Move.objects.create(game=g, ply=1)\n    game.save()\n")
    assert len(writer_calls(bad)) == 2
