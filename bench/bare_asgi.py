"""A bare Django view under Daphne: the floor bench/move_targets.py compares the site with.

Django's ASGI handler with no middleware and one view answering a fixed JSON body
(``GET /bare``), the same settings as the site (``bench/move_cost.py``'s
``bare_application``). Served as the site is:

    .venv/bin/python -m daphne -e tcp:port=P:interface=127.0.0.1:backlog=2048 bare_asgi:application

from ``bench/`` (the bench starts it itself).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
django.setup()

from move_cost import bare_application  # noqa: E402  (after the settings)

application = bare_application()
