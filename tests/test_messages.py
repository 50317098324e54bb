"""Errors in the user's words: the command line names its flags, a misspelt name gets the
nearest one, and a leader given to a power he never commanded gets a note."""
import pytest

from odds import OddsError, registry
from odds.frontends.cli.main import main
from odds.frontends.cli.common import flag, in_flags
from odds.errors import check_choice, nearest
from odds.his import assault, attack, field_battle, naval_battle, siege

SPECS = registry.specs("his")


def error_of(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("argv, words", [
    (["his", "field", "--attacker", "5", "--defender", "4", "--defender-card", "janisaries"],
     ("odds: error: --defender-card: unknown card 'janisaries'; did you mean 'janissaries'?",)),
    (["his", "field", "--attacker", "5", "--attacker-cavalry", "4", "--attacker-mercenaries",
      "3", "--defender", "4"], ("--attacker-mercenaries + --attacker-cavalry: 3 + 4",)),
    (["his", "attack", "--attacker", "5", "--defender", "4", "--assaults", "2",
      "--avoid-battle", "--foreign-war"], ("--avoid-battle:", "with --foreign-war")),
    (["his", "siege", "--attacker", "5", "--defender", "4", "--assaults", "2",
      "--attacker-card", "siege-artillery:optimial"],
     ("--attacker-card: 'siege-artillery:optimial'", "did you mean 'optimal'?")),
    (["his", "siege", "--attacker", "5", "--defender", "4", "--assaults", "2",
      "--attacker-fresh-card", "mercenaries-bribed"], ("--attacker-fresh-card:",)),
    (["his", "field", "--attacker", "5", "--defender", "4", "--attacker-leader", "suliman"],
     ("--attacker-leader: unknown leader 'suliman'; did you mean 'suleiman'?",)),
    (["his", "field", "--attacker", "5", "--defender", "4", "--method", "exakt"],
     ("--method: 'exakt' is not allowed; did you mean 'exact'?",)),
    (["his", "attack", "--attacker", "5", "--defender", "4", "--assaults", "2", "--besieged",
      "--attacker-card", "landsknechts"], ("--attacker-card:", "with --besieged")),
])
def test_the_command_line_names_its_flags(argv, words, capsys):
    err = error_of(argv, capsys)
    for w in words:
        assert w in err, err
    assert "_" not in err.split(": ")[2], err  # no Python keyword in the field


def test_python_keeps_its_keywords():
    with pytest.raises(OddsError, match="^defender_cards: unknown card 'janisaries'; did you "
                                        "mean 'janissaries'"):
        field_battle(5, 4, defender_cards=["janisaries"])


@pytest.mark.parametrize("spec", SPECS.values(), ids=lambda s: s.name)
def test_every_procedure_names_the_flag_of_an_out_of_range_count(spec, capsys):
    param = next(p for p in spec.params if p.kind == "int" and p.high is not None)
    kwargs = dict(spec.examples[0].kwargs, **{param.name: int(param.high) + 1})
    argv = list(spec.command)
    for p in spec.params:
        value = kwargs.get(p.name)
        if value is None or value is False:
            continue
        if p.kind == "bool":
            argv.append(flag(p))
        elif isinstance(value, (list, tuple)):
            for v in value:
                argv += [flag(p), str(v)]
        else:
            argv += [flag(p), str(value)]
    err = error_of(argv, capsys)
    assert err.startswith(f"odds: error: {flag(param)}"), err


def test_in_flags_reads_fields_assignments_and_keywords():
    params = SPECS["his.attack"].params
    assert in_flags("siege_cards: 'x' with besieged=True (allowed: method='mc', "
                    "foreign_war=False); see withdraw_inside", params) == (
        "--siege-card: 'x' with --besieged (allowed: --method mc, no --foreign-war); "
        "see --withdraw-inside")
    assert in_flags("the attacker: no field: here", params) == "the attacker: no field: here"
    assert in_flags("memory: too big for attacker_losses", params) == \
        "memory: too big for attacker_losses"


def test_nearest_names_only_a_close_one():
    assert nearest("Hapsbrug", ("ottoman", "hapsburg")) == "; did you mean 'hapsburg'?"
    assert nearest("zzz", ("ottoman", "hapsburg")) == ""
    with pytest.raises(OddsError, match="did you mean 'france'"):
        check_choice("power", "frnace", ("france", "england"))


LAND = {"field": lambda **k: field_battle(5, 4, **k),
        "assault": lambda **k: assault(5, 2, **k),
        "siege": lambda **k: siege(5, 2, assaults=2, **k),
        "attack": lambda **k: attack(5, 2, assaults=2, **k)}


@pytest.mark.parametrize("name", LAND)
def test_a_leader_of_another_power_gets_a_note(name):
    r = LAND[name](attacker_leader="suleiman", attacker_power="hapsburg")
    assert "suleiman never commanded hapsburg forces (a leader of the ottoman side): his rating 2 is used " \
           "as given" in r.notes
    assert r.settings["attacker_leader"] == "suleiman (2)"
    for power in ("ottoman", "other"):
        r = LAND[name](attacker_leader="suleiman", attacker_power=power)
        assert not any("never commanded" in n for n in r.notes)


def test_a_naval_leader_of_another_power_gets_a_note(capsys):
    r = naval_battle(attacker_squadrons=2, defender_squadrons=2, attacker_leader="barbarossa",
                     attacker_power="hapsburg", ruleset="his")
    assert any(n.startswith("barbarossa never commanded hapsburg forces") for n in r.notes)
    assert main(["his", "field", "--attacker", "5", "--defender", "4", "--defender-leader",
                 "charles-v", "--defender-power", "france"]) == 0
    assert "note: charles-v never commanded france forces (a leader of the hapsburg side)" in \
        capsys.readouterr().out
