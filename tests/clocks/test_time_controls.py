"""The pure arithmetic of clocks: time controls, charges, increments, deadlines, words."""

from __future__ import annotations

import pytest

from games import clocks
from games.clocks import DAY_MS, ClockError, TimeControl


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, TimeControl()),
        ({}, TimeControl()),
        ({"initial": 180, "increment": 2}, TimeControl(initial=180, increment=2)),
        ({"initial": 60}, TimeControl(initial=60)),
        ({"initial": 15.0, "increment": 60}, TimeControl(initial=15, increment=60)),
        ({"days": 3}, TimeControl(days=3)),
        ({"days": 14, "paused": True}, TimeControl(days=14, paused=True)),
    ],
)
def test_parse_accepts(value: object, expected: TimeControl) -> None:
    assert clocks.parse(value) == expected  # type: ignore[arg-type]
    assert clocks.parse(expected.to_json()) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"initial": 14},
        {"initial": 10801},
        {"initial": 60, "increment": 61},
        {"initial": 60, "increment": -1},
        {"initial": 60.5},
        {"initial": "60"},
        {"initial": True},
        {"days": 4},
        {"days": 0},
        {"days": True},
        {"increment": 2},
        {"initial": 60, "days": 1},
        {"minutes": 3},
        [180, 2],
        "3+2",
    ],
)
def test_parse_refuses(value: object) -> None:
    with pytest.raises(ClockError) as caught:
        clocks.parse(value)  # type: ignore[arg-type]
    assert caught.value.code == "bad_clock" and caught.value.message


def test_labels_speeds_and_short_forms() -> None:
    assert [c.label for c in clocks.presets()] == ["1+0", "3+2", "5+3", "10+5", "15+10"]
    assert [c.speed for c in clocks.presets()] == ["bullet", "blitz", "blitz", "rapid", "rapid"]
    assert TimeControl(initial=1800, increment=20).speed == "classical"
    assert TimeControl(initial=30).label == "½+0"
    assert TimeControl(days=1).label == "1 day" and TimeControl(days=7).label == "7 days"
    assert TimeControl(days=2).speed == "correspondence"
    assert TimeControl().speed == "unlimited" and TimeControl().label == "unlimited"
    assert not TimeControl(initial=60, paused=True).runs and TimeControl(initial=60).runs
    assert clocks.parse_label("3+2") == TimeControl(initial=180, increment=2)
    assert clocks.parse_label("0.25+0") == TimeControl(initial=15)
    assert clocks.parse_label("5d") == TimeControl(days=5)
    assert clocks.parse_label("unlimited") == TimeControl()
    for bad in ("3+x", "0+0", "4d", "soon"):
        with pytest.raises(ClockError):
            clocks.parse_label(bad)


def test_first_turn_counts_a_turn_of_several_actions() -> None:
    # Quarto: seat 0 gives; seat 1 places and gives; seat 0 places and gives...
    assert clocks.first_turn([], 0)
    assert clocks.first_turn([0], 1)
    assert clocks.first_turn([0, 1], 1), "seat 1's first turn goes on with its give"
    assert not clocks.first_turn([0, 1, 1], 0)
    assert not clocks.first_turn([0, 1, 1, 0], 0)


def test_charge_increment_and_correspondence_days() -> None:
    blitz = TimeControl(initial=180, increment=2)
    assert clocks.charge(blitz, [180_000, 180_000], 1, 1_000, 11_500) == [180_000, 169_500]
    assert clocks.charge(blitz, [5_000, 1], 0, 0, 9_000) == [0, 1], "never below zero"
    assert clocks.turn_passed(blitz, [100, 200], 0, 1) == [2_100, 200]
    days = TimeControl(days=2)
    assert clocks.charge(days, [2 * DAY_MS, 2 * DAY_MS], 0, 0, 3_600_000) == [
        2 * DAY_MS - 3_600_000,
        2 * DAY_MS,
    ]
    assert clocks.turn_passed(days, [5, 6], 0, 1) == [5, 2 * DAY_MS], "the next seat gets its days again"


def test_deadlines() -> None:
    blitz = TimeControl(initial=180, increment=2)
    assert clocks.deadline(blitz, [1_000, 2_000], 1, 10_000, False, 30_000) == 12_000
    assert clocks.deadline(blitz, [1_000, 2_000], 1, 10_000, True, 30_000) == 40_000
    assert clocks.deadline(TimeControl(days=3), [0, 0], 0, 0, True, 30_000) == 3 * DAY_MS
    assert clocks.deadline(TimeControl(), [], 0, 0, False, 30_000) is None
    assert clocks.deadline(TimeControl(initial=60, paused=True), [1, 1], 0, 0, False, 1) is None
    assert clocks.now_remaining([9_000, 5_000], 1, 1_000, 3_000, True) == [9_000, 3_000]
    assert clocks.now_remaining([9_000, 5_000], 1, 1_000, 3_000, False) == [9_000, 5_000]


def test_computer_thinks_within_its_share() -> None:
    bullet = TimeControl(initial=60)
    delay, budget = clocks.think_time(bullet, 60_000, 1.0, 1.0)
    assert delay + budget == pytest.approx(2.0), "60 s left: 2 s per action is its share"
    delay, budget = clocks.think_time(bullet, 6_000, 1.0, 1.0)
    assert delay + budget == pytest.approx(0.2) and delay == pytest.approx(budget)
    assert clocks.think_time(TimeControl(initial=60, increment=5), 3_000, 1.0, 1.0) == (1.0, 1.0)
    assert clocks.think_time(TimeControl(days=1), 1, 1.0, 1.0) == (1.0, 1.0)


def test_clock_words_and_record_comments() -> None:
    assert clocks.clock_text(178_000) == "2:58"
    assert clocks.clock_text(9_460) == "0:09.4"
    assert clocks.clock_text(-5) == "0:00.0"
    assert clocks.clock_text(3_723_000) == "1:02:03"
    assert clocks.clock_text(5 * 3600_000 + 7 * 60_000) == "5h 07m"
    assert clocks.clock_text(2 * DAY_MS + 3 * 3600_000) == "2d 3h"
    assert clocks.pgn_clock(178_000) == "0:02:58"
    assert clocks.pgn_clock(9_400) == "0:00:09.4"
    for ms in (0, 9_400, 178_000, 3 * DAY_MS):
        assert clocks.read_pgn_clock(clocks.pgn_clock(ms)) == ms
    for bad in ("2:58", "0:61:00", "a:00:00", "0:00:60"):
        with pytest.raises(ClockError):
            clocks.read_pgn_clock(bad)
