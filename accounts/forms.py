from __future__ import annotations

from django import forms

from accounts.models import Account


class PreferencesForm(forms.ModelForm[Account]):
    class Meta:
        model = Account
        fields = ["show_coordinates", "sound", "confirm_resign", "email_turns"]
        labels = {
            "show_coordinates": "Show board coordinates",
            "sound": "Sound on moves",
            "confirm_resign": "Ask before resigning",
            "email_turns": "Email me when it is my turn in a correspondence game and when a timed game ends",
        }


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=40, label="Token name", help_text="Say what will use it, e.g. 'my bot'."
    )


class CloseForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label="Your password, to confirm")
