"""The tensor writer every game's encoder fills: blocks land where the layout says, nothing else moves."""

from __future__ import annotations

from array import array

import pytest

from sdk.games.tensors import ActionSpace, Features, bits, mask_of

LAYOUT = Features((("head", 2), ("grid", 4), ("tail", 3)))


def test_blocks_written_by_name_land_at_their_offsets_and_the_rest_stays_zero() -> None:
    writer = LAYOUT.writer()
    writer.put("grid", array("f", [1.0, 2.0, 3.0]))
    writer.put("tail", [0.5])
    writer.one_hot("head", 1)
    assert writer.array().tolist() == [0.0, 1.0, 1.0, 2.0, 3.0, 0.0, 0.5, 0.0, 0.0]


def test_each_tensor_starts_from_zeros_whatever_the_last_one_held() -> None:
    first = LAYOUT.writer()
    first.put("head", [7.0, 7.0])
    first.array()
    assert LAYOUT.writer().array().tolist() == [0.0] * LAYOUT.size
    assert LAYOUT.zeros.tolist() == [0.0] * LAYOUT.size


def test_a_block_given_as_float32_is_copied_not_shared() -> None:
    kept = array("f", [1.0, 1.0])
    writer = LAYOUT.writer()
    writer.put("head", kept)
    kept[0] = 9.0
    assert writer.array()[0] == 1.0


@pytest.mark.parametrize("values", [[1.0] * 5, array("f", [1.0] * 5), array("d", [1.0] * 5)])
def test_a_block_longer_than_its_length_is_refused(values: list[float] | array[float]) -> None:
    with pytest.raises(ValueError, match="block 'grid' holds 4 numbers, not 5"):
        LAYOUT.writer().put("grid", values)


def test_a_mask_has_ones_exactly_at_the_legal_actions_numbers() -> None:
    space = ActionSpace(["a", "b", "c", "d"])
    assert mask_of(space, ["d", "b"]) == bytearray([0, 1, 0, 1])
    assert space.indices(["c", "a"]) == [2, 0]
    with pytest.raises(KeyError):
        mask_of(space, ["e"])


def test_a_bit_mask_becomes_its_bits_lowest_first_for_the_length_asked() -> None:
    assert bits(0b1000_0000_0101, 12) == [1.0, 0.0, 1.0] + [0.0] * 8 + [1.0]
    assert bits(0, 3) == [0.0, 0.0, 0.0]
    assert len(bits((1 << 49) - 1, 49)) == 49
