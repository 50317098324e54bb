"""Property tests: any valid field battle gives a proper distribution; invalid input -> OddsError."""
import numpy as np
from hypothesis import given, settings, strategies as st

import odds
from odds.his import field_battle
from odds.his.cards import CARDS
from odds.his.forces import POWERS

FIELD_CARDS = sorted(n for n, c in CARDS.items() if "field" in c.procedures)


@st.composite
def side(draw, minimum):
    units = draw(st.integers(minimum, 12))
    mercs = draw(st.integers(0, units))
    cav = draw(st.integers(0, units - mercs))
    cards = draw(st.lists(st.sampled_from(FIELD_CARDS), max_size=2, unique=True))
    cards = [c + (":if-needed" if c == "janissaries" and draw(st.booleans()) else "") for c in cards]
    return dict(units=units, mercenaries=mercs, cavalry=cav, leader=draw(st.integers(0, 6)),
                power=draw(st.sampled_from(POWERS)), cards=cards)


def kwargs(a, d):
    out = {"attacker": a["units"], "defender": d["units"]}
    for name, s in (("attacker", a), ("defender", d)):
        for key in ("mercenaries", "cavalry", "leader", "power", "cards"):
            out[f"{name}_{key}"] = s[key]
    return out


@settings(max_examples=150, deadline=None)
@given(side(1), side(0))
def test_any_battle_is_a_distribution_or_a_clear_error(a, d):
    try:
        r = field_battle(**kwargs(a, d))
    except odds.OddsError as e:
        assert "\n" not in str(e)
        return
    for pmf in r.pmfs.values():
        assert abs(pmf.sum() - 1) < 1e-12 and (pmf >= 0).all()
    for p in r.probabilities.values():
        assert -1e-12 <= p <= 1 + 1e-12
    assert r["attacker_eliminated"] <= r["attacker_losses"][-1] + 1e-12


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.integers(-5, 300), st.floats(allow_nan=True), st.text(max_size=3), st.none()),
       st.sampled_from(["attacker", "defender", "attacker_leader", "defender_mercenaries", "trials"]))
def test_bad_values_raise_odds_error_only(value, field):
    kw = {"attacker": 3, "defender": 3, field: value}
    if field == "trials":
        kw["method"] = "exact"
    try:
        r = field_battle(**kw)
    except odds.OddsError:
        return
    assert np.isfinite(r.p)
