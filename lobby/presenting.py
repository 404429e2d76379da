"""What a lobby page shows: the open seeks, the pools' buttons with their waiting counts,
the seek form's choices, the games most watched. The live part is the same for every
viewer, so it is rendered once per change (lobby/live.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import catalog
from games import clocks as clock_rules
from games.models import Game
from games.presenting import audiences, front, presence
from games.services import ratelimit
from lobby import pool, seekers, services
from lobby.models import Seek

LIVE_TEMPLATE = "lobby/lobby.html#live"
POOLS_TEMPLATE = "lobby/lobby.html#pools"
NOW_PLAYING = 8


@dataclass(frozen=True)
class SeekRow:
    seek: Seek
    title: str
    time_control: str
    who: str
    rating: str | None
    lapses: datetime | None = None  # a correspondence seek's end
    mine: bool = False  # the viewer's own (only in a page's own rendering)


@dataclass(frozen=True)
class PoolButton:
    kind: str
    clock: str  # the label the form posts back ("3+2")
    key: str
    waiting: int
    mine: bool = False  # this viewer waits here (only in a page's own rendering)


def seek_rows(kind: str | None = None, mine: frozenset[int] = frozenset()) -> list[SeekRow]:
    """The open seeks' rows; those whose ids are in ``mine`` are the viewer's (a page's own
    rendering: the pushed one is the same for every page)."""
    seeks = services.open_seeks(kind)
    ratings = services.ratings_shown(seeks)
    return [
        SeekRow(
            seek=seek,
            title=catalog.get(seek.kind).title,
            time_control=clock_rules.parse(seek.clock).label,
            who=seek.user.get_username() if seek.user else _("Anonymous"),
            rating=ratings.get(seek.pk),
            lapses=services.lapses_at(seek),
            mine=seek.pk in mine,
        )
        for seek in seeks
    ]


def pool_grid(waiting_key: str | None = None) -> list[tuple[str, str, list[PoolButton]]]:
    """(kind, title, buttons) for every game, a button per preset time control."""
    counts = pool.waiting_counts()
    grid = []
    for kind, spec in catalog.CATALOG.items():
        buttons = []
        for control in clock_rules.presets():
            key = pool.pool_key(kind, control)
            buttons.append(PoolButton(kind, control.label, key, counts.get(key, 0), key == waiting_key))
        grid.append((kind, spec.title, buttons))
    return grid


def live_context() -> dict[str, Any]:
    return {"rows": seek_rows(), "grid": pool_grid()}


def render_live() -> str:
    """The live part of every lobby page (seeks and pools), as out-of-band swaps."""
    return render_to_string(LIVE_TEMPLATE, {**live_context(), "oob": True})


def render_pools() -> str:
    """The pools' grid alone, as an out-of-band swap: what the home page shows live."""
    return render_to_string(POOLS_TEMPLATE, {"grid": pool_grid(), "oob": True})


def games_to_choose(
    posted: Mapping[str, Any] | None = None, shown: str | None = None
) -> list[dict[str, Any]]:
    """Each game with its declared options as the seek form shows them (a refused form's
    values kept): fields named ``<kind>.<option>``."""
    games = []
    for kind, spec in catalog.CATALOG.items():
        fields = []
        for option in spec.rules.options:
            name = f"{kind}.{option.name}"
            if posted:
                value, checked = posted.get(name, ""), name in posted
            else:
                value, checked = option.default, bool(option.default)
            fields.append(
                {
                    "name": name,
                    "spec": option,
                    "label": _(option.label),  # marked in games.web.newgame.PACKAGE_WORDS
                    "value": value,
                    "checked": checked,
                    "is_bool": option.type == "bool",
                }
            )
        chosen = posted is not None and posted.get("game") == kind
        games.append(
            {
                "kind": kind,
                "title": spec.title,
                "options": fields,
                "chosen": chosen,
                "shown": kind == shown,
                "links": front.game_links(kind),  # e.g. the game's rules
            }
        )
    return games


def clock_choices(chosen: str = "") -> list[tuple[str, str, bool]]:
    """(value, text, selected) of the seek form's time controls: presets, days, unlimited."""
    choices = [(c.label, c.label) for c in clock_rules.presets()]
    choices += [
        (f"{d}d", ngettext("%(count)s day", "%(count)s days", d) % {"count": d}) for d in clock_rules.DAYS
    ]
    return [(value, text, value == chosen) for value, text in [*choices, ("unlimited", _("unlimited"))]]


SEAT_CHOICES = (
    ("random", gettext_lazy("toss a coin")),
    ("first", gettext_lazy("I start")),
    ("second", gettext_lazy("they start")),
)
FORM_FIELDS = ("game", "clock", "seat", "rating")


def seat_choices(chosen: str = "") -> list[tuple[str, str, bool]]:
    return [(value, str(text), value == chosen) for value, text in SEAT_CHOICES]


def errors_by_field(message: str, field: str | None) -> dict[str, str]:
    """Where the seek form shows a refusal: beside its field; an option's under the options."""
    if field in FORM_FIELDS:
        return {field: message}
    return {"options": message} if field else {"general": message}


def now_playing(limit: int = NOW_PLAYING) -> list[tuple[Game, int]]:
    """Games in play with the most watchers (of the newest hundred), the most watched first."""
    games = Game.objects.filter(status=Game.Status.PLAYING).order_by("-updated")[:100]
    watched = [(game, presence.counts(game.pk, [audiences.WATCH])[audiences.WATCH]) for game in games]
    watched.sort(key=lambda pair: -pair[1])
    return watched[:limit]


def home_section(request: HttpRequest) -> str:
    """The home page's quick-pairing grid and its ways to play (games' front-page hook)."""
    who = seekers.of_browser(request.session, request.user, ratelimit.request_address(request), create=False)
    waiting = pool.current_pool(who)
    return render_to_string("lobby/_home.html", {"grid": pool_grid(waiting)}, request=request)
