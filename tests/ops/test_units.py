"""The systemd units in deploy/ pass ``systemd-analyze verify``; what cannot run here says so.

The units name /srv/quarto, a checkout this machine does not have: the test copies them
with that path pointed at this checkout (and its virtualenv), changing nothing else, so
every key, the commands' paths and the template's instance are checked as shipped.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = ("quarto-daphne@.service", "quarto-ai-worker.service")
ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def installed(folder: Path, name: str, text: str | None = None) -> Path:
    """The unit as an operator installs it, with /srv/quarto here."""
    text = (DEPLOY / name).read_text() if text is None else text
    text = text.replace("/srv/quarto/.venv", sys.prefix).replace("/srv/quarto", str(ROOT))
    path = folder / name
    path.write_text(text)
    return path


def verify(*units: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE
    return subprocess.run(
        [ANALYZE, "verify", *map(str, units)], capture_output=True, text=True, timeout=60, cwd=units[0].parent
    )


@needs_systemd
def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    for name in UNITS:
        installed(tmp_path, name)
    # The template is checked as the instances the docs enable.
    units = [tmp_path / "quarto-daphne@8001.service", tmp_path / "quarto-daphne@8002.service"]
    result = verify(*units, tmp_path / "quarto-ai-worker.service")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout + result.stderr == ""  # not even a warning


@needs_systemd
def test_verify_reports_a_broken_unit(tmp_path: Path) -> None:
    """The check above can fail: a misspelt key and a bad value are reported."""
    text = (DEPLOY / "quarto-ai-worker.service").read_text()
    text = text.replace("RestartSec=2", "RestartSec=soon").replace("ExecStart=", "ExecStrat=")
    result = verify(installed(tmp_path, "quarto-ai-worker.service", text))
    assert result.returncode != 0
    assert "Unknown key 'ExecStrat'" in result.stderr and "Failed to parse sec value" in result.stderr


@pytest.mark.parametrize("name", ["compose.yaml", "Dockerfile"])
def test_what_cannot_run_here_says_so_on_its_first_line(name: str) -> None:
    first = (DEPLOY / name).read_text().splitlines()[0]
    assert first.startswith("# UNTESTED HERE: this machine has no container engine")
