"""Fuzz tests: bounded by example counts so the default suite stays quick.

``FUZZ_SCALE`` multiplies every count (default 1), for a longer run on a workstation::

    FUZZ_SCALE=20 .venv/bin/python -m pytest -p no:cacheprovider -m fuzz
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def examples(count: int) -> int:
    """The example count of one fuzz test, scaled by ``FUZZ_SCALE``."""
    return max(1, int(count * float(os.environ.get("FUZZ_SCALE", "1"))))


def fuzz(count: int) -> settings:
    """Hypothesis settings of a fuzz test: ``count`` examples (scaled), no deadline, no
    example database (runs are independent), slow generation allowed."""
    return settings(
        max_examples=examples(count),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
