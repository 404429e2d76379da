"""Write ``static/bundle/site.css`` again from its sources: ``manage.py bundle_css``.

Run it after changing any stylesheet (games/presenting/stylesheets.py says which);
``--check`` only says whether the bundle is up to date, failing when it is not.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.presenting import stylesheets


class Command(BaseCommand):
    help = "Join the site's stylesheets into static/bundle/site.css."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="fail if the bundle is out of date")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        path = stylesheets.bundle_path()
        if check:
            if not path.exists() or path.read_text() != stylesheets.bundle_text():
                raise CommandError(f"{stylesheets.BUNDLE} is out of date: run manage.py bundle_css")
            self.stdout.write(f"{stylesheets.BUNDLE} is up to date.")
            return
        changed = stylesheets.write()
        self.stdout.write(f"{stylesheets.BUNDLE} {'written' if changed else 'already up to date'}.")
