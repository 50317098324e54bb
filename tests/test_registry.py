"""One generic suite over every registered procedure and each of its example scenarios.

For each example: the distributions are proper; exact and Monte Carlo agree within the
standard-error band (agreement.py); the frame and the JSON say what the Result says; the
command line prints the function's answer; one seed gives the same numbers on 1 and 2
threads. For each procedure: every parameter refuses bad values with one line naming it.
Per-procedure files keep only what is specific (hand-computed cases, references).
"""
import json

import numpy as np
import pytest

from agreement import assert_pmfs_sum_to_one, assert_thread_count_free, engines_agree
from odds import OddsError, registry
from odds.frontends.cli.main import main

SPECS = registry.specs()
EXAMPLES = [(s, e) for s in SPECS.values() for e in s.examples]
IDS = [f"{s.name}:{e.name}" for s, e in EXAMPLES]
TRIALS = {"crusades.battle": 2_000}  # battles are costly; everything else gets 300,000 trials


def _mc(spec):
    return {"method": "mc", "trials": TRIALS.get(spec.name, 300_000), "seed": 11}


@pytest.mark.parametrize("spec, example", EXAMPLES, ids=IDS)
def test_example_is_proper_and_engines_agree(spec, example):
    kwargs = spec.check_given(example.kwargs)
    if spec.exact:
        engines_agree(spec.call, kwargs, _mc(spec)["trials"], 11)
    else:
        assert_pmfs_sum_to_one(spec.call(**kwargs, **_mc(spec)))


@pytest.mark.parametrize("spec, example", EXAMPLES, ids=IDS)
def test_same_seed_same_numbers_on_any_thread_count(spec, example):
    assert_thread_count_free(spec.call, example.kwargs, TRIALS.get(spec.name, 100_000), 3)


@pytest.mark.parametrize("spec, example", EXAMPLES, ids=IDS)
def test_frame_and_json_say_what_the_result_says(spec, example):
    r = spec.call(**example.kwargs, **({} if spec.exact else _mc(spec)))
    frame, j = r.to_frame(), r.to_json()
    assert j["procedure"] == spec.name and spec.main in r.probabilities
    for name, p in r.probabilities.items():
        assert _json_value(j, name) == p
        assert frame[(frame.outcome == name)].p.item() == p
    for name, pmf in r.pmfs.items():
        assert np.array_equal(frame[frame.outcome == name].p.to_numpy(), pmf)
        assert [j[name][str(k)] for k in range(len(pmf))] == list(pmf)
    json.dumps(j, allow_nan=False)


def _json_value(j, name):
    """j[name], or j[group][k] for a family of probabilities `group_k` grouped in the JSON."""
    if name in j:
        return j[name]
    group, _, k = name.rpartition("_")
    return j[group][k]


def argv_of(spec, kwargs) -> list:
    """The command line that asks `spec` for `kwargs` (the inverse of the generated parser)."""
    argv = list(spec.command)
    for key, value in kwargs.items():
        flag = "--" + (spec.param(key).flag or key.replace("_", "-"))
        if isinstance(value, bool):
            argv += [flag] if value else []
        elif isinstance(value, (list, tuple)):
            for item in value:
                argv += [flag, str(item)]
        else:
            argv += [flag, str(value)]
    return argv


COMMANDS = [(s, e) for s, e in EXAMPLES if s.command]


@pytest.mark.parametrize("spec, example", COMMANDS, ids=[f"{s.name}:{e.name}" for s, e in COMMANDS])
def test_command_line_prints_the_functions_answer(spec, example, capsys):
    engine = {} if spec.exact else _mc(spec)
    argv = argv_of(spec, {**example.kwargs}) + [f"--{k}={v}" for k, v in engine.items()]
    assert main(argv + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(spec.call(**example.kwargs, **engine).to_json()))


def bad_values(param: registry.Param) -> list:
    """Values `param` must refuse: out of range, wrong type, unknown names."""
    if param.kind == "int":
        out = ["x", 2.5, True]
        out += [] if param.low is None else [int(param.low) - 1]
        return out + ([] if param.high is None else [int(param.high) + 1])
    if param.kind == "float":
        return ["x", -0.5, 1.5] if param.high == 1.0 else ["x"]
    if param.kind == "bool":
        return ["no", 1]
    if param.kind == "choice":
        return ["no-such-thing", 3]
    if param.kind == "cards":
        return [["no-such-thing"], [7]]
    if param.kind == "ints":
        return [[-1], ["x"]]
    if param.kind == "pairs":
        return [["no-equals-sign"]]
    return [12, "no such text"]


BAD = [(s, p, v) for s in SPECS.values() for p in s.params for v in bad_values(p)]


@pytest.mark.parametrize("spec, param, value", BAD,
                         ids=[f"{s.name}:{p.name}={v!r}" for s, p, v in BAD])
def test_every_parameter_refuses_bad_values_in_one_line(spec, param, value):
    kwargs = {**spec.examples[0].kwargs, param.name: value}
    with pytest.raises(OddsError) as e:
        spec.call(**kwargs, **({} if spec.exact else _mc(spec)))
    message = str(e.value)
    assert "\n" not in message
    assert param.name in message or (param.flag and param.flag.replace("-", "_") in message) \
        or repr(value) in message or str(value) in message, message


def test_every_procedure_has_a_command_an_example_and_help():
    for spec in SPECS.values():
        assert spec.examples and spec.help and spec.main
        assert all(p.help for p in spec.params), spec.name
        for example in spec.examples:
            spec.check_given(example.kwargs)
        assert json.dumps(spec.describe())


def test_unknown_or_missing_keywords_are_named():
    spec = SPECS["his.field"]
    with pytest.raises(OddsError, match="attackers: not a parameter of his.field"):
        spec.check_given({"attackers": 3})
    with pytest.raises(OddsError, match="defender: missing"):
        spec.check_given({"attacker": 3})
    with pytest.raises(OddsError, match="procedure: 'chess' is unknown"):
        registry.get("chess")
    with pytest.raises(OddsError, match=r'procedure: \["his.field"\] is unknown'):
        registry.get(["his.field"])


def test_a_spec_must_declare_exactly_the_functions_keywords():
    def f(a, *, b=1, method="auto"):
        pass

    with pytest.raises(ValueError, match="do not match"):
        registry.register(registry.Spec("t", f, (registry.Param("a", "int"),), "t", (), "p"))


def test_a_command_imports_only_its_game_and_the_listing_order_is_fixed():
    """`odds oath ...` imports no other game's modules beyond the declarations; specs() lists
    the games in their ORDER whichever was imported first."""
    import subprocess
    import sys

    code = ("import sys; from odds import registry; from odds.frontends.cli.main import main; "
            "main(['oath', 'campaign', '--warbands', '3', '--defense-dice', '2']); "
            "print(sorted(m for m in sys.modules if m.startswith(('odds.his.', 'odds.crusades.', "
            "'odds.oath.')) and not hasattr(sys.modules[m], '__path__'))); "
            "print(list(registry.specs()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120)
    modules, names = out.stdout.strip().splitlines()[-2:]
    # another game's package and folder `__init__`s (they only declare; pkgutil finds them) may load
    assert "his." not in modules and "crusades." not in modules and "odds.oath.campaigns.procedure" in modules
    assert names == str(list(SPECS))
    assert [registry.get(n).name for n in SPECS] == list(SPECS)


def test_a_command_imports_only_its_procedure_and_the_functions_keep_their_names():
    """`odds his naval ...` imports no other Here I Stand procedure (and `odds his field` none
    that plays cards elsewhere, yet still names them as cards of another procedure); the
    listing order is fixed; `odds.his.assault` is the function, and no module shadows it."""
    import subprocess
    import sys

    code = ("import sys; from odds import registry; from odds.frontends.cli.main import main; "
            "main(['his', 'naval', '--attacker-squadrons', '3', '--defender-squadrons', '2']); "
            "print(sorted(m for m in sys.modules if m.startswith('odds.his.'))); "
            "main(['his', 'field', '--attacker', '3', '--defender', '2', "
            "'--attacker-card', 'siege-artillery']); "
            "print(sorted(m for m in sys.modules if m.startswith('odds.his.'))); "
            "print(list(registry.specs())); import odds.his.attacks.procedure; "
            "from odds.his import assault, attack, siege; print(assault.__name__, attack.__name__, "
            "siege.__name__, callable(assault)); import importlib.util as u; "
            "print([u.find_spec(f'odds.his.{n}') for n in ('assault', 'attack', 'siege')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120)
    *_, naval, field, names, functions, modules = out.stdout.strip().splitlines()
    for other in ("assaults", "attacks", "sieges", "interceptions", "field"):
        assert f"odds.his.{other}.procedure'" not in naval
    assert "odds.his.naval.procedure'" in naval and "odds.his.assaults.procedure'" not in field
    assert "'siege-artillery' for the attacker (other): cannot be played in a field battle" in out.stderr
    assert names == str(list(SPECS))
    assert functions == "assault attack siege True"
    assert modules == "[None, None, None]"  # no module has a public function's name


def test_here_i_stand_lists_the_module_of_every_procedure_it_registers():
    """Every module of odds.his imported (kernels apart: only kernel_cache imports those):
    each registered his/vq procedure is in PROCEDURES, with the module that registers it
    (else a command could not find it without the rest)."""
    import pkgutil
    from importlib import import_module

    import odds.his

    for module in pkgutil.iter_modules(odds.his.__path__):
        if not module.name.endswith("_kernel"):
            import_module(f"odds.his.{module.name}")
    mine = {n: s for n, s in registry._SPECS.items() if n.split(".")[0] in ("his", "vq")}
    assert set(mine) == set(odds.his.PROCEDURES)
    for name, spec in mine.items():
        assert spec.function.__module__ == f"odds.his.{odds.his.PROCEDURES[name]}"
