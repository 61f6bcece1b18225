"""The ladder on Ray actors of the session's real two-node cluster on 127.0.0.1 (beside the other
tests that use it), its bots real gRPC servers reached by address."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from bots.random import RandomBot
from sdk.serve import serve
from server.tournament.executor import ExecutorChoice

from ..ladder.test_api import LOOPBACK
from ..ladder.test_loop_kinds import ladder_with, play


def test_the_ladder_plays_on_ray_actors(tmp_path: Path, ray_address: str) -> None:
    servers = [serve(RandomBot(), 0) for _ in range(3)]
    try:
        bots = {f"r{i}": {"address": f"127.0.0.1:{server.port}"} for i, server in enumerate(servers)}
        text = "name: ray\ngame: saint_malo\nplayers: 2\n" + LOOPBACK
        ladder, store, ladders = ladder_with(tmp_path, text, bots)
        with closing(store):
            play(ladder, ladders, 4, ExecutorChoice("ray", ray_address), tmp_path / "logs")
            assert sum(row.games for row in ladders.bots()) == 2 * ladders.played()
    finally:
        for server in servers:
            server.stop(grace=0)
