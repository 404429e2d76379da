"""Play in the terminal: ``manage.py play quarto --vs ai --level casual``.

The game is stored like any other (it shows in the admin) and every action goes through
:func:`games.services.moves.play_move`; the computer's reply is played synchronously right
after yours. Type ``help`` for the legal actions, ``resign``, ``draw`` (offer or accept
one; the computer declines), ``takeback`` (your last turn and the reply after it),
``claim win`` or ``claim draw`` (once an opponent has gone: the API's claim, refused with
its reason before that), ``quit`` (or end the input, or press Ctrl-C) to leave.

``--clock 3+2`` (minutes + seconds of increment) or ``--clock 3d`` (days a move) plays
with a clock, the server's as on the site: both clocks are shown at each prompt, and a
move made after the time ran out loses the game.

It speaks the terminal's language, as gettext programs do: the first of ``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that names one of the site's languages
(``LANG=fr_FR.UTF-8``); English otherwise. The commands typed stay English.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Callable
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.utils import override_settings
from django.utils import translation
from django.utils.translation import gettext as _

from games import catalog
from games import clocks as clock_rules
from games.models import Game
from games.runner.turns import runner
from games.services import abandonment, actions, clocks
from games.services import moves as services

QUIT = ("quit", "exit", "q")
HELP = ("help", "?", "moves")
ACTIONS = ("resign", "draw", "takeback")
CLAIMS: dict[str, abandonment.ClaimKind] = {"claim win": "win", "claim draw": "draw"}
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def terminal_language(environ: dict[str, str] | os._Environ[str]) -> str:
    """The site's language the terminal's locale names ("fr_FR.UTF-8" -> "fr"), else English.
    LANGUAGE may list several ("de:fr"); "C" and "POSIX" name none."""
    for variable in LOCALE_VARIABLES:
        for value in environ.get(variable, "").split(":"):
            code = value.split(".")[0].split("@")[0].replace("_", "-").lower()
            if not code or code in ("c", "posix"):
                continue
            try:
                return translation.get_supported_language_variant(code)
            except LookupError:
                continue
    return "en"


class Command(BaseCommand):
    help = "Play a game in the terminal, against the computer or hot-seat."
    stealth_options = ("stdin",)
    symbols: tuple[str, ...] = ()  # the game's seat symbols, set once the game is chosen

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=sorted(catalog.CATALOG))
        parser.add_argument("--vs", choices=services.OPPONENTS, default="ai", help="opponent (default ai)")
        parser.add_argument("--level", help="the computer's level")
        parser.add_argument("--seat", choices=services.SEAT_CHOICES, default="random", help="who starts")
        parser.add_argument("--delay", type=float, default=0.0, help="seconds the computer waits (default 0)")
        parser.add_argument(
            "--clock",
            default="",
            help="a time control: minutes+increment seconds (3+2), days a move (3d), or unlimited (default)",
        )
        self.add_game_options(parser)

    @staticmethod
    def add_game_options(parser: CommandParser) -> None:
        """Every game's declared options, once each (``--width``, ``--advanced/--no-advanced``)."""
        added: set[str] = set()
        for spec in catalog.CATALOG.values():
            group = parser.add_argument_group(spec.kind)
            for option in spec.options:
                if option.name in added:
                    continue
                added.add(option.name)
                if option.type == "bool":
                    group.add_argument(
                        f"--{option.name}",
                        action=argparse.BooleanOptionalAction,
                        default=None,
                        help=option.label,
                    )
                else:
                    group.add_argument(
                        f"--{option.name}", type=int, help=f"{option.label} ({option.min} to {option.max})"
                    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdin: TextIO = options.get("stdin") or sys.stdin
        # The computer answers in this process, right after each action.
        with (
            override_settings(AI_DELAY=options["delay"], AI_RUNNER="inline"),
            translation.override(terminal_language(os.environ)),
        ):
            self.run(options)

    def run(self, options: dict[str, Any]) -> None:
        kind = options["game"]
        # Any game's option may be given; the game's rules refuse one it does not declare.
        names = {option.name for spec in catalog.CATALOG.values() for option in spec.options}
        game_options = {name: options[name] for name in names if options.get(name) is not None}
        level = options["level"]
        levels = catalog.get(kind).levels
        if options["vs"] == "ai" and level and level not in levels:
            raise CommandError(_("--level must be one of %(levels)s.") % {"levels": ", ".join(levels)})
        try:
            control = clock_rules.parse_label(options["clock"])
        except clock_rules.ClockError as exc:
            raise CommandError(f"--clock {options['clock']!r}: {exc.said(_)}") from None
        try:
            self.actors, game = self.start(
                kind, game_options, options["vs"], level, options["seat"], control.to_json() or None
            )
        except services.ServiceError as exc:
            raise CommandError(exc.message) from None
        self.vs_ai = options["vs"] == "ai"
        self.symbols = catalog.get(kind).symbols
        try:
            self.play(game.pk)
        except KeyboardInterrupt:
            self.stdout.write("\n" + _("Interrupted: game #%(id)s is saved, unfinished.") % {"id": game.pk})

    def start(
        self,
        kind: str,
        options: dict[str, Any],
        vs: str,
        level: str | None,
        seat: str,
        clock: dict[str, Any] | None = None,
    ) -> tuple[dict[int, services.Actor], Game]:
        """Create the game; in hot-seat play this terminal takes every seat."""
        player = f"terminal-{secrets.token_hex(8)}"
        created = services.create_game(
            kind, options, opponent=vs, level=level, seat=seat, player_id=f"{player}-0", clock=clock
        )
        assert created.seat is not None
        actors = {created.seat: services.Actor(player_id=f"{player}-0")}
        if vs == "human":
            for n in range(1, created.game.state.num_players):
                index, _ = services.join_game(
                    created.game.pk, invite=created.game.invite_code, player_id=f"{player}-{n}"
                )
                actors[index] = services.Actor(player_id=f"{player}-{n}")
        return actors, created.game

    # -- the loop ---------------------------------------------------------------

    def play(self, game_id: int) -> None:
        seen = 0
        drawn = -1
        game = Game.objects.get(pk=game_id)
        opening = {"title": game.title, "id": game.pk, "seats": self.describe_seats(game)}
        self.stdout.write(_("%(title)s #%(id)s: %(seats)s. Type help or quit.") % opening)
        while True:
            game = Game.objects.get(pk=game_id)
            seen = self.announce(game, seen)
            state = game.state
            if drawn != game.ply:
                self.stdout.write("\n" + catalog.get(game.kind).draw(state) + "\n")
                drawn = game.ply
            if game.is_finished:
                self.stdout.write(self.final_words(game, state))
                return
            actor = self.actors.get(state.to_move)
            if actor is None:  # the computer's turn was not played: try it once more
                runner.schedule(game.pk)
                if Game.objects.get(pk=game_id).ply == game.ply:
                    raise CommandError("The computer did not move.")
                continue
            if clocks.running(game):
                self.stdout.write(self.clock_line(game, state.to_move))
            text = self.ask(f"{self.name(state.to_move)} {catalog.get(game.kind).words.task(state)} > ")
            if text is None:
                ended = _("End of input: game #%(id)s is saved, unfinished.") % {"id": game.pk}
                self.stdout.write("\n" + ended)
                return
            if text.lower() in QUIT:
                self.stdout.write(_("Left game #%(id)s; it is saved, unfinished.") % {"id": game.pk})
                return
            if text.lower() in HELP:
                legal = " ".join(str(m) for m in state.legal_moves())
                self.stdout.write(_("Legal: %(moves)s") % {"moves": legal})
                self.stdout.write(
                    _(
                        "Or: resign, draw (offer or accept), takeback (your last turn), "
                        "claim win or claim draw (once an opponent has gone), quit."
                    )
                )
                continue
            said = " ".join(text.lower().split())
            if said.startswith("claim") and said not in CLAIMS:
                self.stdout.write(
                    _("Type claim win or claim draw. Try again (help lists the legal actions).")
                )
                continue
            try:
                if said in CLAIMS:
                    abandonment.claim(game.pk, actor, CLAIMS[said], game.ply)
                elif said in ACTIONS:
                    self.act(said, game, actor)
                else:
                    services.play_move(game.pk, actor, text, game.ply)
            except services.ServiceError as exc:
                if exc.code == "timeout":  # the game is over: the next look says how
                    self.stdout.write(exc.message)
                    continue
                again = _("Try again (help lists the legal actions).")
                self.stdout.write(f"{exc.message} {again}")

    def act(self, name: str, game: Game, actor: services.Actor) -> None:
        """Resign, offer or accept a draw, or take the last turn back, for the seat to move."""
        if name == "resign":
            actions.resign(game.pk, actor, game.ply)
        elif name == "draw":
            after = actions.draw(game.pk, actor, True, game.ply)
            if not after.is_finished:
                self.stdout.write(_("Draw offered: the next player may type draw to accept."))
        else:
            after = actions.takeback(game.pk, actor, True, game.ply)
            if "takeback" in after.offers:
                self.stdout.write(_("Takeback asked: the next player may type takeback to accept."))
            else:
                self.stdout.write(_("Taken back (takebacks: %(count)s).") % {"count": after.takebacks})

    def ask(self, prompt: str) -> str | None:
        """The next non-empty line, or None at the end of the input."""
        while True:
            self.stdout.write(prompt, ending="")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                return None
            if line.strip():
                return line.strip()

    def announce(self, game: Game, seen: int) -> int:
        """Tell what the computer played since the last look."""
        moves = list(game.moves.order_by("ply").values_list("seat", "text"))
        for seat, text in moves[seen:]:
            if seat not in self.actors:
                did = catalog.get(game.kind).words.terminal(text)
                self.stdout.write(_("The computer %(did)s.") % {"did": did})
        return len(moves)

    # -- words --------------------------------------------------------------------

    def clock_line(self, game: Game, to_move: int) -> str:
        """ "X 2:58 · O 3:00 (X to move)" (or "You 2:58 · The computer 3:00 (you to move)"),
        with the time left for a first move before it is made."""
        times = clocks.remaining_now(game)
        # Hot-seat players know themselves by their symbol; against the computer, "You".
        faces = " · ".join(
            f"{self.name(seat) if self.vs_ai else self.mark(seat)} {clock_rules.clock_text(ms)}"
            for seat, ms in enumerate(times)
        )
        who = self.within(to_move) if self.vs_ai else self.mark(to_move)
        note = _("%(who)s to move") % {"who": who}
        if clocks.first_turn_of_mover(game) and game.deadline is not None:
            left = clock_rules.clock_text(clocks.ms(game.deadline) - clocks.ms(clocks.now()))
            note = _("%(who)s to move; first move within %(time)s") % {"who": who, "time": left}
        return f"{faces} ({note})"

    def is_you(self, seat: int) -> bool:
        """Against the computer, this terminal's seat ("You"); hot-seat players go by number."""
        return self.vs_ai and seat in self.actors

    def name(self, seat: int) -> str:
        if self.vs_ai:
            return _("You") if seat in self.actors else _("The computer")
        if seat < len(self.symbols):
            return _("Player %(number)d (%(symbol)s)") % {"number": seat + 1, "symbol": self.symbols[seat]}
        return _("Player %(number)d") % {"number": seat + 1}

    def mark(self, seat: int) -> str:
        """A hot-seat player as the clock line shows them: the game's symbol for the seat."""
        if seat < len(self.symbols):
            return self.symbols[seat]
        return _("Player %(number)d") % {"number": seat + 1}

    def describe_seats(self, game: Game) -> str:
        if self.vs_ai:
            if next(iter(self.actors)) == 0:
                return _("you against the computer (%(level)s), you start") % {"level": game.ai_level}
            return _("you against the computer (%(level)s), the computer starts") % {"level": game.ai_level}
        return _("%(count)d players at this terminal") % {"count": len(self.actors)}

    def abandoned_words(self, game: Game, result: dict[str, Any]) -> str:
        """ "Player 2 (O) left: Player 1 (X) wins.", "... left: the game was called a draw."."""
        both = " " + _("and") + " "
        who = both.join(self.name(s) for s in result.get("abandoned", [])) or _("A player")
        if game.status == Game.Status.ABANDONED:
            return _("%(who)s left and nobody claimed the game: it was closed, nobody won.") % {"who": who}
        if game.status == Game.Status.DRAWN:
            return _("%(who)s left: the game was called a draw.") % {"who": who}
        return _("%(who)s left: %(result)s.") % {"who": who, "result": self.result_words(game, self.name)}

    def result_words(self, game: Game, named: Callable[[int], str]) -> str:
        """Who wins, as the end of a sentence: "you win", "Player 1 (X) wins", "the others share the win"."""
        if game.winner is None:
            return _("the others share the win")
        if self.is_you(game.winner):
            return _("you win")
        return _("%(who)s wins") % {"who": named(game.winner)}

    def within(self, seat: int) -> str:
        """A seat's name inside a sentence: "you", "the computer", "Player 2 (O)"."""
        if self.vs_ai:
            return _("you") if seat in self.actors else _("the computer")
        return self.name(seat)

    def clock_words(self, game: Game, result: dict[str, Any]) -> str:
        """ "Time ran out for Player 1 (X): Player 2 (O) wins.", or the abort for no first move."""
        if game.reason == Game.Reason.NO_START:
            who = self.name(result.get("no_start", 0))
            return _("%(who)s made no first move in time: the game is aborted, nobody wins.") % {"who": who}
        loser = result.get("timeout", 0)
        said = {"who": self.within(loser), "result": self.result_words(game, self.within)}
        if self.is_you(loser):
            return _("Your time ran out: %(result)s.") % said
        return _("Time ran out for %(who)s: %(result)s.") % said

    def final_words(self, game: Game, state: Any) -> str:
        return _("%(words)s Game #%(id)s is saved.") % {"words": self.end_words(game, state), "id": game.pk}

    def end_words(self, game: Game, state: Any) -> str:
        if game.reason in (Game.Reason.TIMEOUT, Game.Reason.NO_START) and game.result is not None:
            return self.clock_words(game, game.result)
        if game.reason == Game.Reason.AGREED:
            return _("Draw agreed.")
        if game.reason == Game.Reason.ABANDONED and game.result is not None:
            return self.abandoned_words(game, game.result)
        if game.reason == Game.Reason.RESIGNED and game.result is not None:
            loser = game.result["resigned"]
            said = {"who": self.name(loser), "result": self.result_words(game, self.within)}
            if self.is_you(loser):
                return _("You resigned: %(result)s.") % said
            return _("%(who)s resigned: %(result)s.") % said
        outcome = state.outcome
        if outcome is None:
            return _("The game was stopped.")
        if outcome.winner is None:
            return _("Draw.")
        if self.is_you(outcome.winner):
            text = _("You win!")
        else:
            text = _("%(who)s wins.") % {"who": self.name(outcome.winner)}
        if outcome.shared:
            text += " " + _("The line shares: %(traits)s.") % {"traits": ", ".join(outcome.shared)}
        return text
