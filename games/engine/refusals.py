"""Refusals said later, in the reader's language: a %-template and its words.

The rules are pure (no Django), so an error keeps its English template and the words that
fill it; the site says it with Django's ``gettext`` where the error becomes an answer
(``error.said(gettext)``), and logs and ``repr`` read the English ``message``. A word may be
a :class:`Phrase` or :class:`Words` of its own, said in the same language. The templates are
extracted by the project's ``makemessages`` (games/management/commands/makemessages.py),
which knows these classes' names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Translate = Callable[[str], str]


def _english(text: str) -> str:
    return text


def fill(template: str, words: Mapping[str, Any], translate: Translate) -> str:
    """``template`` in the reader's language, filled with ``words`` said in it too."""
    if not words:
        return translate(template)
    return translate(template) % {
        name: word.said(translate) if isinstance(word, Phrase | Words | Refusal) else word
        for name, word in words.items()
    }


@dataclass(frozen=True, init=False)
class Phrase:
    """Part of a sentence, with its own words: ``Phrase("ranks 1-%(last)s", last=4)``."""

    template: str
    words: Mapping[str, Any]

    def __init__(self, template: str, **words: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "words", words)

    def said(self, translate: Translate) -> str:
        return fill(self.template, self.words, translate)

    def __str__(self) -> str:
        return self.said(_english)


@dataclass(frozen=True)
class Words:
    """Words (or phrases) each said on its own, joined by ``joint``: a Quarto piece's
    traits, a list of boards."""

    words: tuple[str | Phrase, ...]
    joint: str = " "

    def said(self, translate: Translate) -> str:
        return self.joint.join(
            w.said(translate) if isinstance(w, Phrase) else translate(w) for w in self.words
        )

    def __str__(self) -> str:
        return self.said(_english)


class Refusal:
    """What the refusals share: ``template`` and ``words``, the English ``message``, and
    :meth:`said` for the reader's language."""

    template: str
    words: dict[str, Any]
    message: str

    def keep(self, template: str, words: dict[str, Any]) -> str:
        self.template = template
        self.words = words
        self.message = fill(template, words, _english)
        return self.message

    def said(self, translate: Translate) -> str:
        """The refusal in the language ``translate`` speaks (Django's ``gettext``)."""
        return fill(self.template, self.words, translate)


def gettext_noop(text: str) -> str:
    """Marks a template kept in a constant for the catalogs; it is translated where said."""
    return text
