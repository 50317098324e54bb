"""Issue 60: the constraints the page reads (Param.only_with, Param.clears) are the procedures'
own, for every procedure and parameter of the registry: a choice is taken in each of the ways
declared for it, refused where none holds; a field that clears another is refused with it
(so the page's clearing is what the answer needs)."""
import pytest

from odds import OddsError
from odds.registry import REQUIRED, specs

SPECS = specs()


def start(spec, field: str | None = None) -> dict:
    """The page's first question: the procedure's starting values, less those `field` clears
    (the page puts them back to their defaults when it is given)."""
    cleared = spec.param(field).clears if field else ()
    return {k: v for k, v in spec.start.items() if k not in cleared}


def given(p, option):
    return [option] if p.kind == "cards" else option


def holds(spec, way: dict, kwargs: dict) -> bool:
    defaults = spec.defaults()
    return all(kwargs.get(k, defaults[k]) in values for k, values in way.items())


CASES = [(name, p.name, option, ways) for name, spec in SPECS.items() for p in spec.params
         for option, ways in p.only_with.items()]


@pytest.mark.parametrize("name, field, option, ways", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_a_choice_is_taken_in_each_of_its_ways_and_refused_where_none_holds(name, field, option, ways):
    spec = SPECS[name]
    p = spec.param(field)
    for way in ways:
        kwargs = {**start(spec, field), **{k: v[0] for k, v in way.items()}, field: given(p, option)}
        spec.check(kwargs)  # taken
    kwargs = {**start(spec, field), field: given(p, option)}
    if not any(holds(spec, way, kwargs) for way in ways):
        with pytest.raises(OddsError):
            spec.check(kwargs)


def other_value(spec, p):
    """A value of `p` other than its default that the procedure takes alone, or None."""
    if p.kind == "bool":
        return True
    if p.kind == "int":
        return int(p.high if p.high is not None and p.high <= 3 else (p.low or 0) + 1) if p.low is not None else 1
    if p.kind == "ints":
        return [1]
    if p.kind == "choice":
        default = spec.defaults()[p.name]
        return next((c for c in p.choices if c != default), None)
    return None


# the exclusive pairs (a clear that is a refusal); the Diet's hands and a foreign war's card
# clear fields that the procedure would take with them (a form's convenience, not a rule)
EXCLUSIVE = ("his.intercept", "his.avoid_battle", "his.attack", "his.reformation",
             "his.counter_reformation", "oath.campaign")
PAIRS = [(name, p.name, other) for name, spec in SPECS.items() if name in EXCLUSIVE
         for p in spec.params for other in p.clears]


@pytest.mark.parametrize("name, field, other", PAIRS, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in PAIRS])
def test_a_field_that_clears_another_is_refused_with_it(name, field, other):
    spec = SPECS[name]
    a, b = spec.param(field), spec.param(other)
    mine, theirs = other_value(spec, a), other_value(spec, b)
    if mine is None or theirs is None:
        pytest.skip(f"no plain value of {field} or {other}")
    base = {k: v for k, v in start(spec).items() if k not in (field, other)}
    if any(d is REQUIRED for k, d in spec.defaults().items() if k not in base and k not in (field, other)):
        pytest.skip("a required keyword without a starting value")
    spec.check({**base, field: mine})
    with pytest.raises(OddsError):
        spec.check({**base, field: mine, other: theirs})
