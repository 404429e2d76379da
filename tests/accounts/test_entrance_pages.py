"""allauth's pages in the site's layout and words: a <main>, the site's buttons, "Log in" and
"Sign up" as the header says, and the username rule said before any error."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts import usernames
from accounts.forms import USERNAME_HELP

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"

ANONYMOUS_PAGES = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
ACCOUNT_PAGES = ["/accounts/logout/", "/accounts/password/change/", "/accounts/email/"]
ALLAUTHS_WORDS = re.compile(r"sign[ -]?in|sign[ -]?out|signup\b", re.IGNORECASE)


def logged_in(client: Client) -> Client:
    data = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302
    return client


def check_layout(html: str) -> None:
    assert 'class="site-header"' in html
    assert html.count("<main") == 1 and '<main id="main" class="account entrance">' in html
    main = html[html.index("<main") : html.index("</main>")]
    assert '<h1 class="account__title">' in main
    # The page's action is the site's full-size primary button (accounts.css: 44 px high).
    assert re.search(r'<button class="button button--primary"[^>]* type="submit">', main)
    words = re.sub(r"<[^>]*>", " ", main)  # the text read, not the addresses
    assert not ALLAUTHS_WORDS.search(words), ALLAUTHS_WORDS.search(words)


@pytest.mark.parametrize("path", ANONYMOUS_PAGES)
def test_the_entrance_pages_are_in_the_sites_layout(client: Client, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    check_layout(answer.content.decode())


@pytest.mark.parametrize("path", ACCOUNT_PAGES)
def test_the_account_pages_are_in_the_sites_layout(client: Client, path: str) -> None:
    answer = logged_in(client).get(path)
    assert answer.status_code == 200
    check_layout(answer.content.decode())


def test_the_pages_say_log_in_and_sign_up_as_the_header_does(client: Client) -> None:
    login = client.get("/accounts/login/").content.decode()
    assert "<title>Log in · Quarto Site</title>" in login and ">Log in</button>" in login
    assert '<a href="/accounts/signup/">Sign up</a>' in login
    signup = client.get("/accounts/signup/").content.decode()
    assert "<title>Sign up · Quarto Site</title>" in signup and ">Sign up</button>" in signup
    assert '<a href="/accounts/login/">Log in</a>' in signup
    logged_in(client)
    assert "You are logged in as alice." in client.get("/").content.decode()
    logout = client.get("/accounts/logout/").content.decode()
    assert ">Log out</button>" in logout


def test_the_username_rule_is_said_before_any_error(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    help_text = f'<div class="helptext" id="id_username_helptext">{USERNAME_HELP}</div>'
    assert help_text.replace("'", "&#x27;") in html or help_text in html
    assert re.search(r'<input type="text" name="username"[^>]*aria-describedby="id_username_helptext"', html)
    assert 'minlength="3" maxlength="20"' in html
    # The help says the rule the check applies, in the same words.
    with pytest.raises(ValidationError) as refused:
        usernames.check("ab")
    rule = refused.value.messages[0].removeprefix("A username is ").rstrip(".")
    assert USERNAME_HELP.startswith(rule)
    assert "At least 6 characters." in html


def test_a_refused_username_keeps_the_input_and_the_help_beside_the_error(client: Client) -> None:
    data = {"username": "ab", "password1": PASSWORD, "password2": PASSWORD}
    html = client.post("/accounts/signup/", data).content.decode()
    field = html[html.index('<label for="id_username">') : html.index('<label for="id_email">')]
    assert field.index("helptext") < field.index("errorlist")
    assert 'value="ab"' in field and 'aria-invalid="true"' in field
    assert 'aria-describedby="id_username_helptext id_username_error"' in field
