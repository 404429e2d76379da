"""Time controls and the arithmetic of game clocks: pure, no database, no Django.

Three kinds, as on lichess and Board Game Arena:

* **real-time**: a Fischer clock, ``initial`` seconds each and ``increment`` seconds
  added when a seat's turn ends (a Quarto turn is the place-and-give pair, so the
  increment comes once per pair);
* **correspondence**: ``days`` per move: each turn starts with the full days again;
* **unlimited**: no clock at all (the default, and today's games).

A seat's clock runs from the start of its turn (``since``) and is charged, at each of
its actions, with the time since then. Its first turn is not charged: instead it must
be made within a first-move limit, or the game is aborted (not lost), as lichess does.
Times are integer milliseconds; moments are epoch milliseconds, so nothing here needs
a time zone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.engine.numbers import whole_number
from games.engine.refusals import Refusal, gettext_noop

MS = 1000
DAY_MS = 86_400 * MS

# Real-time presets (initial minutes, increment seconds), the home page's and the lobby's.
PRESETS: tuple[tuple[int, int], ...] = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10))
DAYS = (1, 2, 3, 5, 7, 14)
INITIAL_MIN, INITIAL_MAX = 15, 3 * 3600  # seconds
INCREMENT_MAX = 60  # seconds
# The most time left a record may give an action: well past any clock here (14 days a
# move), and within what the database stores (a 32-bit integer of ms on PostgreSQL).
MAX_LEFT_HOURS = 500
MAX_LEFT_MS = MAX_LEFT_HOURS * 3600 * MS

Speed = Literal["bullet", "blitz", "rapid", "classical", "correspondence", "unlimited"]
SPEEDS: tuple[Speed, ...] = ("bullet", "blitz", "rapid", "classical", "correspondence")
# Below these estimated durations (initial + 40 increments, lichess's rule), in seconds.
SPEED_LIMITS: tuple[tuple[int, Speed], ...] = ((180, "bullet"), (480, "blitz"), (1500, "rapid"))


SHAPE = gettext_noop('Give the clock as {"initial": seconds, "increment": seconds} or {"days": n}.')


class ClockError(Refusal, ValueError):
    """A time control that cannot be played: ``code`` for programs, the text for people (a
    %-template and its words, :class:`~games.engine.refusals.Refusal`)."""

    def __init__(self, code: str, message: str, /, **words: Any) -> None:
        super().__init__(self.keep(message, words))
        self.code = code


@dataclass(frozen=True)
class TimeControl:
    initial: int = 0  # seconds, real-time
    increment: int = 0  # seconds, real-time
    days: int = 0  # correspondence
    # An imported game keeps its record's time control, not running: it is played on untimed.
    paused: bool = False

    @property
    def realtime(self) -> bool:
        return self.initial > 0

    @property
    def correspondence(self) -> bool:
        return self.days > 0

    @property
    def unlimited(self) -> bool:
        return not (self.realtime or self.correspondence)

    @property
    def runs(self) -> bool:
        """Whether the clock runs in play (an unlimited or imported game's does not)."""
        return not self.unlimited and not self.paused

    @property
    def speed(self) -> Speed:
        if self.correspondence:
            return "correspondence"
        if not self.realtime:
            return "unlimited"
        estimate = self.initial + 40 * self.increment
        return next((speed for limit, speed in SPEED_LIMITS if estimate < limit), "classical")

    @property
    def label(self) -> str:
        """ "3+2", "½+0", "3 days", "unlimited"."""
        if self.correspondence:
            return f"{self.days} day{'s' if self.days != 1 else ''}"
        if not self.realtime:
            return "unlimited"
        return f"{minutes_label(self.initial)}+{self.increment}"

    def to_json(self) -> dict[str, Any]:
        if self.correspondence:
            data: dict[str, Any] = {"days": self.days}
        elif self.realtime:
            data = {"initial": self.initial, "increment": self.increment}
        else:
            return {}
        if self.paused:
            data["paused"] = True
        return data

    def start_ms(self) -> int:
        """Each seat's time when the game starts (and, by days, when each turn starts)."""
        return self.days * DAY_MS if self.correspondence else self.initial * MS


UNLIMITED = TimeControl()


def minutes_label(seconds: int) -> str:
    if seconds % 60 == 0:
        return str(seconds // 60)
    if seconds == 30:
        return "½"
    if seconds == 15:
        return "¼"
    if seconds == 45:
        return "¾"
    return f"{seconds / 60:g}"


def _whole(value: Any, refusal: str) -> int:
    # JSON's NaN, Infinity and 1e400 arrive as floats that int() refuses with other errors.
    finite = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
    if isinstance(value, bool) or not finite or value != int(value):
        raise ClockError("bad_clock", refusal)
    return int(value)


def parse(value: Mapping[str, Any] | None) -> TimeControl:
    """A time control from its JSON form (the API's ``"clock"``, the stored ``Game.clock``):
    ``{"initial": 180, "increment": 2}``, ``{"days": 3}``, or ``{}``/``None`` for unlimited."""
    if value is None:
        return UNLIMITED
    if not isinstance(value, Mapping):
        raise ClockError("bad_clock", SHAPE)
    keys = set(value) - {"paused"}
    paused = bool(value.get("paused", False))
    if not keys:
        return UNLIMITED
    if keys == {"days"}:
        days = value["days"]
        if isinstance(days, bool) or days not in DAYS:
            raise ClockError(
                "bad_clock", "Days per move must be one of %(days)s.", days=", ".join(map(str, DAYS))
            )
        return TimeControl(days=int(days), paused=paused)
    if keys <= {"initial", "increment"} and "initial" in keys:
        initial = _whole(
            value["initial"], gettext_noop("The clock's initial time must be a whole number of seconds.")
        )
        increment = _whole(
            value.get("increment", 0),
            gettext_noop("The clock's increment must be a whole number of seconds."),
        )
        if not INITIAL_MIN <= initial <= INITIAL_MAX:
            raise ClockError("bad_clock", "The initial time must be from 15 s to 3 hours (15 to 10800).")
        if not 0 <= increment <= INCREMENT_MAX:
            raise ClockError("bad_clock", "The increment must be from 0 to 60 seconds.")
        return TimeControl(initial=initial, increment=increment, paused=paused)
    raise ClockError("bad_clock", SHAPE)


LABEL_HELP = gettext_noop("Write a clock as minutes+seconds (3+2), 3d or unlimited.")


def parse_label(text: str) -> TimeControl:
    """A time control from its short form: "3+2" (minutes + seconds), "3d", "unlimited"."""
    text = text.strip().lower()
    if text in ("", "unlimited", "-"):
        return UNLIMITED
    days = whole_number(text[:-1], 3) if text.endswith("d") else None
    if days is not None:
        return parse({"days": days})
    minutes, plus, increment = text.partition("+")
    return real_time(minutes, increment if plus else "0", LABEL_HELP)


def real_time(minutes: str, increment: str, refusal: str) -> TimeControl:
    """A real-time control from its minutes ("2.5") and seconds per move as typed; a
    ClockError saying ``refusal`` when either is not a plain number (``inf``, ``nan``,
    ``1e400``, ``²`` are not)."""
    minutes, increment = minutes.strip(), increment.strip()
    try:
        if not (minutes.isascii() and increment.isascii()):
            raise ValueError
        seconds = float(minutes) * 60
        extra = int(increment)
        if not math.isfinite(seconds):
            raise ValueError
    except ValueError:
        raise ClockError("bad_clock", refusal) from None
    return parse({"initial": round(seconds), "increment": extra})


def presets() -> list[TimeControl]:
    return [TimeControl(initial=m * 60, increment=i) for m, i in PRESETS]


# -- the running clock --------------------------------------------------------------------


def first_turn(movers: Sequence[int], seat: int) -> bool:
    """Whether ``seat``'s current turn is its first: it made no action before this turn
    (``movers`` is the seat of every action so far, in order)."""
    end = len(movers)
    while end and movers[end - 1] == seat:
        end -= 1
    return seat not in movers[:end]


def charge(control: TimeControl, remaining: Sequence[int], mover: int, since: int, now: int) -> list[int]:
    """``remaining`` with the mover's thinking since ``since`` taken off (never below 0)."""
    times = list(remaining)
    if control.realtime:
        times[mover] = max(0, times[mover] - max(0, now - since))
    elif control.correspondence:
        times[mover] = max(0, control.days * DAY_MS - max(0, now - since))
    return times


def turn_passed(control: TimeControl, remaining: Sequence[int], mover: int, following: int) -> list[int]:
    """The mover's turn has ended and ``following`` is to move: the increment for the mover
    (real-time), full days for the next (correspondence)."""
    times = list(remaining)
    if control.realtime:
        times[mover] += control.increment * MS
    elif control.correspondence:
        times[following] = control.days * DAY_MS
    return times


def deadline(
    control: TimeControl, remaining: Sequence[int], to_move: int, since: int, first: bool, first_move_ms: int
) -> int | None:
    """When the seat to move runs out (epoch ms), or for a first turn, when the game is
    aborted; ``None`` when the clock does not run."""
    if not control.runs:
        return None
    if first:
        return since + (control.days * DAY_MS if control.correspondence else first_move_ms)
    return since + remaining[to_move]


def now_remaining(
    remaining: Sequence[int], to_move: int | None, since: int | None, now: int, charged: bool
) -> list[int]:
    """Each seat's time as of ``now``: the seat to move's thinking taken off when charged."""
    times = list(remaining)
    if to_move is not None and since is not None and charged and to_move < len(times):
        times[to_move] = max(0, times[to_move] - max(0, now - since))
    return times


def think_time(control: TimeControl, remaining_ms: int, delay: float, budget: float) -> tuple[float, float]:
    """The computer's thinking delay and search budget (seconds) for one action: what the
    settings give, but within a share of its remaining time plus most of the increment, so
    it can only lose on time when the server cannot keep up."""
    if not control.realtime:
        return delay, budget
    share = remaining_ms / MS / 30 + 0.8 * control.increment
    total = delay + budget
    if total <= share or total <= 0:
        return delay, budget
    scale = share / total
    return delay * scale, max(0.01, budget * scale)


def clock_text(ms: int) -> str:
    """A clock as people read it: "2:58", "0:09.4" under ten seconds, "2d 3h", "5h 07m"."""
    ms = max(0, ms)
    if ms >= DAY_MS:
        days, rest = divmod(ms, DAY_MS)
        return f"{days}d {rest // (3600 * MS)}h"
    seconds = ms // MS
    if seconds >= 3600 * 3:
        return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    if ms < 10 * MS:
        return f"0:0{ms // 100 / 10:.1f}"
    return f"{seconds // 60}:{seconds % 60:02d}"


def pgn_clock(ms: int) -> str:
    """A remaining time as a record's ``[%clk h:mm:ss]`` writes it (tenths when not whole)."""
    seconds, rest = divmod(max(0, ms), MS)
    text = f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{text}.{rest // 100}" if rest else text


def read_pgn_clock(text: str) -> int:
    """Milliseconds from ``h:mm:ss[.f]``; ClockError when it is not one."""
    parts = text.strip().split(":")
    try:
        # ASCII only, as the pages' clock fields: int() and float() read other scripts' digits.
        if len(parts) != 3 or not text.isascii():
            raise ValueError
        hours, minutes = int(parts[0]), int(parts[1])
        seconds = float(parts[2])
        if hours < 0 or not 0 <= minutes < 60 or not 0 <= seconds < 60 or len(parts[0]) > 4:
            raise ValueError
    except ValueError:
        raise ClockError("bad_record", "a clock must read h:mm:ss, not %(text)s", text=repr(text)) from None
    ms = round((hours * 3600 + minutes * 60 + seconds) * MS)
    if ms > MAX_LEFT_MS:
        limit = f"{MAX_LEFT_HOURS}:00:00"
        raise ClockError(
            "bad_record",
            "a time left must be at most %(limit)s, not %(text)s",
            limit=limit,
            text=text.strip(),
        )
    return ms
