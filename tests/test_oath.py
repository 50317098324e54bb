"""Oath campaign: hand cases, an independent Fraction enumeration, exact vs Monte Carlo, CLI."""
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest
from agreement import assert_pmfs_sum_to_one

from odds import OddsError
from odds.frontends.cli.main import main
from odds.oath import campaign
from odds.oath.campaigns.procedure import target_dice
from odds.oath.campaigns.dice import DEFENSE_DIE, defense_total, defense_values
from odds.oath.campaigns.plans import PLANS, Plan, Setup, apply_plans, register

# ---------------------------------------------------------------- independent reference
# Faces written out again, as (swords, hollow swords, skulls) and (shields, x2 count).
REF_ATTACK = [(0, 1, 0)] * 3 + [(1, 0, 0)] * 2 + [(2, 0, 1)]
REF_DEFENSE = [(0, 0)] * 2 + [(1, 0)] * 2 + [(2, 0), (0, 1)]


def reference(warbands, attack_dice, defense_dice, defenders=0, bandits=False, limit=None,
              edition="law", attack_faces=REF_ATTACK, defense_faces=REF_DEFENSE, beat=F(1, 2)):
    """Every face combination, with Fractions. `limit`: most warbands the attacker will
    sacrifice (None: no limit); `beat`: new foundations commits to beat the defense total
    reached with this probability. Returns P(win), both loss pmfs and win-within-losses."""
    attacks = {}
    for roll in product(attack_faces, repeat=attack_dice):
        swords = sum(f[0] for f in roll)
        hollow = sum(f[1] for f in roll)
        key = (swords + hollow // 2, sum(f[2] for f in roll))
        attacks[key] = attacks.get(key, 0) + F(1, 6**attack_dice)
    defenses = {}
    for roll in product(defense_faces, repeat=defense_dice):
        value = sum(f[0] for f in roll) * 2 ** sum(f[1] for f in roll) + defenders
        defenses[value] = defenses.get(value, 0) + F(1, 6**defense_dice)
    cumulative, top = F(0), None
    for value in sorted(defenses):
        cumulative += defenses[value]
        if top is None and cumulative >= beat:
            top = value
    limit = warbands if limit is None else limit
    win_p, a_loss, d_loss, within = F(0), {}, {}, [F(0)] * (warbands + 1)
    for (attack, skulls), pa in attacks.items():
        for defense, pd in defenses.items():
            p = pa * pd
            army = max(0, warbands - skulls)
            killed = warbands - army
            if edition == "law":
                need = max(0, defense - attack + 1)
                sac = need if need <= min(army, limit) else 0
                won = attack + sac > defense
            else:  # commit before seeing the defense what beats the `beat` quantile
                sac = min(max(0, top - attack + 1), army, limit)
                won = attack + sac > defense
            lost_a = killed + sac + (0 if won else (army - sac) // 2)
            lost_d = defenders // 2 if won and not bandits else 0
            a_loss[lost_a] = a_loss.get(lost_a, 0) + p
            d_loss[lost_d] = d_loss.get(lost_d, 0) + p
            if won:
                win_p += p
                for k in range(lost_a, warbands + 1):
                    within[k] += p
    return win_p, a_loss, d_loss, within


def assert_matches_reference(result, ref):
    win_p, a_loss, d_loss, within = ref
    assert result.p == pytest.approx(float(win_p), abs=1e-12)
    for name, pmf in (("attacker_losses", a_loss), ("defender_losses", d_loss)):
        got = result.pmfs[name]
        want = np.zeros(max(len(got), max(pmf) + 1))
        for k, p in pmf.items():
            want[k] = float(p)
        assert np.allclose(np.pad(got, (0, len(want) - len(got))), want, atol=1e-12), name
    assert np.allclose([result.win_within_losses[k] for k in range(len(within))],
                       [float(p) for p in within], atol=1e-12)


REFERENCE_CASES = [
    dict(warbands=1, attack_dice=1, defense_dice=1),
    dict(warbands=3, attack_dice=3, defense_dice=2, defenders=1),
    dict(warbands=4, attack_dice=2, defense_dice=3, defenders=2),
    dict(warbands=4, attack_dice=4, defense_dice=2, defenders=3, bandits=True),
    dict(warbands=4, attack_dice=3, defense_dice=3, limit=1),
    dict(warbands=3, attack_dice=3, defense_dice=2, limit=0),
    dict(warbands=4, attack_dice=3, defense_dice=2, defenders=1, edition="new-foundations"),
    dict(warbands=5, attack_dice=3, defense_dice=2, limit=2, edition="new-foundations"),
    dict(warbands=5, attack_dice=3, defense_dice=3, defenders=1, edition="new-foundations",
         beat=F(9, 10)),
    dict(warbands=4, attack_dice=2, defense_dice=2, edition="new-foundations", beat=F(1)),
]


def _policy(limit):
    return "as-needed" if limit is None else "never" if limit == 0 else f"at-most:{limit}"


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=str)
def test_exact_matches_fraction_enumeration(case):
    case = dict(case)
    limit = case.pop("limit", None)
    ref = reference(limit=limit, **case)
    beat = case.pop("beat", None)
    policy = _policy(limit) if beat is None else f"to-beat:{int(beat * 100)}"
    result = campaign(case.pop("warbands"), sacrifice=policy, **case)
    assert_matches_reference(result, ref)


def test_plans_match_reference_with_rewritten_faces():
    rusted = [(s, 0, k) for s, h, k in REF_ATTACK]
    ref = reference(3, 3, 2, defenders=1, attack_faces=rusted)
    assert_matches_reference(campaign(3, defense_dice=2, defenders=1, plans=["rusting-ray"]), ref)
    tortoise_a = [(0 if s == 2 else s, h, k) for s, h, k in REF_ATTACK]
    ref = reference(3, 3, 2, attack_faces=tortoise_a)
    assert_matches_reference(campaign(3, defense_dice=2, plans=["war-tortoise:attacker"]), ref)
    tortoise_d = [(0 if s == 2 else s, m) for s, m in REF_DEFENSE]
    ref = reference(3, 2, 3, defense_faces=tortoise_d)
    assert_matches_reference(campaign(3, attack_dice=2, defense_dice=3,
                                      plans=["war-tortoise:defender"]), ref)
    ref = reference(3, 3, 2, limit=0)
    assert_matches_reference(campaign(3, defense_dice=2, plans=["vow-of-peace"]), ref)


# ---------------------------------------------------------------- hand cases
def test_one_die_against_one_die():
    # attack: 0 on 3/6, 1 on 2/6, 2 (+skull) on 1/6; defense: 0 on 3/6 (blank, lone x2),
    # 1 on 2/6, 2 on 1/6. Win: 2/6 * 3/6 + 1/6 * 5/6 = 11/36. No sacrifice.
    r = campaign(1, defense_dice=1, sacrifice="never")
    assert r.p == pytest.approx(11 / 36)
    # the skull face (1/6) kills the only warband, win or lose; nothing else costs a warband
    assert np.allclose(r["attacker_losses"], [5 / 6, 1 / 6])


def test_one_die_with_sacrifice():
    # W=2, one die vs one die, as-needed: the attacker loses only when it rolls 0 (3/6) against
    # 2 (1/6), which would need 3 warbands. A skull (1/6) leaves 1, enough for 2 vs 2.
    r = campaign(2, attack_dice=1, defense_dice=1)
    assert r.p == pytest.approx(1 - 3 / 36)
    # win within 0 losses: no sacrifice and no skull: a sword (2/6) against 0 (3/6)
    assert r.win_within_losses[0] == pytest.approx(6 / 36)


def test_lone_x2_scores_nothing_and_does_not_double_warbands():
    values, probs = defense_values(DEFENSE_DIE, 1)
    assert dict(zip(values.tolist(), probs)) == pytest.approx({0: 1 / 2, 1: 1 / 3, 2: 1 / 6})
    assert defense_total(0, 1) == 0
    # one defense die + 1 warband: 1 on blank or lone x2 (1/2), 2 (1/3), 3 (1/6); one attack
    # die beats it only with 2 against 1: 1/6 * 1/2 (an x2 doubling the warband would give 1/18)
    assert campaign(1, defense_dice=1, defenders=1, sacrifice="never").p == pytest.approx(1 / 12)


def test_two_x2_give_x4():
    assert defense_total(1, 2) == 4 and defense_total(2, 2) == 8 and defense_total(3, 1) == 6
    got = dict(zip(*(v.tolist() for v in defense_values(DEFENSE_DIE, 3))))
    # faces B 2/6, S 2/6, T (two shields) 1/6, X 1/6; in 216ths:
    # 8 = T,T,X (3 orders x 1) + T,X,X (3 x 1)
    assert got[8] == pytest.approx(6 / 216) and max(got) == 8
    # 4 = T,T,B (3 x 2) + T,S,S (3 x 4) + T,B,X (6 x 2) + S,S,X (3 x 4) + S,X,X (3 x 2)
    assert got[4] == pytest.approx((6 + 12 + 12 + 12 + 6) / 216)


def test_targets_give_defense_dice():
    assert target_dice(sites=[1, 2], relics=[1], banners=[3], pawn_and_favor=True) == 9
    assert target_dice(sites=[1], title="usurper") == 3
    assert target_dice(sites=[1], title="oathkeeper") == 2
    assert target_dice(sites=[1], title="imperial") == 2
    assert target_dice(sites=[1], title="imperial", imperial_title="chancellor-oathkeeper") == 1
    assert target_dice(sites=[1], title="imperial", imperial_title="chancellor-oathkeeper",
                       chancellor_oathkeeper=True) == 2
    a = campaign(4, sites=[1, 2], title="usurper", defenders=1)
    b = campaign(4, defense_dice=5, defenders=1)
    assert a.p == b.p


def test_bandits_never_die():
    r = campaign(6, defense_dice=1, defenders=4, bandits=True)
    assert r["defender_losses"].tolist() == [1.0]
    assert campaign(6, defense_dice=1, defenders=4)["defender_losses"][2] == pytest.approx(r.p)


# ---------------------------------------------------------------- plans
def test_removed_missing_attack_die_becomes_defense_die():
    s = apply_plans(Setup(1, 2), ["attack:-3"])
    assert (s.attack_dice, s.defense_dice) == (0, 4)
    s = apply_plans(Setup(3, 2), ["attack:-1", "defense:+2", "attack:+2"])
    assert (s.attack_dice, s.defense_dice) == (4, 4)


def test_mounted_patrol_halves_after_other_plans():
    s = apply_plans(Setup(4, 2), ["mounted-patrol", "attack:+1"])
    assert s.attack_dice == 2  # (4 + 1) // 2, not 4 // 2 + 1
    r = campaign(4, defense_dice=2, plans=["mounted-patrol", "attack:+1"])
    assert r.settings["attack_dice_rolled"] == 2


def test_new_plan_is_a_few_lines():
    from dataclasses import replace

    register(Plan("test-walls", lambda s, n: replace(s, defense_dice=s.defense_dice + n),
                  parse=lambda name, text: int(text)))
    try:
        assert campaign(3, defense_dice=1, plans=["test-walls:2"]).p == campaign(3, defense_dice=3).p
    finally:
        del PLANS["test-walls"]


# ---------------------------------------------------------------- outputs and optimiser
def test_outputs_are_consistent():
    r = campaign(6, defense_dice=4, defenders=2)
    assert_pmfs_sum_to_one(r)
    within = [r.win_within_losses[k] for k in range(7)]
    assert np.all(np.diff(within) >= -1e-15) and within[-1] == pytest.approx(r.p)
    j = r.to_json()
    assert set(j["win_within_losses"]) == {str(k) for k in range(7)}
    assert "win_within_losses_0" not in j and "expected_attacker_losses" in j
    assert r.settings["sacrifice"] == "as-needed" and r.settings["edition"] == "law"


def test_optimiser_rows_and_choices_differ():
    r = campaign(5, sites=[1, 2], title="usurper", defenders=1, plans=["rusting-ray"], optimise=True)
    rows = [row for row in r.optimiser if row["sacrifice"] == "as-needed"]
    assert [row["attack_dice"] for row in rows] == list(range(6))
    for row in (rows[2], rows[5]):
        one = campaign(5, attack_dice=row["attack_dice"], sites=[1, 2], title="usurper",
                       defenders=1, plans=["rusting-ray"])
        assert row["attacker_win"] == pytest.approx(one.p)
        assert row["expected_attacker_losses"] == pytest.approx(one.expected("attacker_losses"))
    best = r.to_json()["optimise"]
    assert best["goal"] == "max-win" and best["best"]["attacker_win"] == max(
        row["attacker_win"] for row in r.optimiser)
    assert "<- best" in r.summary()


def test_exact_path_does_not_import_numba():
    import subprocess
    import sys

    code = ("import sys, odds; odds.oath.campaign(5, defense_dice=3); "
            "assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, field", [
    (dict(warbands=3, attack_dice=4, defense_dice=1), "attack_dice"),
    (dict(warbands=-1, defense_dice=1), "warbands"),
    (dict(warbands=3, defense_dice=-2), "defense_dice"),
    (dict(warbands=3, defense_dice=1, defenders=-1), "defenders"),
    (dict(warbands=3, defense_dice=1, plans=["catapult"]), "plan"),
    (dict(warbands=3, defense_dice=1, plans=["war-tortoise:both"]), "plan"),
    (dict(warbands=3, defense_dice=1, plans=["attack:x"]), "plan"),
    (dict(warbands=3, defense_dice=1, plans=["rusting-ray:2"]), "plan"),
    (dict(warbands=3, sites=[1], title="king"), "title"),
    (dict(warbands=3, defense_dice=1, sacrifice="at-most:-1"), "sacrifice"),
    (dict(warbands=3, defense_dice=1, sacrifice="sometimes"), "sacrifice"),
    (dict(warbands=3, defense_dice=1, edition="third"), "edition"),
    (dict(warbands=3, defense_dice=1, edition="new-foundations", plans=["rusting-ray"]), "plan"),
    (dict(warbands=3), "defense_dice"),
    (dict(warbands=3, defense_dice=1, sites=[1]), "defense_dice"),
    (dict(warbands=3, sites=[-1]), "sites[0]"),
    (dict(warbands=3, defense_dice=1, plans=["attack:+70"]), "attack dice after plans"),
    (dict(warbands=3, defense_dice=1, method="mc", trials=0), "trials"),
])
def test_bad_input_raises_one_line(kw, field):
    with pytest.raises(OddsError) as e:
        campaign(**kw)
    assert str(e.value).startswith(field) or str(e.value).startswith(f"{field}:"), str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("argv", [
    ["--warbands", "3", "--attack-dice", "4", "--defense-dice", "1"],
    ["--warbands", "3", "--defense-dice", "1", "--plan", "catapult"],
    ["--warbands", "3", "--defense-dice", "1", "--sacrifice", "at-most:"],
    ["--warbands", "3", "--site", "--title", "king"],
    ["--warbands", "x", "--defense-dice", "1"],
    ["--defense-dice", "1"],
])
def test_cli_bad_input_exits_2_with_one_line(argv, capsys):
    assert main(["oath", "campaign", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("odds: error:") and "Traceback" not in err


def test_new_foundations_commits_what_beats_the_median_defense_by_hand():
    """1 warband, 1 attack die, 1 defense die. Defense 0 (1/2), 1 (1/3), 2 (1/6); the median
    is 0. Hollow sword (1/2): attack 0, commit 1, wins on 0 (1/2), loses the warband either
    way. Sword (1/3): attack 1 already beats 0, commits nothing, wins on 0 (1/2). Two swords
    and a skull (1/6): the skull kills the warband, attack 2 wins unless 2 (5/6)."""
    r = campaign(1, defense_dice=1, edition="new-foundations")
    assert r.p == pytest.approx(float(F(1, 4) + F(1, 6) + F(5, 36)), abs=1e-15)
    assert r["attacker_losses"].tolist() == pytest.approx([1 / 3, 2 / 3], abs=1e-15)
    # committing to beat every defense (2): the sword commits its warband too and wins on 0 or 1
    every = campaign(1, defense_dice=1, edition="new-foundations", sacrifice="to-beat:100")
    assert every.p == pytest.approx(float(F(1, 4) + F(1, 3) * F(5, 6) + F(5, 36)), abs=1e-15)
    assert every["attacker_losses"].tolist() == pytest.approx([0, 1], abs=1e-15)


def test_new_foundations_default_commits_less_than_everything():
    kw = dict(warbands=6, defense_dice=3, defenders=2, edition="new-foundations")
    default, every = campaign(**kw), campaign(**kw, sacrifice="to-beat:100")
    assert default.expected("attacker_losses") < every.expected("attacker_losses") - 2
    assert default["win_within_losses_2"] > every["win_within_losses_2"]
    with pytest.raises(OddsError, match="only the new-foundations edition"):
        campaign(6, defense_dice=3, sacrifice="to-beat:50")
    with pytest.raises(OddsError, match="to-beat:P"):
        campaign(6, defense_dice=3, edition="new-foundations", sacrifice="to-beat:0")
