"""WSGI entry point (no WebSockets: pages still work, without live pushes)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
application = get_wsgi_application()
