"""A Ray node lost while every CPU of the cluster plays a match (its raylet killed): the run is told in
one line, goes on with the node left, and ends with every match stored once; Ray's own log lines stay
out of its output."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..servers.ray_cluster import missing_reason, ray_nodes
from ..tiny_bracket import MATCHES
from .helpers import cli, run_args, start_run, stored_match_ids, write_bracket

ROUNDS = 4


@pytest.fixture
def own_cluster() -> Iterator[Any]:
    """A two-node cluster of this test's own: it loses a node, which no other test expects."""
    reason = missing_reason()
    if reason is not None:
        pytest.skip(reason)
    # A lost node is counted out after 2 missed health checks of 1 s, not Ray's 5 of 3 s, so that it
    # is within the run: the actors left play about 20 s more.
    with ray_nodes(2, {"health_check_period_ms": 1000, "health_check_failure_threshold": 2}) as cluster:
        yield cluster


@pytest.mark.slow  # about 90 s: two nodes started, 24 matches played
def test_a_run_that_loses_a_node_with_every_cpu_in_use_goes_on_with_the_one_left(
    tmp_path: Path, own_cluster: Any
) -> None:
    bracket = write_bracket(tmp_path / "bracket")  # two workers: the cluster's two CPUs
    # Rounds enough to outlast the few seconds Ray takes to count a lost node's CPU out.
    bracket.write_text(bracket.read_text().replace("rounds: 1", f"rounds: {ROUNDS}"))
    db = str(tmp_path / "lost.db")
    run = start_run(run_args(bracket, db, "ray", str(own_cluster.address)))
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(db):  # both actors placed and playing
            assert run.poll() is None, run.communicate()[0]
            assert time.monotonic() < deadline, "no match stored in time"
            time.sleep(0.1)
        next(iter(own_cluster.worker_nodes)).kill_raylet()
        output, _ = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 0, output
    left = r"the Ray cluster has 1 CPU\(s\) left; the run goes on with 1 worker\(s\)"
    assert re.search(left, output), output
    assert len(re.findall(r"replay: match \S+ is played again", output)) <= 1, output
    assert "(raylet)" not in output and "[state-dump]" not in output and "\x1b[3" not in output, output
    stored = stored_match_ids(db)
    assert len(stored) == len(set(stored)) == ROUNDS * MATCHES
    code, verified = cli("verify", "--db", db)
    assert code == 0, verified


@pytest.mark.slow  # about a minute: two nodes started, then a head silent for 15 s
def test_a_run_whose_head_node_dies_stops_with_one_line_saying_how_to_resume(
    tmp_path: Path, own_cluster: Any
) -> None:
    bracket = write_bracket(tmp_path / "bracket")
    bracket.write_text(bracket.read_text().replace("rounds: 1", f"rounds: {ROUNDS}"))
    db = str(tmp_path / "head.db")
    run = start_run(run_args(bracket, db, "ray", str(own_cluster.address)))
    try:
        deadline = time.monotonic() + 120
        while not stored_match_ids(db):
            assert run.poll() is None, run.communicate()[0]
            assert time.monotonic() < deadline, "no match stored in time"
            time.sleep(0.1)
        own_cluster.head_node.kill_gcs_server()
        killed = time.monotonic()
        output, _ = run.communicate(timeout=120)
        took = time.monotonic() - killed
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 1, output
    stored = stored_match_ids(db)
    last = output.strip().splitlines()[-1]
    assert last.startswith("error: ") and "the Ray cluster's head stopped answering" in last, output
    assert last.endswith(
        f"{len(stored)} of {ROUNDS * MATCHES} matches are stored. Run the same command again to resume."
    )
    assert took < 50, f"{took:.0f} s to stop"  # Ray's own reconnection gives up after 60 s
    assert "(raylet)" not in output and "[state-dump]" not in output, output
    assert len(stored) == len(set(stored))
