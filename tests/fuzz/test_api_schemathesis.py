"""schemathesis against the API's own OpenAPI schema, in process (WSGI).

Every operation gets valid and invalid requests (positive and negative generation):
no answer is a 5xx, every status code, content type and body conforms to the schema,
and every error body is exactly ``{"error": code, "detail": sentence}``. Some cases are
sent against a real game with a real seat token, so the checks reach past the 404s.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .conftest import examples

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

OPERATIONS = [
    ("POST", "/api/v1/games"),
    ("GET", "/api/v1/games/{game_id}"),
    ("POST", "/api/v1/games/{game_id}/join"),
    ("POST", "/api/v1/games/{game_id}/moves"),
    ("GET", "/api/v1/games/{game_id}/analysis"),
    ("GET", "/api/v1/games/{game_id}/record"),
    ("POST", "/api/v1/records"),
    ("POST", "/api/v1/analysis"),
    ("GET", "/api/v1/puzzles/next"),
    ("POST", "/api/v1/puzzles/{puzzle_id}/attempt"),
]
# Per operation; about 25 s for all of them on the CI machine.
EXAMPLES = 60


def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx/5xx body is the API's error: exactly a code and a sentence."""
    if response.status_code < 400:
        return None
    body = json.loads(response.content)
    assert isinstance(body, dict) and set(body) == {"error", "detail"}, body
    assert isinstance(body["error"], str) and body["error"], body
    assert isinstance(body["detail"], str) and body["detail"], body
    return True


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    error_shape,
]


@pytest.fixture
def api_schema(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from games.runner.turns import runner
    from quarto_site.wsgi import application

    # Limits high enough to fuzz past them (the 429 itself is checked by its own tests);
    # the computer does not answer (its turns are not API input).
    settings.API_RATE_LIMIT = "100000/minute"
    settings.RATE_LIMIT_HINT = "100000/minute"
    monkeypatch.setattr(runner, "schedule", lambda game_id: None)
    yield schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


def real_game() -> tuple[int, str]:
    """A human-vs-human Quarto game with its first seat: (id, token)."""
    from games.services import moves as services

    created = services.create_game("quarto", {}, opponent="human", seat="first", with_token=True)
    assert created.token is not None
    return created.game.pk, created.token


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_every_answer_conforms_and_none_is_a_server_error(api_schema: Any, method: str, path: str) -> None:
    assert django_settings.API_RATE_LIMIT == "100000/minute"
    operation = api_schema[path][method]
    cases = st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )
    game_id, token = real_game()

    @given(case=cases, aim=st.sampled_from(["as generated", "real game", "real game and token"]))
    @settings(
        max_examples=examples(EXAMPLES),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any, aim: str) -> None:
        if aim != "as generated" and case.path_parameters and "game_id" in case.path_parameters:
            case.path_parameters["game_id"] = game_id
        if aim == "real game and token":
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        case.call_and_validate(checks=CHECKS)

    run()


# -- what the fuzzing found, kept as plain tests --------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/games/-1/join", "/api/v1/games/-1/moves", "/api/v1/nothing"])
def test_a_post_to_no_endpoint_is_the_json_404_not_the_csrf_page(path: str) -> None:
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post(path, "{}", content_type="application/json")
    assert response.status_code == 404
    assert set(response.json()) == {"error", "detail"} and response.json()["error"] == "not_found"
