"""The chat form and the display-name form of the game page.

Both are plain forms that work without JavaScript (post, then redirect to the game);
with htmx the chat form is answered with a fresh form and the chat part out of band.
Every change goes through :mod:`games.services.chat`.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from games.models import Game
from games.presenting import presenters
from games.services import chat
from games.services.base import ServiceError
from games.web.views import SESSION_NAME, HtmxHttpRequest, actor_for, page_context, redirect_to


@require_POST
def say(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    text = request.POST.get("text", "")
    error = None
    try:
        chat.say(pk, actor_for(request), text)
    except ServiceError as exc:
        if exc.code == "not_found":
            return HttpResponse(exc.message, status=404)
        error = exc.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("games:detail", pk=pk)
    game = get_object_or_404(Game, pk=pk)
    context = presenters.game_context(game, actor_for(request))
    context.update(chat_error=error, chat_text=text if error else "")
    form = render_to_string("games/game.html#chat_form", context, request=request)
    lines = render_to_string("games/game.html#chat", context)
    # 200 even for a refusal, so htmx swaps the sentence in (it ignores 4xx bodies).
    return HttpResponse(form + format_html('<div id="chat" hx-swap-oob="innerHTML">{}</div>', lines))


@require_POST
def rename(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    text = request.POST.get("name", "")
    try:
        name = chat.set_name(pk, actor_for(request), text)
    except ServiceError as exc:
        if exc.code == "not_found":
            return HttpResponse(exc.message, status=404)
        if exc.code == "bad_name":  # said beside the field, the name as typed kept
            context = page_context(request, get_object_or_404(Game, pk=pk))
            context.update(name_error=exc.message, name_text=text)
            if request.htmx:  # 200, so htmx swaps the form in (it ignores 4xx bodies)
                return HttpResponse(render_to_string("games/game.html#name_form", context, request=request))
            return render(request, "games/game.html", context, status=400)
        messages.error(request, exc.message)
    else:
        request.session[SESSION_NAME] = name
        messages.success(request, f"You are {name} in this game and your next ones.")
    return redirect_to(request, reverse("games:detail", args=[pk]))
