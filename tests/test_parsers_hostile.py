"""Every parser of other people's text, thrown arbitrary text, bytes and values (hypothesis,
derandomized: the same cases each run): a record, a crusades scenario, a sweep spec, a query
string and body, a plan, a --vary and --where text, a TOML value, a targets list, and every
Param of every procedure given any JSON-like value. Each may answer or raise OddsError, and
nothing else (issue 47: a TypeError from `dice_per = 3`, a csv.Error from a long cell)."""
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from odds import OddsError, registry
from odds.crusades import scenario
from odds.files import parse_toml, toml_value
from odds.his.religion.ranking import parse_targets
from odds.tools.questions.plans import plan, vary
from odds.tools.luck.record import OUTCOMES, read
from odds.tools.luck.report import luck
from odds.tools.luck.text import summary
from odds.tools.sweep import read_spec
from odds.frontends.web.api import keywords
from odds.tools.where import conditions

SPECS = registry.specs()
NAMES = sorted(SPECS)
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
# text with the shapes that break parsers: brackets, quotes, '=', ',', '..', whitespace runs
SHAPES = st.sampled_from(["[", "]", "[[", "]]", "{", "}", '"', "'", "=", ",", ".", "..", ":",
                          "\n", "\r", " ", "\t", "#", "\ufeff", "\x00", "\x1b", "roll", "procedure",
                          "side", "keywords", "attacker", "1", "-0", "3e", "1e999", "nan"])
TEXT = st.one_of(st.text(max_size=200), st.lists(SHAPES, max_size=60).map("".join))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(),
                   st.text(max_size=30))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)


def answers_or_refuses(function, *args):
    """Call it; an OddsError is a refusal, anything else raised fails the test."""
    try:
        function(*args)
    except OddsError:
        pass


@SETTINGS
@given(TEXT)
def test_a_record_text(text):
    answers_or_refuses(lambda: read(text, paths=False))


@SETTINGS
@given(st.binary(max_size=300), st.sampled_from([".toml", ".csv"]))
def test_a_record_file(tmp_path_factory, data, suffix):
    path = tmp_path_factory.mktemp("record") / f"game{suffix}"
    path.write_bytes(data)
    answers_or_refuses(read, path)


@SETTINGS
@given(TEXT)
def test_a_toml_text_and_value(text):
    answers_or_refuses(parse_toml, text, "spec")
    answers_or_refuses(toml_value, text, "set")


@SETTINGS
@given(TEXT)
def test_a_scenario(text):
    def load():
        return scenario.load(parse_toml(text, "scenario"))
    answers_or_refuses(load)


@SETTINGS
@given(VALUE)
def test_a_scenario_table(raw):
    answers_or_refuses(scenario.load, raw if isinstance(raw, dict) else {"units": raw})


@SETTINGS
@given(st.binary(max_size=300))
def test_a_sweep_spec(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("spec") / "spec.toml"
    path.write_bytes(data)
    answers_or_refuses(read_spec, path)


@SETTINGS
@given(st.sampled_from(NAMES), st.data())
def test_a_query(name, data):
    spec = SPECS[name]
    keys = st.one_of(st.sampled_from([p.name for p in spec.params]), st.text(max_size=12))
    query = data.draw(st.lists(st.tuples(keys, TEXT), max_size=4))
    body = data.draw(st.one_of(st.just(b""), st.binary(max_size=100)))
    answers_or_refuses(lambda: spec.check(keywords(spec, query, body)))


@SETTINGS
@given(st.sampled_from(NAMES), st.data())
def test_every_param_given_any_value(name, data):
    """A record's keywords and the Python API reach a procedure with values of any type."""
    spec = SPECS[name]
    kw = dict(next(iter(spec.examples)).kwargs) if spec.examples else {}
    param = data.draw(st.sampled_from(spec.params))
    kw[param.name] = data.draw(VALUE)
    answers_or_refuses(spec.check, kw)


@SETTINGS
@given(st.sampled_from(NAMES), TEXT)
def test_a_plan_and_a_vary(name, text):
    answers_or_refuses(plan, SPECS[name], text)
    answers_or_refuses(vary, SPECS[name], text)


@SETTINGS
@given(st.lists(TEXT, max_size=3))
def test_a_where_and_targets(texts):
    answers_or_refuses(conditions, texts)
    answers_or_refuses(parse_targets, texts)


ODD = [None, True, 3, -1, 2.5, float("nan"), float("inf"), 10**40, "", "x", "3e", "1..", "-0",
       "--3", "\u00b2", "win-within:\u00b2", "1" * 5000, [], [1], ["x"], [[1]], {}, {"a": 1},
       {"a": {"b": 1}}]
PARAMS = [(name, p.name) for name in NAMES for p in SPECS[name].params]


@pytest.mark.parametrize("name,param", PARAMS, ids=[f"{n}-{p}" for n, p in PARAMS])
def test_every_param_given_every_kind_of_value(name, param):
    """Each Param of each procedure, from an example's keywords, given a value of every JSON
    kind and the malformed texts: answered or refused in one OddsError, never another error."""
    spec = SPECS[name]
    base = dict(spec.examples[0].kwargs) if spec.examples else {}
    for value in ODD:
        answers_or_refuses(spec.check, {**base, param: value})


@pytest.mark.parametrize("value", [3, "3", 3.5, True, {"galley": "x"}, [["galley", 2]]])
def test_dice_per_of_another_kind_is_refused_by_name(value):
    """The defect: `dice_per = 3` in a record's keywords raised TypeError (a 500 on the web)."""
    spec = SPECS["vq.naval"]
    with pytest.raises(OddsError, match=r"^dice_per"):
        spec.check({**spec.examples[0].kwargs, "dice_per": value})


OUTCOME_SETS = [(name,) for name in OUTCOMES] + [("attacker_losses", "defender_losses"),
                                                 ("winner", "attacker_losses")]


@pytest.mark.parametrize("given", OUTCOME_SETS, ids=["+".join(g) for g in OUTCOME_SETS])
def test_a_record_of_each_outcome_field_is_scored(given):
    """Each outcome field a record may give, alone: scored, or refused by line (a record of
    the attacker's losses alone once ended in an IndexError, the side having no overall)."""
    values = {"winner": "attacker", "attacker_losses": 1, "defender_losses": 2,
              "attacker_hits": 2, "defender_hits": 1, "attacker_dice": [6, 5, 1, 2],
              "defender_dice": [5, 1, 3]}
    roll = {"procedure": "his.field", "keywords": {"attacker": 4, "defender": 3},
            "side": "Ottoman", **{name: values[name] for name in given}}
    try:
        frame = luck([roll])
    except OddsError as e:  # hits of one side alone: refused by line, naming the other's
        assert re.search(r"_dice: missing \(the (attacker|defender) rolls \d dice here: give "
                         r"them, 1 to 6 each, or their hits as (attacker|defender)_hits\)", str(e))
        return
    assert len(frame) >= 1 and summary(frame)
    assert {g["side"] for g in frame.attrs["game"] if g["overall"]} == set(frame["side"])


def test_no_parser_asks_str_isdigit():
    """str.isdigit and isnumeric take '²' and '½', which int() refuses (a ValueError where a
    one-line refusal was due): text is turned into a number by int() in a try, or isdecimal."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "odds"
    found = [f"{path.relative_to(root)}:{node.lineno}" for path in sorted(root.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Attribute) and node.attr in ("isdigit", "isnumeric")]
    assert not found, found
