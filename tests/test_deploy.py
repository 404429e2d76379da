"""The sample production environment passes Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_env(path: Path) -> dict[str, str]:
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    pairs = (line.split("=", 1) for line in lines)
    return {name.strip(): value.strip() for name, value in pairs}


def test_check_deploy_is_clean_with_the_sample_production_environment(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        **read_env(ROOT / "deploy" / "production.env"),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_the_sample_environment_holds_no_real_secret() -> None:
    assert read_env(ROOT / "deploy" / "production.env")["SECRET_KEY"].startswith("CHANGE")
