"""Formats, stages, the stopping rule and the SPRT in bracket files: what loads, and each mistake
reported at its file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.tournament.bracket import load_bracket
from server.tournament.progression import SprtRule, StageRules, StopRule

from .test_bracket import BASE, assert_error, write

ROOT = Path(__file__).resolve().parents[2]

FIVE = """\
name: test
players: 2
{extra}
entrants:
  - {{name: a, command: python -m bots.random{candidate}}}
  - {{name: b, command: python -m bots.random}}
  - {{name: c, command: python -m bots.random}}
  - {{name: d, command: python -m bots.random}}
  - {{name: e, command: python -m bots.random}}
"""


def five(extra: str, candidate: str = "") -> str:
    return FIVE.format(extra=extra, candidate=candidate)


@pytest.mark.parametrize("name", ["gauntlet", "swiss", "knockout", "stages", "settle", "sprt"])
def test_the_example_brackets_load(name: str) -> None:
    bracket = load_bracket(ROOT / "tournaments" / f"{name}.yaml")
    assert bracket.plan().stages


def test_a_bracket_with_stages_becomes_their_rules(tmp_path: Path) -> None:
    text = five(
        "duplicate: true\nstages:\n"
        "  - {name: groups, groups: 2, advance: 1, until: {confidence: 0.9, max_rounds: 5}, settle: 1}\n"
        "  - {name: final, format: knockout, rounds: 2}"
    )
    bracket = load_bracket(write(tmp_path, text))
    assert bracket.plan().stages == (
        StageRules("groups", "round-robin", 1, groups=2, advance=1, until=StopRule(0.9, 5), settle=1),
        StageRules("final", "knockout", 2),
    )


def test_reseed_reaches_the_knockout_and_changes_the_fingerprint(tmp_path: Path) -> None:
    fixed = load_bracket(write(tmp_path, five("format: knockout")))
    reseeded = load_bracket(write(tmp_path, five("format: knockout\nreseed: true")))
    assert (fixed.plan().stages[0].reseed, reseeded.plan().stages[0].reseed) == (False, True)
    assert fixed.fingerprint() != reseeded.fingerprint()
    staged = five("stages:\n  - {name: g, advance: 4}\n  - {name: f, format: knockout, reseed: true}")
    assert load_bracket(write(tmp_path, staged)).plan().stages[1] == StageRules(
        "f", "knockout", 1, reseed=True
    )


def test_an_sprt_bracket_becomes_its_rule(tmp_path: Path) -> None:
    text = BASE.replace("  - name: c\n    command: python -m bots.greedy\n", "").replace(
        "  - name: a\n", "  - name: a\n    candidate: true\n"
    )
    text += "format: gauntlet\nduplicate: true\nsprt: {p0: 0.5, p1: 0.6}\n"
    plan = load_bracket(write(tmp_path, text)).plan()
    assert plan.candidates == frozenset({0})
    assert plan.stages[0].sprt == SprtRule(0.5, 0.6, 0.05, 0.05, 1000)


@pytest.mark.parametrize(
    ("extra", "candidate", "line", "field", "message"),
    [
        (
            "format: swiss\nadvance: 2",
            "",
            4,
            "advance",
            "advance is for a stage that others follow (or a knockout)",
        ),
        (
            "format: knockout\nadvance: 2",
            "",
            4,
            "advance",
            "advance must be below players (2) in a knockout, got 2",
        ),
        ("format: knockout\nreseed: 1", "", 4, "reseed", "expected true or false, got 1"),
        (
            "format: swiss\nreseed: true",
            "",
            4,
            "reseed",
            "reseed is for a knockout (it seeds those who go on again after every level)",
        ),
        ("format: gauntlet", "", 3, "format", "a gauntlet needs at least one entrant with candidate: true"),
        ("format: swiss", ", candidate: true", 3, "format", "candidate: true is for the gauntlet format"),
        ("settle: 2", "", 3, "settle", "settle needs until (the stopping rule it narrows)"),
        (
            "until: {confidence: 0.4, max_rounds: 3}",
            "",
            3,
            "until.confidence",
            "must be greater than 0.5, got 0.4",
        ),
        ("until: {confidence: 0.9}", "", 3, "until.max_rounds", "missing required field 'max_rounds'"),
        (
            "format: knockout\nuntil: {confidence: 0.9, max_rounds: 3}",
            "",
            4,
            "until",
            "a knockout ends by itself: until does not apply",
        ),
        (
            "format: gauntlet\nsprt: {p0: 0.5, p1: 0.6}",
            ", candidate: true",
            4,
            "sprt",
            "sprt is for a gauntlet of exactly two entrants, one of them candidate: true",
        ),
        ("sprt: {p0: 0.6, p1: 0.5}", "", 3, "sprt.p1", "p1 must be above p0 (0.6), got 0.5"),
        (
            "rounds: 2\nstages:\n  - {name: x}",
            "",
            3,
            "rounds",
            "with stages, give rounds in each stage instead",
        ),
        (
            "stages:\n  - {name: g, groups: 2}\n  - {name: f}",
            "",
            4,
            "stages[0]",
            "missing required field 'advance' (how many of each group go on)",
        ),
        (
            "stages:\n  - {name: g, groups: 3, advance: 1}\n  - {name: f}",
            "",
            4,
            "stages[0].groups",
            "5 entrants in 3 groups leave 1 in a group, fewer than a table of 2",
        ),
        (
            "stages:\n  - {name: g, advance: 1}\n  - {name: f}",
            "",
            4,
            "stages[0].advance",
            "1 entrants go on to the next stage, too few for a table of 2; raise advance",
        ),
        (
            "stages:\n  - {name: k, format: knockout}\n  - {name: f}",
            "",
            4,
            "stages[0].format",
            "a knockout ends the tournament: make it the last stage",
        ),
        (
            "stages:\n  - {name: g, advance: 2}\n  - {name: g}",
            "",
            5,
            "stages[1].name",
            "duplicate stage name 'g' (also stages[0])",
        ),
        (
            "stages:\n  - {name: 'a b'}",
            "",
            4,
            "stages[0].name",
            "String should match pattern '^[A-Za-z0-9_-]{1,32}$'",
        ),
    ],
)
def test_a_mistake_is_reported_at_its_line_and_field(
    tmp_path: Path, extra: str, candidate: str, line: int, field: str, message: str
) -> None:
    assert_error(write(tmp_path, five(extra, candidate)), line, field, message)


def test_a_knockout_whose_final_cannot_be_filled_is_refused_at_advance(tmp_path: Path) -> None:
    text = five("format: knockout\nadvance: 2").replace("players: 2", "players: 4")
    assert_error(
        write(tmp_path, text),
        4,
        "advance",
        "5 entrants at tables of 4 with 2 going on cannot fill a bracket of whole tables (byes only in "
        "the first level, 2 to a bye table); change the entrants (e.g. 4, 6, 8, 10), players or advance",
    )


def test_a_stopping_rule_too_long_to_play_is_refused_with_its_size(tmp_path: Path) -> None:
    assert_error(
        write(tmp_path, five("until: {confidence: 0.9, max_rounds: 100000}")),
        3,
        "until",
        "the schedule would have 2,000,000 matches (100,000 rounds of 20); "
        "at most 100,000 are played in one tournament",
    )
