"""The Celery application that carries the computer's turns (``AI_RUNNER=queue``).

Its settings are the ``CELERY_*`` names in quarto_site/settings.py; its one task
lives in :mod:`games.runner.tasks`. Web processes import it only in queue mode, to
send; ``manage.py ai_worker`` runs a worker on the ``AI_QUEUE`` queue.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")

app = Celery("quarto_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.imports = ["games.runner.tasks"]
