"""What tournament pages show: the lists, the standings with their flames, the podium, the
games in play, the countdown. The live part is the same for every viewer, so it is rendered
once per change (tournaments/live.py); what is the viewer's own (join or withdraw) stays
outside it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import formats, timezone

from games import catalog
from games import clocks as clock_rules
from tournaments import services
from tournaments.models import Pairing, Tournament

LIVE_TEMPLATE = "tournaments/detail.html#live"
FINISHED_SHOWN = 20
HOME_SHOWN = 4


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    score: str  # for programs: data-score
    score_shown: str  # in the reader's language
    on_fire: bool
    sheet: str
    # The sheet's entries with the game each was scored in (None: a bye), to link them.
    results: list[tuple[str, int | None]]
    buchholz: str
    sonneborn: str
    playing: int | None  # the game it plays now
    withdrawn: bool
    rating: int


@dataclass(frozen=True)
class Playing:
    game_id: int
    first: str
    second: str


def points(value: int, swiss: bool) -> str:
    """A score for programs (the rows' ``data-score``): arena points, or Swiss half points as 2.5."""
    if not swiss:
        return str(value)
    return str(value // 2) + (".5" if value % 2 else "")


def shown(value: int, per_point: int = 1) -> str:
    """``value / per_point`` as the reader's language writes a number (2.5, 2,5)."""
    decimals = 0 if value % per_point == 0 else 1 if (2 * value) % per_point == 0 else 2
    return formats.number_format(Decimal(value) / per_point, decimal_pos=decimals)


# A Swiss sheet's half points as read: a win, a draw, a loss (a bye "B" and a game not
# played "-" stay as they are).
SWISS_MARKS = {"2": "1", "1": "½", "0": "0"}


def sheet_mark(token: str, swiss: bool) -> str:
    return SWISS_MARKS.get(token, token) if swiss else token


def title(tournament: Tournament) -> str:
    return catalog.get(tournament.game).title if tournament.game in catalog.CATALOG else tournament.game


def time_control(tournament: Tournament) -> str:
    return clock_rules.parse(tournament.clock).label


def results(tournament: Tournament) -> dict[int, list[tuple[str, int | None]]]:
    """Each entry's sheet beside the games it was scored in, in order: a player plays one
    game at a time, so its pairings, oldest first, are its sheet's entries (a bye has no
    game). An entry whose sheet and pairings disagree keeps its sheet alone."""
    swiss = tournament.kind == Tournament.Kind.SWISS
    games: dict[int, list[int | None]] = {}
    scored = Pairing.objects.filter(tournament=tournament, done=True).order_by("pk")
    for first, second, game in scored.values_list("first_id", "second_id", "game_id"):
        for side in (first, second):
            if side is not None:
                games.setdefault(side, []).append(game)
    found: dict[int, list[tuple[str, int | None]]] = {}
    for entry_id, sheet in tournament.entries.values_list("pk", "sheet"):
        tokens = [sheet_mark(token, swiss) for token in sheet.split()]
        played = games.get(entry_id, [])
        found[entry_id] = list(zip(tokens, played, strict=True)) if len(played) == len(tokens) else []
    return found


def rows(tournament: Tournament) -> list[Row]:
    swiss = tournament.kind == Tournament.Kind.SWISS
    linked = results(tournament)
    return [
        Row(
            place=place,
            name=entry.user.get_username(),
            score=points(entry.score, swiss),
            score_shown=shown(entry.score, 2 if swiss else 1),
            on_fire=not swiss and entry.on_fire,
            sheet=" ".join(sheet_mark(token, swiss) for token in entry.sheet.split()),
            results=linked.get(entry.pk, []),
            buchholz=shown(entry.buchholz, 2),
            sonneborn=shown(entry.sonneborn, 4),
            playing=entry.game_id,
            withdrawn=entry.withdrawn,
            rating=round(entry.rating),
        )
        for place, entry in enumerate(services.standings(tournament), 1)
    ]


def in_play(tournament: Tournament) -> list[Playing]:
    found = (
        Pairing.objects.filter(tournament=tournament, done=False, game__isnull=False)
        .select_related("first__user", "second__user")
        .order_by("-pk")
    )
    return [
        Playing(p.game_id or 0, p.first.user.get_username(), p.second.user.get_username() if p.second else "")
        for p in found
    ]


def countdown(tournament: Tournament, now: datetime) -> tuple[str, datetime | None]:
    """What the countdown counts to ("starts", "ends") and when; ("", None) when nothing."""
    if tournament.status == Tournament.Status.UPCOMING:
        return "starts", tournament.starts_at
    if tournament.status == Tournament.Status.RUNNING and tournament.kind == Tournament.Kind.ARENA:
        return "ends", tournament.ends_at
    return "", None


def clock_text(when: datetime, now: datetime) -> str:
    """The time left as the countdown shows it (minutes:seconds; hours:minutes:seconds)."""
    left = max(0, int((when - now).total_seconds()))
    hours, rest = divmod(left, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def live_context(tournament: Tournament) -> dict[str, Any]:
    now = timezone.now()
    what, when = countdown(tournament, now)
    standing = rows(tournament)
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "tournament": tournament,
        "swiss": tournament.kind == Tournament.Kind.SWISS,
        "upcoming": tournament.status == Tournament.Status.UPCOMING,
        "running": tournament.status == Tournament.Status.RUNNING,
        "rows": standing,
        "podium": standing[:3] if finished else [],
        "playing": in_play(tournament),
        "count_what": what,
        "count_when": when,
        "count_left": clock_text(when, now) if when else "",
    }


def render_live(tournament_id: int) -> str:
    tournament = services.get(tournament_id)
    return render_to_string(LIVE_TEMPLATE, {**live_context(tournament), "oob": True})


@dataclass(frozen=True)
class Listed:
    tournament: Tournament
    title: str
    time_control: str
    players: int
    arena: bool


def listed(rows: Any) -> list[Listed]:
    return [
        Listed(t, title(t), time_control(t), t.entries.count(), t.kind == Tournament.Kind.ARENA) for t in rows
    ]


def list_context() -> dict[str, Any]:
    found = Tournament.objects.all()
    return {
        "upcoming": listed(found.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")[:50]),
        "running": listed(found.filter(status=Tournament.Status.RUNNING).order_by("starts_at")[:50]),
        "finished": listed(
            found.filter(status=Tournament.Status.FINISHED).order_by("-ends_at", "-pk")[:FINISHED_SHOWN]
        ),
    }


def home_section(request: HttpRequest) -> str:
    """The home page's tournaments: those running and the next to start (games' front hook)."""
    soon = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING) | Q(status=Tournament.Status.UPCOMING)
    ).order_by("-status", "starts_at")[:HOME_SHOWN]
    return render_to_string("tournaments/_home.html", {"shown": listed(soon)}, request=request)


def game_part(request: HttpRequest, game: Any) -> str:
    """A tournament game's page: which tournament, and for its players a link that takes
    them on to their next game by itself (games' game-page hook)."""
    found = Pairing.objects.filter(game=game).select_related("tournament").first()
    if found is None:
        return ""
    tournament = found.tournament
    mine = services.entry_of(tournament, request.user)
    follow = mine is not None and mine.pk in (found.first_id, found.second_id) and not mine.withdrawn
    context = {"tournament": tournament, "game": game, "follow": follow}
    return render_to_string("tournaments/_game.html", context, request=request)


def form_context() -> dict[str, Any]:
    """The list page's form: each game and the preset clocks."""
    return {
        "form_games": [(kind, spec.title) for kind, spec in catalog.CATALOG.items()],
        "form_clocks": [control.label for control in clock_rules.presets()],
    }
