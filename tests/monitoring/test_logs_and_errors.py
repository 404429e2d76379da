"""JSON log lines (LOG_FORMAT=json) and errors to Sentry (SENTRY_DSN), its transport stubbed."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sentry_sdk
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from sentry_sdk.transport import Transport

from quarto_site import urls as site_urls
from quarto_site.observability import JsonFormatter, init_sentry

ROOT = Path(__file__).resolve().parents[2]


def test_a_log_record_is_one_json_object() -> None:
    try:
        raise ValueError("bad thing")
    except ValueError:
        record = logging.LogRecord(
            "games.x", logging.ERROR, __file__, 1, "move %s failed", ("a1",), sys.exc_info()
        )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["level"] == "ERROR" and data["logger"] == "games.x" and data["message"] == "move a1 failed"
    assert "ValueError: bad thing" in data["exception"]


def test_log_format_json_is_what_the_server_logs() -> None:
    code = "import logging, django; django.setup(); logging.getLogger('games.t').warning('hello %d', 3)"
    env = {**os.environ, "LOG_FORMAT": "json", "DJANGO_SETTINGS_MODULE": "quarto_site.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stderr.strip().splitlines()[-1])["message"] == "hello 3"


def test_an_unknown_log_format_stops_the_start() -> None:
    env = {**os.environ, "LOG_FORMAT": "xml", "DJANGO_SETTINGS_MODULE": "quarto_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "LOG_FORMAT must be plain or json" in out.stderr


class Captured(Transport):
    envelopes: list[Any] = []

    def capture_envelope(self, envelope: Any) -> None:
        Captured.envelopes.append(envelope)


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the board fell over")


urlpatterns = [path("broken", broken), *site_urls.urlpatterns]  # the 500 page links home


@pytest.fixture
def sentry() -> Iterator[list[Any]]:
    Captured.envelopes = []
    init_sentry("https://public@sentry.example.invalid/1", "test", 0.0, transport=Captured)
    yield Captured.envelopes
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: off again for the other tests


@pytest.mark.django_db
@pytest.mark.urls("tests.monitoring.test_logs_and_errors")
def test_an_uncaught_error_reaches_sentry_without_personal_data(sentry: list[Any]) -> None:
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "secret-session"
    assert client.get("/broken", HTTP_AUTHORIZATION="Bearer secret-token").status_code == 500
    sentry_sdk.flush()
    events = [item.payload.json for envelope in sentry for item in envelope.items if item.type == "event"]
    assert len(events) == 1
    event = events[0]
    assert event["exception"]["values"][-1]["value"] == "the board fell over"
    assert event["environment"] == "test"
    dumped = json.dumps(event)
    assert "secret-session" not in dumped and "secret-token" not in dumped
