"""The move path's reads compiled once (games/prepared.py): the same objects as the ORM's
querysets, the SQL built once per connection, the lock still demanded."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games.models import LOCKED_GAME, MOVE_ROWS, SEAT_LIST, TOKEN_SEAT, Game, Move, Seat, hash_token
from games.prepared import Prepared
from games.services import moves as services

pytestmark = pytest.mark.django_db


def two_person_game(name: str = "ada") -> Game:
    made = services.create_game("quarto", {}, opponent="human", seat="first", player_id="p-one")
    services.join_game(made.game.pk, invite=made.game.invite_code, player_id="p-two")
    game = Game.objects.get(pk=made.game.pk)
    user = get_user_model().objects.create_user(name, password="x" * 12)
    Seat.objects.filter(game=game, index=1).update(user=user, name=name)
    return game


def fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def compiles(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the ORM's SELECT compilations from now on."""
    count: list[int] = []
    real = SQLCompiler.as_sql

    def counted(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    return count


def test_the_same_objects_as_the_querysets() -> None:
    game = two_person_game()
    services.play_move(game.pk, services.Actor(player_id="p-one"), "0", 0)
    fresh = Game.objects.get(pk=game.pk)

    seats = fresh.seat_list
    expected = list(Seat.objects.select_related("user").filter(game=fresh).order_by("index"))
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert seats[0].user is None and seats[1].user is not None and seats[1].user.get_username() == "ada"
    assert all(seat.game is fresh for seat in seats)  # no query for the game, as the related manager

    assert fresh.move_rows == list(
        Move.objects.filter(game=fresh).order_by("ply").values_list("seat", "text")
    )
    assert fresh.move_rows == [(0, "0")]
    with transaction.atomic():
        locked = LOCKED_GAME.first(game.pk)
    assert locked is not None and fields(locked) == fields(Game.objects.get(pk=game.pk))
    assert locked.created.tzinfo is not None  # the column converters ran (SQLite stores text)
    with transaction.atomic():
        assert LOCKED_GAME.first(10**9) is None

    token = Seat.objects.filter(game=game, index=0).values_list("token_hash", flat=True).get()
    assert TOKEN_SEAT.rows(hash_token("nobody")) == []
    assert TOKEN_SEAT.rows(token or "none") == ([] if not token else [(seats[0].pk,)])


def test_compiled_once_per_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    game = two_person_game()
    other = two_person_game("bea")
    assert Game.objects.get(pk=game.pk).seat_list  # compiled here, if not already
    count = compiles(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        for pk in (game.pk, other.pk, game.pk):
            assert [s.index for s in Game.objects.get(pk=pk).seat_list] == [0, 1]
    seat_reads = [q for q in captured.captured_queries if 'FROM "games_seat"' in q["sql"]]
    assert len(seat_reads) == 3
    assert len(count) == 3  # the three Game.objects.get, none for the seats


def test_values_that_change_the_sql_take_the_orm_way(monkeypatch: pytest.MonkeyPatch) -> None:
    game = two_person_game()
    by_name: Prepared[Seat] = Prepared(lambda name: Seat.objects.filter(name=name).order_by("index"))
    assert [s.name for s in by_name.rows("ada")] == ["ada"]
    assert by_name.rows(None) == []  # IS NULL: no parameter to put it in, run as a queryset
    assert [s.game_id for s in by_name.rows("ada")] == [game.pk]


@pytest.mark.django_db(transaction=True)
def test_the_lock_still_needs_a_transaction() -> None:
    game = two_person_game()
    with transaction.atomic():
        assert LOCKED_GAME.first(game.pk) is not None  # compiled in a transaction
    if connection.features.has_select_for_update:  # PostgreSQL; SQLite locks by BEGIN IMMEDIATE
        with pytest.raises(TransactionManagementError):
            LOCKED_GAME.first(game.pk)
    else:
        assert LOCKED_GAME.first(game.pk) is not None
    seats = SEAT_LIST.rows(game.pk)
    assert [s.index for s in seats] == [0, 1]
    assert MOVE_ROWS.rows(game.pk) == []


def test_a_move_reads_through_them(monkeypatch: pytest.MonkeyPatch) -> None:
    game = two_person_game()
    services.play_move(game.pk, services.Actor(player_id="p-one"), "0", 0)  # compiled here
    count = compiles(monkeypatch)
    moved = services.play_move(game.pk, services.Actor(player_id="p-two"), "a1", 1)
    assert moved.ply == 2 and moved.move_rows == [(0, "0"), (1, "a1")]
    assert count == []  # the game, its moves and seats: no SELECT compiled
    with pytest.raises(services.ServiceError) as refused:
        services.play_move(game.pk, services.Actor(player_id="p-two"), "1", 1)
    assert refused.value.code == "stale"


def test_a_move_writes_what_the_orm_wrote(monkeypatch: pytest.MonkeyPatch) -> None:
    game = two_person_game()
    before = Game.objects.get(pk=game.pk)
    moved = services.play_move(game.pk, services.Actor(player_id="p-one"), "3", 0)
    stored = Game.objects.get(pk=game.pk)
    assert fields(stored) == fields(moved)  # every column as the returned object says
    assert stored.revision == before.revision + 1 and stored.updated > before.updated
    row = Move.objects.get(game=game, ply=1)
    assert (row.seat, row.text, row.clock_ms) == (0, "3", None) and row.created is not None
    assert row.pk is not None

    from games.services.moves import SAVE_GAME, SAVE_MOVE

    gone = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        SAVE_GAME.update(gone)  # as save(update_fields=...) on a row that is not there

    later = Move(game=two_person_game("bea"), ply=1, seat=0, text="5")
    SAVE_MOVE.insert(later)
    assert Move.objects.get(pk=later.pk).text == "5" and not later._state.adding


def test_save_receivers_take_the_orm_way() -> None:
    from django.db.models.signals import post_save

    from games.services.moves import SAVE_MOVE

    seen: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance.text)

    post_save.connect(receiver, sender=Move)
    try:
        SAVE_MOVE.insert(Move(game=two_person_game(), ply=1, seat=0, text="9"))
    finally:
        post_save.disconnect(receiver, sender=Move)
    assert seen == ["9"]
