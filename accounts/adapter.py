"""allauth's hooks: our username rules and our mail subjects."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.shortcuts import render

from accounts import usernames


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def clean_username(self, username: str, shallow: bool = False) -> str:
        usernames.check(username)
        cleaned: str = super().clean_username(username, shallow=shallow)
        return cleaned

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        """Save the new account; when another sign-up took the name (in any case) in the
        meantime the database refuses it, and the form says so beside the field.

        The password is hashed before the transaction: on SQLite a transaction holds the
        one write lock from its start, and a hash takes a second or more on a busy machine,
        so sixteen sign-ups at once queued behind each other's hashing until the last ones
        gave up with a 503 (a real hasher on a loaded server; the tests' quick one hid it)."""
        user = super().save_user(request, user, form, commit=False)
        if not commit:
            return user
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            form.add_error("username", self.error_messages["username_taken"])
            raise ImmediateHttpResponse(render(request, "account/signup.html", {"form": form})) from None
        return user

    def format_email_subject(self, subject: Any) -> str:
        return f"[Quarto Site] {subject}"
