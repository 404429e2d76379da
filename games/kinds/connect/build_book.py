"""Build the Connect Four opening book: ``python -m games.kinds.connect.build_book --plies 8``.

See :mod:`games.kinds.connect.book` for what the book holds. The run appends to the book
file as it solves and skips what is already there, so it can be stopped and resumed.
Pure (no Django): it needs no settings and no database.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from games.engine.base import MoveError

from . import book


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.kinds.connect.build_book",
        description="Solve the Connect Four book positions with fewer stones than --plies and append them.",
    )
    parser.add_argument("--plies", type=int, default=8, help="book positions have fewer stones than this")
    parser.add_argument("--file", type=Path, default=book.BOOK_FILE, help="the book file")
    parser.add_argument("--start", default="", help="only the part below this position (column letters)")
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), help="only the book's moves as this player (0 first)"
    )
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Returns the exit status: 0 when done, 2 for a start that is no line of play."""
    args = parser().parse_args(argv)
    started = time.perf_counter()
    try:
        book.replay(args.start)
    except (ValueError, MoveError) as exc:
        err.write(f"--start {args.start!r} is not a line of play: {exc}\n")
        return 2

    def report(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    seats = (0, 1) if args.seat is None else (args.seat,)
    added = book.build(args.plies, args.file, report=report, start=args.start, seats=seats)
    out.write(f"{added} positions added in {time.perf_counter() - started:.0f} s\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
