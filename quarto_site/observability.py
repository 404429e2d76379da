"""Logs as JSON lines and errors to Sentry, chosen by the environment (docs/deployment.md)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.django import DjangoIntegration


class JsonFormatter(logging.Formatter):
    """One JSON object per line (``LOG_FORMAT=json``), for log collectors."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def init_sentry(dsn: str, environment: str, sample_rate: float, transport: Any = None) -> None:
    """Errors (uncaught exceptions, logged errors) to Sentry. No personal data is sent (the
    SDK's default: no cookies, no user, no IP), nor request bodies; traces at ``sample_rate``."""
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration()],
        environment=environment,
        traces_sample_rate=sample_rate,
        max_request_body_size="never",
        transport=transport,
    )
