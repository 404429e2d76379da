"""Odd input on the sockets is a clean refusal, never a crash (close 1011 and a
traceback): a waiting socket's seek number that is no number (``²``, thousands of
digits), and a move frame nested thousands deep."""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from quarto_site.asgi import application

from .test_audiences import session_for, socket
from .test_consumer import receive_until
from .test_socket_moves import json_socket, opened, ply_of, tictactoe_between

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")
DEEP = '{"move": ' + "[" * 5000


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("seek", ["%C2%B2", "²", "9" * 5000, "9" * 30, "-1", "abc"])
async def test_a_waiting_socket_with_an_odd_seek_number_is_sent_to_the_lobby(
    caplog: pytest.LogCaptureFixture, seek: str
) -> None:
    key = await database_sync_to_async(session_for)("p-waits")
    comm = WebsocketCommunicator(
        application,
        f"/ws/lobby/wait/?seek={seek}",
        headers=[ORIGIN, (b"cookie", f"sessionid={key}".encode())],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert json.loads(await comm.receive_from(timeout=5)) == {"go": "/lobby/"}
    await comm.disconnect()
    assert errors_logged(caplog) == []


async def test_a_move_frame_nested_thousands_deep_is_a_bad_frame(caplog: pytest.LogCaptureFixture) -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    program = await json_socket(game.pk, await database_sync_to_async(session_for)("p-one"))
    await program.send_to(text_data=DEEP)
    error = json.loads(await receive_until(program, '"error"'))
    assert error["code"] == "bad_frame" and error["message"]
    page = await opened(socket(game.pk, await database_sync_to_async(session_for)("p-one")))
    await page.send_to(text_data=DEEP)
    assert "Send {" in await receive_until(page, "status__line")
    # Both sockets still work: a move after it is played.
    await program.send_to(text_data=json.dumps({"move": "a1", "ply": 0}))
    await receive_until(program, '"ply": 1')
    assert await ply_of(game) == 1
    for comm in (program, page):
        await comm.disconnect()
    assert errors_logged(caplog) == []
