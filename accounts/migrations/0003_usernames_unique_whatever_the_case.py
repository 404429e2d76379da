"""Usernames unique whatever the case, in the database (two sign-ups at once could both
pass the form's check): an index on LOWER(username). Accounts that already share a name
but for its case keep it in the oldest one; each later one gets its id added
("Bob" stays, "bob" becomes "bob-17"), which its owner can still log in with."""

from __future__ import annotations

from typing import Any

from django.db import migrations

INDEX = "accounts_username_any_case"


def rename_duplicates(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("auth", "User")
    seen: set[str] = set()
    for user in User.objects.order_by("date_joined", "pk").only("pk", "username"):
        key = user.username.lower()
        if key in seen:
            user.username = f"{user.username[: 150 - 12]}-{user.pk}"
            user.save(update_fields=["username"])
            key = user.username.lower()
        seen.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_notices"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]
