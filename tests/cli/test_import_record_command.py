"""manage.py import_record: a record file becomes a game, or is refused with its line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

RECORD = """[Game "quarto"]
[Options "{\\"advanced\\": false}"]
[Players "Ann; Bob"]
[Result "0-1"]

1. 8  2. a1 ; the first piece
3. 0
4. a4
5. 9 6. b1 7. 1 8. b4 9. 10 10. c1 11. 2 12. c4 13. 11 14. d1
"""


def test_import_a_text_record(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    out = io.StringIO()
    call_command("import_record", str(path), stdout=out)
    game = Game.objects.get()
    assert game.is_finished and game.winner == 1 and game.ply == 14
    assert [s.name for s in game.seat_list] == ["Ann", "Bob"]
    assert f"Imported {game}" in out.getvalue() and "API token" in out.getvalue()


def test_a_finished_record_without_a_result_tag_is_imported(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(RECORD.replace('[Result "0-1"]\n', ""))
    call_command("import_record", str(path), stdout=io.StringIO())
    game = Game.objects.get()
    assert game.is_finished and game.winner == 1


def test_a_bad_record_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(RECORD.replace("3. 0\n4. a4", "3. 0\n4. a1"))
    with pytest.raises(CommandError, match=r"bad.txt: line 8: a1: a1 is already taken"):
        call_command("import_record", str(path), stdout=io.StringIO())
    assert Game.objects.count() == 0


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_record", str(tmp_path / "none.txt"))


def test_json_nested_thousands_deep_is_a_clean_command_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"game": "quarto", "options": ' + "[" * 3000 + "]" * 3000 + "}")
    with pytest.raises(CommandError) as caught:
        call_command("import_record", str(path))
    assert str(caught.value) == f"{path}: record: the JSON nests deeper than 20 levels."
    assert Game.objects.count() == 0


def test_a_move_number_of_thousands_of_digits_is_one_line_of_error(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Game "quarto"]\n\n' + "9" * 4301 + ". 8\n")
    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(path))
    message = str(refused.value)
    assert "line 3" in message and "does not match" in message
    assert "\n" not in message and len(message) < 300
    assert Game.objects.count() == 0


def test_a_name_that_passes_for_the_site_is_one_line_of_error(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(RECORD.replace("Ann; Bob", "Ann; Moderator"))
    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(path))
    message = str(refused.value)
    assert "the name of player 2" in message and "would pass for the site" in message
    assert "\n" not in message and Game.objects.count() == 0
