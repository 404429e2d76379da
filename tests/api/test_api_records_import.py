"""POST /api/v1/records: what an imported record may not carry."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Game

from .api_helpers import error_of, post

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_number_of_thousands_of_digits_is_a_bad_record(client: Client) -> None:
    record = '[Game "quarto"]\n\n' + "9" * 4301 + ". 8\n"
    response = post(client, "/api/v1/records", json.dumps(record))
    assert error_of(response) == (400, "bad_record")
    detail = response.json()["detail"]
    assert detail.startswith("line 3:") and "does not match" in detail and len(detail) < 200
    assert Game.objects.count() == 0


def test_a_number_with_leading_zeros_still_counts(client: Client) -> None:
    response = post(client, "/api/v1/records", json.dumps('[Game "quarto"]\n\n01. 8 002. a1\n'))
    assert response.status_code == 201 and Game.objects.get().ply == 2
