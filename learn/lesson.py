"""The guided first game of Quarto, ``/learn/quarto/``: five steps on the real board
(learn/steps.py). Each action is a form post checked by the rules; a right one redirects
to the step's result, a wrong one shows the same step with a word. The lesson's state is
a signed value in the address or the form, nothing is written to the games, and it works
without JavaScript (with it, htmx swaps the lesson in place)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from games import catalog
from games.presenting.examples import example_context
from learn import steps

SALT = "learn.quarto"
MAX_FIELD = 200  # characters of a signed state; a real one is about 60


def damaged() -> str:
    """What a page with a tampered state says (in the reader's language)."""
    return gettext("This lesson's state was changed or damaged: the lesson starts again from the first step.")


class BadState(Exception):
    """The lesson's state was not one this site signed."""


@dataclass(frozen=True)
class Progress:
    step: int  # index in steps.STEPS
    done: str  # the right action taken at that step, "" while it is to do

    def sign(self) -> str:
        return signing.dumps({"s": self.step, "a": self.done}, salt=SALT, compress=False)


def read_state(text: str | None) -> Progress:
    """The signed state of a form or an address (none: the first step), checked again."""
    if text is None or text == "":
        return Progress(0, "")
    if len(text) > MAX_FIELD:
        raise BadState
    try:
        data = signing.loads(text, salt=SALT)
    except signing.BadSignature:
        raise BadState from None
    if not isinstance(data, dict) or not isinstance(data.get("s"), int) or not isinstance(data.get("a"), str):
        raise BadState
    if not 0 <= data["s"] < len(steps.STEPS):
        raise BadState
    progress = Progress(data["s"], data["a"])
    if progress.done and steps.judge(steps.STEPS[progress.step], position_of(progress), progress.done)[1]:
        raise BadState  # signed, but not a right action of its step
    return progress


def address(progress: Progress) -> str:
    return f"{reverse('learn:quarto')}?state={progress.sign()}"


def position_of(progress: Progress) -> Any:
    """The step's position, before the learner's action."""
    spec = catalog.get(steps.KIND)
    assert spec.notation is not None
    return spec.notation.parse(spec.rules, steps.STEPS[progress.step].position)


@require_http_methods(["GET", "HEAD", "POST"])
def page(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    try:
        progress = read_state(data.get("state"))
    except BadState:
        return _page(request, Progress(0, ""), error=True, status=400)
    if request.method != "POST":
        return _page(request, progress)
    text = str(data.get("move", ""))[:20]
    after, word = steps.judge(steps.STEPS[progress.step], position_of(progress), text)
    if after is None:  # the same step again, with the word
        return _page(request, Progress(progress.step, ""), word=word)
    canonical = str(catalog.get(steps.KIND).rules.parse_move(text))
    return HttpResponseRedirect(address(Progress(progress.step, canonical)), status=303)


def _page(
    request: HttpRequest, progress: Progress, word: str | None = None, error: bool = False, status: int = 200
) -> HttpResponse:
    step = steps.STEPS[progress.step]
    spec = catalog.get(steps.KIND)
    board = example_context(
        steps.KIND, position=step.position, moves=progress.done, playable=not progress.done
    )
    last = progress.step == len(steps.STEPS) - 1
    context: dict[str, Any] = {
        **board,
        "kind": steps.KIND,
        "step": step,
        "number": progress.step + 1,
        "count": len(steps.STEPS),
        "done": bool(progress.done),
        "word": word,
        "error": damaged() if error else None,
        "state": progress.sign(),
        "url": reverse("learn:quarto"),
        "next_href": None if last else address(Progress(progress.step + 1, "")),
        "again_href": address(Progress(progress.step, "")),
        "last": last,
        "outline": [
            {"title": s.title, "href": address(Progress(i, "")), "current": i == progress.step}
            for i, s in enumerate(steps.STEPS)
        ],
        "level": spec.levels[0] if spec.levels else "",
    }
    response = render(request, "learn/quarto.html", context, status=status)
    if getattr(request, "htmx", False) and request.method == "GET":
        response["HX-Push-Url"] = request.get_full_path()
    return response
