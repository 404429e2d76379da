"""The terminal player, driven through its standard input and output."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# Seat 2 wins with four round pieces on rank 1.
SECOND_WINS = ["8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1"]


def play(lines: list[str], *args: str, stdin: Any = None) -> str:
    out = io.StringIO()
    source = stdin if stdin is not None else io.StringIO("".join(f"{line}\n" for line in lines))
    call_command("play", *args, stdin=source, stdout=out)
    return out.getvalue()


def test_against_the_computer_with_a_reprompt_and_end_of_input() -> None:
    out = play(["zz", "a1", "5"], "quarto", "--seat", "first", "--level", "beginner")
    assert "you against the computer (beginner), you start" in out
    assert "Cannot read 'zz'" in out and "Try again" in out
    assert "Give your opponent a piece first" in out
    assert "The computer places it on" in out and "The computer gives you piece" in out
    assert (
        "In hand:" in out
        and "Available pieces:" in out
        and "tall dark square solid" not in out.split("The computer places")[1].split("You to")[0]
    )
    assert out.rstrip().endswith("is saved, unfinished.") and "End of input" in out
    game = Game.objects.get()
    assert game.move_texts[0] == "5" and game.ply == 3 and game.ai_level == "beginner"
    assert not game.is_finished


def test_hot_seat_game_to_the_end_announces_the_winner() -> None:
    out = play(["help", *SECOND_WINS], "quarto", "--vs", "human")
    assert "2 players at this terminal" in out
    assert "Legal: 0 1 2 3" in out
    # Quarto's seats have no symbols (the pieces are shared): players go by number.
    assert "Player 1 to give a piece (0-15)" in out and "Player 2 to place" in out
    assert "Player 2 wins. The line shares: short, round." in out and "(X)" not in out
    game = Game.objects.get()
    assert game.is_finished and game.winner == 1 and game.move_texts == SECOND_WINS
    assert len({s.player_id for s in game.seat_list}) == 2


def test_board_shows_piece_numbers_top_rank_first() -> None:
    out = play(["8", "a1", "quit"], "quarto", "--vs", "human")
    before_prompt = out.split("Player 2 (O) to give")[0].splitlines()
    top = max(i for i, line in enumerate(before_prompt) if line.split() == ["a", "b", "c", "d"])
    board = before_prompt[top : top + 5]
    assert board[0].split() == ["a", "b", "c", "d"]
    assert board[1].split() == ["4", ".", ".", ".", "."]
    assert board[4].split() == ["1", "8", ".", ".", "."]
    assert "Left game" in out


def test_the_computer_can_start() -> None:
    out = play([], "quarto", "--seat", "second", "--level", "casual")
    assert "the computer starts" in out and "The computer gives you piece" in out
    assert "You to place the piece in hand" in out


def test_ctrl_c_leaves_cleanly() -> None:
    class Interrupted:
        def readline(self) -> str:
            raise KeyboardInterrupt

    out = play([], "quarto", "--vs", "human", stdin=Interrupted())
    assert "Interrupted: game #" in out


def test_delay_does_not_leak_into_the_settings() -> None:
    before = settings.AI_DELAY
    play(["5"], "quarto", "--seat", "first", "--delay", "0.01")
    assert before == settings.AI_DELAY


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["quarto", "--width", "5"], "Unknown option 'width'"),
        (["quarto", "--level", "grandmaster"], "--level must be one of"),
    ],
)
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        play([], *args)
    assert Game.objects.count() == 0


def test_real_process_exits_zero_at_end_of_input() -> None:
    env = {**os.environ, "SQLITE_PATH": str(settings.DATABASES["default"]["NAME"]), "AI_WARM_UP": "0"}
    done = subprocess.run(
        [sys.executable, "manage.py", "play", "quarto", "--vs", "human"],
        input="5\nb2\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "End of input" in done.stdout and " 5" in done.stdout


def test_takeback_draw_and_resign_at_the_prompt() -> None:
    out = play(
        ["help", "takeback", "b2", "draw", "takeback", "resign"],
        "tictactoe",
        "--seat",
        "first",
        "--level",
        "beginner",
    )
    assert "resign, draw (offer or accept), takeback" in out
    assert "You have made no move to take back. Try again" in out
    assert "The computer declines the draw" in out and "Try again" in out
    assert "Taken back (takebacks: 1)." in out
    assert "You resigned: the computer wins." in out
    game = Game.objects.get()
    assert (game.reason, game.takebacks, game.move_texts, game.winner) == ("resigned", 1, [], 1)


def test_hot_seat_draw_offer_accepted() -> None:
    out = play(["8", "draw", "draw", "a1", "0", "draw"], "quarto", "--vs", "human")
    assert "You have already said yes to this draw" in out
    assert "Draw offered: the next player may type draw to accept." in out
    assert "Draw agreed." in out
    assert Game.objects.get().reason == "agreed"


class GoneFirst:
    """Standard input whose reader finds seat 2 gone long enough to be claimed against."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def readline(self) -> str:
        Seat.objects.filter(index=1).update(left_at=timezone.now() - timedelta(seconds=61))
        return self.lines.pop(0) + "\n" if self.lines else ""


def test_claims_at_the_prompt_are_refused_with_the_reason_until_an_opponent_has_gone() -> None:
    out = play(
        ["help", "claim", "claim it all", "claim win", "Claim  Draw", "quit"], "tictactoe", "--seat", "first"
    )
    assert "claim win or claim draw (once an opponent has gone)" in out
    assert out.count("Type claim win or claim draw. Try again") == 2
    assert out.count("Only a game between people can be claimed: the computer never leaves") == 2
    out = play(["claim win", "quit"], "tictactoe", "--vs", "human")
    assert "Nobody has gone: a claim opens once an opponent's pages have been closed for" in out
    assert "Try again" in out
    assert [g.reason for g in Game.objects.all()] == ["", ""]


@pytest.mark.parametrize(
    ("line", "words", "status", "winner"),
    [
        ("claim win", "Player 2 left: Player 1 wins.", Game.Status.WON, 0),
        ("claim draw", "Player 2 left: the game was called a draw.", Game.Status.DRAWN, None),
    ],
)
def test_hot_seat_claim_once_the_opponent_has_gone(
    line: str, words: str, status: int, winner: int | None
) -> None:
    out = play([], "quarto", "--vs", "human", "--seat", "first", stdin=GoneFirst([line]))
    assert f"{words} Game #" in out
    game = Game.objects.get()
    assert (game.status, game.winner, game.reason) == (status, winner, "abandoned")
    assert game.result is not None and game.result["abandoned"] == [1]
