"""``manage.py restore PATH``: load a backup into an empty database (docs/deployment.md, Backups)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from quarto_site.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` into the database of DATABASE_URL (PostgreSQL: "
        "an empty database made with createdb) or SQLITE_PATH (SQLite: a file that does not exist yet)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the backup file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore(Path(options["path"]))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Restored {options['path']}.")
