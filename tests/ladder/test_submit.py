"""A participant's side of a ladder, end to end on ``smtourney ladder serve`` on 127.0.0.1: bots
submitted with ``smtourney submit`` (a Python archive, the Node.js example with its node_modules, a
remote bot over TLS with a token, a broken bot), checked for real in the sandbox; then their status,
their matches and the replays of ended ones, each participant seeing only their own."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from sdk.serve import BotServer
from server.ladder.store import LadderStore
from server.replay import REPLAY_FORMAT
from server.store.repository import Store
from server.web.catalog import Catalog

from ..certificates import self_signed, tls_random_bot
from .conftest import cli
from .test_api import LOOPBACK, served
from .test_loop import done, wait_for
from .test_organiser import add, rows

ROOT = Path(__file__).resolve().parents[2]
NODE_EXAMPLE = ROOT / "docs" / "examples" / "node"
LADDER = "name: e2e\ngame: saint_malo\nplayers: 2\nsubmission_mb: 32\nmax_active_bots: 3\n" + LOOPBACK
BOT_TOKEN = "s3cret"
PYTHON_BOT = {
    "bot.py": "from strategy.pick import Picker\nfrom sdk.serve import run\n\nrun(Picker())\n",
    "strategy/__init__.py": "",
    "strategy/pick.py": "from bots.greedy import GreedyBot\n\nclass Picker(GreedyBot):\n    name = 'pick'\n",
}

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_EXAMPLE / "node_modules" / "@grpc" / "grpc-js").is_dir()
    or not (NODE_EXAMPLE / "proto").is_dir(),
    reason="node, or the Node.js example's node_modules and proto (npm install), are missing",
)  # fmt: skip


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for the name bots.test only."""
    return self_signed(tmp_path_factory.mktemp("tls"), "bots.test", "DNS:bots.test")


@pytest.fixture
def remote_bot(certificate: tuple[Path, Path]) -> Iterator[BotServer]:
    with tls_random_bot(certificate, BOT_TOKEN) as running:
        yield running


def folder_of(tmp_path: Path, name: str, files: dict[str, str]) -> Path:
    folder = tmp_path / name
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    return folder


@needs_node
def test_participants_submit_archives_and_a_remote_bot_and_follow_them(
    tmp_path: Path, certificate: tuple[Path, Path], remote_bot: BotServer
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER)
    ada, bob, cyd = (add(tmp_path / "ladder.db", name) for name in ("ada", "bob", "cyd"))
    python_bot = folder_of(tmp_path, "pybot", PYTHON_BOT)
    broken_bot = folder_of(tmp_path, "broken", {"bot.py": "import no_such_module\n"})
    # The ladder trusts the test's certificate as it would a public authority's (system roots).
    trust = {"GRPC_DEFAULT_SSL_ROOTS_FILE_PATH": str(certificate[0])}
    with served(path, "--log-dir", str(tmp_path / "logs"), env=trust) as api:
        server = f"http://{api.host}:{api.port}"

        def submit(token: str, name: str, *how: str) -> tuple[int, str]:
            return cli("submit", "--server", server, "--token", token, "--name", name, *how, "--wait")

        code, output = submit(ada, "py", "--dir", str(python_bot), "--command", "python bot.py")
        assert code == 0 and output.splitlines()[-1] == "bot py: active", output
        code, output = submit(bob, "node", "--dir", str(NODE_EXAMPLE), "--command", "node bot.js")
        assert code == 0 and output.splitlines()[-1] == "bot node: active", output
        remote = f"127.0.0.1:{remote_bot.port}"
        tls = ("--address", remote, "--tls", "--server-name", "bots.test")
        code, output = submit(cyd, "remote", *tls, "--bot-token", BOT_TOKEN)
        assert code == 0 and output.splitlines()[-1] == "bot remote: active", output
        code, output = submit(cyd, "wrong-token", *tls, "--bot-token", "nope")
        assert code == 1 and "bot wrong-token: failed (FAIL Hello: " in output and "UNAUTHENTICATED" in output
        code, output = submit(ada, "broken", "--dir", str(broken_bot), "--command", "python bot.py")
        assert code == 1, output
        assert "bot broken: failed (FAIL health: exited with status 1 before becoming healthy" in output
        assert "ModuleNotFoundError: No module named 'no_such_module'" in output

        (broken,) = [bot for bot in api.request("GET", "/bots", ada).body if bot["name"] == "broken"]
        assert broken["reason"].startswith("FAIL health: exited with status 1")
        assert broken["check"][0] == broken["reason"]
        assert any("No module named 'no_such_module'" in line for line in broken["log"])
        assert [bot["name"] for bot in api.request("GET", "/bots", bob).body] == ["node"]
        for method, route in (("GET", "/bots/broken"), ("POST", "/bots/broken/retire")):
            refused = api.request(method, route, bob)
            assert refused.status == 404 and refused.body == {"detail": "bob has no bot named 'broken'"}
        assert api.request("GET", "/bots/broken", ada).body["status"] == "failed"
        assert "check" not in api.request("GET", "/leaderboard").body[0]

        played, waiting = a_played_and_a_waiting_match(api.db)
        seated = {
            str(name): str(owner)
            for name, owner in rows(
                api.db,
                "SELECT b.name, p.name FROM ladder_seat s JOIN ladder_bot b ON b.id = s.bot_id "
                f"JOIN ladder_participant p ON p.id = b.participant_id WHERE s.ladder_match_id = {played}",
            )
        }
        for token, participant in ((ada, "ada"), (bob, "bob"), (cyd, "cyd")):
            mine = api.request("GET", "/matches", token)
            assert mine.status == 200
            expected = participant in seated.values()
            assert (played in [match["id"] for match in mine.body]) == expected, (participant, seated)
            for match in mine.body:
                assert any(seat["mine"] and seat["participant"] == participant for seat in match["seats"])
        owner = next(iter(seated.values()))
        token = {"ada": ada, "bob": bob, "cyd": cyd}[owner]
        (shown,) = [match for match in api.request("GET", "/matches", token).body if match["id"] == played]
        assert shown["status"] == "done" and shown["match_id"] == f"ladder-{played}"
        assert sorted(seat["rank"] for seat in shown["seats"]) in ([1, 2], [1, 1])
        replay = api.request("GET", f"/matches/{played}/replay")
        assert replay.status == 200 and replay.body["format"] == REPLAY_FORMAT
        with closing(Store.open(api.db)) as store:
            (tournament,) = store.tournaments()
            assert tournament.id is not None
            assert replay.body == Catalog(store).replay(tournament.id, f"ladder-{played}")
        unfinished = api.request("GET", f"/matches/{waiting}/replay")
        assert unfinished.status == 409
        assert (
            unfinished.body["detail"]
            == f"ladder match {waiting} is scheduled: its replay opens once it has ended"
        )
        assert api.request("GET", "/matches/9999/replay").status == 404
        assert api.request("GET", "/matches").status == 401


def a_played_and_a_waiting_match(db: Path) -> tuple[int, int]:
    """A ladder match the service has played and stored, and one decided here and left scheduled
    (the service plays the tables it decides, and those left unfinished when it starts). Their ids."""
    wait_for(lambda: done(db) > 0, "a ladder match played", timeout_s=180)
    (played,) = rows(db, "SELECT MIN(id) FROM ladder_match WHERE status = 'done'")[0]
    with closing(Store.open(db)) as store:
        decided = LadderStore(store).decide(2, candidates=32, min_quality=0, seed=5)
    assert isinstance(played, int) and decided is not None
    return played, decided[0]


def test_submit_says_in_one_line_what_is_wrong(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, "bot", {"bot.py": ""})
    base = ("submit", "--server", "http://127.0.0.1:9", "--token", "t", "--name", "x")
    cases = [
        ((), "give either --dir FOLDER (with --command) or --address HOST:PORT"),
        (("--dir", str(folder)), "--dir needs --command"),
        (("--dir", str(folder), "--command", "python bot.py", "--tls"), "apply only to --address"),
        (("--address", "h:1", "--command", "x"), "--command applies only to --dir"),
        (("--dir", str(tmp_path / "none"), "--command", "x"), "--dir: not a folder"),
        (("--address", "127.0.0.1:1"), "cannot reach http://127.0.0.1:9/api/ladder/bots"),
    ]
    for options, expected in cases:
        code, output = cli(*base, *options)
        assert code == 2 and expected in output and output.count("\n") == 1, (options, output)
    (folder / "outside").symlink_to("/etc/hostname")
    code, output = cli(*base, "--dir", str(folder), "--command", "python bot.py")
    assert code == 2 and "a link to something that is not a file inside" in output
