"""The analysis board's page, ``/analysis/<game>/``: any position (empty, from a shared
address in the game's notation, from any ply of a game), every legal action with its
value, the best drawn on the board, and the explorer below. Clicking an action is a form
post that moves along (works without JavaScript). Nothing is written to the games."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import catalog
from games.ai.base import ActionValue
from games.engine.numbers import whole_number
from games.models import Game
from games.runner import turns as ai_runner
from games.services import ratelimit
from games.services.base import ServiceError
from study import board, explorer, lines, positions, setup
from study.models import Puzzle

MAX_QUERY = 2000  # characters of the actions' list in an address


def read_options(spec: Any, data: QueryDict) -> dict[str, Any]:
    """The game's declared options from an address or a form, each by its name; the rules
    then check their ranges."""
    options: dict[str, Any] = {}
    for option in spec.options:
        text = data.get(option.name)
        if text is None:
            continue
        if option.type == "bool":
            if text not in ("0", "1", "true", "false", "on", "off"):
                words = _("%(option)s: say 1 or 0, not %(text)s.")
                raise ServiceError("bad_option", words % {"option": _(option.label), "text": repr(text[:20])})
            options[option.name] = text in ("1", "true", "on")
        else:
            number = whole_number(text, 6, signed=True)
            if number is None:
                words = _("%(option)s: a whole number, not %(text)s.")
                raise ServiceError("bad_option", words % {"option": _(option.label), "text": repr(text[:20])})
            options[option.name] = number
    return options


def read_position(kind: str, data: QueryDict) -> positions.Position:
    """The position an address or a form names: ``position`` (the game's notation, blanks
    written as ``_`` or ``+``) or ``moves`` (actions from the start, comma-separated)."""
    spec = positions.spec_of(kind)
    options = read_options(spec, data)
    notation = data.get("position")
    moves_text = data.get("moves")
    if notation is not None and notation.strip():
        return positions.resolve(kind, options, position=notation.replace("_", " ").strip())
    if moves_text and len(moves_text) > MAX_QUERY:
        raise ServiceError("too_many_moves", _("That list of actions is far too long for any game here."))
    moves = [m.strip() for m in (moves_text or "").split(",") if m.strip()]
    return positions.resolve(kind, options, moves=moves)


def _limited(request: HttpRequest) -> str | None:
    wait = ratelimit.check("hint", ratelimit.request_address(request), "RATE_LIMIT_HINT")
    return _("You asked for many analyses: try again in %(seconds)d s.") % {"seconds": wait} if wait else None


async def _values(request: HttpRequest, where: positions.Position) -> tuple[list[ActionValue], str | None]:
    """The computer's value of every action here, from the analysis pool as hints are."""
    if where.state.is_over() or not where.spec.capabilities.analysis:
        return [], None
    refusal = await sync_to_async(_limited)(request)
    if refusal:
        return [], refusal
    client = f"ip:{ratelimit.request_address(request)}"
    try:
        values = await ai_runner.analyse(where.kind, where.options, where.moves, settings.HINT_BUDGET, client)
    except ai_runner.Busy as busy:
        return [], busy.message
    return values, None


def _empty_context(kind: str) -> dict[str, Any]:
    return {"where": positions.resolve(kind, {}, moves=[]), "lines": [[]], "root": 0}


def read_root(data: QueryDict, where: positions.Position) -> int:
    """The plies of a set-up position (shown as one step): the address's, or all of them
    for a position opened by its notation."""
    if data.get("position", "").strip():
        return len(where.moves)
    root = whole_number(data.get("root", ""), 3)
    return min(root, len(where.moves)) if root is not None else 0


def _setup_page(request: HttpRequest, kind: str) -> HttpResponse:
    """The set-up by clicks (study/setup.py); a 400 that says why for an address it cannot read."""
    status = 200
    try:
        spec = positions.spec_of(kind)
        options = read_options(spec, request.GET)
        options = positions.resolve(kind, options, moves=[]).options
        if not setup.can_edit(kind):
            words = _("%(title)s positions are set up by playing their actions.") % {"title": spec.title}
            raise ServiceError("no_setup", words)
        chosen = setup.read(request.GET.get("edit", ""), request.GET.get("pen"))
        context: dict[str, Any] = {"spec": spec, "kind": kind, **setup.context(chosen, options)}
    except ServiceError as error:
        if error.code == "unknown_game":
            return render(request, "404.html", status=404)
        status = 400
        context = {"spec": positions.spec_of(kind), "kind": kind, "error": error.message}
    context["back_href"] = reverse("study:analysis", args=[kind])
    return render(request, "study/setup.html", context, status=status)


async def analysis(request: HttpRequest, kind: str) -> HttpResponse:
    """GET: the page at the address's position. POST (a click on an action): the next
    position's address (post, redirect, get)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405)
    data = request.POST if request.method == "POST" else request.GET
    if request.method != "POST" and "edit" in data:
        return await sync_to_async(_setup_page)(request, kind)
    try:
        where = await sync_to_async(read_position)(kind, data)
        root = read_root(data, where)
        kept = lines.read(data.get("lines"), where.moves)
        if request.method == "POST":
            move = request.POST.get("move", "")
            after = await sync_to_async(positions.resolve)(kind, where.options, [*where.moves, move[:20]])
            kept = lines.keep(kept, after.moves)
            address = (
                reverse("study:analysis", args=[kind])
                + "?"
                + lines.query(after.options, after.moves, kept, root)
            )
            return HttpResponseRedirect(address)
    except ServiceError as error:
        if error.code == "unknown_game":
            return await sync_to_async(render)(request, "404.html", status=404)
        context = await sync_to_async(_empty_context)(kind)
        context["error"] = error.message
        context["error_code"] = error.code
        return await sync_to_async(_page)(request, context, [], status=400)
    values, refusal = await _values(request, where)
    context = {"where": where, "error": refusal, "lines": kept, "root": root}
    return await sync_to_async(_page)(request, context, values)


def _page(
    request: HttpRequest, context: dict[str, Any], values: list[ActionValue], status: int = 200
) -> HttpResponse:
    where: positions.Position = context["where"]
    spec = where.spec
    url = reverse("study:analysis", args=[where.kind])
    notation = where.notation
    kept: list[list[str]] = context["lines"]
    root: int = context["root"]

    def address(moves: list[str]) -> str:
        return f"{url}?{lines.query(where.options, moves, kept, root)}"

    turn = spec.words.turn(where.state)
    rows = board.value_rows(where, values)
    said = {row["move"]: row["words"] for row in rows}
    seen = [
        {**row, "value": said.get(row["move"], "")}
        for row in explorer.explore(where.kind, where.options, notation)
    ]
    context.update(
        {
            "spec": spec,
            "url": url,
            "moves_text": ",".join(where.moves),
            "lines_text": lines.text(kept),
            "root": root,
            "root_href": address(where.moves[:root]) if root else None,
            "at_root": root == len(where.moves),
            "can_set_up": setup.can_edit(where.kind),
            "setup_href": f"{url}?{setup_query(where)}",
            "option_values": [(k, board.option_text(v)) for k, v in where.options.items()],
            "steps": lines.tree(where, kept, root, url),
            "notation": notation,
            "share": f"{url}?position={notation.replace(' ', '_')}" if notation else None,
            "start_href": address([]) if not root else address(where.moves[:root]),
            "empty_href": f"{url}?{board.query(where.options, [])}",
            "back_href": address(where.moves[:-1]) if len(where.moves) > root else None,
            "side": None if where.state.is_over() else where.state.to_move + 1,
            "task": turn.others if turn else "move",
            "actions": rows,
            "analysable": spec.capabilities.analysis,
            "explorer": seen,
            **board.board_context(where, playable=not where.state.is_over(), values=values),
        }
    )
    return render(request, "study/analysis.html", context, status=status)


def setup_query(where: positions.Position) -> str:
    """The set-up's address starting from this position (its notation)."""
    pairs = {k: board.option_text(v) for k, v in where.options.items()}
    notation = (where.notation or "").replace(" ", "_")
    return urlencode({**pairs, "edit": notation, "pen": "0"})


def position_link(game: Game, ply: int) -> tuple[str, str] | None:
    """The replay's and the review's link here (games' position-link hook): a finished
    game's position at ``ply``, for a game the computer analyses."""
    if not game.is_finished or not positions.spec_of(game.kind).capabilities.analysis:
        return None
    label = (
        _("Analyse from the start")
        if ply == 0
        else _("Analyse from here")
        if ply < game.ply
        else _("Analyse the final position")
    )
    return label, reverse("study:from_game", args=[game.pk]) + f"?ply={ply}"


@require_safe
def from_game(request: HttpRequest, pk: int) -> HttpResponse:
    """``/analysis/game/<pk>/?ply=N``: the analysis board at that ply of a finished game."""
    game = get_object_or_404(Game, pk=pk, status__gte=Game.FINISHED)
    texts = game.move_texts
    try:
        ply = min(max(int(request.GET.get("ply", len(texts))), 0), len(texts))
    except ValueError:
        ply = len(texts)
    address = reverse("study:analysis", args=[game.kind]) + "?" + board.query(game.options, texts[:ply])
    return HttpResponseRedirect(address)


def home_section(request: HttpRequest) -> str:
    """The home page's way to the analysis board and the puzzles (games' front-page hook)."""
    kinds = set(Puzzle.objects.values_list("kind", flat=True).distinct())
    games = list(catalog.CATALOG.values())
    return render_to_string(
        "study/_home.html",
        {
            "analysable": [g for g in games if g.capabilities.analysis],
            "with_puzzles": [g for g in games if g.kind in kinds],
        },
        request=request,
    )
