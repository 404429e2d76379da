"""Queries compiled once: the move path's statements without the ORM's building them.

Django compiles a queryset's SQL afresh every time it runs (the joins, the columns, the
WHERE, the ORDER BY): under a ceiling of API moves that was over a third of a move's CPU
(docs/performance.md, "What a move costs, by the clock"), for the same four statements
every time. A :class:`Prepared` query is a queryset built by a function of its values; the
first run on a database connection compiles it as Django would and keeps what the run
needs (the SQL, the columns' converters, how rows become models); later runs on that
connection execute the kept SQL with the new values and build the same objects the
queryset would have, related objects loaded with ``select_related`` included. A
:class:`PreparedSave` writes one model's row (the move's ``INSERT``, the game's
``UPDATE``) with a statement written once, the values prepared as the ORM prepares them.

Kept only when the compiled statement's parameters are exactly the values given, in
order (values the SQL carries otherwise, a ``None`` made ``IS NULL`` for one, run as a
queryset), and per connection: each thread has its own, and converters belong to one.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError

R = TypeVar("R")  # what a row becomes: a model instance, or a values_list() tuple


related_populators: Callable[..., list[Any]] = get_related_populators  # typed for a later Django


@dataclass(frozen=True)
class Plan:
    """What a run needs of a compiled queryset."""

    sql: str
    converters: list[tuple[int, tuple[list[Callable[..., Any]], Any]]]
    model: type[Model] | None  # None for values_list()
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    for_update: bool


class Prepared(Generic[R]):
    """``build(*values)`` (a queryset) run with SQL compiled once per connection.

    ``rows(*values)`` gives the queryset's model instances (or, for a ``values_list``
    queryset, its tuples), as ``list(build(*values))`` would.
    """

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], using: str = DEFAULT_DB_ALIAS) -> None:
        self.build = build
        self.using = using
        self.plans: weakref.WeakKeyDictionary[Any, Plan] = weakref.WeakKeyDictionary()

    def rows(self, *values: Any) -> list[R]:
        connection = connections[self.using]
        plan = self.plans.get(connection)
        if plan is None:
            plan = self.compile(values)
            if plan is None:  # not for these values: the ORM's way
                return list(self.build(*values))
            self.plans[connection] = plan
        if plan.for_update and not connection.in_atomic_block and connection.features.has_select_for_update:
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, values)
            fetched = cursor.fetchall()
        return list(self.objects(plan, self.convert(plan, fetched, connection)))

    def first(self, *values: Any) -> R | None:
        found = self.rows(*values)
        return found[0] if found else None

    def compile(self, values: tuple[Any, ...]) -> Plan | None:
        queryset: Any = self.build(*values)
        compiler = queryset.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()
        if tuple(params) != values:
            return None
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            return None
        converters = list(compiler.get_converters(fields).items())
        klass_info = compiler.klass_info
        if queryset._fields is not None or klass_info is None:  # values_list(): tuples
            return Plan(sql, converters, None, [], 0, 0, [], bool(queryset.query.select_for_update))
        select = compiler.select
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        init_list = [column[0].target.attname for column in select[start:end]]
        populators = related_populators(klass_info, select, self.using)
        return Plan(
            sql,
            converters,
            klass_info["model"],
            init_list,
            start,
            end,
            populators,
            bool(queryset.query.select_for_update),
        )

    @staticmethod
    def convert(plan: Plan, fetched: Iterable[Any], connection: Any) -> list[Any]:
        if not plan.converters:
            return [tuple(row) for row in fetched]
        converted = []
        for row in map(list, fetched):
            for pos, (convs, expression) in plan.converters:
                value = row[pos]
                for converter in convs:
                    value = converter(value, expression, connection)
                row[pos] = value
            converted.append(tuple(row))
        return converted

    def objects(self, plan: Plan, rows: list[Any]) -> Iterable[Any]:
        if plan.model is None:
            return rows
        made = []
        for row in rows:
            obj = plan.model.from_db(self.using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            made.append(obj)
        return made


class PreparedSave:
    """``obj.save()`` for one model and one list of fields, its statement written once:
    ``insert(obj)`` as ``save(force_insert=True)`` (the primary key set from the
    database), ``update(obj)`` as ``save(update_fields=fields)``.

    Each field's value is prepared as the ORM prepares it (``pre_save``, the ``auto_now``
    times included, then ``get_db_prep_save``); ``None`` goes as a parameter (SQL NULL).
    When the model has save signals' receivers, a value is an expression, or a field
    needs a placeholder of its own, the ORM saves it instead (``Model.save``: what a
    model's own ``save()`` adds, the caller does, as ``Game.revision``).
    """

    def __init__(self, model: type[Model], fields: Iterable[str], using: str = DEFAULT_DB_ALIAS) -> None:
        self.model = model
        self.using = using
        meta = model._meta
        self.fields: list[Any] = [meta.get_field(name) for name in fields]
        self.names = [field.name for field in self.fields]
        self.plain = not any(hasattr(field, "get_placeholder") for field in self.fields)

    def orm_only(self, obj: Model) -> bool:
        return (
            not self.plain
            or pre_save.has_listeners(self.model)
            or post_save.has_listeners(self.model)
            or any(hasattr(getattr(obj, field.attname), "resolve_expression") for field in self.fields)
        )

    def values(self, obj: Model, add: bool, connection: Any) -> list[Any]:
        return [
            field.get_db_prep_save(field.pre_save(obj, add), connection=connection) for field in self.fields
        ]

    def insert(self, obj: Model) -> None:
        if obj.pk is not None or self.orm_only(obj):
            Model.save(obj, force_insert=True, using=self.using)
            return
        connection: Any = connections[self.using]
        meta: Any = self.model._meta
        quote = connection.ops.quote_name
        columns = ", ".join(quote(field.column) for field in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
        returning: Any = ()
        if connection.features.can_return_columns_from_insert:
            clause, returning = connection.ops.return_insert_columns([meta.pk])
            sql += " " + clause
        params = self.values(obj, True, connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, *returning])
            if connection.features.can_return_columns_from_insert:
                pk = connection.ops.fetch_returned_insert_columns(cursor, returning)[0]
            else:
                pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = self.using

    def update(self, obj: Model) -> None:
        if obj.pk is None or self.orm_only(obj):
            Model.save(obj, update_fields=self.names, using=self.using)
            return
        connection: Any = connections[self.using]
        meta: Any = self.model._meta
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in self.fields)
        sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
        params = self.values(obj, False, connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, meta.pk.get_db_prep_value(obj.pk, connection)])
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")
        obj._state.db = self.using
