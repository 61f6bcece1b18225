"""A real Ray cluster for tests: a head node and a worker node on 127.0.0.1, started with Ray's own
cluster utilities in a private temporary folder, small (one CPU each, no dashboard, the smallest
object store), and always shut down (the utilities stop exactly the processes they started; this
process leaves the cluster first if anything left it connected)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["missing_reason", "ray_cluster", "ray_nodes"]

OBJECT_STORE_BYTES = 80 * 1024 * 1024
"""Just above Ray's minimum."""


def missing_reason() -> str | None:
    """Why no Ray cluster can be started here, or None if one can."""
    if importlib.util.find_spec("ray") is None:
        return "Ray is not installed (pip install -e '.[ray]')"
    return None


@contextmanager
def ray_cluster(nodes: int = 2) -> Iterator[str]:
    """Start ``nodes`` nodes of one CPU each (the first is the head); yields the head's address."""
    with ray_nodes(nodes) as cluster:
        yield str(cluster.address)


@contextmanager
def ray_nodes(nodes: int = 2, system_config: dict[str, Any] | None = None) -> Iterator[Any]:
    """:func:`ray_cluster`, yielding Ray's ``Cluster`` itself, for a test that harms its nodes
    (a worker node's ``kill_raylet()``); ``system_config``: Ray's internal settings for the head."""
    from ray.cluster_utils import Cluster

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths live under it
    node: dict[str, Any] = {
        "num_cpus": 1,
        "object_store_memory": OBJECT_STORE_BYTES,
        "node_ip_address": "127.0.0.1",
    }
    # Ray's utilities note the newest cluster in its default folder (/tmp/ray), which they do not
    # make themselves: it may be missing on a machine where no Ray instance ran yet.
    from ray._common.utils import get_default_ray_temp_dir

    os.makedirs(get_default_ray_temp_dir(), exist_ok=True)  # type: ignore[no-untyped-call]
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            **node,
            "include_dashboard": False,
            "temp_dir": folder,
            "_system_config": system_config or {},
        },
    )
    try:
        for _ in range(nodes - 1):
            cluster.add_node(**node)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        import ray

        if ray.is_initialized():  # a driver left connected must leave before its head node goes
            ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]
        shutil.rmtree(folder, ignore_errors=True)
