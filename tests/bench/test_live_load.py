"""The load bench's pure parts: percentiles, arguments, WebSocket frames, push accounting.

The bench itself (bench/live_load.py) is never run by the test suite.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

PATH = Path(__file__).resolve().parents[2] / "bench" / "live_load.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("live_load", PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["live_load"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = load()


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 50) == 50
    assert bench.percentile(values, 95) == 95
    assert bench.percentile(values, 100) == 100
    assert bench.percentile([3.0, 1.0, 2.0], 50) == 2
    assert bench.percentile([7.0], 99) == 7
    assert bench.percentile([], 50) != bench.percentile([], 50)  # NaN


def test_arguments_default_to_every_scenario_at_the_issue_sizes() -> None:
    args = bench.parse_args([])
    assert args.scenario == ["ratio", "games", "sockets", "crowd", "computer", "pagemove"]
    assert (args.clients, args.games, args.rate, args.watchers) == (20, 200, 50.0, 2)
    assert (args.page_games, args.page_rate) == (20, 20.0)
    assert (args.sockets, args.socket_games, args.crowd) == (2000, 20, 500)
    args = bench.parse_args(["--scenario", "crowd", "--crowd", "50", "--url", "http://127.0.0.1:9"])
    assert args.scenario == ["crowd"] and args.crowd == 50 and args.url == ["http://127.0.0.1:9"]


def test_a_seat_s_moves_are_its_enabled_move_buttons() -> None:
    rendering = (
        b'<button class="board__cell" type="submit" name="move" value="a1" aria-label="a1: empty">'
        b'<button class="board__cell" type="submit" name="move" value="b2" aria-label="b2" disabled>'
        b'<button class="tray__slot" type="submit" name="move" value="7" data-piece="7">'
        b'<button class="button" type="submit" name="answer" value="yes">'
    )
    assert bench.playable(rendering) == ["a1", "7"]
    assert bench.playable(b"<p>no board</p>") == []


def test_a_browser_keeps_its_cookies_and_sends_them() -> None:
    browser = bench.Browser("http://127.0.0.1:9")
    assert browser.extra_headers() == []
    browser.took_cookie("csrftoken=abc; expires=Thu, 01 Jan 2099 00:00:00 GMT; Path=/; SameSite=Lax")
    browser.took_cookie("sessionid=s1; HttpOnly; Path=/")
    browser.took_cookie("sessionid=s2; HttpOnly; Path=/")  # a new key replaces the old
    assert browser.extra_headers() == ["Cookie: csrftoken=abc; sessionid=s2"]
    api = bench.Http("http://127.0.0.1:9")
    api.took_cookie("sessionid=s1")  # an API client keeps none
    assert api.extra_headers() == []


@pytest.mark.parametrize("argv", [["--seconds", "600"], ["--rate", "0"], ["--stack", "--url", "http://x"]])
def test_unbounded_or_contradictory_runs_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.parse_args(argv)


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    size = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if size < 126:
        head += bytes([size])
    else:
        head += bytes([126]) + size.to_bytes(2, "big")
    return head + payload


def test_websocket_reads_fragmented_and_long_text_and_the_close() -> None:
    async def run() -> list[bytes | None]:
        reader = asyncio.StreamReader()
        long = b"x" * 300
        reader.feed_data(frame(1, b"<div data-", fin=False) + frame(0, b'ply="3">') + frame(1, long))
        reader.feed_data(frame(8, (1000).to_bytes(2, "big")))

        class Writer:
            def write(self, data: bytes) -> None:
                pass

            async def drain(self) -> None:
                pass

        ws = bench.WebSocket(reader, Writer())
        return [await ws.recv(), await ws.recv(), await ws.recv()]

    first, second, closed = asyncio.run(run())
    assert first == b'<div data-ply="3">'
    assert second == b"x" * 300
    assert closed is None


def test_pushes_count_a_later_ply_as_seen_and_never_before_the_answer() -> None:
    game = bench.Game("http://h", 1, {}, {}, http=None)
    game.moved_at = {1: 10.0, 2: 20.0}
    ahead = bench.Watcher("http://h", 1, seen=2, first_seen={1: 9.5, 2: 20.25}, opened_at=0.1)
    behind = bench.Watcher("http://h", 1, seen=1, first_seen={1: 10.5}, opened_at=0.1)
    never_opened = bench.Watcher("http://h", 1)
    latencies, lost, expected = bench.push_figures([game], [ahead, behind, never_opened])
    assert sorted(latencies) == [0.0, 0.25, 0.5]
    assert (lost, expected) == (1, 4)


def test_cpu_seconds_grow_with_work_and_skip_gone_processes() -> None:
    before = bench.cpu_seconds([os.getpid(), 2**22 + 1])
    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    assert bench.cpu_seconds([os.getpid()]) >= before + 0.03
