"""The Ray options of ``smtourney run``: bad values are one line, and SIGTERM stops a Ray run like
Ctrl-C (the handler Ray installs is put back), its actors and bots with it."""

from __future__ import annotations

import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from ..conftest import processes_left, processes_with
from .helpers import cli, start_run, stored_match_ids, write_bracket


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--executor", "dask"], "error: --executor must be one of: local, ray; got 'dask'\n"),
        (["--executor", "local", "--ray-address", "h:1"], "error: --ray-address needs --executor ray\n"),
        (["--ray-address", "nohost"], "error: --ray-address: address must be host:port"),
        (
            ["--db", "postgresql://somewhere/"],
            "error: --db: postgresql://somewhere/: the URL names no database",
        ),
    ],
)
def test_bad_options_are_one_line_and_play_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    bracket = write_bracket(tmp_path)
    code, output = cli("run", str(bracket), *args)
    assert code == 2 and output.startswith(message) and output.count("\n") == 1, output
    assert not bracket.with_suffix(".db").exists()


def test_an_unreachable_ray_head_is_one_line_at_once(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free, and nothing listens on it once closed
    bracket = write_bracket(tmp_path)
    started = time.monotonic()
    code, output = cli("run", str(bracket), "--ray-address", f"127.0.0.1:{port}")
    assert code == 1, output
    assert output.splitlines()[-1] == (
        f"error: {bracket.with_suffix('.db')}: cannot reach the Ray cluster at 127.0.0.1:{port}: "
        "Connection refused"
    )
    assert time.monotonic() - started < 30


def test_sigterm_stops_a_ray_run_like_ctrl_c(tmp_path: Path, tag: str, ray_address: str) -> None:
    bracket = write_bracket(tmp_path, tag)
    db = str(tmp_path / "stopped.db")
    run = start_run(["run", str(bracket), "--db", db, "--ray-address", ray_address])
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(db) or not processes_with(tag):
            assert run.poll() is None, f"the run ended before it could be stopped: {run.communicate()[0]}"
            assert time.monotonic() < deadline, "no match was played in time"
            time.sleep(0.05)
        run.send_signal(signal.SIGTERM)
        output, _ = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 130, output
    assert "interrupted:" in output and "Run the same command again to resume." in output
    assert processes_left(tag, within_s=30) == [], "a bot outlived the stopped run"


def test_without_ray_installed_the_run_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing module is an import that fails: here, Ray's (whatever this environment has
    installed)."""
    monkeypatch.setitem(sys.modules, "ray", None)
    bracket = write_bracket(tmp_path)
    code, output = cli("run", str(bracket), "--executor", "ray")
    assert code == 1
    assert output.splitlines()[-1] == (
        f"error: {bracket.with_suffix('.db')}: Ray is not installed; "
        "install it with: pip install 'smtourney[ray]'"
    )


def test_without_psycopg_installed_a_url_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    code, output = cli("standings", "--db", "postgresql://me@/league?host=/nonexistent")
    assert (code, output) == (
        1,
        "error: postgresql://me@/league?host=/nonexistent: PostgreSQL support is not installed; "
        "install it with: pip install 'smtourney[postgres]'\n",
    )
