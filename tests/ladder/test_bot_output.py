"""A ladder bot's output is capped, in process on real parts (sandboxed programs, real workers, a real
SQLite file): a bot that floods its check fails validation saying so, and one that floods its matches
has the fault shown to its owner with each match, while the logs stay at the cap."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from server.bot_output import OUTPUT_CAP_BYTES
from server.ladder.checking import CheckReport
from server.ladder.config import load_ladder
from server.ladder.history import matches_of
from server.ladder.store import LadderStore
from server.ladder.validation import validate_next
from server.store.repository import Store
from server.tournament.executor import ExecutorChoice
from server.web.ladder_catalog import LadderCatalog

from .test_loop_kinds import ladder_with, play

QUIET = "from bots.random import main\n\nmain()\n"
FLOODING_AT_START = "print('x' * (64 << 20), flush=True)\n" + QUIET
FLOODING_IN_MATCHES = """from bots.random import RandomBot
from sdk.serve import run


class Flooding(RandomBot):
    def start_match(self, match):
        print("x" * (8 << 20), flush=True)
        return super().start_match(match)


run(Flooding())
"""


def program(tmp_path: Path, name: str, text: str) -> dict[str, str]:
    folder = tmp_path / "programs" / name
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(text)
    return {"dir": str(folder), "command": "python bot.py"}


def test_a_bot_flooding_its_check_fails_validation_with_the_output_line(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\nstartup_timeout_s: 60\n")
    ladder = load_ladder(path)
    with closing(Store.open(ladder.database_path, create=True)) as store:
        ladders = LadderStore(store)
        ladders.add_participant("ada")
        (owner,) = ladders.participants()
        assert owner.id is not None
        row = ladders.add_bot(owner.id, "loud", program(tmp_path, "loud", FLOODING_AT_START), mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        (bot,) = ladders.bots()
    assert bot.status == "failed"
    assert bot.reason is not None and bot.reason.startswith(
        f"FAIL output: output over {OUTPUT_CAP_BYTES:,} bytes: "
    )
    assert bot.reason.endswith(
        f"bytes dropped -- fix: print less: the log keeps {OUTPUT_CAP_BYTES:,} bytes per check and per match"
    )
    dropped = int(bot.reason.split(" bytes: ")[1].split()[0].replace(",", ""))
    assert dropped >= (64 << 20) - OUTPUT_CAP_BYTES  # the bot's own lines besides the flood count too
    report = CheckReport(tmp_path / "logs", row.id)
    assert (report.folder / "bot-check.log").stat().st_size <= OUTPUT_CAP_BYTES + 4096


def test_a_bot_flooding_its_matches_has_the_fault_shown_to_its_owner(tmp_path: Path) -> None:
    ladder, store, ladders = ladder_with(
        tmp_path,
        "name: f\ngame: saint_malo\nplayers: 2\nstartup_timeout_s: 60\n",
        {
            "loud": program(tmp_path, "loud", FLOODING_IN_MATCHES),
            "quiet": program(tmp_path, "quiet", QUIET),
        },
    )
    logs = tmp_path / "logs"
    with closing(store):
        play(ladder, ladders, 3, ExecutorChoice(), logs)
        (owner,) = ladders.participants()
        assert owner.id is not None
        played = [match for match in matches_of(store, owner.id) if match.status == "done"]
        (loud,) = [bot for bot in ladders.bots() if bot.name == "loud"]
        assert loud.id is not None
        shown = LadderCatalog(store).bot(loud.id).faults  # the bot's page and GET /ladder/bots/ID.json
    assert len(played) >= 3
    for match in played:
        faults = {seat.bot: seat.faults for seat in match.seats}
        assert faults["quiet"] == []
        (fault,) = faults["loud"] or ["none"]
        assert fault.startswith(f"output over {OUTPUT_CAP_BYTES:,} bytes: "), fault
    assert len(shown) == len(played)
    assert all(fault.faults[0].startswith(f"output over {OUTPUT_CAP_BYTES:,} bytes: ") for fault in shown)
    # every match's flood was cut at the cap (a flooding bot is launched afresh for each match)
    written = sum(log.stat().st_size for log in logs.glob("ladder-*.log"))
    assert written <= (len(played) + 4) * (OUTPUT_CAP_BYTES + 4096)
