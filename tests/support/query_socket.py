"""What a client of Voila's request socket (``/voila/query/<kernel id>``) is sent, without waiting
for nothing to come: ``sent_nothing`` for an open connection, ``closed_unsent`` for one the server
closes (tests/widgets/test_page_request.py against Tornado, tests/browser/test_signin.py against
golflab-voila)."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def sent_nothing(connection: ClientConnection) -> bool:
    """Whether the server sent nothing on ``connection`` as it opened: the answer to a ping comes
    after whatever the server wrote before it (one ordered stream)."""
    assert connection.ping().wait(30), "the server never answered the ping"
    try:
        connection.recv(timeout=0)
    except TimeoutError:
        return True
    return False


def closed_unsent(url: str) -> int:
    """The close code of a connection to ``url`` that the server closes sending nothing (fails if it
    sends anything, or does not close within 10 s)."""
    with connect(url) as connection:
        with pytest.raises(ConnectionClosed) as closed:
            message = connection.recv(timeout=10)
            pytest.fail(f"the server sent {message!r}")
    return closed.value.rcvd.code
