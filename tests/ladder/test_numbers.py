"""Numbers out of range in paths and queries, on a real ``ladder serve`` app on 127.0.0.1 (the
ladder API with the web viewer mounted beside it): every one is a 4xx, never a 500."""

from __future__ import annotations

import http.client
from contextlib import closing
from pathlib import Path

from .test_api import serving
from .test_organiser import add

HUGE = ("9223372036854775808", "99999999999999999999999", "-9223372036854775809")
PATHS = (
    "/api/ladder/matches?before={n}",
    "/api/ladder/matches?limit={n}",
    "/api/ladder/matches/{n}/replay",
    "/ladder/bots/{n}",
    "/ladder/bots/{n}/chart",
    "/ladder/matches/{n}/watch",
    "/api/ladder/public/bots/{n}",
    "/api/tournaments/{n}",
    "/api/tournaments/{n}/matches",
    "/api/tournaments/{n}/matches/x",
    "/api/tournaments/{n}/live",
    "/api/tournaments/{n}/matches/x/live",
    "/api/tournaments/1/matches/x/live?after={n}",
    "/tournaments/{n}",
    "/tournaments/{n}/matches",
    "/tournaments/1/matches?seat={n}&strikes_min={n}&score_min={n}&score_max={n}",
    "/tournaments/{n}/matches/x",
    "/tournaments/1/matches/x?seat={n}",
    "/tournaments/{n}/matches/x/export",
    "/tournaments/{n}/matches/x/live",
)


def test_out_of_range_numbers_are_4xx_everywhere(tmp_path: Path) -> None:
    with serving(tmp_path) as api:
        token = add(api.db, "ada")
        failures = [
            (url, status)
            for url in _urls()
            if not 400 <= (status := _get(api.host, api.port, url, token)) < 500
        ]
    assert failures == [], "\n".join(f"{url} {code}" for url, code in failures)


def _urls() -> list[str]:
    return [path.format(n=number) for path in PATHS for number in HUGE]


def _get(host: str, port: int, url: str, token: str) -> int:
    with closing(http.client.HTTPConnection(host, port, timeout=30)) as connection:
        connection.request("GET", url, headers={"Authorization": f"Bearer {token}"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
