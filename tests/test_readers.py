"""One reader for every number (texts.whole_or_why, number_or_why), and every parser using it:
the surface audit's malformed value classes (test_surface_audit: `3e`, `1..`, `-0`, `nan`,
`inf`, `1e999`) and digit runs past Python's int-conversion limit (4,300 digits: a ValueError
traceback or a 500 before issue 59), drawn by hypothesis and fed to each parser: flags, plans
and their dotted entries (--compare, --alternative, the web's plan=), --vary ranges, query
strings, TOML values and files (--set, a scenario's seed, a record, a sweep spec's grid), CSV
cells, leaders. Each refuses them in one OddsError line naming the field, and never echoes a
value it built itself (`1....1..`)."""
import argparse
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from odds import OddsError, registry
from odds.crusades import scenario
from odds.files import parse_toml, toml_value
from odds.frontends.cli.common import number, whole
from odds.frontends.web.api import keywords
from odds.his.leaders import leader
from odds.tools.luck.record import read
from odds.tools.questions.plans import plan, span, vary
from odds.tools.sweep import read_spec
from test_surface_audit import MALFORMED, NOT_FINITE

SPECS = registry.specs()
EXAMPLE = Path(scenario.__file__).parent / "examples" / "field.toml"
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
# the audit's classes, a digit run past int()'s limit, and their variants with a sign or spaces
HUGE = st.integers(4301, 6000).map(lambda n: "9" * n)
LONG = st.integers(31, 4300).map(lambda n: "9" * n)  # past texts.DIGITS: beyond every bound
BAD = st.one_of(st.sampled_from([t for t in MALFORMED + NOT_FINITE if t] + ["-0.0", "-00", "+-0"]),
                HUGE, LONG, HUGE.map(lambda t: "-" + t))
NUMERIC = ("int", "float", "ints", "leader")
PARAMS = [(name, p.name) for name, spec in SPECS.items() for p in spec.params if p.kind in NUMERIC]
# an entry of each KEY=N list of numbers (the others, targets and links, take names)
ENTRIES = {"dice_per": "galley", "hit_on": "race_built", "overrides": "attacker.army.knights"}
PAIRS = [(name, p.name) for name, spec in SPECS.items() for p in spec.params
         if p.kind == "pairs" and p.name in ENTRIES]


def refused(function, *args, typed: str = "") -> str:
    """The one line `function(*args)` is refused with (an OddsError: anything else fails); no
    `....` unless the user `typed` it (a plan's `1..` was echoed as `1....1..`)."""
    with pytest.raises(OddsError) as e:
        function(*args)
    message = str(e.value)
    assert "\n" not in message, message
    assert "...." not in message.replace("... (", "") or "...." in typed, message
    return message


def test_every_numeric_list_of_entries_is_known():
    """A new KEY=N list of a procedure is added to ENTRIES (or named as one of names)."""
    names = {p.name for spec in SPECS.values() for p in spec.params if p.kind == "pairs"}
    assert names - set(ENTRIES) == {"targets", "links"}


@pytest.mark.parametrize("procedure, name", PARAMS)
@SETTINGS
@given(text=BAD)
def test_a_query_and_a_plan_refuse_the_value_classes(procedure, name, text):
    spec = SPECS[procedure]
    base = dict(spec.examples[0].kwargs) if spec.examples else dict(spec.start)
    assert name in refused(lambda: spec.check({**base, **keywords(spec, [(name, text)])}))
    assert name in refused(lambda: spec.check({**base, **plan(spec, [f"{name}={text}"])}))


@pytest.mark.parametrize("procedure, name", PAIRS)
@SETTINGS
@given(text=BAD)
def test_a_dotted_entry_refuses_the_value_classes(procedure, name, text):
    """--compare/--alternative/plan= `dice_per.galleon=-0`, --vary `dice_per.galley=-0..6`."""
    spec, key = SPECS[procedure], f"{name}.{ENTRIES[name]}"
    assert ENTRIES[name] in refused(plan, spec, [f"{key}={text}"])
    assert ENTRIES[name] in refused(vary, spec, f"{key}={text}..6", typed=f"{text}..6")
    assert ENTRIES[name] in refused(vary, spec, f"{key}=0..{text}", typed=f"0..{text}")


@SETTINGS
@given(text=BAD)
def test_flags_refuse_the_value_classes(text):
    for flag in (whole, number):
        with pytest.raises(argparse.ArgumentTypeError):
            flag(text)


@SETTINGS
@given(text=BAD)
def test_a_leader_refuses_the_value_classes(text):
    if text not in ("3e", "nan", "inf"):  # names: refused as unknown leaders
        assert "attacker_leader" in refused(leader, "attacker_leader", text)


@SETTINGS
@given(text=st.one_of(HUGE, st.sampled_from(["-0", "-0.0", "-00"])))
def test_a_set_value_refuses_the_value_classes(text):
    """--set attacker.army.knights=-0 (a TOML value), --set seed=999... (past int()'s limit)."""
    assert "--set" in refused(toml_value, text, "scenario: --set seed")
    assert "seed" in refused(scenario.load, str(EXAMPLE), [f"seed={text}"])


@SETTINGS
@given(text=HUGE)
def test_toml_files_refuse_digits_past_the_limit(tmp_path_factory, text):
    """A scenario's seed, a record's keywords, a sweep spec's grid: one line, no traceback."""
    assert "spec" in refused(parse_toml, f"seed = {text}\n", "spec")
    spec = tmp_path_factory.mktemp("spec") / "sweep.toml"
    spec.write_text(f'procedure = "his.field"\n[grid]\nattacker = [{text}]\n')
    assert "spec" in refused(read_spec, spec)
    record = f'[[roll]]\nprocedure = "his.field"\nkeywords = {{attacker = {text}}}\n'
    refused(read, record, False)


@SETTINGS
@given(text=st.one_of(HUGE, LONG, st.just("-0")))
def test_a_csv_dice_cell_refuses_the_value_classes(text):
    record = f"procedure,attacker,defender,attacker_dice,defender_dice\nhis.field,2,2,{text} 5,4\n"
    assert "attacker_dice" in refused(read, record, False)


@pytest.mark.parametrize("text", ["1..", "..3", "1...3", "-0..6", "0..-0", "3e..4", "1..2..3"])
def test_a_range_is_refused_as_typed(text):
    """Never `1....1.. is not a range`: the text as given."""
    message = refused(span, "--vary: attacker", text)
    assert message.count("..") <= text.count("..") + 1  # the value once (and '...' of a cut)


def test_a_plan_entry_is_named_as_typed():
    message = refused(plan, SPECS["his.naval"], ["dice_per.galley=1.."])
    assert "1...." not in message and "'1..'" in message
