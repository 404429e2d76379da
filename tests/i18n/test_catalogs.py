"""The shipped catalogs (the pages' ``django`` and the scripts' ``djangojs``): every message
translated, none fuzzy, and the compiled ``.mo`` files (what the site reads) saying exactly
what the ``.po`` files say."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
ENTRY = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (".*")$')


def entries(po: Path) -> list[dict[str, Any]]:
    """Each entry of a ``.po`` file: its flags and its fields, unquoted."""
    found: list[dict[str, Any]] = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        flags: list[str] = []
        fields: dict[str, str] = {}
        field = ""
        for line in block.strip().splitlines():
            if line.startswith("#,"):
                flags += [flag.strip() for flag in line[2:].split(",")]
            elif match := ENTRY.match(line):
                field = match.group(1)
                fields[field] = json.loads(match.group(2))
            elif line.startswith('"') and field:
                fields[field] += json.loads(line)
        if "msgid" in fields:
            found.append({"flags": flags, **fields})
    return found


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code: str, domain: str) -> None:
    po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    found = entries(po)
    assert len(found) > 1
    header, messages = found[0], found[1:]
    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    assert "Plural-Forms: nplurals=" in str(header["msgstr"])
    plurals = int(re.findall(r"nplurals=(\d+)", str(header["msgstr"]))[0])
    short = [e["msgid"] for e in messages if "msgid_plural" in e and f"msgstr[{plurals - 1}]" not in e]
    assert not short, f"{code}: fewer plural forms than the header's {plurals}: {short}"
    fuzzy = [entry["msgid"] for entry in messages if "fuzzy" in entry["flags"]]
    empty = [
        entry["msgid"]
        for entry in messages
        if any(value == "" for key, value in entry.items() if key.startswith("msgstr"))
    ]
    assert not fuzzy, f"{code}: fuzzy {fuzzy}"
    assert not empty, f"{code}: untranslated {empty}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_says_what_the_po_file_says(code: str, domain: str) -> None:
    folder = LOCALE / code / "LC_MESSAGES"
    with (folder / f"{domain}.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for entry in entries(folder / f"{domain}.po")[1:]:
        msgid = str(entry["msgid"])
        key = f"{entry['msgctxt']}\x04{msgid}" if "msgctxt" in entry else msgid
        if "msgid_plural" in entry:
            assert compiled.ngettext(msgid, str(entry["msgid_plural"]), 1) == entry["msgstr[0]"], msgid
        else:
            assert compiled.gettext(key) == entry["msgstr"], f"{code}: {msgid!r} (run compilemessages)"


# Messages a language may say the same way: a word that is both singular and plural, two
# ways of asking one thing. Any other translation two messages share was most likely
# carried over from a similar-looking message (gettext's fuzzy matching) and is wrong.
SAID_ALIKE = [
    {"game notice", "game notices"},
    {"Players", "Player"},
    {"playing", "Playing now", "Now playing", "Running", "Games in progress"},
    {"a draw", "A draw", "draw", "drawn", "Drawn", "draws"},
    {"Now play", "Your turn"},
    {"they start", "the opponent starts"},
    {"Speed", "Time control"},
    {"resignation", "puzzle", "Puzzle"},
]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_no_two_messages_share_a_translation_by_accident(code: str, domain: str) -> None:
    said: dict[str, set[str]] = {}
    for entry in entries(LOCALE / code / "LC_MESSAGES" / f"{domain}.po")[1:]:
        if "msgid_plural" not in entry and entry["msgstr"]:
            said.setdefault(str(entry["msgstr"]), set()).add(str(entry["msgid"]))
    shared = [
        (text, sorted(ids))
        for text, ids in said.items()
        if len({i.lower() for i in ids}) > 1 and not any(ids <= alike for alike in SAID_ALIKE)
    ]
    assert not shared, f"{code}: one translation for different messages: {shared}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_puts_a_no_break_space_before_double_punctuation(domain: str) -> None:
    po = LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po"
    tight = re.compile(r"(^|[^\u00a0\u202f])[:;?!](\s|$)")
    wrong = [entry["msgstr"] for entry in entries(po)[1:] if tight.search(str(entry.get("msgstr", "")))]
    assert not wrong, wrong


SKIP = shutil.ignore_patterns(
    ".venv",
    ".git",
    "node_modules",
    "staticfiles",
    "__pycache__",
    "test-results",
    ".stack",
    "*.sqlite3*",
    "data",
)
# What docs/translating.md gives: the same files, the same options.
MAKEMESSAGES = [
    "makemessages", "-l", "fr", "--no-obsolete", "--add-location=file",
    "--ignore=.venv/*", "--ignore=tests/*", "--ignore=bench/*", "--ignore=staticfiles/*",
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_the_code_marks_is_in_the_catalogs(tmp_path: Path, domain: str) -> None:
    """The messages extracted afresh from a copy of the sources (Debian's gettext, which
    scripts/test installs) are the ones the French catalog holds: none marked and left out."""
    assert shutil.which("xgettext"), "GNU gettext is missing: scripts/test installs it"
    root = Path(settings.BASE_DIR)
    copy = tmp_path / "site"
    shutil.copytree(root, copy, ignore=SKIP)
    command = [sys.executable, "manage.py", *MAKEMESSAGES, "-d", domain]
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    po = f"locale/fr/LC_MESSAGES/{domain}.po"
    fresh = {(e.get("msgctxt"), e["msgid"]) for e in entries(copy / po)[1:]}
    shipped = {(e.get("msgctxt"), e["msgid"]) for e in entries(root / po)[1:]}
    assert sorted(fresh - shipped, key=str) == [], "marked but not in the catalogs: run makemessages"
    assert sorted(shipped - fresh, key=str) == [], "in the catalogs but no longer marked"
