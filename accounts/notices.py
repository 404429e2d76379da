"""Emails about games: "your turn" in a correspondence game, and a timed game's end.

Subscribed to games' events (``signals.connect``, from ``AccountsConfig.ready()``). Only
accounts that allow it (``Account.email_turns``), in good standing, not bots and with an
address get one. Each notice is recorded (:class:`GameNotice`, unique per account, game and
turn) before it is sent, so an event delivered again never sends it twice. The decision is
a few queries after the move's commit; the sending happens on a thread of its own, and a
failure there is logged: a move never waits for a mail server nor fails with it.

Each email is said in its reader's language (``Account.language``; the site's default when
none is chosen), not the language of the request whose move caused it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import Account, GameNotice
from accounts.profiles import outcome
from games import catalog, clocks
from games.events import GameEvent
from games.models import Game, Seat
from games.services import clocks as game_clocks

log = logging.getLogger(__name__)

# The events after which it may have become someone's turn, and those that may end a game.
# ("created" is not one: whoever created a game against the computer is on its page.)
TURN_EVENTS = frozenset({"joined", "moved", "takeback"})
END_EVENTS = frozenset({"moved", "ended", "aborted"})

_mailer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")


def send_now(messages: Sequence[EmailMessage]) -> None:
    try:
        get_connection().send_messages(list(messages))
    except Exception:  # the game goes on without its email
        log.exception("could not send %d game email(s)", len(messages))


def _send_in_background(messages: Sequence[EmailMessage]) -> None:
    _mailer.submit(send_now, messages)


# How the messages leave: on the mail thread (tests send them at once).
send: Callable[[Sequence[EmailMessage]], None] = _send_in_background


def on_game_event(event: GameEvent) -> None:
    if event.kind not in TURN_EVENTS | END_EVENTS or event.clock_runs is False:
        return
    game = Game.objects.filter(pk=event.game_id).first()
    if game is None or not game.time_control.runs:
        return
    in_play = game.status == Game.Status.PLAYING
    if game.is_finished and event.kind in END_EVENTS:
        messages = ended(game)
    elif in_play and game.time_control.correspondence and event.kind in TURN_EVENTS:
        messages = turn(game)
    else:
        return
    if messages:
        send(messages)


def _account(seat: Seat) -> Account | None:
    """The account holding ``seat`` if it wants game emails and can get them."""
    if seat.is_ai or not seat.player_id:
        return None
    account = Account.objects.filter(player_id=seat.player_id).select_related("user").first()
    if account is None or account.bot or not account.email_turns or not account.in_good_standing:
        return None
    return account if address_of(account) else None


def address_of(account: Account) -> str:
    """Where the account's mail goes: its primary address (``user.email``), else a
    verified one it added later (first added, first used); "" when it has none."""
    if account.user.email:
        return str(account.user.email)
    verified = EmailAddress.objects.get_verified(account.user)
    return str(verified.email) if verified is not None else ""


def _first_notice(account: Account, game: Game, key: str) -> bool:
    """Record the notice; False when it was recorded before (sent already)."""
    try:
        with transaction.atomic():
            GameNotice.objects.create(account=account, game_id=game.pk, key=key)
    except IntegrityError:
        return False
    return True


def _title(game: Game) -> str:
    spec = catalog.CATALOG.get(game.kind)
    return f"{spec.title if spec else game.kind} #{game.pk}"


def _link(path: str) -> str:
    return settings.SITE_URL + path


def _message(account: Account, subject: str, lines: list[str]) -> EmailMessage:
    settings_link = _link(reverse("accounts:settings"))
    lines += ["", _("You can stop these emails in your settings: %(link)s") % {"link": settings_link}]
    return EmailMessage(subject, "\n".join(lines), to=[address_of(account)])


def _in_language(account: Account) -> translation.override:
    """Say what follows in the account's own language."""
    return translation.override(account.language or settings.LANGUAGE_CODE)


def _opponents(game: Game, seat: Seat) -> str:
    names = [s.called for s in game.seat_list if s.player_id != seat.player_id]
    return ", ".join(names) or _("yourself")


def turn(game: Game, when: datetime | None = None) -> list[EmailMessage]:
    """The email to the seat to move, once per turn (a Quarto turn is place and give)."""
    to_move = game.state.to_move
    rows = game.move_rows
    seat = game.seat_list[to_move]
    if rows and game.seat_list[rows[-1][0]].player_id == seat.player_id:
        return []  # the same player moved last (one person in several seats, or mid-turn)
    account = _account(seat)
    if account is None or game.deadline is None:
        return []
    if not _first_notice(account, game, f"turn:{to_move}:{len(rows)}"):
        return []
    left = max(0, round(((game.deadline - (when or game_clocks.now())).total_seconds()) * 1000))
    title = _title(game)
    with _in_language(account):
        said = {"title": title, "opponents": _opponents(game, seat)}
        time = {"left": clocks.clock_text(left), "control": game.time_control.label}
        return [
            _message(
                account,
                _("Your turn: %(title)s") % said,
                [
                    _("It is your move in %(title)s against %(opponents)s.") % said,
                    _("You have %(left)s left (%(control)s per move).") % time,
                    "",
                    _link(game.get_absolute_url()),
                ],
            )
        ]


def _result(game: Game, held: set[int]) -> str:
    said = {"won": _("you won"), "lost": _("you lost"), "drawn": _("a draw")}
    result = said.get(outcome(game, held), game.get_status_display())
    return f"{result} ({game.get_reason_display()})" if game.reason else result


def ended(game: Game) -> list[EmailMessage]:
    """The email to each person in the game that ended, once per game."""
    messages = []
    title = _title(game)
    for seat in game.seat_list:
        account = _account(seat)
        if account is None or not _first_notice(account, game, "end"):
            continue
        held = {s.index for s in game.seat_list if s.player_id == seat.player_id}
        with _in_language(account):
            said = {"title": title, "result": _result(game, held), "opponents": _opponents(game, seat)}
            messages.append(
                _message(
                    account,
                    _("%(title)s: %(result)s") % said,
                    [
                        _("%(title)s against %(opponents)s is over: %(result)s.") % said,
                        "",
                        _link(reverse("games:replay", args=[game.pk])),
                    ],
                )
            )
    return messages
