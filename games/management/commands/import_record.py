"""Import a game record (text or JSON, see games/records.py): ``manage.py import_record FILE``.

The record is replayed action by action through the rules; a bad one is refused with
the line and the reason, and nothing is stored.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext, ngettext

from games.formats import records
from games.management.commands.play import terminal_language
from games.services import moves as services


class Command(BaseCommand):
    help = "Import a game record (text or JSON) as a new game; '-' reads standard input."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        # A refused record is said in the terminal's language, as the terminal player speaks.
        with translation.override(terminal_language(os.environ)):
            self.load(options["file"])

    def load(self, name: str) -> None:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            said = gettext("Cannot read %(file)s: %(reason)s") % {"file": name, "reason": exc}
            raise CommandError(said) from None
        try:
            record, _ = records.load(text)
            created = services.import_record(record)
        except records.RecordError as exc:
            raise CommandError(f"{name}: {exc.said(gettext)}") from None
        except services.ServiceError as exc:
            raise CommandError(f"{name}: {exc.message}") from None
        game = created.game
        status, url = game.get_status_display(), game.get_absolute_url()
        words = {"game": game, "count": game.ply, "status": status, "url": url}
        said = (
            ngettext(
                "Imported %(game)s (%(count)s action, %(status)s): %(url)s",
                "Imported %(game)s (%(count)s actions, %(status)s): %(url)s",
                game.ply,
            )
            % words
        )
        token = gettext("API token for its seats: %(token)s") % {"token": created.token}
        self.stdout.write(f"{said}\n{token}")
