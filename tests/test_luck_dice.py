"""A roll read from its dice (issue 51): each procedure declares how its roll is read, beside
its rules (core.rolled; Spec.rolled), and odds.tools.luck knows no game.

- Structure: odds/tools/luck imports no game module and reads no explanation text.
- Every reader against its procedure's exact Result: every roll of small situations
  enumerated (tests/rolled_enumeration.py), the chances of the outcomes it reads summed, equal
  to the Result's main probability and pmfs (cards, surprise, after-roll policies included).
- Records: the dice as a record gives them, refused by field with what is allowed.
- The dice's own luck: per side and kind of die, the percentile and range equal binomial sums
  computed apart (scipy.stats), the faces' counts their binomial marginals, the total of
  numbered faces its exact convolution (integers)."""
import ast
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy import stats

import odds
from odds import registry
from odds.tools.luck.report import dice as dice_frame, luck
from rolled_enumeration import check, outcomes

RECORDS = Path(odds.__file__).parent / "tools" / "luck"
GAMES = ("odds.his", "odds.oath", "odds.crusades")


def _imports(path: Path) -> set:
    package = "odds.tools.luck"
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:3 - node.level] if node.level else []
            out.add(".".join(base + [node.module or ""]) if node.level else node.module)
            out.update(f"{'.'.join(base + ([node.module] if node.module else []))}.{a.name}"
                       for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_records_imports_no_game_and_reads_no_explanation():
    for path in RECORDS.rglob("*.py"):
        found = [m for m in _imports(path) if m and m.startswith(GAMES)]
        assert not found, f"{path.name} imports {found}"
        tree = ast.parse(path.read_text())
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "explain" not in attributes, f"{path.name} reads Result.explain"
        assert "HIT_ON" not in path.read_text(), f"{path.name} restates a game's hit number"


def test_the_structure_check_sees_a_game_import(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("from ..his.field.rules import resolve\nimport odds.oath.campaigns.rules\n")
    assert {"odds.his.field.rules", "odds.oath.campaigns.rules"} <= _imports(bad)


def _read(name):
    spec = registry.get(name)
    from odds.tools.luck.situations import defaults
    return spec, lambda kw: {**defaults(spec.function), **spec.preset, **kw}


FIELD = [
    dict(attacker=2, defender=2, attacker_leader=1),
    dict(attacker=2, defender=1, defender_power="ottoman", defender_cards=["janissaries:if-needed"]),
    dict(attacker=1, defender=2, attacker_power="ottoman", attacker_cards=["janissaries:always"]),
    dict(attacker=3, defender=2, attacker_cards=["surprise-attack"]),
    dict(attacker=2, defender=3, defender_cards=["surprise-attack"], attacker_power="ottoman",
         attacker_cards=["janissaries:if-needed"]),
    dict(attacker=2, defender=2, attacker_power="hapsburg", attacker_cards=["tercios"]),
    dict(attacker=3, defender=2, defender_power="hapsburg", attacker_cards=["tercios"]),
    dict(attacker=2, attacker_mercenaries=2, defender=2, defender_cards=["mercenaries-bribed"],
         attacker_cards=["field-artillery"], attacker_power="france"),
    dict(attacker=1, defender=1, attacker_power="ottoman",
         attacker_cards=["surprise-attack", "janissaries:if-needed"]),
    dict(attacker=2, defender=2, attacker_hit_on=4, defender_hit_on=6),  # a variant's hit numbers
    dict(attacker=2, defender=1, defender_bonus_dice=0, defender_hit_on=3,
         attacker_cards=["surprise-attack"]),
]


@pytest.mark.parametrize("keywords", FIELD, ids=str)
def test_field_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("his.field")
    table = outcomes(spec.reader(), full(keywords))
    check(spec.call(**keywords, method="exact"), table)


ASSAULT = [
    dict(attacker=3, defender=1, attacker_leader=1),
    dict(attacker=3, attacker_cavalry=1, defender=2, defender_cavalry=1,
         attacker_cards=["siege-artillery:if-needed"]),
    dict(attacker=2, defender=2, attacker_cards=["siege-artillery:always"], defender_leader=1),
    dict(attacker=3, defender=0, attacker_cavalry=1),
    dict(attacker=4, attacker_cavalry=1, defender=2, attacker_cards=["surprise-attack"],
         allow_bribed_surprise=True, casualties="infantry-first"),
    dict(attacker=3, defender=2, defender_cavalry=1, defender_cards=["surprise-attack"],
         allow_bribed_surprise=True, attacker_cards=["siege-artillery:if-needed"]),
    dict(attacker=3, attacker_mercenaries=2, defender=2, defender_cards=["mercenaries-grow-restless"]),
    dict(attacker=2, defender=1, attacker_cards=["siege-mining"], gout=0, attacker_leader=2),
    dict(attacker=3, defender=1, attacker_hit_on=4, defender_hit_on=6,  # a variant's hit numbers
         attacker_cards=["siege-artillery:if-needed"]),
    dict(attacker=3, defender=2, defender_cards=["surprise-attack"], allow_bribed_surprise=True,
         attacker_hit_on=6, defender_hit_on=3),
]


def test_every_face_of_a_small_field_battle_is_read_as_the_engine():
    """Faces, not hit counts: 6^5 rolls of a 2-unit attacker with a leader against 1 unit."""
    spec, full = _read("his.field")
    keywords = dict(attacker=2, defender=1, attacker_leader=1)
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords), faces=True))


def _roll(procedure, keywords, side="A", against="B", **fields):
    return dict(procedure=procedure, keywords=keywords, side=side, against=against, **fields)


def test_a_field_battle_with_janissaries_reads_the_card_s_dice():
    keywords = dict(attacker=3, defender=2, defender_power="ottoman",
                    defender_cards=["janissaries:if-needed"])
    frame = luck([_roll("his.field", keywords, attacker_dice=[6, 5, 1], defender_dice=[6, 2, 2],
                        defender_janissaries_dice=[6, 5, 4, 1, 1])])
    a = frame[frame.role == "attacker"].iloc[0]
    # 2 hits against 1 + 2 of Janissaries: the defender wins; both wiped out, the defender
    # rolled more dice (8 against 3) and keeps a unit
    assert not a.won and (a.hits, a.losses) == (1, 3)
    assert not frame.attrs["refused"]
    dice = dice_frame(frame).set_index(["side", "measure"])
    assert dice.loc[("B", "hits"), "dice"] == 8 and dice.loc[("B", "hits"), "actual"] == 3


@pytest.mark.parametrize("fields, message", [
    (dict(attacker_dice=[6, 5, 1], defender_dice=[1, 2, 2]),
     "defender_janissaries_dice: missing (the defender rolls 5 dice here: give them, 1 to 6 "
     "each, or their hits as defender_janissaries_hits)"),
    (dict(attacker_dice=[1, 1, 1], defender_dice=[1, 2, 2], defender_janissaries_dice=[1] * 5),
     "defender_janissaries_dice: not rolled here (the dice read: attacker_dice, defender_dice)"),
    (dict(attacker_dice=[6, 5, 1], defender_dice=[1, 2, 2], defender_janissaries_hits=6),
     "defender_janissaries_hits: 6 is impossible from 5 dice (allowed: 0 to 5)"),
    (dict(attacker_dice=[6, 5, 7], defender_dice=[1, 2, 2]),
     "attacker_dice: 7 is not a face of the d6 hitting on 5-6 (allowed: 1 to 6 each)"),
    (dict(attacker_dice=[[6, 5, 1], [1, 1, 1]], defender_dice=[1, 1, 1], defender_janissaries_hits=0),
     "attacker_dice: 2 rolls given, but only roll 1 is rolled here"),
    (dict(attacker_dice=[6, 5, 1], defender_dice=[1, 2, 2], defender_janissaries_hits=0,
          choices={"debater": 2}),
     "choices: debater is not a choice of this roll (allowed: none)"),
])
def test_dice_that_do_not_fit_the_rules_are_refused_by_field(fields, message):
    keywords = dict(attacker=3, defender=2, defender_power="ottoman",
                    defender_cards=["janissaries:if-needed"])
    rolls = [_roll("his.field", keywords, **fields), _roll("his.field", keywords, winner="A")]
    assert luck(rolls).attrs["refused"] == [f"line 1: {message}"]


def test_a_naval_roll_of_several_hit_numbers_is_refused_in_one_line():
    keywords = dict(attacker_galleys=1, attacker_galleons=1, defender_galleys=2,
                    location="mediterranean", hit_on=["galley=4"])
    rolls = [_roll("vq.naval", keywords, attacker_dice=[6, 5, 4, 1], defender_dice=[1, 2, 3, 4]),
             _roll("his.field", dict(attacker=3, defender=2), winner="A")]
    assert luck(rolls).attrs["refused"] == [
        "line 1: hit_on: the attacker's dice hit on 4-6 and 5-6: a record gives one list of a "
        "side's dice (allowed: one hit number for all of a side's main roll)"]


def test_a_procedure_whose_dice_are_not_read_says_why():
    rolls = [_roll("his.attack", dict(attacker=4, defender=2, assaults=1), attacker_dice=[6, 6]),
             _roll("his.field", dict(attacker=3, defender=2), winner="A")]
    refused = luck(rolls).attrs["refused"][0]
    assert refused.startswith("line 1: attacker_dice: not read for his.attack: ")
    assert registry.get("his.attack").not_rolled in refused


def test_every_procedure_that_rolls_reads_its_dice_or_says_why():
    for name, spec in registry.specs().items():
        assert bool(spec.rolled) != bool(spec.not_rolled), name


def _mid_binomial(n, p, k):
    return stats.binom.cdf(k - 1, n, p) + 0.5 * stats.binom.pmf(k, n, p)


def test_the_dice_s_own_percentiles_are_binomial_sums():
    rolls = [_roll("his.field", dict(attacker=5, defender=4, attacker_leader=1),
                   attacker_dice=[6, 6, 5, 5, 1, 1], defender_dice=[2, 2, 1, 1, 3]),
             _roll("his.assault", dict(attacker=4, defender=1, attacker_cards=["siege-artillery:always"]),
                   attacker_dice=[5, 1], defender_dice=[5, 6], attacker_siege_artillery_dice=[3, 2])]
    frame = luck(rolls)
    dice = dice_frame(frame).set_index(["side", "die"])
    for side, die, n, k, p in (("A", "d6 hitting on 5-6", 8, 5, 1 / 3), ("B", "d6 hitting on 5-6", 7, 2, 1 / 3),
                               ("A", "d6 hitting on 3-6", 2, 1, 2 / 3)):
        row = dice.loc[(side, die)]
        assert (row.dice, row.actual) == (n, k)
        assert row.expected == pytest.approx(n * p)
        assert row.percentile == pytest.approx(100 * _mid_binomial(n, p, k), abs=1e-9)
        assert row.p_at_least == pytest.approx(stats.binom.sf(k - 1, n, p), abs=1e-12)
        assert (row.low, row.high) == (stats.binom.ppf(0.05, n, p), stats.binom.ppf(0.95, n, p))
    first = frame[(frame.line == 1) & (frame.role == "attacker")].iloc[0]
    assert first.dice_percentile == pytest.approx(100 * _mid_binomial(6, 1 / 3, 4))


def test_many_dice_percentiles_are_binomial_sums():
    """100,000 dice (far past what math.comb sums quickly): log-gamma terms, scipy's values."""
    from odds.tools.luck import percentiles as pc

    for n, k in ((100_000, 33_500), (100_000, 33_000), (3, 0)):
        pmf = pc.binomial(n, 1 / 3)
        assert pc.percentile(pmf, k, 1) == pytest.approx(_mid_binomial(n, 1 / 3, k), abs=1e-9)
    total = pc.power(np.r_[0, np.full(6, 1 / 6)], 4)
    exact = np.zeros(25)
    for faces in np.ndindex(6, 6, 6, 6):
        exact[sum(faces) + 4] += 1
    assert np.allclose(total, exact / 6**4, atol=1e-15)


SIEGE = [
    dict(attacker=3, defender=1, assaults=3),
    dict(attacker=4, attacker_cavalry=1, defender=2, defender_cavalry=1, assaults=3,
         casualties="infantry-first", attacker_leader=1),
    dict(attacker=3, defender=1, assaults=2, attacker_fresh_cards=["siege-artillery:if-needed"]),
    dict(attacker=3, defender=1, assaults=3, attacker_cards=["siege-artillery:if-needed"]),
    dict(attacker=3, defender=1, assaults=2, attacker_cards=["siege-artillery:always"]),
    dict(attacker=4, defender=2, assaults=3, attacker_cards=["siege-artillery:if-it-helps"]),
    dict(attacker=4, defender=2, assaults=3, attacker_cards=["siege-artillery:optimal"]),
    dict(attacker=3, defender=1, assaults=2, attacker_fresh_cards=["surprise-attack"],
         allow_bribed_surprise=True, attacker_cards=["siege-artillery:optimal"]),
    dict(attacker=4, attacker_mercenaries=2, defender=1, assaults=2,
         defender_cards=["mercenaries-grow-restless"], attacker_fresh_cards=["siege-mining"]),
    dict(attacker=3, defender=1, assaults=3, attacker_hit_on=4, defender_hit_on=3),  # a variant's
    dict(attacker=4, defender=2, assaults=3, attacker_cards=["siege-artillery:optimal"],
         attacker_hit_on=3, defender_hit_on=6),
]


@pytest.mark.parametrize("name, keywords", [("his.assault", k) for k in ASSAULT]
                         + [("his.siege", k) for k in SIEGE], ids=str)
def test_assault_and_siege_readings_are_the_exact_engine_over_every_roll(name, keywords):
    spec, full = _read(name)
    table = outcomes(spec.reader(), full(keywords))
    check(spec.call(**keywords, method="exact"), table)


def test_a_siege_reads_its_assaults_in_turn():
    keywords = dict(attacker=4, defender=2, assaults=3, attacker_cards=["siege-artillery:if-needed"])
    frame = luck([_roll("his.siege", keywords, attacker_dice=[[1, 1], [6, 6]],
                        defender_dice=[[1, 2, 3], [1, 1, 1]],
                        attacker_siege_artillery_dice=[[2, 1], []])])
    a = frame[frame.role == "attacker"].iloc[0]
    assert a.won and a.losses == 0 and not frame.attrs["refused"]
    dice = dice_frame(frame).set_index(["side", "die"])
    assert dice.loc[("A", "d6 hitting on 5-6"), "dice"] == 4 and dice.loc[("A", "d6 hitting on 3-6"), "dice"] == 2
    over = luck([_roll("his.siege", keywords, attacker_dice=[[6, 6], [6, 6]],
                       defender_dice=[[1, 2, 3], [1, 1, 1]]), _roll("his.siege", keywords, winner="A")])
    assert over.attrs["refused"] == ["line 1: attacker_dice: 2 rolls given, but only roll 1 is rolled here"]


NAVAL = [
    ("his.naval", dict(attacker_squadrons=1, defender_squadrons=1, defender_corsairs=1,
                       defender_power="ottoman", port=True)),
    ("his.naval", dict(attacker_squadrons=1, attacker_leader=1, defender_corsairs=2,
                       defender_power="ottoman", defender_cards=["janissaries:if-needed"])),
    ("his.naval", dict(attacker_squadrons=1, defender_squadrons=1, attacker_cards=[
        "professional-rowers:always", "arquebusiers"], defender_cards=["janissaries:if-needed"],
        defender_power="ottoman", dice_per=["janissaries=2", "professional-rowers=1"])),
    ("vq.naval", dict(attacker_race_built=1, attacker_power="england", defender_galleons=1,
                      location="atlantic")),
    ("vq.naval", dict(attacker_race_built=1, attacker_power="england", defender_race_built=1,
                      defender_power="england", location="atlantic", dice_per=["race_built=1"],
                      defender_cards=["arquebusiers"])),
    ("vq.naval", dict(attacker_galleys=1, defender_galleys=1, defender_cards=["galleasses:if-needed"],
                      location="mediterranean", dice_per=["galleasses=2"])),
    ("vq.naval", dict(attacker_galleys=2, defender_galleons=1, location="mediterranean",
                      hits_per_ship=3, port=True)),
    ("vq.naval", dict(attacker_galleys=1, defender_galleys=1, location="mediterranean",
                      hit_on=["galley=4", "defender_leader=3"])),  # hit numbers of a variant
    ("vq.naval", dict(attacker_race_built=1, attacker_power="england", defender_galleons=1,
                      location="atlantic", hit_on=["race_built=4", "defender_galleon=3"])),
]


@pytest.mark.parametrize("name, keywords", NAVAL, ids=str)
def test_naval_reading_is_the_exact_engine_over_every_roll(name, keywords):
    spec, full = _read(name)
    faces = keywords.get("location") == "atlantic"  # race-built galleons: the faces matter
    table = outcomes(spec.reader(), full(keywords), faces=faces)
    check(spec.call(**keywords, method="exact"), table)


INTERCEPT = [
    ("his.intercept", dict(leader=2)),
    ("his.intercept", dict(leader=1, cavalry=True, succeeds_on=8)),
    ("his.intercept", dict(leader=1, naval=True, cards=["professional-rowers:if-needed"])),
    ("his.avoid_battle", dict(leader=2, against_cavalry=True)),
    ("his.avoid_battle", dict(leader=1, naval=True, other_cards=["professional-rowers:if-needed"])),
    ("his.avoid_battle", dict(naval=True, other_cards=["professional-rowers:always"])),
]


@pytest.mark.parametrize("name, keywords", INTERCEPT, ids=str)
def test_interception_reading_is_the_exact_engine_over_every_roll(name, keywords):
    spec, full = _read(name)
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


RELIGION = [
    ("his.reformation", dict(protestant_dice=2, papal_dice=1)),
    ("his.reformation", dict(protestant_dice=1, papal_dice=1, bible=True, attempts=2)),
    ("his.reformation", dict(adjacent_protestant=1, theses=True, adjacent_catholic=1, outside_zone=True,
                             attempts=2)),  # the Theses give 5 by default: 2 keep it small
    ("his.counter_reformation", dict(papal_dice=2, protestant_dice=1, pope="paul-iii")),
    ("his.counter_reformation", dict(papal_dice=1, protestant_dice=1, augsburg=True, attempts=2)),
]


@pytest.mark.parametrize("name, keywords", RELIGION, ids=str)
def test_religion_reading_is_the_exact_engine_over_every_roll(name, keywords):
    spec, full = _read(name)
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


DEBATE = [
    dict(attacker_value=1, defender_value=1),
    dict(attacker_value=1, defender_value=2, defender_committed=True, attacker_pool=[1, 2, 1],
         defender_pool=[1, 2]),
    dict(initiator="protestant", attacker_value=1, defender_value=1, attacker_pool=[1],
         defender_committed_pool=[2, 1]),
    dict(attacker_value=1, defender_value=1, debater_bonus=True, augsburg=True, extra_dice=1,
         attacker_pool=[2], defender_pool=[1]),
]


@pytest.mark.parametrize("keywords", DEBATE, ids=str)
def test_debate_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("his.debate")
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


WORMS = [
    dict(protestant_card=1, papal_card=1, hapsburg_card=1),
    dict(protestant_hand=[1, 2], papal_hand=[1, 2], hapsburg_hand=[1], measure="win", cp_value=0.12),
    dict(protestant_hand=[1, 2], papal_hand=[1], hapsburg_hand=[1, 3]),
]


@pytest.mark.parametrize("keywords", WORMS, ids=str)
def test_diet_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("his.diet_of_worms")
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


PIRACY = [
    dict(corsairs=2, adjacent_squadrons=1, fortresses=1, pirate="barbarossa"),
    dict(corsairs=1, squadrons=1, one_port=True, andrea_doria=True, doria_dice=1, hand=1, vp_room=1,
         order="card,vp,squadron", pirate="dragut"),
]


@pytest.mark.parametrize("keywords", PIRACY, ids=str)
def test_piracy_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("his.piracy")
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


NEW_WORLD = [
    ("his.exploration", dict(explorer=3, uncharted=True)),
    ("his.exploration", dict(explorer=2, mercator=True, skip_circumnavigation=True)),
    ("his.conquest", dict(conquistador=2, smallpox=True)),
    ("his.raiders", dict(cards=3, galleons=True)),
    ("his.raiders", dict(cards=2)),
]


@pytest.mark.parametrize("name, keywords", NEW_WORLD, ids=str)
def test_new_world_reading_is_the_exact_engine_over_every_roll(name, keywords):
    spec, full = _read(name)
    table = outcomes(spec.reader(), full(keywords))
    check(spec.call(**keywords, method="exact"), table)
    assert {e for _, _, events in table for e, _ in events} >= (
        {"circumnavigates", "lost", "deep"} if name == "his.exploration" else set())


OATH = [
    dict(warbands=2, defense_dice=2, defenders=1),
    dict(warbands=3, attack_dice=2, defense_dice=1, defenders=2, sacrifice="at-most:1"),
    dict(warbands=2, defense_dice=2, defenders=1, plans=["rusting-ray", "war-tortoise:defender"]),
    dict(warbands=3, defense_dice=2, defenders=2, edition="new-foundations", sacrifice="at-most:2"),
    dict(warbands=2, sites=[1], title="usurper", defenders=1, bandits=False, sacrifice="never"),
    dict(warbands=4, defense_dice=1, defenders=3, bandits=True, plans=["mounted-patrol"]),
]


@pytest.mark.parametrize("keywords", OATH, ids=str)
def test_oath_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("oath.campaign")
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


WARS = [dict(units=2, foreign=1, attempts=3), dict(units=1, foreign=2, leader=1, attempts=2)]


@pytest.mark.parametrize("keywords", WARS, ids=str)
def test_foreign_war_reading_is_the_exact_engine_over_every_roll(keywords):
    spec, full = _read("his.foreign_war")
    check(spec.call(**keywords, method="exact"), outcomes(spec.reader(), full(keywords)))


def test_a_debate_s_second_round_names_its_debaters_and_reads_its_dice():
    keywords = dict(attacker_value=2, defender_value=2, attacker_pool=[1, 3], defender_pool=[2])
    tie = dict(attacker_dice=[[6, 1, 1, 1, 1], [6, 6, 1, 1, 1, 1]],
               defender_dice=[[5, 1, 1, 1], [1, 1, 1, 1]])
    frame = luck([_roll("his.debate", keywords, **tie, choices={"second_attacker": 3,
                                                                "second_defender": 2}),
                  _roll("his.debate", keywords, **tie),
                  _roll("his.debate", keywords, **tie, choices={"second_attacker": 2,
                                                                "second_defender": 2})])
    assert frame.attrs["refused"] == [
        "line 2: choices: second_attacker missing (the debate value of the attacker drawn for the "
        "second round; allowed: 1, 3)",
        "line 3: choices: second_attacker = 2 is not allowed here (the debate value of the "
        "attacker drawn for the second round; allowed: 1, 3)"]
    a = frame.iloc[0]
    assert a.won and a.measure == "hits" and a.hits == 2  # 2 hits to none: 2 spaces flipped


def test_the_diet_with_hands_names_the_cards_played():
    keywords = dict(protestant_hand=[1, 2], papal_hand=[1, 2], hapsburg_hand=[1])
    rolls = [_roll("his.diet_of_worms", keywords, attacker_dice=[6, 5, 1, 1, 1, 1],
                   defender_dice=[6, 1, 1], choices={"protestant_card": 2, "catholic_cp": 3})]
    frame = luck(rolls)
    assert not frame.attrs["refused"] and frame.iloc[0].hits == 1 and frame.iloc[0].won


def test_oath_faces_by_name_in_toml_and_csv(tmp_path):
    path = tmp_path / "oath.csv"
    path.write_text("procedure,keywords,side,against,attacker_dice,defender_dice\n"
                    "oath.campaign,warbands=3 defense_dice=2 defenders=1,Chancellor,Exile,"
                    "sword hollow swords-skull,x2 shield\n"
                    "oath.campaign,warbands=3 defense_dice=2 defenders=1,Chancellor,Exile,"
                    "sword hollow skull,shields banana\n")
    frame = luck(str(path))
    assert frame.attrs["refused"] == [
        "line 3: defender_dice: 'banana' is not a face of the Oath defense die (allowed: each one "
        "of blank, shield, shields, x2)"]
    a = frame[frame.role == "attacker"].iloc[0]
    # attack 1 + 0 (a lone hollow sword) + 2 = 3, a skull kills one; defense 1 x 2 + 1 = 3: the
    # attacker sacrifices 1 of its 2 left and wins
    assert a.won and a.losses == 2
    own = dice_frame(frame).set_index(["side", "measure"])
    assert own.loc[("Chancellor", "face sword"), "actual"] == 1
    assert own.loc[("Exile", "face x2"), "dice"] == 2


def test_faces_are_binomial_marginals_and_numbered_totals_their_exact_sum():
    """Oath's attack die: each face's count among m dice is Binomial(m, its chance); a
    reformation's dice: the total of their faces against every roll of m dice, counted."""
    rolls = [_roll("oath.campaign", dict(warbands=4, defense_dice=1),
                   attacker_dice=["hollow", "hollow", "hollow", "swords-skull"], defender_dice=["blank"]),
             _roll("his.reformation", dict(protestant_dice=3, papal_dice=2),
                   attacker_dice=[5, 5, 2], defender_dice=[1, 3])]
    own = dice_frame(luck(rolls)).set_index(["side", "die", "measure"])
    for face, chance, count in (("hollow", 1 / 2, 3), ("sword", 1 / 3, 0), ("swords-skull", 1 / 6, 1)):
        row = own.loc[("A", "Oath attack die", f"face {face}")]
        assert (row.dice, row.actual) == (4, count) and row.expected == pytest.approx(4 * chance)
        assert row.percentile == pytest.approx(100 * _mid_binomial(4, chance, count), abs=1e-9)
    counts = np.zeros(19, dtype=np.int64)
    for faces in np.ndindex(6, 6, 6):
        counts[sum(faces) + 3] += 1
    total = own.loc[("A", "d6 read by its number", "total")]
    assert (total.dice, total.actual, total.expected) == (3, 12, 10.5)
    exact = (counts[:12].sum() + counts[12] / 2) / 6**3
    assert total.percentile == pytest.approx(100 * exact, abs=1e-9)
    assert own.loc[("B", "d6 read by its number", "face 3"), "actual"] == 1


def test_rolls_read_in_turn_one_by_one_and_by_round():
    rolls = [_roll("his.raiders", dict(cards=3, galleons=True), attacker_dice=[6, 2]),
             _roll("his.raiders", dict(cards=3, galleons=True), attacker_dice=[6, 2, 5]),
             _roll("his.raiders", dict(cards=3), attacker_dice=[6, 2]),
             _roll("his.exploration", dict(explorer=3), attacker_dice=[[6, 5], [6, 6]]),
             _roll("his.exploration", dict(explorer=3), attacker_dice=[6, 5])]
    frame = luck(rolls)
    assert frame.attrs["refused"] == [
        "line 2: attacker_dice: 3 dice given, but the attacker rolls 2 here",
        "line 3: attacker_dice: 2 dice, but the attacker rolls at least 3 here",
        "line 5: attacker_dice: missing (the attacker rolls 2 dice here (roll 2): give them, 1 to 6 each)"]
    attackers = frame[frame.role == "attacker"]
    assert list(attackers.won) == [True, False]  # stole a card; 11 + 3: deep, not a discovery


def test_a_csv_record_gives_rounds_apart_and_choices_as_words(tmp_path):
    path = tmp_path / "game.csv"
    path.write_text("procedure,keywords,side,against,attacker_dice,defender_dice,choices\n"
                    "his.siege,attacker=4 defender=2 assaults=3,A,B,1 1 | 6 6,1 2 3 | 1 1 1,\n"
                    "his.debate,attacker_value=2 defender_value=2 attacker_pool=1 defender_pool=2,"
                    "A,B,6 1 1 1 1 | 6 6 1 1,5 1 1 1 | 1 1 1 1,second_attacker=1 second_defender=2\n")
    frame = luck(str(path))
    assert not frame.attrs["refused"] and list(frame[frame.role == "attacker"].won) == [True, True]


def test_the_help_says_what_a_record_gives_each_procedure_or_why_not(capsys):
    from odds.frontends.cli.main import main

    with pytest.raises(SystemExit):
        main(["luck", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, spec in registry.specs().items():
        reader = spec.reader()
        said = " ".join(reader.__doc__.split()) if reader else f"not read: {' '.join(spec.not_rolled.split())}"
        assert f"{name}: {said}" in text, name

FACE = st.one_of(st.integers(-2, 8), st.sampled_from(["6", "sword", "x2", "hollow", "", "skull"]),
                 st.booleans(), st.floats(allow_nan=True), st.none())
ROLLED = st.recursive(FACE, lambda inner: st.lists(inner, max_size=6), max_leaves=12)
SITUATED = [("his.field", FIELD[1]), ("his.siege", SIEGE[3]), ("his.debate", DEBATE[1]),
            ("oath.campaign", OATH[0]), ("his.raiders", dict(cards=3)), ("his.exploration", dict(explorer=3)),
            ("his.diet_of_worms", WORMS[1])]


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SITUATED) - 1),
       fields=st.dictionaries(st.sampled_from(["attacker_dice", "defender_dice", "attacker_hits",
                                               "defender_janissaries_dice", "attacker_siege_artillery_dice",
                                               "attacker_siege_artillery_hits"]), ROLLED, min_size=1, max_size=3),
       choices=st.one_of(st.none(), st.dictionaries(st.sampled_from(["second_attacker", "catholic_cp",
                                                                    "protestant_card", "x"]),
                                                    FACE, max_size=2)))
def test_any_dice_of_a_real_situation_are_read_or_refused_in_one_line(which, fields, choices):
    name, keywords = SITUATED[which]
    roll = _roll(name, keywords, **fields, **({"choices": choices} if choices is not None else {}))
    frame = luck([roll, _roll("his.field", dict(attacker=2, defender=2), winner="A")])
    assert frame.line.nunique() + len(frame.attrs["refused"]) == 2
    assert all("\n" not in r for r in frame.attrs["refused"])
    assert frame.percentile.between(0, 100).all()
