"""A match's steps as one block: every step reads back exactly, and a block that is not one is refused
with a reason."""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.record import MatchRecord, SeatRecord, StepRecord
from server.steps_block import BlockError, PackedRecord, decode_steps, encode_steps

from ..stored_steps import BROKEN_BLOCKS

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=4,
)
STEPS = st.builds(
    StepRecord,
    seq=st.integers(0, 10_000),
    kind=st.text(max_size=8),
    step=st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=4),
    seat=st.none() | st.integers(0, 7),
    decision_id=st.none() | st.integers(1, 10_000),
    source=st.sampled_from(["chance", "bot", "default", "fallback"]),
    reply=st.none() | st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=3),
    latency_us=st.none() | st.integers(0, 2**62),
    strike=st.none() | st.text(max_size=8),
)


@given(st.lists(STEPS, max_size=12))
def test_steps_read_back_exactly(steps: list[StepRecord]) -> None:
    assert decode_steps(encode_steps(steps)) == steps


def test_a_nul_and_any_text_a_bot_sent_are_kept() -> None:
    steps = [StepRecord(0, "keep", {"x": "\0é"}, seat=1, decision_id=1, source="default", strike="bad\0")]
    assert decode_steps(encode_steps(steps)) == steps


@pytest.mark.parametrize("block", BROKEN_BLOCKS.values(), ids=BROKEN_BLOCKS.keys())
def test_what_is_not_a_block_is_refused_with_a_reason(block: bytes) -> None:
    with pytest.raises(BlockError) as refused:
        decode_steps(block)
    assert str(refused.value)


def compressed(columns: Any) -> bytes:
    return zlib.compress(json.dumps(columns).encode())


def test_columns_of_different_lengths_are_refused() -> None:
    columns: dict[str, Any] = json.loads(zlib.decompress(encode_steps([StepRecord(0, "chance", {})])))
    columns["kind"] = []
    with pytest.raises(BlockError, match="not lists of one length"):
        decode_steps(compressed(columns))
    with pytest.raises(BlockError, match="columns are not"):
        decode_steps(compressed([1, 2]))


def test_a_packed_record_unpacks_to_the_record() -> None:
    record = MatchRecord(
        match_id="m",
        game="saint_malo",
        seed=3,
        players=1,
        params={"p": 1},
        time_control={"decision_ms": 5, "bank_ms": 10},
        seats=[SeatRecord(0, "a", score=2, rank=1)],
        steps=[
            StepRecord(0, "chance", {"faces": [1]}),
            StepRecord(1, "keep", {"k": 0}, seat=0, decision_id=1, latency_us=8000),
        ],
        scores=[2],
        ranks=[1],
    )
    packed = PackedRecord.pack(record)
    assert packed.record.steps == [] and packed.record.ranks == [1]
    assert packed.unpack() == record
    (clock,) = packed.clocks  # packed with the steps: 3 ms beyond the decision's 5 came off the bank
    assert clock.bank_used_ms == 3.0 and list(clock.latencies_us()) == [8000]
    assert record.steps != []  # packing left the record itself whole
