"""The tournaments' rules are pure Python: the standard library and themselves only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "tournaments" / "rules"


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_the_rules_import_only_the_standard_library(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name.startswith("tournaments.rules"), (path.name, name)
