"""Pages that do not exist, that are refused, that cannot be understood or that fail:
the site's own page in its layout (a viewport tag, a heading, a way home), not Django's
bare text."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults

from quarto_site.unavailable import DatabaseUnavailableMiddleware

pytestmark = pytest.mark.django_db


def looks_like_the_site(html: str) -> None:
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'class="site-header__home" href="/"' in html
    assert 'class="error-page"' in html and "<h1>" in html
    assert 'href="/">Go to the home page</a>' in html


@pytest.mark.parametrize("url", ["/games/99999/", "/join/badcode", "/no/such/page/"])
def test_an_unknown_page_is_the_sites_404(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    html = response.content.decode()
    looks_like_the_site(html)
    assert "Page not found" in html


def test_a_refused_page_is_the_sites_403() -> None:
    request = RequestFactory().get("/games/1/")
    response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    looks_like_the_site(response.content.decode())


def test_a_bad_request_is_the_sites_400_and_an_api_one_stays_json(client: Client) -> None:
    page = client.get("/", headers={"host": "evil.example"})
    assert page.status_code == 400
    looks_like_the_site(page.content.decode())
    api = client.get("/api/v1/games", headers={"host": "evil.example"})
    assert api.status_code == 400 and api.json()["error"] == "bad_host"


def test_a_failure_is_the_sites_500_without_the_database() -> None:
    request = RequestFactory().get("/games/1/")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.db.backends.base.base.BaseDatabaseWrapper.ensure_connection", _no_db)
        response = defaults.server_error(request)
    assert response.status_code == 500
    looks_like_the_site(response.content.decode())


def _no_db(*args: object) -> None:
    raise AssertionError("the 500 page must not touch the database")


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message said through the catalogs comes out between « and »."""
    translation.gettext("")  # the translation machinery loaded, so that its gettext can be replaced
    monkeypatch.setattr("django.utils.translation._trans.gettext", lambda text: f"«{text}»")


@pytest.mark.usefixtures("marked")
def test_the_error_pages_words_go_through_the_catalogs(client: Client) -> None:
    request = RequestFactory().get("/games/1/")
    pages: dict[str, Any] = {
        "Page not found": client.get("/no/such/page/"),
        "Not allowed": defaults.permission_denied(request, PermissionDenied()),
        "Bad request": client.get("/", headers={"host": "evil.example"}),
        "Something went wrong": defaults.server_error(request),
    }
    for heading, response in pages.items():
        html = response.content.decode()
        assert f"<h1>«{heading}»</h1>" in html and f"<title>«{heading}» · Quarto Site" in html
        assert ">«Go to the home page»</a>" in html
        message = html.split("</h1>")[1].split("</p>")[0]
        assert message.strip().startswith("<p>«") and message.endswith("»")


@pytest.mark.usefixtures("marked")
def test_the_unavailable_page_s_words_go_through_the_catalogs() -> None:
    request = RequestFactory().get("/games/1/")
    response = DatabaseUnavailableMiddleware(lambda r: HttpResponse()).process_exception(
        request, OperationalError()
    )
    assert response is not None and response.status_code == 503
    html = response.content.decode()
    assert "<h1>«Try again in a moment»</h1>" in html
    assert "«The site&#x27;s database is unavailable; try again in a moment.»" in html
    assert (
        "«Your games are safe: nothing is lost while it is down.» «This page tries again by itself.»" in html
    )
