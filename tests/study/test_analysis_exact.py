"""The analysis board's values of random Quarto positions at 9-11 empty cells equal an
independent exact solve (tests/study/reference_solver.py). The budget is generous so that
exactness never depends on the machine's load; how fast the analysis is exact is measured
in bench/analysis_latency.py, not here."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games import catalog
from games.kinds.quarto.position import NOTATION
from tests.api.api_helpers import post
from tests.study.random_positions import random_position
from tests.study.reference_solver import Reference

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BUDGET = 60.0  # the search stops when exact: this bounds only a broken search
EMPTIES = [9] * 24 + [10] * 20 + [11] * 6


def test_fifty_positions_equal_an_independent_solve(client: Client, settings: Any) -> None:
    settings.AI_BUDGET = BUDGET
    settings.RATE_LIMIT_HINT = "1000/minute"
    settings.API_RATE_LIMIT = "1000/minute"
    catalog.player_of("quarto").warm_up()  # as a server does when it starts
    reference = Reference()
    rng = random.Random(32)
    for empties in EMPTIES:
        state = random_position(rng, empties)
        position = NOTATION.format(state)
        response = post(client, "/api/v1/analysis", {"game": "quarto", "position": position})
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["exact"] is True, (position, body)
        got = {m["move"]: m["value"] for m in body["moves"]}
        assert got == reference.action_values(state), position
