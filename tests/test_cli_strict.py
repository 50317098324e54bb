"""The command line is as strict as the web API, for every procedure: a flag of one value given
twice, and a flag given without the one it depends on (Param.needs), are refused in one line
with exit code 2, never kept silently (the last value) or ignored."""
import pytest

from odds import OddsError, registry
from odds.frontends.cli.main import main
from odds.frontends.cli.common import flag
from odds.frontends.web import api

SPECS = [s for s in registry.specs().values() if s.command]
LISTS = ("cards", "ints", "pairs")


def a_value(param) -> list:
    """The flag's words for one value in its range (none for a switch)."""
    if param.kind == "bool":
        return []
    if param.kind in ("int", "float", "leader"):
        return [str(int(param.low if param.low is not None else 1))]
    if param.kind == "choice":
        return [str(param.choices[0])]
    return ["x"]


def other_value(param, default) -> str:
    """A value in the flag's range other than its default."""
    if param.kind == "choice":
        return next(str(c) for c in param.choices if c != default)
    if param.kind == "text":  # Oath's goal
        return "win-within:2"
    return str(int(param.high if param.high is not None and default != param.high else param.low))


def refused(capsys, argv) -> str:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2 and out.out == "" and out.err.count("\n") == 1, (argv, out)
    return out.err


ONCE = [(s, p) for s in SPECS for p in s.params if p.kind not in LISTS]


@pytest.mark.parametrize("spec, param", ONCE, ids=[f"{s.name}:{p.name}" for s, p in ONCE])
def test_a_flag_of_one_value_given_twice_is_refused(capsys, spec, param):
    given = [flag(param), *a_value(param)]
    err = refused(capsys, [*spec.command, *given, *given])
    assert err == f"odds: error: {flag(param)}: given twice (allowed: once)\n"


@pytest.mark.parametrize("engine", ["--seed", "--trials", "--method", "--json"])
def test_an_engine_flag_given_twice_is_refused(capsys, engine):
    given = [engine] + {"--method": ["mc"], "--json": []}.get(engine, ["3"])
    err = refused(capsys, ["his", "piracy", "--corsairs", "2", *given, *given])
    assert err == f"odds: error: {engine}: given twice (allowed: once)\n"


def test_the_issue_s_piracy_flags(capsys):
    assert refused(capsys, ["his", "piracy", "--corsairs", "2", "--corsairs", "3"]) == \
        "odds: error: --corsairs: given twice (allowed: once)\n"
    assert refused(capsys, ["his", "piracy", "--doria-dice", "5"]) == (
        "odds: error: --doria-dice: 5 changes nothing without --andrea-doria (allowed: give "
        "--andrea-doria too, or leave --doria-dice out)\n")
    assert main(["his", "piracy", "--doria-dice", "5", "--andrea-doria"]) == 0


NEEDS = [(s, p) for s in SPECS for p in s.params if getattr(p, "needs", ())]


def test_dependent_flags_are_declared():
    """Andrea Doria's dice need the card; the Diet's measure and cp-value need the hands."""
    names = {(s.name, p.name) for s, p in NEEDS}
    assert {("his.piracy", "doria_dice"), ("his.diet_of_worms", "cp_value"),
            ("his.diet_of_worms", "measure")} <= names
    for spec, param in NEEDS:
        assert all(spec.param(n) for n in param.needs)


@pytest.mark.parametrize("spec, param", NEEDS, ids=[f"{s.name}:{p.name}" for s, p in NEEDS])
def test_a_flag_without_the_one_it_needs_is_refused_by_every_caller(capsys, spec, param):
    """The command line, the web API's keywords and Spec.call give the same line (named as
    flags on the command line), for a value other than the default; the default itself is
    accepted (a form that sends every field, as the calculator's)."""
    default = {param.name: spec.defaults()[param.name]}
    # the example without what `param` needs, nor what needs that (a debate's pools)
    gone = {*param.needs, *(p.name for p in spec.params if set(p.needs) & set(param.needs))} - {param.name}
    spec.check({k: v for k, v in {**spec.examples[0].kwargs, **default}.items() if k not in gone})
    example = {k: v for k, v in spec.examples[0].kwargs.items() if k not in gone | {param.name}}
    text = other_value(param, spec.defaults()[param.name])
    query = [(k, ",".join(map(str, v)) if isinstance(v, list) else str(v))
             for k, v in example.items()] + [(param.name, text)]
    kwargs = api.keywords(spec, query)
    with pytest.raises(OddsError) as e:
        spec.check(kwargs)
    line = str(e.value)
    assert line.startswith(f"{param.name}: {kwargs[param.name]!r} changes nothing without ") or \
        line.startswith(f"{param.name}: {kwargs[param.name]} changes nothing without ")
    argv = [*spec.command, flag(param), text]
    for k, v in example.items():
        p = spec.param(k)
        for item in (v if isinstance(v, list) else [v]):
            argv += [flag(p)] if p.kind == "bool" else [flag(p), str(item)]
    err = refused(capsys, argv)
    assert f"{flag(param)}: " in err and "changes nothing without --" in err
