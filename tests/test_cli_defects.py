"""Issue 48's command-line defects, each as the user met it (in-process: cli.main)."""
import io
import re
from pathlib import Path
from contextlib import redirect_stderr, redirect_stdout

import pytest

from odds import cli
from odds.texts import signed


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def refused(*args) -> str:
    code, out, err = run(*args)
    assert (code, out, err.count("\n")) == (2, "", 1), err
    return err


def test_a_goal_without_optimise_is_refused_naming_both_flags():
    err = refused("oath", "campaign", "--warbands", "8", "--site", "1", "--defenders", "2",
                  "--goal", "win-within:2")
    assert "--goal: 'win-within:2' changes nothing without --optimise" in err


@pytest.mark.parametrize("given, needs", [
    (["--defender-committed-pool", "2"], "--attacker-pool"),
    (["--defender-pool", "2"], "--attacker-pool"),
    (["--attacker-pool", "2"], "--defender-pool or --defender-committed-pool"),
])
def test_one_side_s_second_round_pool_alone_is_refused(given, needs):
    """With one side's pool empty a first-round tie is inconclusive whatever the other's holds:
    the pool given changes nothing."""
    err = refused("his", "debate", "--attacker-value", "3", "--defender-value", "4", *given)
    assert f"{given[0]}: [2] changes nothing without {needs}" in err


def test_both_pools_are_a_second_round():
    code, out, _ = run("his", "debate", "--attacker-value", "3", "--defender-value", "4",
                       "--attacker-pool", "2", "--defender-committed-pool", "2")
    assert code == 0 and "inconclusive here" not in out


BAD = """
[[roll]]
procedure = "his.feild"
keywords = { attacker = 5, defender = 3 }
side = "A"
winner = "attacker"

[[roll]]
procedure = "his.field"
keywords = { atacker = 5, defender = 3 }
side = "A"
winner = "attacker"

[[roll]]
procedure = "crusades.battle"
side = "A"
winner = "attacker"

[[roll]]
procedure = "his.field"
keywords = { attacker = 5, defender = 3 }
side = "A"
winner = "nobody"

[[roll]]
procedure = "his.foreign_war"
keywords = { war = "egypt" }
side = "A"
winner = "attacker"
"""


@pytest.fixture(scope="module")
def luck_output(tmp_path_factory):
    path = tmp_path_factory.mktemp("record") / "game.toml"
    path.write_text(BAD)
    code, out, err = run("luck", str(path))
    assert code == 2
    return out


def test_a_misspelt_procedure_or_keyword_in_a_record_says_did_you_mean(luck_output):
    assert "'his.feild' is unknown; did you mean 'his.field'?" in luck_output
    assert "'atacker'? " not in luck_output and "did you mean 'attacker'?" in luck_output


def test_a_record_lists_only_the_procedures_it_can_score(luck_output):
    lists = re.findall(r"\(allowed: (his\.field, [^)]*)\)", luck_output)
    assert lists and all("crusades.battle" not in allowed for allowed in lists)
    assert "'crusades.battle' has no exact engine" in luck_output


def test_the_distinct_situations_counted_are_those_of_the_rolls_scored(luck_output):
    """Two rolls refused after their situation was asked (a winner that is no side, the
    misspelt keyword) add none: one roll scored from one situation."""
    assert "(1 roll, 1 distinct situation," in luck_output


def test_the_foreign_war_s_row_zero_says_what_it_is():
    code, out, _ = run("his", "foreign-war", "--war", "egypt")
    assert code == 0 and "not won (wiped out, or not over)" in out
    assert "within the bound" not in out


@pytest.mark.parametrize("typed, shown", [(["--doria-dice", "5"], "doria dice: 5;"),
                                          ([], "doria dice: 3 (reading)")])
def test_a_value_the_user_typed_is_not_a_reading(typed, shown):
    code, out, _ = run("his", "piracy", "--corsairs", "2", "--andrea-doria", *typed)
    assert code == 0 and shown in out


def test_the_sample_record_says_it_is_invented_wherever_it_is_described(capsys):
    """Issue 48: the shipped record was written with the feature, not kept from a game."""
    from odds.frontends.cli.demo import _sample_game
    from odds.tools.luck.report import SAMPLE

    text = SAMPLE.read_text(encoding="utf-8")
    assert text.startswith("# INVENTED FOR ILLUSTRATION") and "kept them" not in text
    assert 'title = "An invented Here I Stand game' in text
    with pytest.raises(SystemExit):
        cli.main(["luck", "--help"])
    assert "invented for illustration" in " ".join(capsys.readouterr().out.split())
    _sample_game()
    assert "invented for illustration" in capsys.readouterr().out


@pytest.mark.parametrize("x, spec, shown", [(-0.0004, ".3f", "0.000"), (-0.0001, ".1%", "0.0%"),
                                            (0.0, ".2f", "0.00"), (0.0006, ".3f", "+0.001"),
                                            (-0.0006, ".3f", "-0.001"), (-0.1437, ".2%", "-14.37%")])
def test_a_change_that_rounds_to_zero_has_no_sign(x, spec, shown):
    """'-0.000 from the order' (a best order worse than the listed one by 0.0004) said the
    order lost something; the page's compare table showed '-0.00' beside '+0.00'."""
    assert signed(x, spec) == shown


SIGNED_FORMAT = re.compile(r"\{[^{}]+:\+[^{}]*[f%]\}")  # f"{change:+.3f}": "-0.000" for -0.0004


def test_every_signed_number_in_odds_goes_through_texts_signed():
    """A change formatted with Python's own sign says '-0.000' when it rounds to zero; every
    signed number printed by odds goes through texts.signed, which says '0.000'."""
    package = Path(cli.__file__).parent
    found = [f"{path.relative_to(package)}:{n}" for path in package.rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1) if SIGNED_FORMAT.search(line)]
    assert found == []
