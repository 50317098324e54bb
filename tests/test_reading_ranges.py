"""Readings (issue 49): every choice odds makes where the rules are silent is declared once on its
procedure's Spec (core.readings.Reading); an answer marks those it rests on (never a value the
caller typed), gives the headline's range over their alternatives and says so when it is wide;
`odds sensitivity` flips every reading of every procedure that has one; defaults the rules fix
are the rules'; the Diet of Worms' thresholds are true at every cp-value their words cover."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

import odds
from odds import OddsError, registry
from odds.frontends.cli.main import main
from odds.core.flips import WIDE
from odds.his import diet_of_worms, foreign_war, piracy, rank_targets, reformation_attempt
from odds.his.worms.diet import Game

SPECS = registry.specs()
WITH_READINGS = {name: s for name, s in SPECS.items() if s.readings}
FAST = {"trials": 300, "seed": 1}  # a procedure with no exact engine: a few trials
ISSUE = ["his", "diet-of-worms", "--protestant-hand", "1", "--protestant-hand", "2",
         "--protestant-hand", "4", "--protestant-hand", "5", "--papal-hand", "2", "--papal-hand",
         "3", "--papal-hand", "4", "--hapsburg-hand", "1", "--hapsburg-hand", "3",
         "--hapsburg-hand", "5", "--measure", "win"]
HANDS = {"protestant_hand": [1, 2, 4, 5], "papal_hand": [2, 3, 4], "hapsburg_hand": [1, 3, 5]}


def engine(spec) -> dict:
    return {} if spec.exact else FAST


def used(spec, example) -> list:
    """The readings `example` uses (set or not)."""
    from odds.core.readings import split

    _, call, _, _ = split(spec.raw(), (), {**spec.preset, **example.kwargs})
    return [r for r in spec.readings if r.applies(call)]


# ---- declared once, carried by the registry ----

@pytest.mark.parametrize("name", SPECS)
def test_every_reading_mark_comes_from_a_declared_reading(name):
    """Each example's "(reading)" marks are declared readings of its Spec, and no explanation,
    assumption or parameter help says "(reading)" by hand."""
    spec = SPECS[name]
    declared = {m for r in spec.readings for m in r.marked()}
    for example in spec.examples:
        with odds.core.readings.alone():
            r = spec.call(**example.kwargs, **engine(spec))
        assert set(r.readings) <= declared, (example.name, r.readings)
        handmade = [t for t in (*r.explain, *r.assumptions, *r.notes) if "(reading)" in t]
        assert not handmade, handmade
    for p in spec.params:  # a Param's reading note is the registry's, from the declaration
        assert "(reading" not in p.help or p.help.count("(a reading: ") == 1, p.help


@pytest.mark.parametrize("name", WITH_READINGS)
def test_every_reading_is_declared_with_its_value_alternatives_and_source(name):
    spec = WITH_READINGS[name]
    described = spec.describe()["readings"]
    assert [d["name"] for d in described] == [r.name for r in spec.readings]
    for r, d in zip(spec.readings, described):
        assert r.what and r.source and d["value"]
        assert r.alternatives or r.points or r.low is not None or r.none, r.name
        for keyword in r.sets():
            assert spec.param(keyword)  # a keyword of the procedure
    assert any(used(spec, e) for e in spec.examples), "no example uses a reading"


def test_docs_list_every_declared_reading():
    """docs/rules.md's table of readings is the registry's (registry.readings_table)."""
    text = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    assert registry.readings_table() in text


# ---- a value typed is not a reading ----

def test_a_value_typed_is_not_a_reading_even_when_it_is_the_tools():
    """Andrea Doria's 3 dice typed, the cp-value 0.5 typed, a war's units typed: not marked, not
    flipped (before: doria_dice=3 and cp_value=0.5 were marked whenever they equalled the tool's
    value)."""
    kw = {"corsairs": 2, "adjacent_squadrons": 1, "fortresses": 1, "andrea_doria": True}
    assert piracy(**kw).readings == ("doria_dice",)
    typed = piracy(**kw, doria_dice=3)
    assert typed.readings == () and not typed.flips and "(reading)" not in typed.summary()
    assert diet_of_worms(**HANDS, cp_value=0.5, measure="spaces").readings == ()
    assert foreign_war(war="persia", units=5).readings == ("foreign",)
    assert foreign_war(war="persia", units=5, foreign=4).readings == ()
    assert main(["his", "piracy", "--corsairs", "2", "--andrea-doria", "--doria-dice", "3",
                 "--json"]) == 0


def test_a_value_typed_on_the_command_line_is_not_marked(capsys):
    assert main(["his", "piracy", "--corsairs", "2", "--andrea-doria", "--doria-dice", "3",
                 "--json"]) == 0
    assert "readings" not in json.loads(capsys.readouterr().out)
    assert main(["his", "piracy", "--corsairs", "2", "--andrea-doria", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["readings"] == ["doria_dice"] and out["flips"][0]["assumed"] == "3"


# ---- every answer says how far it moves ----

def test_the_diet_command_of_the_issue_headlines_its_range(capsys):
    """At the default cp-value 0.5 both sides play their cheapest card: 54.5%. The headline
    says it rests on that reading and gives its range over the cp-values (before: "Protestant
    wins 54.5% (exact)")."""
    assert main(ISSUE) == 0
    head = capsys.readouterr().out.splitlines()[0]
    ps = [diet_of_worms(**HANDS, measure="win", cp_value=c).p for c in np.linspace(0, 1, 401)]
    low, high = min(ps), max(ps)
    assert high - low > WIDE
    assert head == (f"Protestant wins {low:.1%} to {high:.1%} depending on the cp-value (a "
                    "reading: 0.5 assumed, 54.5%) (exact)  [his.diet_of_worms]")
    assert main([*ISSUE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["range"]["low"] == pytest.approx(low, abs=1e-12) and out["range"]["wide"]
    assert out["range"]["depends_on"] == ["cp_value"]
    assert main([*ISSUE, "--cp-value", "0.5"]) == 0  # typed: the caller's, no range
    assert capsys.readouterr().out.splitlines()[0] == "Protestant wins 54.5% (exact)  [his.diet_of_worms]"


def test_a_narrow_range_is_given_but_not_headlined():
    r = diet_of_worms(protestant_hand=[3], papal_hand=[3], hapsburg_hand=[3])  # one card each
    assert r.readings == ("measure", "cp_value") and r.summary().splitlines()[0].startswith(
        f"Protestant wins {r.p:.1%} (exact)")
    assert json.loads(json.dumps(r.to_json()))["range"]["wide"] is False


def test_alternatives_are_answered_as_the_answer_is():
    """An exact answer's alternatives exactly; a Monte Carlo answer's by Monte Carlo with its
    trials and seed, each with its 95% interval; a slow trial's not at all, saying why."""
    kw = {"corsairs": 2, "fortresses": 1, "andrea_doria": True}
    exact = piracy(**kw)
    assert {a["method"] for a in exact.flips[0]["alternatives"]} == {"exact"}
    mc = piracy(**kw, method="mc", trials=20_000, seed=3)
    for a in mc.flips[0]["alternatives"]:
        assert a["method"] == "mc" and a["trials"] == 20_000 and a["interval"][0] < a["p"]
        same = piracy(**kw, doria_dice=int(a["value"].split("=")[1]), method="mc", trials=20_000,
                      seed=3)
        assert a["p"] == same.p  # the answer's seed: common random numbers
    assert "[" in next(x for x in mc.summary().splitlines() if "doria_dice=3 assumed" in x)
    crusade = registry.get("crusades.battle").call(
        scenario=str(odds.crusades.EXAMPLES / "field.toml"), trials=200)
    assert crusade.readings and all("not_computed" in f for f in crusade.flips)
    assert "odds sensitivity crusades.battle" in crusade.flips[0]["not_computed"]
    assert "not flipped" in crusade.summary()


def test_a_reading_without_an_alternative_says_why():
    r = odds.his.conquest(conquistador=2)
    assert r.readings == ("table",)
    assert "not flipped (no other table to try" in r.summary()


# ---- odds sensitivity for every procedure with a reading ----

@pytest.mark.parametrize("name", WITH_READINGS)
def test_sensitivity_answers_for_every_procedure_with_a_reading(name):
    """From an example that uses a reading: each reading it uses flipped to each alternative
    (or a row saying why not), rows ordered by effect, the headline's and the means' changes."""
    spec = WITH_READINGS[name]
    example = next(e for e in spec.examples if used(spec, e))
    r = odds.sensitivity(name, example.kwargs, **engine(spec))
    assert r.rows and r.probabilities["base"] == r.p
    readings = {row["reading"] for row in r.rows}
    assert readings == {x.name for x in used(spec, example)}
    done = [row for row in r.rows if row.get("p") is not None]
    changes = [abs(row["change"]) for row in done]
    assert changes == sorted(changes, reverse=True)
    for row in done:
        assert row["change"] == pytest.approx(row["p"] - r.p)
        assert set(row["means"]) == set(r.measures)
    json.dumps(r.to_json(), allow_nan=False)


@pytest.mark.parametrize("name", WITH_READINGS)
def test_the_sensitivity_command_answers_for_every_procedure_with_a_reading(name, capsys):
    spec = WITH_READINGS[name]
    example = next(e for e in spec.examples if used(spec, e))
    words = [w for k, v in example.kwargs.items() for w in _flags(spec, k, v)]
    words += [f"--{k}={v}" for k, v in engine(spec).items()]
    assert main(["sensitivity", name, *words, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rows"] and out["procedure"] == f"{name}.sensitivity"


def _flags(spec, key, value) -> list:
    flag = "--" + (spec.param(key).flag or key.replace("_", "-"))
    if value is True:
        return [flag]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in (flag, str(v))]
    return [flag, str(value)]


def test_sensitivity_takes_a_designers_alternative_and_refuses_a_procedure_without_readings(capsys):
    r = odds.sensitivity("vq.naval", {"attacker_galleys": 3, "defender_galleons": 3,
                                      "location": "atlantic"},
                         alternatives=["dice_per.galleon=4", "dice_per=galley=1,galleon=1"])
    labels = [row["label"] for row in r.rows]
    assert "dice_per.galleon=4" in labels and "dice_per=galley=1,galleon=1" in labels
    assert {row["reading"] for row in r.rows} == {"dice_per", "designer"}
    with pytest.raises(OddsError, match="his.field has no reading"):
        odds.sensitivity("his.field", {"attacker": 3, "defender": 3})
    assert main(["sensitivity", "his.piracy", "--corsairs", "2", "--andrea-doria",
                 "--alternative", "doria_dice=6"]) == 0
    text = capsys.readouterr().out
    assert "doria_dice=6" in text and text.index("doria_dice=2") < text.index("doria_dice=4")


def test_the_crusades_command_keeps_its_scenario_form_and_shares_the_table(capsys):
    path = str(odds.crusades.EXAMPLES / "field.toml")
    assert main(["crusades", "sensitivity", path, "--battles", "100", "--alternative",
                 "turn_limit=5"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Attacker wins: each reading flipped, the others held")
    assert "turn_limit=5" in text and "E attacker units lost (change)" in text
    direct = odds.sensitivity("crusades.battle", {"scenario": path}, trials=100, seed=1)
    assert direct.rows and direct.summary().startswith("Attacker wins: each reading flipped")


# ---- defaults the rules fix ----

def test_the_95_theses_give_five_attempts_by_default(capsys):
    """§18.3: Luther's 95 Theses gives 5 Reformation attempts (before: 1 unless --attempts)."""
    targets = ["Magdeburg=5:3", "Stettin=2:1", "Breslau=5:1:out", "Leipzig=3:4", "Lubeck=2:3",
               "Prague=3:5:out"]
    assert rank_targets(targets=targets, theses=True).settings["attempts"] == 5
    assert rank_targets(targets=targets).settings["attempts"] == 1
    three = rank_targets(targets=targets[:3], theses=True)
    assert three.settings["attempts"] == 3 and "the 95 Theses give 5" in three.notes[-1]
    assert reformation_attempt(adjacent_protestant=1, theses=True).settings["attempts"] == 5
    assert reformation_attempt(adjacent_protestant=1).settings["attempts"] == 1
    assert main(["his", "targets", "--theses", *[w for t in targets for w in ("--target", t)]]) == 0
    assert "for 5 attempts" in capsys.readouterr().out


# ---- the Diet of Worms' words ----

CLAUSE = re.compile(r"(?:^|; )(?:(?P<first>.+?) while a CP is worth less than (?P<below>[\d.]+) "
                    r"|from (?P<a>[\d.]+) to (?P<b>[\d.]+), (?P<mid>.+?)(?=; |$)"
                    r"|above (?P<above>[\d.]+), (?P<last>.+?)$)")


def clauses(sentence: str) -> list:
    """[(low, high, words)] of a side's sentence, each bound as printed."""
    body = sentence.split(": ", 1)[1].rstrip(".")
    out = []
    for m in CLAUSE.finditer(body):
        if m["first"]:
            out.append((0.0, float(m["below"]) - 1e-12, m["first"]))
        elif m["mid"]:
            out.append((float(m["a"]), float(m["b"]), m["mid"]))
        else:
            out.append((float(m["above"]) + 1e-12, 1.0, m["last"]))
    return out


@pytest.mark.parametrize("hands", [HANDS, {"protestant_hand": [2, 3, 5], "papal_hand": [1, 3, 4],
                                          "hapsburg_hand": [1, 2]}])
def test_every_threshold_sentence_is_true_at_every_cp_value_it_covers(hands):
    """Each stretch the advice names is checked at its printed ends and across it: a single
    card named is the one played there, a mixed choice names every card played (before:
    "above 0.18, 3 CP together" while 4 CP is played up to 0.1822, and the mix at 0.14 named
    in no sentence)."""
    r = diet_of_worms(**hands, measure="win")
    p_cp = sorted(set(hands["protestant_hand"]))
    game = Game.make(p_cp, sorted(set(hands["papal_hand"])), sorted(set(hands["hapsburg_hand"])),
                     0.5, "win")
    for side, sentence in ((0, r.advice[0]), (1, r.advice[1])):
        found = clauses(sentence)
        assert len(found) == sentence.count(";") + 1, sentence
        for low, high, words in found:
            for c in np.linspace(low, high, 7):
                _, rows, columns = Game.make(game.p_cp, sorted(set(hands["papal_hand"])),
                                             sorted(set(hands["hapsburg_hand"])), c, "win").solve()
                played = [game.protestant((i,)) if side == 0 else game.catholic((i,))
                          for i in np.flatnonzero((rows, columns)[side] > 1e-9)]
                if words.startswith("at random"):
                    assert all(p in words for p in played), (c, words, played)
                else:
                    assert played == [words], (c, words, played)


def test_the_issues_thresholds_and_mix_in_words():
    r = diet_of_worms(**HANDS, measure="win")
    catholic = r.advice[1]
    assert "from 0.1728 to 0.1821, 4 CP together (3 + 1); above 0.1822, 3 CP together (2 + 1)" \
        in catholic
    at = next(words for low, high, words in clauses(catholic) if low <= 0.14 <= high)
    assert at.startswith("at random: 7 CP together (2 + 5)") and "else 3 CP together (2 + 1)" in at


@pytest.mark.parametrize("cp_value", [0.0, 0.14, 0.5, 1.0])
def test_no_line_or_setting_gives_the_game_above_one_in_p_win_minus_p_loss(cp_value):
    """Measured in P(win) - P(loss), every number of the answer in that unit is within [-1, 1]
    (before: "+1.355 with the roll" and game_value=1.355)."""
    r = diet_of_worms(**HANDS, measure="win", cp_value=cp_value)
    for key, value in r.settings.items():
        if key.endswith("_value") and key != "cp_value":
            assert abs(value) <= 1, (key, value)
    for line in r.summary().splitlines():
        if "minus P(" in line:
            numbers = [float(x) for x in re.findall(r"[+-]?\d+\.\d+(?!%)", line)]
            assert all(abs(x) <= 1 for x in numbers), line
