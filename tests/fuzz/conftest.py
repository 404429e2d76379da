"""Fuzz tests: bounded by example counts so the default suite stays quick.

``FUZZ_SCALE`` multiplies every count (default 1), for a longer run on a workstation::

    FUZZ_SCALE=20 .venv/bin/python -m pytest -p no:cacheprovider -m fuzz
"""

from __future__ import annotations

import os


def examples(count: int) -> int:
    """The example count of one fuzz test, scaled by ``FUZZ_SCALE``."""
    return max(1, int(count * float(os.environ.get("FUZZ_SCALE", "1"))))
