"""C1 cards and C2 disciplines: the tables every rule works on."""

from __future__ import annotations

from collections import Counter

from sdk.games import cities as ci

from .builders import cid, empire, mask, names

E = ci.EventType
Emp = ci.Empire
Dis = ci.Discipline


def test_c1_54_cities_eight_empires_of_six_and_six_neutral() -> None:
    assert len(ci.CITIES) == 54
    assert [c.id for c in ci.CITIES] == list(range(54))
    by_empire = Counter(c.empire for c in ci.CITIES)
    expected: dict[ci.Empire | None, int] = {**dict.fromkeys(Emp, 6), None: 6}
    assert by_empire == expected
    assert ci.NEUTRAL_MASK.bit_count() == 6
    assert names(ci.NEUTRAL_MASK) == {"Lisbon", "Knossos", "Genova", "Madrid", "Petra", "Ur"}
    union = ci.NEUTRAL_MASK
    for m in ci.EMPIRE_MASKS:
        assert m.bit_count() == 6 and not union & m
        union |= m
    assert union == ci.ALL_CITIES


def test_c1_cities_in_rulebook_order() -> None:
    assert ci.CITIES[0].name == "Rome" and ci.CITIES[53].name == "Ur"
    assert empire(Emp.CARTHAGE) == ["Carthage", "Utica", "Cartagena", "Gadiz", "Karalis", "Leptis Magna"]
    assert empire(Emp.ETRUSCANS)[0] == "Velzna" and cid("Fuflona") == 47


def test_c1_capitals() -> None:
    assert names(ci.CAPITAL_MASK) == {
        "Rome",
        "Athens",
        "Carthage",
        "Memfis",
        "Persepolis",
        "Alesia",
        "Jerusalem",
        "Velzna",
    }
    for e in Emp:
        capital = ci.CITIES[ci.cities_of(ci.EMPIRE_MASKS[e])[0]]
        assert capital.capital and capital.empire == e
    assert not ci.NEUTRAL_MASK & ci.CAPITAL_MASK


def test_c1_wonders() -> None:
    assert names(ci.WONDER_MASK) == {
        "Giza",
        "Babylon",
        "Ephesus",
        "Olympia",
        "Halicarnassus",
        "Rhodes",
        "Alexandria",
    }
    assert all(ci.CITIES[c].wonder for c in ci.cities_of(ci.WONDER_MASK))
    assert (
        ci.WONDER_MASK
        & ~(ci.EMPIRE_MASKS[Emp.GREECE] | ci.EMPIRE_MASKS[Emp.EGYPT] | ci.EMPIRE_MASKS[Emp.PERSIA])
        == 0
    )


def test_c1_75_event_cards_one_per_rulebook_line() -> None:
    assert len(ci.EVENT_CARDS) == 75
    copies = Counter(ci.EVENT_CARDS)
    assert set(copies) == set(E)
    assert copies[E.UNIFICATION] == 4 and copies[E.ATTACK] == 6 and copies[E.TRADE] == 4
    assert copies[E.EDUCATION] == 3 and copies[E.CURSE] == 3 and copies[E.PROTECTION] == 2
    for kind in (E.UNREST, E.VICTORY, E.REBELLION, E.BARBARIANS, E.UNCOVERING_EXCAVATIONS, E.ESPIONAGE):
        assert copies[kind] == 2
    singles = [ev for ev, n in copies.items() if n == 1]
    assert len(singles) == 53 - 12
    assert list(ci.EVENT_CARDS) == sorted(ci.EVENT_CARDS)  # rulebook order groups the copies


def test_c1_display_names_are_the_printed_titles() -> None:
    assert E.COMMANDER_ROME.display_name == "Roman commander Julius Caesar"
    assert E.COMMANDER_JEWS.display_name == "Jewish commander Mojžiš"
    assert E.COMMANDER_ETRUSCANS.display_name == "Etruscan commander Porsenna"
    assert E.ANGER_CARTHAGE.display_name == "Anger of the gods Carthagian cities"
    assert E.GAMES_SEAFARING.display_name == "Games Seafaring"
    assert E.SILENCE_BEFORE_THE_STORM.display_name == "Silence before the storm"
    assert E.ECONOMIC_CRISIS_SLAVERY_FINANCES.display_name == "Economic crisis (slavery and finances)"
    assert len(set(ci.EVENT_NAMES)) == len(E)


def test_c2_main_discipline_of_each_empire() -> None:
    assert [e.name for e in Emp] == [
        "ROME",
        "GREECE",
        "CARTHAGE",
        "EGYPT",
        "PERSIA",
        "CELTS",
        "JEWS",
        "ETRUSCANS",
    ]
    assert [d.name for d in Dis] == [
        "ARMY",
        "CULTURE",
        "SEAFARING",
        "AGRICULTURE",
        "SLAVERY",
        "METALLURGY",
        "FINANCES",
        "ENGINEERING",
    ]


def test_c2_points_capital_regular_neutral() -> None:
    rome = ci.CITY_BY_NAME["Rome"].points
    assert rome == (3, 1, 1, 1, 1, 1, 1, 1)
    assert ci.CITY_BY_NAME["Capua"].points == (3, 1, 0, 0, 0, 0, 0, 0)
    assert ci.CITY_BY_NAME["Giza"].points[Dis.AGRICULTURE] == 3
    assert ci.CITY_BY_NAME["Giza"].points[Dis.SLAVERY] == 1
    assert ci.CITY_BY_NAME["Fuflona"].points == (1, 0, 0, 0, 0, 0, 0, 3)  # Etruscans -> Rome
    assert ci.CITY_BY_NAME["Petra"].points == (0,) * 8
    for city in ci.CITIES:
        if city.empire is None:
            continue
        assert city.points[city.empire] == 3
        assert sum(city.points) == (10 if city.capital else 4)


def test_sides_west_and_east() -> None:
    assert names(ci.SIDE_MASKS[ci.Side.WEST]) >= {"Rome", "Carthage", "Alesia", "Velzna"}
    assert ci.SIDE_MASKS[ci.Side.WEST] & ci.SIDE_MASKS[ci.Side.EAST] == 0
    assert ci.SIDE_MASKS[ci.Side.WEST] | ci.SIDE_MASKS[ci.Side.EAST] == ci.ALL_CITIES & ~ci.NEUTRAL_MASK
    assert mask("Athens", "Memfis", "Persepolis", "Jerusalem") & ci.SIDE_MASKS[ci.Side.EAST] == mask(
        "Athens", "Memfis", "Persepolis", "Jerusalem"
    )


def test_protection_cover_table() -> None:
    basic, middle, great = ci.PROTECTIONS
    assert ci.COVERED_BY[E.COMMANDER_GREECE] == (basic, middle, great)
    for ev in (E.ANGER_ROME, E.ATTACK, E.BARBARIANS):
        assert basic in ci.COVERED_BY[ev]
    for ev in (E.PLAGUE, E.UNREST, E.GREAT_UNREST, E.TRADE):
        assert ci.COVERED_BY[ev] == (middle, great)
    for ev in (E.REBELLION, E.CURSE, E.FLOOD, E.ECONOMIC_CRISIS_METALLURGY_ARMY, E.LOSS_OF_INFLUENCE):
        assert ci.COVERED_BY[ev] == (great,)
