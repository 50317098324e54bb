"""The small things a result says so that it does not mislead (issue: small lies and gaps)."""
import pytest

from odds.registry import specs

EXACT = [name for name, spec in specs().items() if spec.exact]


@pytest.mark.parametrize("name", EXACT)
def test_monte_carlo_options_given_to_an_exact_answer_are_named_as_unused(name):
    spec = specs()[name]
    r = spec.call(**spec.start, trials=1000, seed=5)
    assert r.method == "exact"
    assert any(note.startswith("trials, seed: Monte Carlo options, not used") for note in r.notes)
    assert not any("Monte Carlo options" in note for note in spec.call(**spec.start).notes)


def test_a_need_answer_names_what_it_held_fixed():
    import odds
    n = odds.need("his.field", {"defender": 4, "defender_leader": 1}, vary="attacker", target=0.8)
    sentence = n.sentence()
    assert sentence.endswith(", with no attacker leader, no attacker cards, defender=4, "
                             "defender_leader=1, no defender cards")
    assert "attacker_cavalry" not in sentence  # left at its default: not named


def test_compare_takes_an_entry_as_vary_does():
    import odds
    from odds.tools.questions.plans import plan
    from odds.registry import get
    base = {"attacker_galleys": 3, "defender_galleys": 3, "location": "atlantic",
            "dice_per": ["galleon=3"]}
    changes = plan(get("vq.naval"), "dice_per.galley=1")
    c = odds.compare("vq.naval", base, {"one": changes})
    alone = get("vq.naval").call(**{**base, "dice_per": ["galleon=3", "galley=1"]})
    assert c.loc["one", "attacker_win"] == alone.p  # only that entry changed: galleon=3 kept


def test_the_dice_per_ship_reading_is_not_claimed_once_dice_per_overrides_it():
    from odds.registry import get
    kw = {"attacker_galleys": 3, "defender_galleys": 3, "location": "atlantic"}
    read = get("vq.naval").call(**kw)
    assert read.readings == ("dice_per",) and read.flips[0]["assumed"] == "galley 2"
    given = get("vq.naval").call(**kw, dice_per=["galley=1"])
    assert given.readings == () and not given.flips  # the galleys' dice typed: no reading left
    mixed = get("vq.naval").call(**kw, defender_galleons=1, dice_per=["galley=1"])
    assert mixed.flips[0]["assumed"] == "galleon 2"  # the galleons' dice are still the reading


def test_an_oath_title_die_is_said_to_come_from_the_title():
    from odds.registry import get
    r = get("oath.campaign").call(warbands=6, sites=[1, 3], title="oathkeeper")
    assert "(4 from sites + 1 from the oathkeeper title, after plans)" in r.explain[1]
    assert "targets" not in get("oath.campaign").call(warbands=6, title="usurper").explain[1]


def test_the_readme_quick_start_says_what_it_needs_and_how_long_it_takes():
    import re
    from pathlib import Path
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    block = re.search(r"## Quick start\n```\n(.*?)```\n(.*?)\n## ", readme, re.S)
    commands, prose = block[1].strip().splitlines(), " ".join(block[2].split())
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text()
    assert commands == ["pip install -e . && odds demo",
                        "pip install -c requirements/test.txt -e '.[test]' && python -m pytest"]
    assert commands[1] in ci  # CI runs the README's test command, on the versions CI passed
    assert "python3 -m venv .venv && . .venv/bin/activate" in prose
    assert "18 s of CPU" in prose and "14-16 minutes" in prose  # measured (issue 35; fresh clones, 2026-12-07)
