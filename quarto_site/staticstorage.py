"""Static files with their content's hash in their names, once collected.

``manage.py collectstatic`` (scripts/serve and scripts/stack run it) writes each file with
a hash of its content in its name, a ``.gz`` and a ``.br`` beside it, and a manifest; pages
then link the hashed names, which WhiteNoise and nginx serve with a year's cache: a release
changes the names, so no browser keeps an old script. Where nothing was collected (tests, a
checkout before its first start) a page links the plain name, served from the source folders.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    manifest_strict = False

    def stored_name(self, name: str) -> Any:
        try:
            return super().stored_name(name)
        except ValueError:  # not collected: the plain name, found by the finders
            return name
