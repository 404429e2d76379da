"""The language a test's requests activated stays active in its thread (Django's
LocaleMiddleware activates one per request and leaves it): each test here ends in the
default language, so that the tests after it read English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _back_to_the_default_language() -> Iterator[None]:
    yield
    translation.deactivate()
