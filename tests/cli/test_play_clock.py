"""The terminal player with a clock: both clocks at the prompt, a late move loses on
time, and a bad --clock is a clear command error. The services' clock is a fake one that
moves as each line is typed (no test sleeps)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game

pytestmark = pytest.mark.django_db


class Typist:
    """Standard input typed by a player who thinks ``seconds`` before each line."""

    def __init__(self, clock: Any, lines: Sequence[tuple[float, str]]) -> None:
        self.clock = clock
        self.lines = list(lines)

    def readline(self) -> str:
        if not self.lines:
            return ""
        seconds, line = self.lines.pop(0)
        self.clock.advance(seconds)
        return line + "\n"


def play(clock: Any, lines: Sequence[tuple[float, str]], *args: str) -> str:
    out = io.StringIO()
    call_command("play", *args, stdin=Typist(clock, lines), stdout=out)
    return out.getvalue()


def test_both_clocks_are_shown_at_the_prompt_hot_seat(fake_clock: Any) -> None:
    out = play(
        fake_clock,
        [(5, "b2"), (4, "a1"), (12.5, "c3"), (1, "quit")],
        "tictactoe",
        "--vs",
        "human",
        "--clock",
        "3+2",
    )
    prompts = [line for line in out.splitlines() if " · " in line]
    assert prompts[0] == "X 3:00 · O 3:00 (X to move; first move within 0:30)"
    assert prompts[1] == "X 3:00 · O 3:00 (O to move; first move within 0:30)"
    assert prompts[2] == "X 3:00 · O 3:00 (X to move)"
    assert prompts[3] == "X 2:49 · O 3:00 (O to move)", "12.5 s taken off, then the 2 s increment"
    assert Game.objects.get().clock == {"initial": 180, "increment": 2}


def test_against_the_computer_the_clocks_say_you(fake_clock: Any) -> None:
    out = play(
        fake_clock,
        [(3, "b2"), (1, "quit")],
        "tictactoe",
        "--seat",
        "first",
        "--level",
        "beginner",
        "--clock",
        "1+0",
    )
    assert "You 1:00 · The computer 1:00 (you to move; first move within 0:30)" in out
    # The computer has replied (its first move is not charged either): your clock runs now.
    assert "You 1:00 · The computer 1:00 (you to move)" in out


def test_a_move_after_the_time_ran_out_loses_on_time(fake_clock: Any) -> None:
    lines = [(1, "b2"), (1, "a1"), (16, "c3")]
    out = play(fake_clock, lines, "tictactoe", "--vs", "human", "--clock", "0.25+0")
    assert "Your time ran out before the move arrived" in out
    assert "Time ran out for Player 1 (X): Player 2 (O) wins. Game #" in out
    game = Game.objects.get()
    assert game.reason == Game.Reason.TIMEOUT and game.winner == 1 and game.move_texts == ["b2", "a1"]


def test_no_first_move_in_time_aborts(fake_clock: Any) -> None:
    out = play(fake_clock, [(31, "b2")], "tictactoe", "--vs", "human", "--clock", "5+3")
    assert "Player 1 (X) made no first move in time: the game is aborted, nobody wins." in out
    assert Game.objects.get().status == Game.Status.ABORTED


def test_days_per_move(fake_clock: Any) -> None:
    out = play(fake_clock, [(3600, "b2"), (1, "quit")], "tictactoe", "--vs", "human", "--clock", "3d")
    assert "X 3d 0h · O 3d 0h (O to move; first move within 3d 0h)" in out
    assert Game.objects.get().clock == {"days": 3}


def test_an_untimed_game_shows_no_clock(fake_clock: Any) -> None:
    out = play(fake_clock, [(1, "b2"), (1, "quit")], "tictactoe", "--vs", "human")
    assert " · " not in out and Game.objects.get().clock == {}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("fast", "Write a clock as minutes+seconds"),
        ("3+99", "increment must be from 0 to 60"),
        ("0.1+0", "initial time must be from 15 s"),
        ("4d", "Days per move must be one of"),
    ],
)
def test_a_bad_clock_is_a_clear_command_error_and_creates_nothing(value: str, words: str) -> None:
    with pytest.raises(CommandError) as caught:
        call_command(
            "play", "tictactoe", "--vs", "human", "--clock", value, stdin=io.StringIO(), stdout=io.StringIO()
        )
    assert str(caught.value).startswith(f"--clock {value!r}: ") and words in str(caught.value)
    assert not Game.objects.exists()
