from __future__ import annotations

from collections.abc import Iterator

import pytest

from lobby import live


@pytest.fixture(autouse=True)
def _pushes_done() -> Iterator[None]:
    """A lobby push scheduled by a test runs before the test's database goes away."""
    yield
    live.flush()
