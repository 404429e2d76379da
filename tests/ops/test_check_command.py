"""The test command's checks stop it: a lint, format or type error fails CI."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _checks() -> str:
    """The lines of ``scripts/test`` that run the checks (from ruff to the test suite)."""
    text = (ROOT / "scripts" / "test").read_text()
    start = text.index('echo "== ruff"')
    return text[start : text.index('echo "== pytest')]


@pytest.mark.parametrize("failing", ["check", "format", "mypy"])
def test_a_failing_check_fails_the_command(tmp_path: Path, failing: str) -> None:
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("ruff", "mypy"):
        # Each stand-in logs its call and fails where asked.
        stub = bin_dir / tool
        stub.write_text(
            "#!/usr/bin/env bash\n"
            f'echo "{tool} $1" >> calls\n'
            f'case "{tool} $1" in *"{failing}"*) exit 1;; esac\n'
        )
        stub.chmod(0o755)
    script = "set -euo pipefail\n" + _checks() + "echo reached-tests\n"
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0, done.stdout
    assert "reached-tests" not in done.stdout
    calls = (tmp_path / "calls").read_text().split("\n")
    assert any(failing in call for call in calls)
