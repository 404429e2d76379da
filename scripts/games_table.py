"""Prints the table of games that docs/architecture.md holds ("Where each game lives"),
made from the catalog: each game's package, its parts, its computer's levels and options.

    python scripts/games_table.py           # print it
    python scripts/games_table.py --write   # put it into docs/architecture.md

The docs hold it between the markers below; tests/test_docs.py fails when they differ,
so a game added to the catalog appears in the docs by running this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import catalog  # noqa: E402  (the project's root is on the path only now)

DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- games table: python scripts/games_table.py --write -->"
END = "<!-- end of games table -->"
PARTS = ("rules.py", "board.py", "action_words.py", "text_look.py", "json_fields.py")


def row(spec: catalog.GameSpec) -> str:
    package = ROOT / "games" / "kinds" / spec.kind
    own = [name.removesuffix(".py") for name in PARTS if (package / name).exists()]
    levels = ", ".join(spec.levels) or "none: people only"
    options = ", ".join(option.name for option in spec.options) or "none"
    styles = ", ".join(Path(path).name for path in spec.stylesheets) or "none"
    return (
        f"| {spec.title} | `games/kinds/{spec.kind}/` | {', '.join(own)} | {levels} | {options} "
        f"| `{spec.template}` | {styles} |"
    )


def table() -> str:
    lines = [
        "| game | package | its modules | the computer's levels | options | partials | stylesheets |",
        "|---|---|---|---|---|---|---|",
        *(row(spec) for spec in catalog.CATALOG.values()),
    ]
    return "\n".join(lines)


def with_table(doc: str) -> str:
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[:start] + "\n" + table() + "\n" + doc[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the table into docs/architecture.md")
    if parser.parse_args().write:
        DOC.write_text(with_table(DOC.read_text()))
    else:
        sys.stdout.write(table() + "\n")


if __name__ == "__main__":
    main()
