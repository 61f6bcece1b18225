"""The board of ruling M1."""

from __future__ import annotations

from sdk.games.masons import board


def test_the_lattice_has_35_points_48_spaces_82_lines() -> None:
    assert board.POINTS == 35 and board.SPACES == 48 and board.LINE_COUNT == 82
    assert board.EDGE_LINES.bit_count() == 20
    assert sum(1 for spaces in board.LINE_SPACES if len(spaces) == 2) == 62


def test_lines_are_numbered_by_their_sorted_point_pairs() -> None:
    assert list(board.LINES) == sorted(board.LINES)
    assert all(a < b for a, b in board.LINES)
    assert board.LINES[0] == (0, 1) and board.LINES[1] == (0, 7)


def test_spaces_follow_the_formulas_of_m1() -> None:
    assert board.SPACE_CORNERS[0] == (0, 1, 7)  # s even, t even: (0,0) (0,1) (1,0)
    assert board.SPACE_CORNERS[1] == (7, 8, 1)  # s even, t odd: (1,0) (1,1) (0,1)
    assert board.SPACE_CORNERS[12] == (14, 15, 7)  # s odd, t even: (2,0) (2,1) (1,0)
    assert board.SPACE_CORNERS[13] == (7, 8, 15)  # s odd, t odd: (1,0) (1,1) (2,1)
    assert all(len(lines) == 3 for lines in board.SPACE_LINES)


def test_shore_points_are_the_ends_of_every_line() -> None:
    assert board.spaces_of(board.SHORE_POINTS) == [0, 6, 7, 13, 14, 20, 21, 27, 28, 34]


def test_three_regions_of_sixteen_spaces() -> None:
    assert [mask.bit_count() for mask in board.REGION_SPACES] == [16, 16, 16]
    assert board.SPACE_REGION[3] == 0 and board.SPACE_REGION[4] == 1 and board.SPACE_REGION[47] == 2


def test_edge_points_are_on_the_board_s_rim() -> None:
    inner = [p for p in range(board.POINTS) if not board.EDGE_POINTS >> p & 1]
    assert len(inner) == 15 and all(1 <= p // 7 <= 3 for p in inner)
