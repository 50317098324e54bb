"""Oath decision table: every row against a direct campaign() call, the goals, bad goals."""
import numpy as np
import pytest

from odds import OddsError, cli
from odds.oath import campaign

CASES = [dict(warbands=4, defense_dice=3, defenders=1),
         dict(warbands=5, sites=[1, 1], defenders=2, plans=["rusting-ray"]),
         dict(warbands=4, defense_dice=3, defenders=2, edition="new-foundations")]


@pytest.mark.parametrize("kw", CASES)
def test_every_row_is_a_direct_campaign(kw):
    r = campaign(**kw, optimise=True)
    policies = {"law": ["never", "at-most:1", "at-most:2", "as-needed"],
                "new-foundations": ["never", "to-beat:25", "to-beat:50", "to-beat:75",
                                    "to-beat:100", "as-needed"]}[kw.get("edition", "law")]
    want = [(n, s) for n in range(kw["warbands"] + 1) for s in policies]
    assert [(row["attack_dice"], row["sacrifice"]) for row in r.optimiser] == want
    for row in r.optimiser:
        one = campaign(**kw, attack_dice=row["attack_dice"], sacrifice=row["sacrifice"])
        assert row["attacker_win"] == pytest.approx(one.p, abs=1e-12)
        losses = one.expected("attacker_losses")
        assert row["expected_attacker_losses"] == pytest.approx(losses, abs=1e-12)
        if one.p > 0:
            assert row["losses_per_win"] == pytest.approx(losses / one.p)
        within = [one.win_within_losses[k] for k in sorted(one.win_within_losses)]
        np.testing.assert_allclose(row["win_within_losses"], within, atol=1e-12)


@pytest.mark.parametrize("goal", ["max-win", "min-losses", "win-within:1", "WIN-WITHIN:0"])
def test_the_goal_marks_the_best_direct_campaign(goal):
    kw = CASES[1]
    r = campaign(**kw, optimise=True, goal=goal)
    direct = {}
    for n in range(kw["warbands"] + 1):
        for s in ("never", "at-most:1", "at-most:2", "as-needed"):
            one = campaign(**kw, attack_dice=n, sacrifice=s)
            direct[(n, s)] = (one.p, one.expected("attacker_losses"), one.win_within_losses)
    best = r.optimiser[r.best]
    if goal == "max-win":
        assert best["attacker_win"] == pytest.approx(max(v[0] for v in direct.values()))
    elif goal == "min-losses":
        assert best["losses_per_win"] == pytest.approx(
            min(v[1] / v[0] for v in direct.values() if v[0] > 0))
    else:
        k = int(goal.split(":")[1])
        assert best["win_within_losses"][k] == pytest.approx(
            max(v[2][k] for v in direct.values()))
    out = r.to_json()["optimise"]
    assert out["goal"] == goal and out["best"] == best
    assert r.summary().count("<- best") == 1


@pytest.mark.parametrize("goal", ["fastest", "win-within:", "win-within:-1", 3])
def test_bad_goal_is_one_line(goal, capsys):
    with pytest.raises(OddsError, match="goal: .*allowed: max-win, min-losses, win-within:K"):
        campaign(5, defense_dice=3, optimise=True, goal=goal)
    argv = ["oath", "campaign", "--warbands", "5", "--defense-dice", "3", "--goal", str(goal)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
