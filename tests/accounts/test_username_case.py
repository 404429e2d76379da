"""Usernames are unique whatever the case in the database itself, and log-in finds an
account whatever the case it is typed in."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import IntegrityError, connection, transaction
from django.test import Client

User = get_user_model()
PASSWORD = "a-long-pass-phrase"


def sign_up(client: Client, username: str) -> Any:
    return client.post(
        "/accounts/signup/", {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
    )


def race(names: list[str]) -> list[int]:
    """Sign ``names`` up in threads released at once; the status codes."""
    start = threading.Barrier(len(names))
    codes: list[int] = []

    def run(n: int, name: str) -> None:
        start.wait()
        try:  # sixteen browsers, each from its own address
            codes.append(sign_up(Client(REMOTE_ADDR=f"10.0.0.{n + 1}"), name).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return codes


def sixteen_at_once(settings: Any) -> None:
    # A quick hash: the sign-ups meet at the database, not queued behind the hashing
    # (each holds one of the pool's connections meanwhile).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    codes = race(["Race2x0", "race2x0", "RACE2X0", "rAcE2x0"] * 4)
    assert sorted(codes) == [200] * 15 + [302], f"one account; the others told beside the field: {codes}"
    assert User.objects.filter(username__iexact="race2x0").count() == 1


@pytest.mark.django_db(transaction=True)
def test_sixteen_sign_ups_of_one_name_at_once_make_one_account(settings: Any) -> None:
    sixteen_at_once(settings)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_sign_ups_of_one_name_at_once_make_one_account_on_postgresql(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    sixteen_at_once(settings)


class WatchingHasher(MD5PasswordHasher):
    """A quick hash that notes whether a transaction was open while it hashed."""

    algorithm = "watching_md5"
    in_transaction: list[bool] = []

    def encode(self, password: str, salt: str) -> str:
        WatchingHasher.in_transaction.append(connection.in_atomic_block)
        return super().encode(password, salt)


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_hashes_the_password_before_its_transaction(client: Client, settings: Any) -> None:
    # On SQLite a transaction holds the one write lock from its start: a real hash (a
    # second or more on a busy server) inside it queued sixteen sign-ups at once behind
    # each other until the last ones answered 503.
    settings.PASSWORD_HASHERS = ["tests.accounts.test_username_case.WatchingHasher"]
    WatchingHasher.in_transaction.clear()
    assert sign_up(client, "Hasher1").status_code == 302
    assert WatchingHasher.in_transaction and not any(WatchingHasher.in_transaction)
    assert User.objects.get(username="Hasher1").password.startswith("watching_md5$")


@pytest.mark.django_db
def test_the_database_refuses_a_name_taken_in_another_case() -> None:
    User.objects.create_user("Dup1")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("dup1")


@pytest.mark.django_db
def test_a_sign_up_that_loses_the_race_is_told_beside_the_field(client: Client, monkeypatch: Any) -> None:
    from allauth.account.adapter import DefaultAccountAdapter

    User.objects.create_user("Taken1")
    # The form's check ran before the other sign-up committed: only the database sees it.
    monkeypatch.setattr(DefaultAccountAdapter, "clean_username", lambda self, name, shallow=False: name)
    answer = sign_up(client, "TAKEN1")
    assert answer.status_code == 200
    assert "already exists" in answer.content.decode() and 'value="TAKEN1"' in answer.content.decode()
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_log_in_whatever_the_case(client: Client) -> None:
    User.objects.create_user("Dup1", password=PASSWORD)
    for typed in ("DUP1", "dup1", "Dup1"):
        answer = client.post("/accounts/login/", {"login": typed, "password": PASSWORD})
        assert answer.status_code == 302, typed
        assert client.session["_auth_user_id"] == str(User.objects.get().pk)
        client.logout()


def test_the_migration_keeps_the_oldest_and_renames_the_others() -> None:
    from importlib import import_module

    migration = import_module("accounts.migrations.0003_usernames_unique_whatever_the_case")

    class Row:
        def __init__(self, pk: int, username: str) -> None:
            self.pk, self.username, self.saved = pk, username, False

        def save(self, update_fields: list[str]) -> None:
            self.saved = True

    rows = [Row(1, "Bob"), Row(2, "alice"), Row(17, "bob"), Row(18, "BOB")]

    class Users:
        @staticmethod
        def order_by(*fields: str) -> Any:
            return Users

        @staticmethod
        def only(*fields: str) -> list[Row]:
            return rows

    class Apps:
        @staticmethod
        def get_model(app: str, name: str) -> Any:
            return type("User", (), {"objects": Users})

    migration.rename_duplicates(Apps, None)
    assert [row.username for row in rows] == ["Bob", "alice", "bob-17", "BOB-18"]
    assert [row.saved for row in rows] == [False, False, True, True]
