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


PROJECT_PACKAGES = {"games", "quarto_site"}
# Django-side modules that still import inside a function to dodge a cycle (issue 12
# removes them); this list only shrinks. The pure parts (engine, ai, formats) have none.
FUNCTION_IMPORTS_ALLOWED = {GAMES / "services.py", GAMES / "ai_runner.py"}


def is_project_import(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or top(node.module or "") in PROJECT_PACKAGES
    return any(top(alias.name) in PROJECT_PACKAGES for alias in node.names)


def imports_inside_functions(path: Path) -> list[str]:
    """Project imports made in a function body: a cycle dodged, or a dependency hidden."""
    found = {
        (node.lineno, ast.unparse(node))
        for func in ast.walk(ast.parse(path.read_text()))
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(func)
        if isinstance(node, ast.Import | ast.ImportFrom) and is_project_import(node)
    }
    return [f"{path.name}:{line} {text}" for line, text in sorted(found)]


@pytest.mark.parametrize(
    "path",
    [p for p in python_files(GAMES) if p not in FUNCTION_IMPORTS_ALLOWED],
    ids=lambda p: str(p.relative_to(GAMES)),
)
def test_no_project_import_inside_a_function(path: Path) -> None:
    assert imports_inside_functions(path) == []


@pytest.mark.parametrize("path", sorted(FUNCTION_IMPORTS_ALLOWED), ids=lambda p: p.name)
def test_the_allow_list_of_function_imports_only_shrinks(path: Path) -> None:
    assert imports_inside_functions(path), f"{path.name} no longer needs its place in the allow-list"


def test_the_guard_catches_an_import_inside_a_function(tmp_path: Path) -> None:
    bad = tmp_path / "mod.py"
    bad.write_text(
        "import json\n"
        "from games.engine import quarto\n"
        "def f():\n    from .connect import bitboards\n    import games.ai\n    import os\n"
        "class C:\n    async def g(self):\n        from games import services\n"
    )
    assert [line.split(" ", 1)[1] for line in imports_inside_functions(bad)] == [
        "from .connect import bitboards",
        "import games.ai",
        "from games import services",
    ]


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
