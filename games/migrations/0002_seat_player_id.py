"""Seats are held by a player id kept in the browser's session, not by the session key.

The stored session keys become player ids: a session from before this change, which
has no player id yet, adopts its own session key as its player id (games.players), so
the seats it already holds stay its own.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(model_name="seat", old_name="session_key", new_name="player_id"),
        migrations.AlterField(
            model_name="seat",
            name="player_id",
            field=models.CharField(blank=True, db_index=True, max_length=64),
        ),
    ]
