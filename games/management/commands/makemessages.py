"""Django's ``makemessages``, also extracting the refusals of the pure game modules.

The rules, the clocks and the formats import no Django: their errors carry an English
%-template that the site translates where the error becomes an answer
(``error.said(gettext)``, games/engine/refusals.py). These keywords tell xgettext which
argument of each error class (and of a sentence's part, ``Phrase``) is that template.
"""

from __future__ import annotations

from django.core.management.commands import makemessages

REFUSAL_KEYWORDS = [
    "--keyword=MoveError:2",
    "--keyword=IllegalMove:2",
    "--keyword=PositionError:2",
    "--keyword=BadNotation:2",
    "--keyword=OptionError:2",
    "--keyword=ClockError:2",
    "--keyword=Phrase:1",
    "--keyword=parse_cell_or:4",
    "--keyword=RecordError:2",
    "--keyword=loads_json:3",
]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, *REFUSAL_KEYWORDS]
