from __future__ import annotations

from typing import Any

from allauth.account import app_settings
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import Account

# The username rule (accounts/usernames.py), said beside the field before any error.
USERNAME_HELP = _("3 to 20 letters, digits, '-' or '_'. Shown beside your moves and on your profile.")


class SignupForm(AllauthSignupForm):  # type: ignore[misc]  # allauth ships no types
    """allauth's sign-up form with the rules said up front (ACCOUNT_FORMS): the username's
    and the password's length, beside their fields before any error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.help_text = USERNAME_HELP
        username.widget.attrs.update(minlength="3", maxlength="20")
        username.widget.attrs.pop("placeholder", None)
        if app_settings.PASSWORD_MIN_LENGTH:
            self.fields["password1"].help_text = ngettext(
                "At least %(count)d character.",
                "At least %(count)d characters.",
                app_settings.PASSWORD_MIN_LENGTH,
            ) % {"count": app_settings.PASSWORD_MIN_LENGTH}


class PreferencesForm(forms.ModelForm[Account]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        language.choices = [("", _("The browser's language")), *settings.LANGUAGES]  # type: ignore[attr-defined]

    class Meta:
        model = Account
        fields = ["language", "show_coordinates", "sound", "confirm_resign", "email_turns"]
        labels = {
            "language": _("Language"),
            "show_coordinates": _("Show board coordinates"),
            "sound": _("Sounds on the game page (moves, the end, low time, chat)"),
            "confirm_resign": _("Ask before resigning"),
            "email_turns": _(
                "Email me when it is my turn in a correspondence game and when a timed game ends"
            ),
        }


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=40, label=_("Token name"), help_text=_("Say what will use it, e.g. 'my bot'.")
    )


class CloseForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label=_("Your password, to confirm"))
