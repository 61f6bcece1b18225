"""Remote seats: bots reached by address, over TLS, with a bearer token."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sdk.serve import BotServer
from server.client import Tls
from server.seats import SeatSpec

from ..certificates import self_signed, tls_random_bot
from ..conftest import processes_with
from .conftest import BOT_ENV, launched, play


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost."""
    return self_signed(tmp_path_factory.mktemp("tls"), "localhost", "DNS:localhost,IP:127.0.0.1")


@pytest.fixture
def tls_bot(certificate: tuple[Path, Path]) -> Iterator[BotServer]:
    with tls_random_bot(certificate, "s3cret") as running:
        yield running


def test_remote_bot_over_tls_with_token(
    tls_bot: BotServer, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    remote = SeatSpec(
        name="remote",
        address=f"localhost:{tls_bot.port}",
        tls=Tls(ca_file=certificate[0]),
        token="s3cret",
    )
    record = play([remote, launched("local", "bots.random")], tmp_path)
    assert record.seats[0].bot == "random 2.0"
    assert record.seats[0].strikes == 0 and not record.seats[0].forfeited, record.seats[0].faults


def test_wrong_token_is_refused_and_the_seat_forfeited(
    tls_bot: BotServer, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    remote = SeatSpec(
        name="remote", address=f"localhost:{tls_bot.port}", tls=Tls(ca_file=certificate[0]), token="wrong"
    )
    record = play([remote, launched("local", "bots.random")], tmp_path)
    assert record.seats[0].forfeited
    refused = "Hello failed: error status UNAUTHENTICATED: missing or wrong bearer token"
    assert record.seats[0].forfeit_reason == refused


def test_unreachable_address_forfeits_the_seat(tmp_path: Path) -> None:
    record = play(
        [SeatSpec(name="nobody", address="127.0.0.1:9"), launched("local", "bots.random")], tmp_path
    )
    assert record.seats[0].forfeited
    assert (record.seats[0].forfeit_reason or "").startswith("Hello failed: error status UNAVAILABLE")
    assert record.seats[1].rank == 1


def test_bot_serve_command_serves_a_bot_class(tmp_path: Path, tag: str) -> None:
    spec = SeatSpec(
        name="served",
        command=f"{sys.executable} -m server bot serve bots.greedy:GreedyBot --port {{port}}",
        env={**BOT_ENV, "SMTOURNEY_TEST_TAG": tag},
        sandbox=False,  # {port}: a TCP port, as outside the sandbox
    )
    record = play([spec, launched("random", "bots.random", tag=tag)], tmp_path)
    assert record.seats[0].bot == "greedy 1.0"
    assert record.seats[0].strikes == 0 and not record.seats[0].forfeited
    assert processes_with(tag) == []
