"""What the ladder connects to for participants: an archive's command is never an address, and a bot's
own address is reached only where the organiser's rules let it be, checked at submission and again
when it is seated. Real listeners on 127.0.0.1 count every connection the ladder makes."""

from __future__ import annotations

import socket
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from server.ladder.addresses import (
    NOT_REACHED,
    AddressPolicy,
    AddressRefusedError,
    command_looks_like_address,
)
from server.ladder.config import load_ladder
from server.ladder.seating import seat_spec
from server.ladder.store import LadderStore
from server.ladder.validation import validate_next
from server.store.repository import Store
from server.tournament.bracket_errors import BracketError

from .test_api import LADDER, LOOPBACK, bots, serving
from .test_archive import member, tar_gz
from .test_organiser import add, rows


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts (and closes them)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._thread.join(timeout=5)


@contextmanager
def listening() -> Iterator[Listener]:
    listener = Listener()
    try:
        yield listener
    finally:
        listener.close()


def test_commands_that_read_as_addresses_are_told_apart_from_programs() -> None:
    for address in (
        "127.0.0.1:5000",
        "unix:/run/x.sock",
        "[::1]:80",
        "dns:///h:1",
        "ipv4:1.2.3.4:5",
        "localhost:1",
        "unix-abstract:x",
        "vsock:1:2",
        "h:1 --flag",
    ):
        assert command_looks_like_address(address), address
    for command in ("python bot.py", "./run --port=5", "node bot.js", "bin/bot host:1"):
        assert not command_looks_like_address(command), command


def test_an_address_is_reached_only_where_the_rules_let_it_be() -> None:
    default = AddressPolicy()
    for refused in (
        "127.0.0.1:1",
        "10.1.2.3:1",
        "192.168.0.1:1",
        "169.254.169.254:80",
        "[::1]:1",
        "[fe80::1]:1",
        "[::ffff:127.0.0.1]:1",
        "0.0.0.0:1",
        "100.64.0.1:1",
        "224.0.0.1:1",
        "localhost:1",
        "unix:/x:1",
        "dns:1.1.1.1:53",
    ):
        with pytest.raises(AddressRefusedError, match=f"^{NOT_REACHED}$"):
            default.reach(refused)
    assert default.reach("8.8.8.8:53").address == "8.8.8.8:53"
    assert default.reach("[2001:4860:4860::8888]:53").address == "[2001:4860:4860::8888]:53"
    allowing = AddressPolicy(allow=("127.0.0.0/8",), deny=("8.8.8.0/24",))
    assert allowing.reach("127.0.0.2:9").address == "127.0.0.2:9"
    with pytest.raises(AddressRefusedError):
        allowing.reach("8.8.8.8:53")
    only = AddressPolicy(allow=("1.1.1.1",), deny=("0.0.0.0/0", "::/0"))
    assert only.reach("1.1.1.1:1").address == "1.1.1.1:1"
    with pytest.raises(AddressRefusedError):
        only.reach("8.8.8.8:53")
    named = AddressPolicy(allow=("localhost",))
    reached = named.reach("localhost:7", tls=True)
    assert (
        reached.address.endswith(":7") and reached.tls is not None and reached.tls.server_name == "localhost"
    )


def test_the_ladder_file_names_networks_and_hosts_or_says_which_entry_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(
        LADDER.replace(LOOPBACK, "")
        + "addresses: {allow: [10.0.0.0/8, '*.example.org'], deny: ['bad host']}\n"
    )
    with pytest.raises(BracketError, match=r"addresses\.deny.*'bad host' is neither a network"):
        load_ladder(path)


def test_an_archive_whose_command_is_an_address_is_refused_and_never_connected_to(tmp_path: Path) -> None:
    with listening() as listener, serving(tmp_path) as api:
        token = add(api.db, "ada")
        for command in (
            f"127.0.0.1:{listener.port}",
            "unix:/tmp/x.sock",
            f"[::1]:{listener.port}",
            f"dns:///127.0.0.1:{listener.port}",
            f"ipv4:127.0.0.1:{listener.port}",
        ):
            query = urllib.parse.urlencode({"name": "x", "command": command})
            reply = api.request("POST", f"/bots/archive?{query}", token, raw=tar_gz(member("bot.py")))
            assert reply.status == 422 and reply.body["detail"].startswith(
                "command: an archive's command is run"
            ), reply
        assert bots(api) == []
        # A row stored before the refusal existed is validated without connecting either.
        ladder = load_ladder(tmp_path / "ladder.yaml")
        with closing(Store.open(ladder.database_path)) as store:
            ladders = LadderStore(store)
            (ada,) = ladders.participants()
            assert ada.id is not None
            spec = {"dir": str(tmp_path), "command": f"127.0.0.1:{listener.port}"}
            ladders.add_bot(ada.id, "old", spec, mu=25, sigma=8)
            assert validate_next(ladders, ladder, tmp_path / "logs")
        assert rows(api.db, "SELECT status, reason FROM ladder_bot") == [
            ("failed", f"FAIL launch: '127.0.0.1:{listener.port}' reads as an address, not a command")
        ]
    assert listener.accepted == 0


def test_a_denied_address_is_refused_at_submission_and_never_connected_to(tmp_path: Path) -> None:
    with listening() as listener, serving(tmp_path, LADDER.replace(LOOPBACK, "")) as api:
        token = add(api.db, "ada")
        for address in (
            f"127.0.0.1:{listener.port}",
            f"127.0.0.2:{listener.port}",
            f"localhost:{listener.port}",
            f"[::ffff:127.0.0.1]:{listener.port}",
        ):
            reply = api.request("POST", "/bots", token, {"name": "x", "address": address})
            assert reply.status == 422 and reply.body == {"detail": f"address: {NOT_REACHED}"}, reply
        assert bots(api) == []
    assert listener.accepted == 0


def test_an_address_denied_since_submission_is_never_connected_to(tmp_path: Path) -> None:
    with listening() as listener:
        address = f"127.0.0.1:{listener.port}"
        path = tmp_path / "ladder.yaml"
        path.write_text(LADDER)  # loopback allowed when it was submitted...
        add(tmp_path / "ladder.db", "ada")
        with closing(Store.open(tmp_path / "ladder.db")) as store:
            ladders = LadderStore(store)
            (ada,) = ladders.participants()
            assert ada.id is not None
            ladders.add_bot(ada.id, "late", {"address": address}, mu=25, sigma=8)
            path.write_text(LADDER.replace(LOOPBACK, ""))  # ...and no longer
            ladder = load_ladder(path)
            seat = seat_spec(
                "ada/late", {"address": address}, sandbox=True, addresses=ladder.addresses.policy()
            )
            assert seat.withdrawn == NOT_REACHED
            assert validate_next(ladders, ladder, tmp_path / "logs")
        assert rows(tmp_path / "ladder.db", "SELECT status, reason FROM ladder_bot") == [
            ("failed", f"FAIL reach: {NOT_REACHED}")
        ]
    assert listener.accepted == 0


def test_failures_to_reach_an_allowed_address_read_the_same_whatever_answered(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER)
    ladder = load_ladder(path)
    add(ladder.database_path, "ada")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
    with listening() as listener, closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (ada,) = ladders.participants()
        assert ada.id is not None
        for name, port in (("closed", closed_port), ("hangs-up", listener.port)):
            ladders.add_bot(ada.id, name, {"address": f"127.0.0.1:{port}"}, mu=25, sigma=8)
            assert validate_next(ladders, ladder, tmp_path / "logs")
    reasons = [
        str(reason).replace(str(port), "PORT")
        for (reason,), port in zip(
            rows(ladder.database_path, "SELECT reason FROM ladder_bot ORDER BY id"),
            (closed_port, listener.port),
            strict=True,
        )
    ]
    assert (
        reasons[0]
        == reasons[1]
        == (
            "FAIL health: the bot at 127.0.0.1:PORT did not answer Health/Check with SERVING -- fix: "
            "is it running, serving grpc.health.v1.Health, and reachable from the ladder?"
        )
    )
