from __future__ import annotations

from collections.abc import Iterator

import pytest

from tournaments import live


@pytest.fixture(autouse=True)
def _pushes_done() -> Iterator[None]:
    """A tournament push scheduled by a test runs before the test's database goes away."""
    yield
    live.flush()
