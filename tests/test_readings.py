"""Readings are visible where they matter: every number the rulebook does not fix that an
answer rests on is marked "(reading)" in its settings line and listed in its JSON, and
docs/rules.md says where each comes from."""
from pathlib import Path

import pytest

from odds import registry

RULES = (Path(__file__).parents[1] / "docs" / "rules.md").read_text()
HANDS = {"protestant_hand": [1, 5], "papal_hand": [2], "hapsburg_hand": [3]}


@pytest.mark.parametrize("name, kwargs, readings", [
    ("his.piracy", {"corsairs": 2, "andrea_doria": True}, {"doria_dice": "3"}),
    ("his.diet_of_worms", HANDS, {"measure": "spaces", "cp_value": "0.5"}),
    ("his.debate", {"attacker_value": 4, "defender_value": 2},
     {"attacker_pool": "none", "defender_pool": "none"}),
    ("his.exploration", {"explorer": 1}, {"skip_circumnavigation": "False",
                                          "table": "lost <= 4, nothing 5-6, discovery 7-9, "
                                                   "deep 10+; circumnavigates 10+, a card 12+"}),
    ("his.conquest", {}, {"table": "killed <= 6, nothing 7-8, conquest 9+"}),
    ("his.foreign_war", {"war": "persia"}, {"units": "5", "foreign": "4"}),
])
def test_a_reading_is_marked_in_the_settings_line_and_the_json(name, kwargs, readings):
    r = registry.get(name).call(**kwargs)
    line = next(x for x in r.summary().splitlines() if x.startswith("  settings: "))
    for key, text in readings.items():  # the setting in words: "skip circumnavigation: no"
        said = {"False": "no", "True": "yes"}.get(text, text)
        assert f"{key.replace('_', ' ')}: {said} (reading)" in line
    assert set(r.to_json()["readings"]) == set(readings)
    assert line.count("(reading)") == len(readings)
    for key in readings:  # docs/rules.md names each, in its procedure's section
        assert f"`{key}`" in RULES


@pytest.mark.parametrize("name, kwargs", [
    ("his.piracy", {"corsairs": 2}), ("his.diet_of_worms", {}),
    ("his.debate", {"attacker_value": 4, "defender_value": 2, "attacker_pool": [2],
                    "defender_pool": [4]}),
    ("his.foreign_war", {"units": 5, "foreign": 4})])
def test_no_reading_is_marked_where_the_answer_does_not_rest_on_one(name, kwargs):
    r = registry.get(name).call(**kwargs)
    assert "(reading)" not in r.summary()
    assert "readings" not in r.to_json()


def test_the_readings_section_says_where_each_comes_from():
    section = RULES.split("## Readings in the settings line")[1].split("\n## ")[0]
    for key in ("doria_dice", "cp_value", "measure", "attacker_pool", "skip_circumnavigation",
                "table", "units"):
        assert f"`{key}`" in section
