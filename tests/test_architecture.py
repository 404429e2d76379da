"""Layering rules from docs/architecture.md, checked on the source itself."""

from __future__ import annotations

import ast
import re
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


# -- each game's package: pure, and about its own game only ---------------------------------

KINDS = GAMES / "kinds"
GAME_PACKAGES = sorted(p.parent for p in KINDS.glob("*/__init__.py"))
# What a game's package may use beside itself: the shared pure layers and the description.
GAME_PACKAGE_USES = ("games.engine", "games.ai", "games.formats", "games.spec")


def package_violations(path: Path, package: str, *, rules: bool) -> list[str]:
    """What a module of the game package ``package`` (``games.kinds.<kind>``) may not import:
    Django, project code above the pure layers, another game's package; for its rules
    module, anything but the standard library, the engine's protocol and itself."""
    found = []
    for name in imported_modules(path):
        own = name == package or name.startswith(package + ".")
        if (
            top(name) in ("django", "channels", "ninja")
            or (top(name) == "games" and not own and not name.startswith(GAME_PACKAGE_USES))
            or (rules and not own and top(name) not in STDLIB and not within(name, ("games.engine",)))
        ):
            found.append(name)
    return found


@pytest.mark.parametrize(
    "path",
    [p for package in GAME_PACKAGES for p in python_files(package)],
    ids=lambda p: str(p.relative_to(KINDS)),
)
def test_each_game_package_is_pure_and_its_own(path: Path) -> None:
    package = ".".join(path.relative_to(ROOT).parts[:3])  # games.kinds.<kind>
    assert package_violations(path, package, rules=path.name == "rules.py") == []


def test_every_registered_game_is_a_package_named_by_its_kind() -> None:
    assert {p.name for p in GAME_PACKAGES} >= game_names()
    for package in GAME_PACKAGES:
        assert (package / "rules.py").exists(), f"{package.name} has no rules module"
        assert (package / "templates" / "kinds" / f"{package.name}.html").exists(), (
            f"{package.name}: no partials"
        )


def test_the_package_guard_catches_django_another_game_and_impure_rules(tmp_path: Path) -> None:
    bad = tmp_path / "rules.py"
    bad.write_text(
        "import re\nfrom django.db import models\nfrom games.kinds.quarto import rules\n"
        "from games.formats import boards\nfrom games.engine.grid import FILES\n"
        "from games.kinds.toy import board\n"
    )
    found = package_violations(bad, "games.kinds.toy", rules=True)
    assert found == ["django.db", "games.kinds.quarto", "games.formats"]
    assert package_violations(bad, "games.kinds.toy", rules=False) == ["django.db", "games.kinds.quarto"]


PROJECT_PACKAGES = {"games", "quarto_site", "accounts"}
# Modules allowed to import inside a function: none. (GamesConfig.ready() is not a
# dodge: Django imports apps.py before the models exist, so the subscribers that use
# them are wired there, as Django documents for signal receivers; see ready_imports.)
FUNCTION_IMPORTS_ALLOWED: set[Path] = set()
APPS = GAMES / "apps.py"


def is_project_import(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or top(node.module or "") in PROJECT_PACKAGES
    return any(top(alias.name) in PROJECT_PACKAGES for alias in node.names)


def imports_inside_functions(path: Path) -> list[str]:
    """Project imports made in a function body: a cycle dodged, or a dependency hidden.
    The one exception is the app config's ``ready()`` in games/apps.py (see above)."""
    found = {
        (node.lineno, ast.unparse(node))
        for func in ast.walk(ast.parse(path.read_text()))
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        and not (path == APPS and func.name == "ready")
        for node in ast.walk(func)
        if isinstance(node, ast.Import | ast.ImportFrom) and is_project_import(node)
    }
    return [f"{path.name}:{line} {text}" for line, text in sorted(found)]


def test_the_app_config_imports_only_what_it_subscribes() -> None:
    """apps.ready() imports the subscribers and the event stream, nothing else."""
    tree = ast.parse(APPS.read_text())
    ready = next(f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "ready")
    imported = [
        alias.name for node in ast.walk(ready) if isinstance(node, ast.ImportFrom) for alias in node.names
    ]
    assert sorted(imported) == ["events", "players", "push", "turns"]


@pytest.mark.parametrize(
    "path",
    [p for p in python_files(GAMES) if p not in FUNCTION_IMPORTS_ALLOWED],
    ids=lambda p: str(p.relative_to(GAMES)),
)
def test_no_project_import_inside_a_function(path: Path) -> None:
    assert imports_inside_functions(path) == []


def test_the_allow_list_of_function_imports_is_empty() -> None:
    assert not FUNCTION_IMPORTS_ALLOWED


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """games.* module -> the games.* modules it imports at module level (any depth of
    ``from games import x`` resolved to the module ``games.x`` when that is a module)."""
    modules = {module_name(p): p for p in python_files(GAMES)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only: function-level imports are refused above
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = path.relative_to(ROOT).with_suffix("").parts[: -node.level]
                    base = ".".join([*package, node.module] if node.module else package)
                else:
                    base = node.module or ""
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            for target in targets:
                # A module's own packages are imported before it, whatever it imports:
                # ``from . import rules`` in a game's package is no edge to its __init__.
                if target in modules and target != name and not name.startswith(target + "."):
                    edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules along it, or [] when the graph has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return []


def test_the_games_package_has_no_import_cycle() -> None:
    graph = import_graph()
    assert "games.catalog" in graph and "games.services.moves" in graph["games.runner.turns"]
    assert find_cycle(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


PURE = [GAMES / "catalog.py", GAMES / "spec.py", GAMES / "clocks.py", *python_files(GAMES / "formats")]


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(GAMES)))
def test_the_catalog_and_the_formats_are_pure(path: Path) -> None:
    """No Django, nothing Django-side: the catalog may import the engine, the players, the
    pure formats, the games' description and the games' packages only."""
    allowed = (
        "games.engine",
        "games.ai",
        "games.formats",
        "games.spec",
        "games.kinds",
        "games.catalog",
        "games.clocks",
    )
    graph = import_graph()
    for imported in imported_modules(path):
        assert top(imported) not in ("django", "channels", "ninja"), f"{path.name} imports {imported}"
    for imported in graph[module_name(path)] - {"games"}:  # the package itself is empty
        assert imported.startswith(allowed), f"{path.name} imports {imported}"


# The doors: each imports the layers below, never another door.
DOORS = ("games.web", "games.api", "games.live", "games.admin", "games.templatetags")
# The layers of docs/architecture.md, lowest first: a module imports its own layer or lower.
LAYERS = [
    ("games.engine",),
    ("games.ai",),
    ("games.formats", "games.spec", "games.clocks"),
    ("games.kinds",),
    # Records name their game, so reading one asks the catalog for its rules.
    ("games.catalog", "games.formats.record_reading", "games.formats.records"),
    ("games.models", "games.prepared"),  # prepared: the models' statements built once
    ("games.events", "games.services", "games.identity"),
    ("games.runner",),
    ("games.presenting",),
    DOORS,
    ("games.apps", "games.management"),
]


def layer_of(module: str) -> int:
    """The rank of the layer whose prefix names the module most closely."""
    matches = [
        (len(p), rank)
        for rank, prefixes in enumerate(LAYERS)
        for p in prefixes
        if module == p or module.startswith(p + ".")
    ]
    if not matches:
        raise AssertionError(f"{module} is in no layer of tests/test_architecture.py")
    return max(matches)[1]


def test_dependencies_point_down_only() -> None:
    upward = [
        f"{module} imports {imported}"
        for module, edges in import_graph().items()
        if module != "games"
        for imported in edges - {"games"}
        if layer_of(imported) > layer_of(module)
    ]
    assert upward == []


def test_the_guard_catches_an_import_inside_a_function(tmp_path: Path) -> None:
    bad = tmp_path / "mod.py"
    bad.write_text(
        "import json\n"
        "from games.kinds import quarto\n"
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
            if node.func.attr == "update" and isinstance(node.func.value, ast.Name):
                continue  # dict.update on a local: querysets and managers are never bare names
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node.func)}")
    return found


EDGE_MODULES = [
    p
    for p in [
        *python_files(GAMES / "web"),
        *python_files(GAMES / "api"),
        *python_files(GAMES / "live"),
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


# -- shared code never asks which game it is showing -------------------------------------

# A game's own code is its package (games/kinds/<kind>/) and its one registration in the
# catalog; everything else, the engine's protocol, the players' helpers and the formats
# included, is shared and must work for a game it has never heard of.
GAME_OWN = (KINDS, GAMES / "catalog.py", GAMES / "migrations")
TEMPLATES = ROOT / "templates"


def game_names() -> set[str]:
    """The registered games' kinds, read from their packages' entries."""
    kinds = set()
    for package in GAME_PACKAGES:
        tree = ast.parse((package / "__init__.py").read_text())
        kinds |= {
            kw.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "GameSpec"
            for kw in node.keywords
            if kw.arg == "kind" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)
        }
    assert kinds >= {"quarto", "tictactoe"}, kinds
    return kinds


def declared_option_names() -> set[str]:
    found = set()
    for path in [package / "rules.py" for package in GAME_PACKAGES]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "OptionSpec" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    assert {"advanced", "gravity"} <= found, found
    return found


def game_mentions(path: Path, kinds: set[str], *, strings: bool = True) -> list[str]:
    """String constants equal to a game's kind, and imports of one game's modules."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if strings and isinstance(node, ast.Constant) and node.value in kinds:
            found.append(f"{path.name}:{node.lineno} {node.value!r}")
        if isinstance(node, ast.ImportFrom | ast.Import):
            base = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                parts = f"{base}.{alias.name}".strip(".").split(".")
                if parts[:2] == ["games", "kinds"] and set(parts[2:]) & kinds:
                    found.append(f"{path.name}:{node.lineno} imports {'.'.join(parts)}")
    return found


SHARED_PYTHON = [p for p in python_files(GAMES) if not any(p == own or own in p.parents for own in GAME_OWN)]


@pytest.mark.parametrize("path", SHARED_PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_code_never_names_a_game(path: Path) -> None:
    assert game_mentions(path, game_names()) == []


@pytest.mark.parametrize("path", python_files(ROOT / "quarto_site"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_package_imports_no_game_of_its_own(path: Path) -> None:
    # The site shares its name with its flagship game: only imports are checked here.
    assert game_mentions(path, game_names(), strings=False) == []


def template_mentions(path: Path, kinds: set[str], options: set[str]) -> list[str]:
    text = path.read_text()
    found = [f"{path.name}: {m.group(0)}" for m in re.finditer(r"\bkind\s*==|==\s*['\"]\w+['\"]", text)]
    for tag in re.finditer(r"{%\s*(?:if|elif)\b[^%]*%}|{{[^}]*}}", text):
        named = set(re.findall(r"\boptions\.(\w+)", tag.group(0))) & options
        named |= set(re.findall(r"['\"](\w+)['\"]", tag.group(0))) & kinds
        found += [f"{path.name}: {tag.group(0)}" for _ in sorted(named)]
    return found


@pytest.mark.parametrize(
    "path",
    # allauth's elements (templates/allauth/) are form widgets comparing their own attributes
    # (a button's type): no game reaches them.
    [p for p in sorted(TEMPLATES.rglob("*.html")) if TEMPLATES / "allauth" not in p.parents],
    ids=lambda p: str(p.relative_to(TEMPLATES)),
)
def test_shared_templates_never_ask_which_game(path: Path) -> None:
    assert template_mentions(path, game_names(), declared_option_names()) == []


def test_the_game_guards_catch_a_game_named_in_shared_code(tmp_path: Path) -> None:
    bad = tmp_path / "view.py"
    bad.write_text("from games.kinds import quarto\nif game.kind == 'connect':\n    pass\n")
    assert len(game_mentions(bad, {"quarto", "connect"})) == 2
    page = tmp_path / "page.html"
    page.write_text("{% if game.options.advanced %}x{% endif %}{% if game.kind == 'quarto' %}{% endif %}")
    assert len(template_mentions(page, {"quarto"}, {"advanced"})) >= 3


# -- the doors, private names and the project package ------------------------------------


def door_of(module: str) -> str | None:
    return next((d for d in DOORS if within(module, (d,))), None)


def test_the_doors_never_import_each_other() -> None:
    """Pages, API, sockets and admin share what sits below them, never each other."""
    crossing = [
        f"{module} imports {imported}"
        for module, edges in import_graph().items()
        if (door := door_of(module))
        for imported in edges
        if door_of(imported) not in (None, door)
    ]
    assert crossing == []


def private_imports(path: Path) -> list[str]:
    """``from project.module import _name``: a private name used outside its module."""
    return [
        f"{path.name}:{node.lineno} {alias.name} from {node.module}"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and (node.level or top(node.module or "") in PROJECT_PACKAGES)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


@pytest.mark.parametrize(
    "path",
    [*python_files(GAMES), *python_files(ROOT / "quarto_site"), *python_files(ROOT / "accounts")],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_private_name_is_imported(path: Path) -> None:
    assert private_imports(path) == []


def test_the_private_name_guard_catches_one(tmp_path: Path) -> None:
    bad = tmp_path / "mod.py"
    bad.write_text("from games.services.moves import _locked_game, play_move\nfrom .views import _redirect\n")
    assert len(private_imports(bad)) == 2


# The project package: settings and plumbing below every app; the entry points (URLs,
# ASGI, WSGI) above them, wiring the doors together.
PROJECT_PLUMBING = (
    "quarto_site.settings",
    "quarto_site.celery",
    "quarto_site.sqlite",
    "quarto_site.unavailable",
    "quarto_site.observability",
    "quarto_site.draining",
    "quarto_site.staticstorage",
    "quarto_site.backups",  # backup and restore of the database (manage.py backup, restore)
    "quarto_site.languages",  # a socket's language, from its scope
)
PROJECT_ENTRY = ("quarto_site.urls", "quarto_site.asgi", "quarto_site.wsgi", "quarto_site")


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def project_imports(path: Path) -> list[str]:
    return [name for name in imported_modules(path) if top(name) in PROJECT_PACKAGES]


@pytest.mark.parametrize("path", python_files(ROOT / "quarto_site"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_package_keeps_its_layers(path: Path) -> None:
    name = module_name(path)
    assert within(name, PROJECT_PLUMBING + PROJECT_ENTRY), f"{name} is in no layer of the project package"
    for imported in project_imports(path):
        if within(name, PROJECT_PLUMBING):  # plumbing knows no app
            assert top(imported) == "quarto_site", f"{name} imports {imported}"
        elif top(imported) == "games":  # the entry points wire the doors (and start the runner)
            assert door_of(imported) or imported.startswith("games.runner"), f"{name} imports {imported}"


@pytest.mark.parametrize("path", python_files(GAMES), ids=lambda p: str(p.relative_to(ROOT)))
def test_apps_import_only_the_project_plumbing(path: Path) -> None:
    for imported in project_imports(path):
        if top(imported) == "quarto_site":
            assert within(imported, PROJECT_PLUMBING), f"{path.name} imports {imported}"


# -- the accounts app: above games, through its public names and one declared hook --------

ACCOUNTS = ROOT / "accounts"
ACCOUNTS_APPS = ACCOUNTS / "apps.py"
# What accounts may use of games: models, services, events, the identity hook, the catalog;
# its API routes mount on games' API object (plumbing and schemas).
ACCOUNTS_USES = (
    "games.models",
    "games.services",
    "games.events",
    "games.identity",
    "games.catalog",
    "games.clocks",
    "games.api.plumbing",
    "games.api.schemas",
)


def imported_names(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from module import name`` (name "" for ``import module``)."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and not node.level:
            found += [(node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return found


@pytest.mark.parametrize("path", python_files(ACCOUNTS), ids=lambda p: str(p.relative_to(ROOT)))
def test_accounts_uses_only_public_names_of_games_layers_below_the_doors(path: Path) -> None:
    for module, name in imported_names(path):
        if top(module) != "games":
            continue
        full = f"{module}.{name}" if name else module
        assert not any(part.startswith("_") for part in full.split(".")), f"{path.name} imports {full}"
        assert (
            full == "games"
            or full.startswith(ACCOUNTS_USES)
            or module in ACCOUNTS_USES
            or (module == "games" and f"games.{name}" in ACCOUNTS_USES)
        ), f"{path.name} imports {full}"


@pytest.mark.parametrize("path", python_files(GAMES), ids=lambda p: str(p.relative_to(ROOT)))
def test_games_never_imports_the_apps_above_it(path: Path) -> None:
    assert [m for m in imported_modules(path) if top(m) in ("accounts", "ratings", "lobby", "study")] == []


# -- the ratings app: above games (its end hook), below accounts (profiles show ratings) --

RATINGS = ROOT / "ratings"
RATINGS_USES = (
    "games.models",
    "games.services",
    "games.events",
    "games.catalog",
    "games.clocks",
    "games.api.plumbing",
    "games.api.schemas",
    "games.presenting.seat_ratings",
)


def games_names_beyond(path: Path, allowed: tuple[str, ...]) -> list[str]:
    """What ``path`` imports of games that is private or outside ``allowed``."""
    found = []
    for module, name in imported_names(path):
        if top(module) != "games":
            continue
        full = f"{module}.{name}" if name else module
        private = any(part.startswith("_") for part in full.split("."))
        if private or not (full.startswith(allowed) or module in allowed):
            found.append(full)
    return found


@pytest.mark.parametrize("path", python_files(RATINGS), ids=lambda p: str(p.relative_to(ROOT)))
def test_ratings_uses_only_public_names_of_games_and_never_accounts(path: Path) -> None:
    assert [m for m in imported_modules(path) if top(m) == "accounts"] == []
    assert games_names_beyond(path, RATINGS_USES) == []


def test_the_rating_arithmetic_is_pure() -> None:
    """ratings/glicko2.py is Glickman's arithmetic and nothing else: the standard library only."""
    path = ROOT / "ratings" / "glicko2.py"
    for imported in imported_modules(path):
        assert top(imported) in STDLIB, f"glicko2.py imports {imported}"


# -- the lobby: above games, accounts and ratings (none of them imports it) ---------------

LOBBY = ROOT / "lobby"
# What the lobby may use of games: models, services (create and join the game), events,
# the catalog, the clocks' rules, the engine's option errors; its API routes mount on
# games' API object; its pages reuse the presenting layer's counts.
LOBBY_USES = (
    "games.models",
    "games.services",
    "games.events",
    "games.identity",
    "games.catalog",
    "games.clocks",
    "games.engine",
    "games.api.plumbing",
    "games.api.schemas",
    "games.presenting",
)


@pytest.mark.parametrize("path", python_files(LOBBY), ids=lambda p: str(p.relative_to(ROOT)))
def test_lobby_uses_only_public_names_of_games_below_the_doors(path: Path) -> None:
    assert games_names_beyond(path, LOBBY_USES) == []


@pytest.mark.parametrize("path", python_files(LOBBY), ids=lambda p: str(p.relative_to(ROOT)))
def test_lobby_imports_no_private_name_of_accounts_or_ratings(path: Path) -> None:
    for module, name in imported_names(path):
        if top(module) in ("accounts", "ratings", "lobby"):
            assert not name.startswith("_"), f"{path.name} imports {module}.{name}"


@pytest.mark.parametrize(
    "path", [*python_files(ACCOUNTS), *python_files(RATINGS)], ids=lambda p: str(p.relative_to(ROOT))
)
def test_accounts_and_ratings_never_import_the_lobby(path: Path) -> None:
    assert [m for m in imported_modules(path) if top(m) == "lobby"] == []


def test_the_lobby_guard_catches_a_door_or_a_private_name(tmp_path: Path) -> None:
    bad = tmp_path / "mod.py"
    bad.write_text("from games.web import views\nfrom games.services.moves import _person_seat\n")
    with pytest.raises(AssertionError):
        test_lobby_uses_only_public_names_of_games_below_the_doors(bad)


# -- monitoring: above games, reading its state and its events ------------------------

MONITORING = ROOT / "monitoring"
MONITORING_USES = ("games.models", "games.events", "games.services", "games.runner")


@pytest.mark.parametrize("path", python_files(MONITORING), ids=lambda p: str(p.relative_to(ROOT)))
def test_monitoring_reads_games_only_through_its_public_names(path: Path) -> None:
    assert games_names_beyond(path, MONITORING_USES) == []
    apps = [m for m in imported_modules(path) if top(m) in ("accounts", "ratings", "lobby")]
    assert set(apps) <= {"ratings.models", "lobby.models"}  # counted at scrape time


@pytest.mark.parametrize(
    "path", [*python_files(GAMES), *python_files(ROOT / "accounts"), *python_files(LOBBY)]
)
def test_no_app_imports_monitoring(path: Path) -> None:
    assert [m for m in imported_modules(path) if top(m) == "monitoring"] == []
