"""allauth's hooks: our username rules and our mail subjects."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter

from accounts import usernames


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def clean_username(self, username: str, shallow: bool = False) -> str:
        usernames.check(username)
        cleaned: str = super().clean_username(username, shallow=shallow)
        return cleaned

    def format_email_subject(self, subject: Any) -> str:
        return f"[Quarto Site] {subject}"
