"""``manage.py backup [PATH]``: a backup of the site's database (docs/deployment.md, Backups)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from quarto_site.backups import BackupError, backup, default_path


class Command(BaseCommand):
    help = (
        "Back up the database: PostgreSQL with pg_dump (custom format), SQLite with its online "
        "backup (safe while the server runs). Prints the backup's path."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", nargs="?", help="where to write it (default: backups/<database>-<UTC time>.dump|.sqlite3)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"]) if options["path"] else default_path()
        try:
            written = backup(path)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(str(written))
