"""The sample production environment passes Django's deployment checks."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def read_env(path: Path) -> dict[str, str]:
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    pairs = (line.split("=", 1) for line in lines)
    return {name.strip(): value.strip() for name, value in pairs}


def assert_check_deploy_is_clean(env: dict[str, str]) -> None:
    """``manage.py check --deploy`` in that environment reports nothing, not even a note."""
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


def test_check_deploy_is_clean_with_the_sample_production_environment(tmp_path: Path) -> None:
    assert_check_deploy_is_clean(
        {
            "PATH": os.environ.get("PATH", ""),
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            **read_env(ROOT / "deploy" / "production.env"),
        }
    )


def test_the_sample_environment_holds_no_real_secret() -> None:
    assert read_env(ROOT / "deploy" / "production.env")["SECRET_KEY"].startswith("CHANGE")


def test_the_proxy_s_file_is_the_sample_with_only_ports_names_and_paths_changed(tmp_path: Path) -> None:
    run = tmp_path / "nginx"
    ports = ["--ports", "9101,9102,9103", "--https-port", "9443", "--http-port", "9444"]
    paths = ["--cert", "/c.pem", "--key", "/k.pem", "--static", "/s"]
    subprocess.run(
        [sys.executable, "scripts/render_nginx.py", str(run), *ports, *paths], cwd=ROOT, check=True
    )
    sample = (ROOT / "deploy" / "nginx.conf").read_text().splitlines()
    rendered = (run / "site.conf").read_text().splitlines()
    # Without nginx's brotli module on the machine its one directive is commented out.
    changed = [line.strip() for line in rendered if line not in sample and "brotli_static" not in line]
    servers = [f"server 127.0.0.1:{port} max_fails=0;" for port in (9101, 9102, 9103)]
    assert changed == [
        *servers,  # the pages' upstream
        *servers,  # the sockets'
        "listen 127.0.0.1:9444;",
        "server_name 127.0.0.1 localhost;",
        "return 301 https://$host:9443$request_uri;",
        "listen 127.0.0.1:9443 ssl http2;",
        "server_name 127.0.0.1 localhost;",
        "ssl_certificate /c.pem;",
        "ssl_certificate_key /k.pem;",
        "alias /s/;  # STATIC_ROOT",
    ]
    assert f"include {run}/site.conf;" in (run / "nginx.conf").read_text()


def test_a_sample_that_drifted_from_the_renderer_is_an_error() -> None:
    spec = importlib.util.spec_from_file_location("render_nginx", ROOT / "scripts" / "render_nginx.py")
    assert spec and spec.loader
    renderer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(renderer)
    with pytest.raises(SystemExit, match="no longer holds"):
        renderer.render_site("server { listen 80; }", [1], "127.0.0.1", 2, 3, "c", "k", "s")
