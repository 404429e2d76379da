"""The profile page (``/@/<username>``) and the settings page: preferences, personal API
tokens, closing the account. Each works without JavaScript: forms post and redirect."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import profiles, services
from accounts.forms import CloseForm, PreferencesForm, TokenForm
from accounts.models import Account
from games import catalog, clocks
from games.services.moves import ServiceError
from ratings import charts
from ratings import services as ratings


def public_user(username: str) -> Any:
    """The user named ``username`` (any case) with an account in good standing, or 404."""
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise Http404(_("No such player."))
    account = Account.objects.filter(user=user).first()
    if account is not None and not account.in_good_standing:
        raise Http404(_("No such player."))
    return user


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = public_user(username)
    account = Account.objects.filter(user=user).first()
    rated = [
        {
            "rating": row,
            "title": catalog.get(row.kind).title,
            "games": ratings.history(user, row.kind, row.speed),
        }
        for row in ratings.ratings_of(user)
        if row.kind in catalog.CATALOG
    ]
    return render(
        request,
        "accounts/profile.html",
        {
            "person": user,
            "bot": bool(account and account.bot),
            "profile": profiles.profile_of(user),
            "ratings": rated,
        },
    )


@require_GET
# The chart's own <style> (an image runs no script). django-csp types its decorator for
# views of the request alone.
@csp_update({"style-src": ["'unsafe-inline'"]})  # type: ignore[arg-type]
def rating_chart(request: HttpRequest, username: str, kind: str, speed: str) -> HttpResponse:
    """The account's rating history in one game and speed, as an SVG image."""
    user = public_user(username)
    if kind not in catalog.CATALOG or speed not in clocks.SPEEDS:
        raise Http404(_("No such rating."))
    title = f"{catalog.get(kind).title}, {speed}"
    svg = charts.history_svg(ratings.history(user, kind, speed), title)
    return HttpResponse(svg, content_type="image/svg+xml")


def _account(request: HttpRequest) -> Account:
    account = services.account_of(request.user)
    assert account is not None  # login_required
    return account


def _settings(request: HttpRequest, status: int = 200, **context: Any) -> HttpResponse:
    account = _account(request)
    context.setdefault("preferences", PreferencesForm(instance=account))
    context.setdefault("token_form", TokenForm())
    context.setdefault("close_form", CloseForm())
    context["tokens"] = account.tokens.all()
    context["account"] = account
    return render(request, "accounts/settings.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PreferencesForm(request.POST, instance=_account(request))
        if not form.is_valid():
            return _settings(request, 400, preferences=form)
        form.save()
        messages.success(request, _("Preferences saved."))
        answer = HttpResponseRedirect(reverse("accounts:settings"), status=303)
        if not form.cleaned_data["language"]:  # the browser's language again, not the last one set
            answer.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH)
        return answer
    return _settings(request)


@login_required
@require_POST
def new_token(request: HttpRequest) -> HttpResponse:
    """The new token is shown on this answer only: it is stored hashed."""
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _settings(request, 400, token_form=form)
    try:
        token = services.create_token(_account(request), form.cleaned_data["name"])
    except ServiceError as exc:
        form.add_error("name", exc.message)
        return _settings(request, exc.status, token_form=form)
    return _settings(request, 201, new_token=token, new_token_name=form.cleaned_data["name"])


@login_required
@require_POST
def revoke_token(request: HttpRequest) -> HttpResponse:
    try:
        services.revoke_token(_account(request), request.POST.get("name", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Token revoked: it no longer works."))
    return HttpResponseRedirect(reverse("accounts:settings"), status=303)


@login_required
@require_POST
def close(request: HttpRequest) -> HttpResponse:
    form = CloseForm(request.POST)
    if form.is_valid() and not request.user.check_password(form.cleaned_data["password"]):
        form.add_error("password", _("That is not your password."))
    if not form.is_valid():
        return _settings(request, 400, close_form=form)
    services.close_account(_account(request))
    logout(request)
    messages.success(request, _("Your account is closed. Its games stay, played by a deleted player."))
    return HttpResponseRedirect(reverse("games:home"), status=303)
