"""The OpenAPI schema and the docs page the site serves."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PATHS = {
    "/api/v1/games": {"post"},
    "/api/v1/games/{game_id}": {"get"},
    "/api/v1/games/{game_id}/join": {"post"},
    "/api/v1/games/{game_id}/moves": {"post"},
    "/api/v1/games/{game_id}/resign": {"post"},
    "/api/v1/games/{game_id}/draw/{answer}": {"post"},
    "/api/v1/games/{game_id}/takeback/{answer}": {"post"},
    "/api/v1/games/{game_id}/rematch/{answer}": {"post"},
    "/api/v1/games/{game_id}/claim/{outcome}": {"post"},
    "/api/v1/games/{game_id}/analysis": {"get"},
    "/api/v1/games/{game_id}/record": {"get"},
    "/api/v1/games/{game_id}/chat": {"get", "post"},
    "/api/v1/records": {"post"},
    "/api/v1/account": {"get"},
    "/api/v1/account/tokens": {"post"},
    "/api/v1/account/tokens/{name}": {"delete"},
    "/api/v1/users/{username}": {"get"},
    "/api/v1/leaderboards/{game}/{speed}": {"get"},
    "/api/v1/seeks": {"get", "post"},
    "/api/v1/seeks/{seek_id}": {"get", "delete"},
    "/api/v1/seeks/{seek_id}/accept": {"post"},
    "/api/v1/pairing": {"post"},
    "/api/v1/tournaments": {"get", "post"},
    "/api/v1/tournaments/{tournament_id}": {"get"},
    "/api/v1/tournaments/{tournament_id}/join": {"post"},
    "/api/v1/tournaments/{tournament_id}/withdraw": {"post"},
    "/api/v1/tournaments/{tournament_id}/berserk": {"post"},
    "/api/v1/tournaments/{tournament_id}/me": {"get"},
    "/api/v1/analysis": {"post"},
    "/api/v1/puzzles/next": {"get"},
    "/api/v1/puzzles/daily": {"get"},
    "/api/v1/puzzles/{puzzle_id}/attempt": {"post"},
}


def test_openapi_schema_lists_every_endpoint(client: Client) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.") and schema["info"]["title"] == "Quarto Site API"
    assert {path: set(ops) for path, ops in schema["paths"].items()} == PATHS
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert moves["security"] == [{"SeatToken": []}]
    assert {"200", "400", "401", "403", "404", "409", "413", "429"} <= set(moves["responses"])
    components = schema["components"]["schemas"]
    assert components["MoveIn"]["additionalProperties"] is False
    assert components["ErrorOut"]["required"] == ["error", "detail"]
    assert schema["components"]["securitySchemes"]["SeatToken"] == {"type": "http", "scheme": "bearer"}


def test_schema_references_resolve(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    text = json.dumps(schema)
    for name in {part.split('"')[0] for part in text.split('"$ref": "#/components/schemas/')[1:]}:
        assert name in schema["components"]["schemas"], name


def test_schema_validates_with_openapi_spec_validator_when_installed(client: Client) -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(client.get("/api/v1/openapi.json").json())


def test_docs_page_uses_local_static_files(client: Client) -> None:
    response = client.get("/api/v1/docs")
    html = response.content.decode()
    assert response.status_code == 200
    assert "swagger-ui-bundle.js" in html and "cdn" not in html.lower()
