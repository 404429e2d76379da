"""Sign up, log in, log out, password reset and email confirmation (allauth) in the site's layout."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
User = get_user_model()


def sign_up(client: Client, username: str, email: str = "", password: str = "a-long-pass-phrase") -> Any:
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def test_signup_page_is_in_the_site_layout_without_inline_script(client: Client) -> None:
    page = client.get("/accounts/signup/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'class="site-header"' in html
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


def test_sign_up_logs_in_at_once_with_no_email(client: Client) -> None:
    answer = sign_up(client, "Alice")
    assert answer.status_code == 302
    user = User.objects.get()
    assert user.get_username() == "Alice"  # its casing kept; unique whatever the case
    assert client.session["_auth_user_id"] == str(user.pk)
    assert 'href="/@/Alice"' in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("admin", "kept for the site"),
        ("Computer", "kept for the site"),
        ("anonymous", "kept for the site"),
        ("ab", "3 to 20 letters"),
        ("a" * 21, "3 to 20 letters"),
        ("no spaces", "3 to 20 letters"),
        ("dot.ted", "3 to 20 letters"),
    ],
)
def test_bad_usernames_are_refused_beside_the_field_input_kept(
    client: Client, username: str, message: str
) -> None:
    answer = sign_up(client, username)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert message in html
    assert f'value="{username}"' in html
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_usernames_are_unique_whatever_the_case(client: Client) -> None:
    sign_up(client, "alice")
    other = Client()
    answer = sign_up(other, "ALICE")
    assert answer.status_code == 200
    assert "already" in answer.content.decode()
    assert User.objects.count() == 1


def test_an_email_given_is_confirmed_by_a_link(client: Client) -> None:
    sign_up(client, "bob", email="bob@example.com")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject.startswith("[Quarto Site]")
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+)", str(mail.outbox[0].body))
    assert link
    client.post(link.group(1))
    assert EmailAddress.objects.get(user=User.objects.get()).verified


def test_log_out_and_log_in_again(client: Client) -> None:
    sign_up(client, "carol")
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    answer = client.post("/accounts/login/", {"login": "Carol", "password": "a-long-pass-phrase"})
    assert answer.status_code == 302
    assert "_auth_user_id" in client.session


def test_password_reset_sends_a_link(client: Client) -> None:
    sign_up(client, "dave", email="dave@example.com")
    mail.outbox.clear()
    Client().post("/accounts/password/reset/", {"email": "dave@example.com"})
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_wrong_passwords_are_throttled_with_a_clear_message(client: Client) -> None:
    sign_up(client, "erin")
    client.post("/accounts/logout/")
    for _ in range(5):
        answer = client.post("/accounts/login/", {"login": "erin", "password": "wrong"})
        assert "_auth_user_id" not in client.session
    answer = client.post("/accounts/login/", {"login": "erin", "password": "a-long-pass-phrase"})
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in answer.content.decode()


@pytest.mark.parametrize(
    "username", ["Player1", "Computer1", "Moderator_", "Site-", "deleted-player", "PLAYER_2"]
)
def test_usernames_that_pass_for_the_site_or_a_seat_are_refused(client: Client, username: str) -> None:
    answer = sign_up(client, username)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "the site" in html and f'value="{username}"' in html
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "username", ["PIayer1", "P1ayer2", "M0derator", "C0mputer", "Deleted-PIayer", "0pponent"]
)
def test_usernames_with_ascii_look_alikes_are_refused(client: Client, username: str) -> None:
    """Capital I and the digit 1 pass for a small l, the digit 0 for an O, as Unicode's
    confusables say: "PIayer1" reads "Player1" in the site's type."""
    answer = sign_up(client, username)
    assert answer.status_code == 200 and "the site" in answer.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "username", ["Playful", "Sitar", "Modest", "player_one_fan", "Ivan", "Ola10", "Iris_0"]
)
def test_usernames_near_them_pass(client: Client, username: str) -> None:
    assert sign_up(client, username).status_code == 302
