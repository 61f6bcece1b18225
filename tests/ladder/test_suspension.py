"""Suspension for forfeits counted in a window of a bot's last matches, on a real SQLite file with
real matches of random bots (a forfeiting seat is withdrawn, as an unreachable bot would be)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from server.ladder.config import load_ladder
from server.ladder.seating import match_id_of
from server.ladder.store import LadderStore
from server.seats import SeatSpec
from server.store.repository import Store
from server.tournament.jobs import MatchJob, MatchPlayer

from .test_organiser import add


def test_a_bot_forfeiting_every_other_match_is_suspended(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: window\ngame: saint_malo\nplayers: 2\n")
    ladder = load_ladder(path)
    add(ladder.database_path, "ada")
    player = MatchPlayer()
    with closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (ada,) = ladders.participants()
        assert ada.id is not None
        for name in ("honest", "dodger"):
            row = ladders.add_bot(ada.id, name, {"address": "127.0.0.1:1"}, mu=25, sigma=8)
            ladders.finish_validation(row.id, passed=True, reason=None, max_active=2)
        tournament = ladders.tournament_id(ladder.name, ladder.game, ladder.seed, {})
        statuses = []
        try:
            for number in range(5):
                decided = ladders.decide(2, candidates=32, min_quality=0, seed=0)
                assert decided is not None
                seating = ladders.seating(decided[0])
                specs = tuple(
                    SeatSpec(
                        bot.name,
                        bot_class="bots.random:RandomBot",
                        withdrawn="unreachable" if bot.name == "ada/dodger" and number % 2 == 0 else None,
                    )
                    for bot in seating.bots
                )
                job = MatchJob(
                    decided[0],
                    ladder.game,
                    match_id_of(decided[0]),
                    seating.seed,
                    specs,
                    ladder.params,
                    ladder.referee_config(),
                    tmp_path,
                )
                packed = player.play(job).record
                assert packed is not None
                assert ladders.finish_match(tournament, decided[0], packed, ladder.suspension)
                statuses.append({row.name: row.status for row in ladders.bots()}["dodger"])
        finally:
            player.close()
        (dodger,) = [row for row in ladders.bots() if row.name == "dodger"]
    assert statuses == ["active", "active", "active", "active", "suspended"]
    assert dodger.reason == "forfeited 3 of its last 5 matches, the last: withdrawn: unreachable"
