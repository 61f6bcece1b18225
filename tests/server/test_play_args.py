"""``smtourney play`` and ``smtourney bot serve`` refuse what they cannot use before any bot starts
or any port is bound: one line, exit status 2, nothing written; ``matches --json`` shows faults."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sdk.games.registry import games

from ..commands import invoke

BOT = "python -m bots.random"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", BOT], "--bot: saint_malo is played by 2 to 5 bots, got 1"),
        (["--bot", ""], "--bot: saint_malo is played by 2 to 5 bots, got 1"),
        (["--bot", BOT] * 6, "--bot: saint_malo is played by 2 to 5 bots, got 6"),
        (["--bot", "", "--bot", BOT], "--bot 1: command must not be empty"),
        (["--bot", BOT, "--bot", "   "], "--bot 2: command must not be empty"),
        (
            ["--bot", BOT, "--bot", "python -m 'bots.random"],
            "--bot 2: cannot split the command into words: no closing quotation",
        ),
        (
            ["--bot", BOT, "--bot", "localhost:70000"],
            "--bot 2: the port of 'localhost:70000' must be between 1 and 65535, got 70000",
        ),
        (
            ["--bot", BOT, "--bot", "localhost:65536"],
            "--bot 2: the port of 'localhost:65536' must be between 1 and 65535, got 65536",
        ),
        (["--game", "chess"], f"--game: unknown game 'chess'; installed games: {', '.join(sorted(games()))}"),
        (["--record", "missing/record.json"], "--record: the folder missing does not exist"),
        (["--record", "folder"], "--record: folder is not a regular file"),
        (["--log-dir", "file.txt"], "--log-dir: file.txt is not a folder"),
    ],
)
def test_play_refuses_bad_arguments_before_starting_a_bot(
    tmp_path: Path, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("x")
    game = [] if "--game" in args else ["--game", "saint_malo"]
    code, output = invoke("play", *game, *args)
    assert (code, output) == (2, f"error: {message}\n")
    assert sorted(os.listdir(tmp_path)) == ["file.txt", "folder"]  # no logs folder: no bot started


def test_play_asks_for_a_game_when_several_are_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    installed = ", ".join(sorted(games()))
    assert "," in installed, "this repository ships several games"
    code, output = invoke("play", "--bot", BOT, "--bot", BOT)
    assert (code, output) == (2, f"error: --game: choose a game; installed games: {installed}\n")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("port", ["70000", "65536", "-1"])
def test_bot_serve_refuses_ports_beyond_the_tcp_range(port: str) -> None:
    code, output = invoke("bot", "serve", "bots.random:RandomBot", "--port", port)
    assert code == 2 and "Invalid value for '--port'" in output


@pytest.mark.parametrize("value", ["70001", "65536", "http", "-5", "٣"])
def test_bot_serve_refuses_a_port_in_the_environment_it_would_wrap(value: str) -> None:
    code, output = invoke("bot", "serve", "bots.random:RandomBot", env={"SMTOURNEY_PORT": value})
    assert (code, output) == (2, f"error: SMTOURNEY_PORT: a port is 0 to 65535, got {value!r}\n")


def test_bot_serve_refuses_an_address_it_cannot_listen_on() -> None:
    code, output = invoke("bot", "serve", "bots.random:RandomBot", "--host", "192.0.2.1", "--port", "5")
    assert code == 2
    expected = "cannot listen on 192.0.2.1 port 5: [Errno 99] Cannot assign requested address"
    assert output == f"error: --host/--port: {expected}\n"


def test_bot_serve_refuses_missing_certificate_files(tmp_path: Path) -> None:
    code, output = invoke("bot", "serve", "bots.random:RandomBot", "--tls-cert", str(tmp_path / "none.pem"))
    assert code == 2 and "does not exist" in output


def test_matches_json_shows_every_fault_of_every_seat(tournament_db: Path) -> None:
    code, output = invoke("matches", "--db", str(tournament_db), "--json")
    assert code == 0
    seats = [seat for row in json.loads(output) for seat in row["seats"]]
    assert all(set(seat) >= {"faults", "forfeit_reason"} for seat in seats)
    faulty = [seat for seat in seats if seat["name"] == "faulty"]
    assert faulty and all(seat["forfeit_reason"] == "3 strikes" for seat in faulty)
    for seat in faulty:
        *strikes, forfeit = seat["faults"]
        assert len(strikes) == 3 and all("illegal action" in strike for strike in strikes)
        assert forfeit == "forfeited: 3 strikes"
    clean = [seat for seat in seats if seat["name"] != "faulty"]
    assert all(seat["faults"] == [] and seat["forfeit_reason"] is None for seat in clean)
