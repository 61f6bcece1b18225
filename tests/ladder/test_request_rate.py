"""A participant's authenticated requests are limited to the ladder's rate after a burst, on a real
server on 127.0.0.1: past it, 429 with Retry-After; other participants are not held up."""

from __future__ import annotations

import http.client
import time
from contextlib import closing
from pathlib import Path

import pytest

from server.ladder.config import load_ladder
from server.ladder.request_rate import RequestRate
from server.tournament.bracket_errors import BracketError

from .test_api import LADDER, Api, serving
from .test_organiser import add


def get(api: Api, token: str) -> tuple[int, str | None]:
    with closing(http.client.HTTPConnection(api.host, api.port, timeout=30)) as connection:
        connection.request("GET", "/api/ladder/bots", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After")


def test_past_its_burst_a_participant_gets_429_with_retry_after_and_others_do_not(tmp_path: Path) -> None:
    with serving(tmp_path, LADDER + "api: {requests_per_s: 0.5, burst: 3}\n") as api:
        ada, bea = add(api.db, "ada"), add(api.db, "bea")
        assert [get(api, ada)[0] for _ in range(3)] == [200, 200, 200]
        status, retry_after = get(api, ada)
        assert status == 429 and retry_after is not None and 1 <= int(retry_after) <= 2
        assert get(api, bea) == (200, None)
        time.sleep(int(retry_after))
        assert get(api, ada)[0] == 200


def test_a_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    rate = RequestRate(per_s=100.0, burst=2)
    assert [rate.wait_s(1), rate.wait_s(1)] == [0.0, 0.0]
    wait = rate.wait_s(1)
    assert 0 < wait <= 0.01
    time.sleep(0.05)  # 5 tokens' worth, kept to the burst of 2
    assert [rate.wait_s(1), rate.wait_s(1)] == [0.0, 0.0] and rate.wait_s(1) > 0
    assert rate.wait_s(2) == 0.0


def test_a_bad_request_rate_is_one_line_with_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "l.yaml"
    path.write_text("name: l\ngame: saint_malo\nplayers: 2\napi:\n  requests_per_s: 5\n  burst: 0\n")
    with pytest.raises(BracketError) as caught:
        load_ladder(path)
    message = str(caught.value)
    assert message == f"{path}:6: api.burst: must be at least 1, got 0"
