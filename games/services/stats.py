"""Figures about the games played, for the admin's statistics page: plain counts."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from games import catalog
from games.models import Game

DAYS = 14


@dataclass(frozen=True)
class Stats:
    kinds: list[str]  # titles, in catalog order
    days: list[tuple[datetime.date, list[int], int]]  # date, count per kind, total
    per_kind: list[tuple[str, int, int, int, int, int]]  # title, won, drawn, aborted, unfinished, total
    results: dict[str, int]
    levels: list[tuple[str, int]]
    total: int
    against_people: int

    @property
    def people_share(self) -> str:
        return f"{100 * self.against_people / self.total:.0f}%" if self.total else "-"


def game_stats(today: datetime.date | None = None, days: int = DAYS) -> Stats:
    today = today or timezone.localdate()
    first = today - datetime.timedelta(days=days - 1)
    kinds = list(catalog.CATALOG)
    by_day: Counter[tuple[datetime.date, str]] = Counter()
    recent = (
        Game.objects.filter(created__date__gte=first)
        .annotate(day=TruncDate("created"))
        .values("day", "kind")
        .annotate(n=Count("id"))
    )
    for day_row in recent:
        by_day[day_row["day"], day_row["kind"]] += day_row["n"]
    day_rows = []
    for offset in range(days):
        day = today - datetime.timedelta(days=offset)
        counts = [by_day[day, kind] for kind in kinds]
        day_rows.append((day, counts, sum(counts)))

    finished = Q(status__gte=Game.FINISHED)
    per_kind = []
    for row in (
        Game.objects.values("kind")
        .order_by("kind")
        .annotate(
            won=Count("id", filter=Q(status=Game.Status.WON)),
            drawn=Count("id", filter=Q(status=Game.Status.DRAWN)),
            aborted=Count("id", filter=Q(status=Game.Status.ABORTED)),
            unfinished=Count("id", filter=~finished),
            total=Count("id"),
        )
    ):
        title = catalog.CATALOG[row["kind"]].title if row["kind"] in catalog.CATALOG else row["kind"]
        per_kind.append((title, row["won"], row["drawn"], row["aborted"], row["unfinished"], row["total"]))
    results = {
        "won": sum(r[1] for r in per_kind),
        "drawn": sum(r[2] for r in per_kind),
        "aborted": sum(r[3] for r in per_kind),
        "unfinished": sum(r[4] for r in per_kind),
    }
    levels = [
        (row["ai_level"], row["n"])
        for row in Game.objects.exclude(ai_level="").values("ai_level").annotate(n=Count("id")).order_by("-n")
    ]
    total = sum(r[5] for r in per_kind)
    return Stats(
        kinds=[catalog.CATALOG[kind].title for kind in kinds],
        days=day_rows,
        per_kind=per_kind,
        results=results,
        levels=levels,
        total=total,
        against_people=Game.objects.filter(ai_level="").count(),
    )
