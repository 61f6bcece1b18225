"""The sandbox of launched bots: a cheating bot attacks during a real tournament, and every wall holds."""

from __future__ import annotations

import os
import re
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from server.launcher import BotProcess, Limits
from server.sandbox import SandboxLimits, find_program, installed_paths, sweep_leftovers
from server.store.database import open_database
from server.store.repository import Store
from tests.bots.cheating_bot import ATTACKS

from ..conftest import processes_with
from .conftest import ROOT, launched, play

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")


class Listener:
    """A TCP server on 127.0.0.1 that records whether anyone connected."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port: int = self.sock.getsockname()[1]
        self.connections = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        self.sock.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_cheating_bot_is_stopped_by_every_wall_and_the_match_goes_on(tmp_path: Path, tag: str) -> None:
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "example_bot.py", other / "other_bot.py")
    secret = f"secret-{tag}"
    escape = tmp_path / "escaped.txt"
    database = tmp_path / "cheat.db"
    bracket = tmp_path / "cheat.yaml"
    listener = Listener()
    cheat_env = {
        "PYTHONPATH": str(ROOT),
        "SMTOURNEY_TEST_TAG": tag,
        "CHEAT_BRACKET": str(bracket),
        "CHEAT_DATABASE": str(database),
        "CHEAT_LOG_DIR": str(tmp_path / "cheat-logs"),
        "CHEAT_OTHER_PROGRAM": str(other / "other_bot.py"),
        "CHEAT_REFEREE_PID": str(os.getpid()),
        "CHEAT_SECRET_MARK": secret,
        "CHEAT_TCP_PORT": str(listener.port),
        "CHEAT_ESCAPE_FILE": str(escape),
    }
    env_lines = "\n".join(f"      {name}: {value!r}" for name, value in cheat_env.items())
    bracket.write_text(
        f"""name: cheat
players: 2
seed: 987654321
workers: 1
time_control: {{decision_ms: 3000, bank_ms: 10000}}
limits: {{processes: 64, tmp_mb: 16}}
entrants:
  - name: cheater
    command: {sys.executable} -m tests.bots.cheating_bot
    env:
{env_lines}
  - name: other
    command: {sys.executable} {other / "other_bot.py"}
    env: {{SMTOURNEY_TEST_TAG: {tag!r}, PYTHONPATH: {str(ROOT)!r}}}
""",
        encoding="utf-8",
    )
    outside_before = {"bracket": bracket.read_bytes(), **snapshot(other)}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "server", "run", str(bracket), "--db", str(database)],
            env={**os.environ, "SMTOURNEY_TEST_SECRET": secret, "PYTHONPATH": str(ROOT)},
            check=False,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        listener.close()
    assert result.returncode == 0, result.stdout + result.stderr

    store = Store(open_database(database, create=False), database)
    (tournament,) = store.tournaments()
    assert tournament.id is not None
    matches = store.matches(tournament.id)
    assert len(matches) == 2
    for match, _ in matches:
        record = store.load_record(tournament.id, match.match_id)
        assert record is not None and record.end_reason == "completed"
        for seat in record.seats:  # the cheater plays on; the other seat never notices
            assert seat.strikes == 0 and not seat.forfeited and seat.faults == [], seat

    # One log per process the cheater ran in: one for both matches when it is kept between them.
    logs = sorted((tmp_path / "cheat-logs").glob("*.cheater.log"))
    text = "\n".join(log.read_text() for log in logs)
    assert sorted(re.findall(r"^ATTACKS DONE in (\S+)$", text, re.MULTILINE)) == sorted(
        match.match_id for match, _ in matches
    ), text
    for name in ATTACKS:
        outcomes = re.findall(rf"^ATTACK {name}: (.*)$", text, re.MULTILINE)
        assert len(outcomes) == 2 and all(o.startswith("blocked") for o in outcomes), f"{name}: {outcomes}"
    forks = re.findall(r"fork refused after (\d+) children", text)
    assert len(forks) == 2 and all(int(n) < 64 for n in forks), text
    filled = re.findall(r"/tmp full after (\d+) MiB", text)
    assert len(filled) == 2 and all(int(n) <= 16 for n in filled), text

    assert {"bracket": bracket.read_bytes(), **snapshot(other)} == outside_before
    assert not escape.exists()
    assert not (ROOT / "tests" / "bots" / "cheater-was-here").exists()
    assert listener.connections == 0
    assert processes_with(tag) == []


def test_a_sandboxed_bot_sees_a_scrubbed_environment_and_no_network(tmp_path: Path) -> None:
    probe = tmp_path / "program" / "probe.py"
    probe.parent.mkdir()
    probe.write_text(
        "import os, socket\n"
        "print(sorted(os.environ))\n"
        "print(os.getpid(), sorted(os.listdir('/')))\n"
        "print([name for _, name in socket.if_nameindex()])\n"
    )
    process = BotProcess(
        f"python {probe}",
        tmp_path / "probe.log",
        env={"MINE": "1"},
        limits=Limits(sandbox=SandboxLimits(processes=16, tmp_mb=1)),
    )
    with process:
        assert process.wait_exit(20) == 0
    names, pids, interfaces = process.log_path.read_text().splitlines()[:3]
    # PYTHONPATH only where packages were installed into folders on the referee's path (pip --target).
    extra = ["PYTHONPATH"] if installed_paths() else []
    basics = ["HOME", "LANG", "MINE", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "SMTOURNEY_ADDRESS"]
    basics += ["SMTOURNEY_PORT", "TMPDIR"]
    assert eval(names) == sorted([*basics, *extra])
    pid, listing = pids.split(maxsplit=1)
    assert int(pid) < 10  # a PID namespace of its own
    assert not {"home", "var", "opt", "srv", "mnt", "media"} & set(eval(listing))
    assert eval(interfaces) == ["lo"]  # only the loopback of its own network namespace
    assert not Path(process.address.removeprefix("unix:")).parent.exists()  # the socket's folder is gone


def test_a_bot_listening_on_tcp_plays_sandboxed_through_the_relay(tmp_path: Path, tag: str) -> None:
    """``{port}`` (and ``SMTOURNEY_PORT``) is a port on the sandbox's own loopback: the referee reaches
    it through the sandbox's socket; a bot on the socket itself is reached directly."""
    specs = [
        launched("tcp", "bots.greedy", "--port", "{port}", tag=tag),
        launched("unix", "bots.random", tag=tag),
    ]
    record = play(specs, tmp_path)
    for seat in record.seats:
        assert seat.strikes == 0 and not seat.forfeited, seat.faults
    tcp, unix = (next(tmp_path.glob(f"*.seat{i}.*.log")).read_text() for i in range(2))
    assert "serving on 127.0.0.1:50051" in tcp and "relaying /run/smtourney/bot.sock to port 50051" in tcp
    assert "serving on unix:/run/smtourney/bot.sock" in unix and "relaying" not in unix
    assert processes_with(tag) == []


@pytest.mark.parametrize(
    ("command", "path", "workdir"),
    [
        ("python -m bots.greedy", "bots", "."),  # found in the working folder, as Python finds it
        ("python docs/examples/example_bot.py", "docs/examples", "docs/examples"),
        ("python -u -m tests.bots.faulty_bot --fault none", "tests", "."),
        ("node docs/examples/node/bot.js", "docs/examples/node", "docs/examples/node"),
        ("python -X dev no_such_script.py", None, None),  # never the working folder itself
        ("python -c pass", None, None),
    ],
)
def test_the_program_folder_of_a_command(command: str, path: str | None, workdir: str | None) -> None:
    program = find_program(command.split(), {}, ROOT)
    assert program.path == (None if path is None else (ROOT / path).resolve())
    assert program.workdir == (None if workdir is None else (ROOT / workdir).resolve())


def test_leftovers_of_a_killed_launcher_are_swept_and_live_ones_kept() -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], check=True, capture_output=True, text=True
    )
    dead = Path(tempfile.gettempdir()) / f"smtourney-bot-{gone.stdout.strip()}-left"
    live = Path(tempfile.gettempdir()) / f"smtourney-bot-{os.getpid()}-live"
    dead.mkdir()
    live.mkdir()
    try:
        sweep_leftovers()
        assert not dead.exists() and live.exists()
    finally:
        shutil.rmtree(dead, ignore_errors=True)
        live.rmdir()


def test_leftovers_of_a_killed_launcher_whose_pid_was_reused_are_swept() -> None:
    start = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
    reused = Path(tempfile.gettempdir()) / f"smtourney-bot-{os.getpid()}.{start - 1}-left"
    live = Path(tempfile.gettempdir()) / f"smtourney-bot-{os.getpid()}.{start}-live"
    reused.mkdir()
    live.mkdir()
    try:
        sweep_leftovers()
        assert not reused.exists() and live.exists()
    finally:
        shutil.rmtree(reused, ignore_errors=True)
        live.rmdir()


def test_install_folders_on_the_path_are_shown_but_not_folders_inside_site_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``pip install --target`` folder is part of the bot's Python; a folder a package put on the
    path from inside site-packages when imported (Ray's vendored packages) is there already."""
    target = tmp_path / "target"
    (target / "plugin-1.0.dist-info").mkdir(parents=True)
    vendored = Path(site.getsitepackages()[0]) / "ray" / "thirdparty_files"
    monkeypatch.setattr(sys, "path", [*sys.path, str(target), str(vendored)])
    assert vendored.is_dir() and any(vendored.glob("*.dist-info")), "Ray (a dev dependency) vendors packages"
    assert target in installed_paths()
    assert vendored not in installed_paths()


def test_without_bubblewrap_a_sandboxed_bracket_or_play_is_refused_in_one_line(tmp_path: Path) -> None:
    """Not a tournament of forfeits: the missing sandbox is named before anything is written."""
    bare = tmp_path / "bin"  # a PATH with no bwrap on it
    bare.mkdir()
    env = {**os.environ, "PATH": str(bare), "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    bracket = tmp_path / "b.yaml"
    bracket.write_text(
        "name: b\nplayers: 2\nentrants:\n"
        "  - {name: a, command: python -m bots.random}\n"
        "  - {name: b, command: python -m bots.random, sandbox: false}\n"
    )

    def smtourney(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "server", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)

    run = smtourney("run", str(bracket))
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"{bracket}:4: entrants[0].command: bubblewrap (bwrap) is not installed" in run.stderr
    assert "Traceback" not in run.stderr and sorted(p.name for p in tmp_path.iterdir()) == ["b.yaml", "bin"]
    bots = ["--bot", "python -m bots.random"] * 2
    play = smtourney("play", "--game", "saint_malo", *bots)
    assert play.returncode == 2 and "--bot 1: bubblewrap (bwrap) is not installed" in play.stderr, play.stderr
