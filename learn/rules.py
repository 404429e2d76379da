"""The rules pages, ``/rules/<game>/``: for every game of the catalog, its rules in short
sections with example positions drawn by its own board partials. The words live in the
game's package, ``templates/kinds/<kind>_rules.html`` beside its partials; this page
frames them. Plain pages: no JavaScript, nothing written."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games import catalog
from games.presenting import front


def rules_template(kind: str) -> str:
    """A game's rules, in its package: ``games/kinds/<kind>/templates/kinds/<kind>_rules.html``."""
    return f"kinds/{kind}_rules.html"


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    games = [{"spec": spec, "links": front.game_links(spec.kind)} for spec in catalog.CATALOG.values()]
    return render(request, "learn/index.html", {"games": games})


@require_safe
def rules_page(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in catalog.CATALOG:
        return render(request, "404.html", status=404)
    spec = catalog.get(kind)
    others = [link for link in front.game_links(kind) if not link["href"].startswith(request.path)]
    context = {"spec": spec, "rules_template": rules_template(kind), "links": others}
    return render(request, "learn/rules.html", context)
