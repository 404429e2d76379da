"""The solver bench's sums, which two checkouts are compared by (bench/quarto_solver.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--all", "--empties", "8-9", "--positions", "3", "--workers", "1"]
SUMS = re.compile(r"sums: (\d+) nodes, [\d.]+ s; values ([0-9a-f]{12})")


def _sums() -> list[tuple[str, str]]:
    done = subprocess.run(
        [sys.executable, "bench/quarto_solver.py", *ARGS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return SUMS.findall(done.stdout)


def test_one_thread_sums_are_the_same_on_every_run() -> None:
    first = _sums()
    assert len(first) == 2, "one sums line per number of empty cells"
    assert all(int(nodes) > 0 for nodes, _digest in first)
    assert _sums() == first
