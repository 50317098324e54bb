"""Naval combat (docs/rules.md, Naval combat): VQ and HIS rulesets, exact against Monte Carlo, a slow
independent reference with Fractions, hand-computed cases, and bad input."""
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest

from agreement import assert_pmfs_sum_to_one
from odds import OddsError
from odds.frontends.cli.main import main
from odds.core.dice import trinomial_pmf
from odds.his import naval_battle
from odds.his.naval.exact import hits_fives

# --- an independent reference: per-die enumeration with Fractions, the rules as plain ifs ----

def _die(threshold):
    """{(hit, five): p} of one d6."""
    out = {}
    for face in range(1, 7):
        key = (int(face >= threshold), int(face == 5 and face >= threshold))
        out[key] = out.get(key, 0) + F(1, 6)
    return out


def _pool(n, threshold=5):
    dist = {(0, 0): F(1)}
    for _ in range(n):
        new = {}
        for (h, f), p in dist.items():
            for (dh, df), q in _die(threshold).items():
                new[(h + dh, f + df)] = new.get((h + dh, f + df), 0) + p * q
        dist = new
    return dist


def _take(hits, ships, corsairs, lost):
    sunk = cors = 0
    while hits >= 2 and sunk < ships:
        sunk, hits = sunk + 1, hits - 2
    if sunk == ships:
        while hits >= 1 and cors < corsairs:
            cors, hits = cors + 1, hits - 1
    elif hits == 1 and lost:
        sunk += 1
    return sunk, cors


def reference(a_dice, d_dice, a_ships, d_ships, a_cors=0, d_cors=0, a_race=0, d_race=0,
              a_cards=(), d_cards=()):
    """{(attacker won, a ships, d ships, a corsairs, d corsairs): Fraction}; cards (n, policy)."""
    states = {}
    for ((ah, af), pa), ((dh, df), pd) in product(_pool(a_dice).items(), _pool(d_dice).items()):
        key = (ah, af, dh, df, a_dice, d_dice)
        states[key] = states.get(key, 0) + pa * pd
    for cards, att in ((a_cards, True), (d_cards, False)):
        for n, policy in cards:
            new = {}
            for (ah, af, dh, df, an, dn), p in states.items():
                wins = ah > dh if att else dh >= ah
                outcomes = _pool(n).items() if policy == "always" or not wins else [((0, 0), 1)]
                for (h, f), q in outcomes:
                    plays = policy == "always" or not wins
                    if att:
                        key = (ah + h, af + f, dh, df, an + n * plays, dn)
                    else:
                        key = (ah, af, dh + h, df + f, an, dn + n * plays)
                    new[key] = new.get(key, 0) + p * q
            states = new
    out = {}
    for (ah, af, dh, df, an, dn), p in states.items():
        win = ah > dh
        a_s, a_c = _take(dh - min(a_race, df), a_ships, a_cors, not win)
        d_s, d_c = _take(ah - min(d_race, af), d_ships, d_cors, win)
        if (a_s, a_c) == (a_ships, a_cors) and (d_s, d_c) == (d_ships, d_cors):
            if an > dn:
                a_s, a_c = (a_s - 1, a_c) if a_ships else (a_s, a_c - 1)
            else:
                d_s, d_c = (d_s - 1, d_c) if d_ships else (d_s, d_c - 1)
        key = (int(win), a_s, d_s, a_c, d_c)
        out[key] = out.get(key, 0) + p
    return out


def _marginal(ref, index, size):
    pmf = [F(0)] * size
    for key, p in ref.items():
        pmf[key[index]] += p
    return np.array([float(x) for x in pmf])


REFERENCE_CASES = [
    # (naval_battle kwargs, reference args)
    (dict(attacker_galleys=2, defender_galleys=2), (4, 4, 2, 2)),
    (dict(attacker_galleys=1, attacker_leader=1, defender_galleons=1, port=True), (3, 3, 1, 1)),
    (dict(attacker_race_built=2, attacker_power="england", defender_galleons=2, location="atlantic"),
     dict(a_dice=4, d_dice=4, a_ships=2, d_ships=2, a_race=2)),
    (dict(attacker_race_built=1, attacker_galleons=1, attacker_power="england",
          defender_race_built=1, defender_power="england", location="atlantic",
          attacker_cards=["arquebusiers"]),
     dict(a_dice=6, d_dice=2, a_ships=2, d_ships=1, a_race=1, d_race=1)),
    (dict(ruleset="his", attacker_squadrons=2, attacker_leader=1, defender_squadrons=1,
          defender_corsairs=3, defender_power="ottoman",
          defender_cards=["janissaries:if-needed", "professional-rowers:if-needed"],
          attacker_cards=["arquebusiers"]),
     dict(a_dice=7, d_dice=5, a_ships=2, d_ships=1, d_cors=3, d_cards=((4, "if-needed"), (3, "if-needed")))),
    (dict(attacker_galleys=2, defender_galleys=1, defender_power="ottoman", defender_corsairs=2,
          attacker_cards=["galleasses:if-needed"]),
     dict(a_dice=4, d_dice=4, a_ships=2, d_ships=1, d_cors=2, a_cards=((3, "if-needed"),))),
    (dict(ruleset="his", attacker_corsairs=2, attacker_power="ottoman", defender_squadrons=1,
          attacker_cards=["professional-rowers:always"]),
     dict(a_dice=2, d_dice=2, a_ships=0, d_ships=1, a_cors=2, a_cards=((3, "always"),))),
]


@pytest.mark.parametrize("kwargs,args", REFERENCE_CASES)
def test_exact_matches_reference(kwargs, args):
    ref = reference(**args) if isinstance(args, dict) else reference(*args)
    r = naval_battle(**kwargs)
    assert_pmfs_sum_to_one(r)
    assert abs(r.p - float(sum(p for k, p in ref.items() if k[0]))) < 1e-12
    for name, index in (("attacker_losses", 1), ("defender_losses", 2),
                        ("attacker_corsair_losses", 3), ("defender_corsair_losses", 4)):
        np.testing.assert_allclose(r.pmfs[name], _marginal(ref, index, len(r.pmfs[name])), atol=1e-12)


# --- hand-computed cases ------------------------------------------------------------------

def test_odd_hit_sinks_a_ship_of_the_loser_only():
    # 1 die per galley: 2 v 2 dice, a die hits with 1/3. P(0, 1, 2 hits) = 4/9, 4/9, 1/9.
    r = naval_battle(attacker_galleys=2, defender_galleys=2, dice_per=["galley=1"])
    h = [F(4, 9), F(4, 9), F(1, 9)]
    win = sum(h[a] * h[d] for a in range(3) for d in range(3) if a > d)
    assert win == F(24, 81)
    # defender loses a ship on 2 attacker hits, or on 1 hit when it lost (0 defender hits)
    assert abs(r["defender_losses"][1] - float(h[2] + h[1] * h[0])) < 1e-12  # 25/81
    # attacker: 2 defender hits, or 1 when it lost (it had 0 or 1 hits: ties go to the defender)
    assert abs(r["attacker_losses"][1] - float(h[2] + h[1] * (h[0] + h[1]))) < 1e-12  # 41/81
    assert abs(r.p - 24 / 81) < 1e-12


def test_leftover_hits_sink_corsairs_one_each():
    # HIS: 1 squadron + leader 1 (3 dice) against 1 Ottoman squadron + 2 corsairs (4 dice).
    r = naval_battle(ruleset="his", attacker_squadrons=1, attacker_leader=1,
                     defender_squadrons=1, defender_corsairs=2, defender_power="ottoman")
    # 3 hits: 2 sink the squadron, the 3rd a corsair; 1 hit sinks the squadron only if the
    # Ottomans lost (0 hits of 4 dice); 2 hits sink the squadron and nothing else.
    p3 = F(1, 27)
    assert abs(r["defender_corsair_losses"][1] - float(p3)) < 1e-12
    assert r["defender_corsair_losses"][2] == 0
    ship = F(7, 27) + F(4, 9) * F(2, 3) ** 4
    assert ship == F(253, 729)
    assert abs(r["defender_losses"][1] - float(ship)) < 1e-12


def test_corsair_fleets_and_the_both_destroyed_rule():
    # 1 galley (2 dice) attacks 2 corsairs (2 dice): both wiped out only on 2 hits each;
    # dice equal, so the defender keeps one unit, a corsair as it has no ship.
    r = naval_battle(attacker_galleys=1, defender_corsairs=2, defender_power="ottoman")
    assert abs(r["both_destroyed_rule"] - 1 / 81) < 1e-12
    assert abs(r["defender_corsair_losses"][2] - 8 / 81) < 1e-12
    assert abs(r["defender_destroyed"] - 8 / 81) < 1e-12
    assert abs(r["attacker_destroyed"] - 41 / 81) < 1e-12  # 2 hits, or 1 when it lost


def test_race_built_ignore_fives_for_casualties_only():
    # England 1 race-built v 1 galleon, 2 dice each. Defender dice: (6,6) -> 2 hits left;
    # (5,6),(6,5),(5,5) -> 1; one 6 -> 1; one 5 -> 0.
    kw = dict(attacker_race_built=1, attacker_power="england", defender_galleons=1)
    atl = naval_battle(**kw, location="atlantic")
    med = naval_battle(**kw, location="mediterranean")
    port = naval_battle(**kw, location="atlantic", port=True, dice_per={"port": 0})
    sunk = F(1, 36) + F(3, 36) * 1 + F(8, 36) * F(8, 9)  # the 1-hit cases sink only a loser
    assert sunk == F(25, 81)
    assert abs(atl["attacker_losses"][1] - float(sunk)) < 1e-12
    assert abs(med["attacker_losses"][1] - 41 / 81) < 1e-12
    assert abs(port["attacker_losses"][1] - 41 / 81) < 1e-12  # not in a port
    assert abs(atl.p - 24 / 81) < 1e-12 and abs(med.p - 24 / 81) < 1e-12  # 5s still win


def test_if_needed_card_only_when_losing():
    # 1 galley + Galleasses if needed v 1 galley: played only when ah <= dh.
    r = naval_battle(attacker_galleys=1, defender_galleys=1, attacker_cards=["galleasses:if-needed"])
    h2 = [F(4, 9), F(4, 9), F(1, 9)]
    h3 = [F(8, 27), F(12, 27), F(6, 27), F(1, 27)]
    win = sum(h2[a] * h2[d] * (1 if a > d else sum(h3[g] for g in range(4) if a + g > d))
              for a in range(3) for d in range(3))
    assert abs(r.p - float(win)) < 1e-12


def test_port_attacker_always_retreats():
    r = naval_battle(attacker_galleys=3, defender_galleys=1, port=True)
    assert abs(r["attacker_retreats"] - (1 - r["attacker_destroyed"])) < 1e-12
    assert r["defender_retreats"] == 0
    sea = naval_battle(attacker_galleys=3, defender_galleys=1)
    assert sea["defender_retreats"] + sea["defender_destroyed"] >= sea.p - 1e-12


def test_hits_fives_is_trinomial_for_5_6_dice():
    for n in (0, 1, 4, 9):
        tri = trinomial_pmf(n)  # [fives, sixes]
        joint = hits_fives(n)
        for f in range(n + 1):
            for s in range(n + 1 - f):
                assert abs(joint[f + s, f] - tri[f, s]) < 1e-14


def test_ruleset_overrides_recorded():
    r = naval_battle(attacker_galleys=2, defender_galleys=2, dice_per={"galley": 3}, hits_per_ship=3)
    assert r.settings["dice_per"]["galley"] == 3 and r.settings["hits_per_ship"] == 3
    assert r.settings["attacker_dice"] == 6
    j = r.to_json()
    for key in ("procedure", "ruleset", "method", "trials", "seed", "attacker_win", "attacker_win_se",
                "attacker_losses", "defender_losses", "attacker_corsair_losses",
                "defender_corsair_losses", "attacker_destroyed", "defender_destroyed",
                "dice_per", "hits_per_ship"):
        assert key in j, key
    assert j["ruleset"] == "vq" and j["procedure"] == "vq.naval"


# --- bad input -------------------------------------------------------------------------------

BAD = [
    (dict(attacker_galleys=0, defender_galleys=1), "a fleet with no ships"),
    (dict(attacker_race_built=1, attacker_power="france", defender_galleys=1), "england"),
    (dict(attacker_galleys=1, attacker_corsairs=1, defender_galleys=1), "ottoman"),
    (dict(attacker_galleys=1, defender_galleys=1, location="atlantic",
          attacker_cards=["galleasses"]), "mediterranean"),
    (dict(ruleset="his", attacker_squadrons=1, defender_squadrons=1,
          attacker_cards=["janissaries"]), "ottoman"),
    (dict(attacker_galleys=1, defender_galleys=1, dice_per=["galley2"]), "TYPE=N"),
    (dict(attacker_galleys=1, defender_galleys=1, dice_per=["galley=x"]), "TYPE=N"),
    (dict(attacker_galleys=1, defender_galleys=1, dice_per=["frigate=1"]), "frigate"),
    (dict(attacker_galleys=1, defender_galleys=1, location="pacific"), "location"),
    (dict(ruleset="his", attacker_galleys=1, defender_squadrons=1), "no galley"),
    (dict(attacker_galleys=1, defender_galleys=1, ruleset="his"), "no galley"),
    (dict(attacker_galleys=1, defender_galleys=1, attacker_cards=["janissaries"]), "vq ruleset"),
    (dict(attacker_galleys=-1, defender_galleys=1), "attacker_galleys"),
]


@pytest.mark.parametrize("kwargs,needle", BAD)
def test_bad_input_raises_one_line(kwargs, needle):
    with pytest.raises(OddsError) as e:
        naval_battle(**kwargs)
    assert needle in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("argv", [
    ["vq", "naval", "--attacker-galleys", "2", "--defender-galleys", "1", "--location", "atlantic",
     "--attacker-card", "galleasses:if-needed"],
    ["vq", "naval", "--attacker-galleys", "2", "--defender-galleys", "1", "--location", "atlantic",
     "--dice-per", "galley"],
    ["vq", "naval", "--attacker-galleys", "2", "--defender-galleys", "1"],  # no --location
    ["his", "naval", "--attacker-squadrons", "2", "--defender-squadrons", "1",
     "--defender-card", "janissaries"],
    ["his", "naval", "--attacker-squadrons", "0", "--defender-squadrons", "1"],
])
def test_cli_bad_input_exit_2_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("odds: error:") and "Traceback" not in err


def test_the_split_modules_keep_the_public_names_and_a_custom_ruleset_works():
    """naval.py was split by concept: the names stay where users import them."""
    import subprocess
    import sys

    code = ("import sys, odds.his as h; r = h.Ruleset; print(sorted(h.RULESETS), "
            "'odds.his.naval.procedure' in sys.modules); h.naval_battle; print('odds.his.naval.procedure' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120)
    assert out.stdout.split("\n")[:2] == ["['his', 'vq'] False", "True"]  # a ruleset alone stays light
    from dataclasses import replace

    from odds.his import RULESETS, Ruleset
    one_die = replace(RULESETS["vq"], name="one", dice_per={**RULESETS["vq"].dice_per, "galley": 1})
    assert isinstance(one_die, Ruleset)
    r = naval_battle(ruleset=one_die, attacker_galleys=1, defender_galleys=1)
    # one die each, hits on 5-6: the attacker wins only by hitting while the defender misses
    assert r.p == pytest.approx(1 / 3 * 2 / 3)
