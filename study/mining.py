"""Mining puzzles: walk games (the site's finished ones, the computer's own) and keep the
positions the solver proves are puzzles (:mod:`study.puzzle_rules`). Pure: no database.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import catalog
from study import puzzle_rules

DATA = Path(__file__).resolve().parent / "data"
SELF_PLAY_LEVELS = ("casual", "club", "expert")
SELF_PLAY_BUDGET = 0.05
PER_GAME = 4  # puzzles kept from one game at most: one per theme, so that they differ
ADVANCED_EVERY = 10  # one self-play game in this many is played with the advanced rule


def data_file(kind: str) -> Path:
    return DATA / f"{kind}-puzzles.json"


@dataclass(frozen=True)
class Source:
    """One game to mine: its actions from the start and where it came from."""

    kind: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    origin: str


def puzzle_id(kind: str, options: dict[str, Any], position: str) -> str:
    """A stable name for a puzzle: the same position gives the same id whatever game led there."""
    key = json.dumps([kind, options, position], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def puzzles_in(source: Source, seen: set[str]) -> Iterator[dict[str, Any]]:
    """The puzzles along one game, latest position first (the harder ones come earlier in
    a game, so the last ones kept are the simplest of each line)."""
    spec = catalog.get(source.kind)
    notation = spec.notation
    if notation is None:
        return
    states = [spec.rules.new_state(source.options)]
    for text in source.moves:
        states.append(states[-1].play(spec.rules.parse_move(text)))
    themes_kept: set[tuple[str, ...]] = set()
    for ply in range(len(states) - 1, -1, -1):
        state = states[ply]
        if state.is_over() or len(state.empty_cells) > puzzle_rules.MAX_EMPTY:
            continue
        position = notation.format(state)
        pid = puzzle_id(source.kind, spec.rules.clean_options(source.options), position)
        if pid in seen:
            continue
        try:
            found = puzzle_rules.find(source.kind, state)
        except puzzle_rules.Unsolved:
            continue
        if found is None or found.themes in themes_kept:
            continue
        seen.add(pid)
        themes_kept.add(found.themes)
        yield {
            "id": pid,
            "game": source.kind,
            "options": spec.rules.clean_options(source.options),
            "moves": list(source.moves[:ply]),
            "position": position,
            "to_move": state.to_move,
            "themes": list(found.themes),
            "answer": list(found.answer),
            "rating": found.start_rating,
            "source": source.origin,
        }
        if len(themes_kept) >= PER_GAME:
            return


def self_play(kind: str, seed: int, options: dict[str, Any] | None = None) -> Source:
    """One game of the computer against itself, levels and choices drawn from ``seed``."""
    rng = random.Random(seed)
    spec = catalog.get(kind)
    player = catalog.player_of(kind)
    levels = [rng.choice(SELF_PLAY_LEVELS) for _ in range(2)]
    if options is None and spec.rules.options and seed % ADVANCED_EVERY == 0:
        options = {spec.rules.options[0].name: not spec.rules.options[0].default}
    state = spec.rules.new_state(options or {})
    moves: list[str] = []
    while not state.is_over():
        move = player.choose_move(state, levels[state.to_move], SELF_PLAY_BUDGET, rng)
        moves.append(str(move))
        state = state.play(move)
    return Source(kind, dict(options or {}), tuple(moves), f"self-play:{seed}:{'-'.join(levels)}")


def mine(sources: Iterable[Source], want: int, seen: set[str] | None = None) -> Iterator[dict[str, Any]]:
    """Puzzles from ``sources`` until ``want`` are found."""
    seen = set() if seen is None else seen
    count = 0
    for source in sources:
        for puzzle in puzzles_in(source, seen):
            yield puzzle
            count += 1
            if count >= want:
                return


def write(path: Path, puzzles: Sequence[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "[\n" + ",\n".join(json.dumps(p, sort_keys=True) for p in puzzles) + "\n]\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def read(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data: list[dict[str, Any]] = json.loads(path.read_text())
    return data
