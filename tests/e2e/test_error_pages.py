"""In a real browser on a phone (360x740): a page that does not exist is the site's own
404, laid out for the phone (no 980 px desktop width), with a way home."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["/games/99999/", "/join/badcode"])
def test_the_404_page_fits_a_phone_and_leads_home(server: str, browser: Any, path: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        response = page.goto(server + path)
        assert response is not None and response.status == 404
        size = page.evaluate(
            """() => ({
                scroll: document.documentElement.scrollWidth,
                window: window.innerWidth,
                left: document.querySelector("main h1").getBoundingClientRect().left,
            })"""
        )
        assert size["window"] == 360 and size["scroll"] <= 360, size
        assert size["left"] >= 12, size
        assert page.locator("h1").inner_text() == "Page not found"
        page.get_by_role("link", name="Go to the home page").click()
        page.wait_for_url(server + "/")
        assert page.locator("main").count() == 1
    finally:
        context.close()
