"""The relay a sandbox runs for a bot that listens on TCP: found by its port, bytes carried both ways
intact, with back-pressure, each connection on its own."""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.guard import TcpRelay, tcp_listener

MESSAGE = bytes(range(256)) * 32 * 1024  # 8 MiB: far more than any socket buffer holds


class Echo:
    """A TCP server on 127.0.0.1 that echoes every byte of each connection back."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.server = socket.create_server(
            (host, 0), family=socket.AF_INET6 if ":" in host else socket.AF_INET
        )
        self.port: int = self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._echo, args=(connection,), daemon=True).start()

    @staticmethod
    def _echo(connection: socket.socket) -> None:
        with connection:
            while data := connection.recv(65536):
                connection.sendall(data)


@pytest.fixture
def relayed(tmp_path: Path) -> Iterator[str]:
    """The path of a Unix socket relayed to an echo server, with the relay running in a thread."""
    echo = Echo()
    path = str(tmp_path / "bot.sock")
    relay = TcpRelay(path, echo.port)
    selector = selectors.DefaultSelector()
    relay.look(selector)
    assert not relay.looking and Path(path).exists()
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            for key, mask in selector.select(0.05):
                key.data(key.fileobj, mask)

    thread = threading.Thread(target=loop)
    thread.start()
    try:
        yield path
    finally:
        stop.set()
        thread.join()
        for key in list(selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        selector.close()
        echo.server.close()


def test_the_relay_carries_large_messages_both_ways_at_once(relayed: str) -> None:
    """Writing 8 MiB while the echo comes back: without back-pressure this would lose or stall."""
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(relayed)
        sender = threading.Thread(target=client.sendall, args=(MESSAGE,))
        sender.start()
        received = bytearray()
        while len(received) < len(MESSAGE):
            chunk = client.recv(1 << 20)
            assert chunk, "the relay closed the connection early"
            received += chunk
        sender.join()
    assert received == MESSAGE


def test_closing_one_relayed_connection_leaves_the_others_working(relayed: str) -> None:
    with socket.socket(socket.AF_UNIX) as first, socket.socket(socket.AF_UNIX) as second:
        first.connect(relayed)
        second.connect(relayed)
        first.sendall(b"ping")
        assert first.recv(4) == b"ping"
        first.close()
        second.sendall(b"pong")
        assert second.recv(4) == b"pong"


def test_the_listener_is_found_whatever_address_it_was_bound_to() -> None:
    for host, reached in (("127.0.0.1", "127.0.0.1"), ("0.0.0.0", "127.0.0.1"), ("::1", "::1")):
        echo = Echo(host)
        try:
            found = tcp_listener(echo.port)
            assert found is not None and found[1] == reached, (host, found)
        finally:
            echo.server.close()
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))  # bound, not listening
        assert tcp_listener(unused.getsockname()[1]) is None


def test_a_bot_that_makes_the_socket_itself_is_left_alone(tmp_path: Path) -> None:
    echo = Echo()
    path = tmp_path / "bot.sock"
    with socket.socket(socket.AF_UNIX) as own:
        own.bind(str(path))
        relay = TcpRelay(str(path), echo.port)
        selector = selectors.DefaultSelector()
        relay.look(selector)
        assert not relay.looking and not selector.get_map()
    echo.server.close()
