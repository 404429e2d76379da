"""The footer's language switcher: Django's ``set_language`` (the cookie, the way back),
which also becomes the account's own setting when someone is logged in. Works without
JavaScript: a form post, then a redirect to the page it came from."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.models import Account

CODES = {code for code, _name in settings.LANGUAGES}


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("language", "")
    if code not in CODES:
        sentence = _("No such language here: choose one of the list.")
        return render(request, "accounts/bad_language.html", {"sentence": sentence}, status=400)
    response = set_language(request)
    if request.user.is_authenticated:
        Account.objects.filter(user_id=request.user.pk).update(language=code)
    return response
