"""Issue 60, defect 7: every tool takes every procedure's keywords (the engine's seed, method
and trials among them, a scenario file), as the procedure itself does; the command line says
"did you mean" for a misspelt command as it does for a value; `--need` takes a percent as the
page does."""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

import odds
from odds import OddsError, cli
from odds.crusades import EXAMPLES
from odds.registry import specs
from odds.tools.questions.sensitivity import with_readings

FIELD = str(EXAMPLES / "field.toml")
ENGINE = {"seed": 1, "trials": 300}


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def base(name: str) -> dict:
    """The procedure's first example, its engine keywords among its own (as a player's dict
    holds them); the crusades battle on its field scenario."""
    spec = specs()[name]
    kwargs = dict(spec.examples[0].kwargs) if spec.examples else {}
    if spec.takes("scenario"):
        kwargs["scenario"] = FIELD
    return {**kwargs, **ENGINE, "method": "mc"}


@pytest.mark.parametrize("name", with_readings())
def test_sensitivity_takes_the_engine_keywords_among_the_call_s(name):
    """odds.sensitivity("crusades.battle", {"scenario": ..., "seed": 1, "trials": 500}) raised
    a raw TypeError (seed given twice); compare and need take them (split_engine)."""
    try:
        result = odds.sensitivity(name, base(name))
    except OddsError as e:  # a refusal in words is allowed; a TypeError is not
        assert "seed" not in str(e) and "trials" not in str(e), e
        return
    assert result.method == "mc" and result.seed == 1


def test_a_scenario_file_is_taken_as_the_procedure_command_takes_it():
    """`odds crusades sensitivity FILE` takes the file as a word; `odds sensitivity
    crusades.battle FILE` said "unrecognized arguments" (it needed --scenario)."""
    code, out, err = run("sensitivity", "crusades.battle", FIELD, "--trials", "200", "--seed", "1")
    assert code == 0, err
    assert "unrecognized" not in err and out.strip()


def test_a_sensitivity_without_rows_prints_no_empty_table():
    """`odds sensitivity oath.campaign` printed an empty table's header: a call no reading
    applies to says so without a table."""
    code, out, err = run("sensitivity", "oath.campaign", "--warbands", "6", "--defense-dice", "4",
                         "--defenders", "2")
    lines = out.splitlines()
    head = [i for i, line in enumerate(lines) if line.strip().startswith("alternative")]
    rows = [line for line in lines[head[0] + 1:] if not line.strip().startswith("note")] if head else []
    assert code == 0 and (rows or not head), out + err


@pytest.mark.parametrize("args, meant", [
    (["his", "feild"], "field"), (["lcuk"], "luck"), (["oath", "campain"], "campaign"),
    (["sensitvity"], "sensitivity"),
])
def test_a_misspelt_command_is_answered_with_did_you_mean(args, meant):
    code, out, err = run(*args)
    assert code == 2 and f"did you mean {meant}" in err.replace("'", ""), err


def test_a_misspelt_crusades_unit_type_is_answered_with_did_you_mean(tmp_path):
    text = (EXAMPLES / "field.toml").read_text()
    assert "army = { spearmen = 4," in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("army = { spearmen = 4,", "army = { spearmn = 4,", 1))
    code, out, err = run("crusades", "run", str(bad), "--battles", "10")
    assert code == 2 and "did you mean spearmen" in err.replace("'", ""), err


def test_need_takes_a_percent_as_the_page_does():
    """`--need 80` was refused "allowed: 0 to 1" while the page's box takes 80 (percent)."""
    as_percent = run("his", "field", "--attacker", "5", "--defender", "4", "--need", "80",
                     "--vary", "attacker")
    as_fraction = run("his", "field", "--attacker", "5", "--defender", "4", "--need", "0.8",
                      "--vary", "attacker")
    assert as_percent[0] == 0, as_percent[2]
    assert as_percent[1] == as_fraction[1]
    code, _, err = run("his", "field", "--attacker", "5", "--defender", "4", "--need", "150",
                       "--vary", "attacker")
    assert code == 2 and "150" in err and "100%" in err, err


@pytest.mark.parametrize("name", ["dice_per", "hit_on"])
def test_a_dice_number_may_hold_in_one_sea(name):
    """Virgin Queen: "galleys roll 1 die in the Atlantic" could not be said (no sea in
    dice_per); `galley@atlantic=1` holds there only, over `galley=N` whatever the order."""
    spec = specs()["vq.naval"]
    fleets = dict(attacker_galleys=3, defender_galleons=2, attacker_power="spain",
                  defender_power="england", method="exact")
    number = 1 if name == "dice_per" else 6
    for location in ("atlantic", "mediterranean"):
        sea = spec.call(**fleets, location=location, **{name: [f"galley@atlantic={number}", "galley=2" if name == "dice_per" else "galley=5"]})
        everywhere = spec.call(**fleets, location=location, **{name: [f"galley={number}"]})
        plain = spec.call(**fleets, location=location)
        same = everywhere if location == "atlantic" else plain
        assert sea.p == same.p and sea.p != (plain if location == "atlantic" else everywhere).p
    with pytest.raises(OddsError, match="did you mean 'atlantic'"):
        spec.call(**fleets, location="atlantic", **{name: [f"galley@atlantc={number}"]})
