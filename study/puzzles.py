"""Puzzles on the site: loading the mined data, choosing the next puzzle, judging an
attempt and rating the first try of an account (Glicko-2, the puzzle as the opponent)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.services.base import ServiceError
from ratings import glicko2
from study import mining
from study.models import Puzzle, PuzzleAttempt, PuzzleRating
from study.puzzle_rules import Verdict

NEAR = 20  # the next puzzle is drawn among this many closest to the player's rating


def load(kind: str = "quarto", path: Path | None = None) -> tuple[int, int]:
    """Load the mined puzzles of ``kind``: (created, updated). A puzzle already loaded keeps
    its rating and plays; its position, answer and themes follow the data."""
    created = updated = 0
    for item in mining.read(path or mining.data_file(kind)):
        fields = {
            "kind": item["game"],
            "options": item["options"],
            "moves": item["moves"],
            "position": item["position"],
            "to_move": item["to_move"],
            "themes": item["themes"],
            "answer": item["answer"],
            "source": item.get("source", "")[:60],
        }
        _, made = Puzzle.objects.update_or_create(
            key=item["id"], defaults=fields, create_defaults={**fields, "rating": item["rating"]}
        )
        created += made
        updated += not made
    return created, updated


def get(key: str) -> Puzzle:
    puzzle = Puzzle.objects.filter(key=str(key)[:12]).first()
    if puzzle is None:
        raise ServiceError("not_found", _("There is no puzzle %(key)s.") % {"key": repr(str(key)[:20])}, 404)
    return puzzle


def rating_of(user_id: int | None, kind: str) -> PuzzleRating | None:
    if user_id is None:
        return None
    return PuzzleRating.objects.filter(user_id=user_id, kind=kind).first()


def themes_of(kind: str) -> list[str]:
    """The themes the puzzles of ``kind`` have, most common first."""
    counts: dict[str, int] = {}
    for themes in Puzzle.objects.filter(kind=kind).values_list("themes", flat=True):
        for theme in themes:
            counts[theme] = counts.get(theme, 0) + 1
    return sorted(counts, key=lambda t: (-counts[t], t))


def with_theme(kind: str, theme: str | None) -> QuerySet[Puzzle]:
    """The puzzles of ``kind`` that have ``theme`` (all of them for none); a 400 that says
    which themes there are for one no puzzle has. (The themes are a short JSON list: they
    are matched here, the same on every database.)"""
    query = Puzzle.objects.filter(kind=kind)
    if not theme:
        return query
    ids = [pk for pk, themes in query.values_list("pk", "themes") if theme in themes]
    if not ids:
        known = ", ".join(themes_of(kind)) or _("none")
        words = _("No puzzle has the theme “%(theme)s”; the themes: %(known)s.") % {
            "theme": theme[:30],
            "known": known,
        }
        raise ServiceError("bad_theme", words)
    return query.filter(pk__in=ids)


def next_puzzle(
    kind: str, user_id: int | None, rng: random.Random | None = None, theme: str | None = None
) -> Puzzle:
    """A puzzle near the account's puzzle rating (1500 for anyone else), not tried yet by
    the account, of ``theme`` when given."""
    rng = rng or random.Random()
    row = rating_of(user_id, kind)
    target = row.rating if row else glicko2.START_RATING
    query = with_theme(kind, theme)
    if user_id is not None:
        query = query.exclude(attempts__user_id=user_id)
    above = list(query.filter(rating__gte=target).order_by("rating")[:NEAR])
    below = list(query.filter(rating__lt=target).order_by("-rating")[:NEAR])
    near = sorted(above + below, key=lambda p: abs(p.rating - target))[:NEAR]
    if not near:
        raise ServiceError("no_puzzles", _("There is no puzzle left to try in this game."), 404)
    return rng.choice(near)


def rate_first_try(puzzle_id: int, user_id: int, solved: bool) -> dict[str, Any] | None:
    """Both ratings after an account's first try at a puzzle; None when it was not the first
    (a later try, or a first try rated already by another request)."""
    try:
        with transaction.atomic():
            puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
            PuzzleRating.objects.get_or_create(user_id=user_id, kind=puzzle.kind)
            row = PuzzleRating.objects.select_for_update().get(user_id=user_id, kind=puzzle.kind)
            if PuzzleAttempt.objects.filter(user_id=user_id, puzzle=puzzle).exists():
                return None
            player, problem = glicko2.game(row.value, puzzle.value, 1.0 if solved else 0.0)
            before = row.rating
            PuzzleAttempt.objects.create(
                user_id=user_id,
                puzzle=puzzle,
                solved=solved,
                rating_before=before,
                rating_after=player.rating,
            )
            row.rating, row.rd, row.volatility = player.rating, player.rd, player.volatility
            row.attempts += 1
            row.save()
            puzzle.rating, puzzle.rd, puzzle.volatility = problem.rating, problem.rd, problem.volatility
            puzzle.plays += 1
            puzzle.save(update_fields=["rating", "rd", "volatility", "plays"])
    except IntegrityError:  # the same first try, recorded by a concurrent request
        return None
    return {
        "rating": glicko2.points(player.rating),
        "change": glicko2.points(player.rating) - glicko2.points(before),
        "provisional": player.provisional,
    }


def settle(puzzle: Puzzle, user_id: int | None, verdict: Verdict) -> dict[str, Any] | None:
    """Rate the try when it is decided and the player has an account."""
    if user_id is None or verdict.status == "continue":
        return None
    return rate_first_try(puzzle.pk, user_id, verdict.status == "solved")
