"""Oath campaign rules (docs/rules.md, Oath campaign), numpy only: the dice totals, and `resolve`, which builds
the outcome grid that the exact engine weights by probability and the kernel counts into.
Counts are warbands and symbol totals."""
import numpy as np

MULTIPLIER_CAP = 32  # shields * 2**min(m, 32): far above any attack total, so equivalent


def attack_total(swords, hollow):
    """Attack from dice: swords + one per pair of hollow swords (a lone hollow sword is 0)."""
    return swords + hollow // 2


def defense_total(shields, multipliers):
    """Defense from dice: shields doubled once per ×2 face (capped far above any attack)."""
    return shields * 2 ** np.minimum(multipliers, MULTIPLIER_CAP)


def resolve(attack, skulls, defense, warbands, defender_loss, sac_cap, commit_to, committed):
    """(win, attacker losses, defender losses) of one campaign (scalars or arrays).

    Each skull kills one warband. `committed` False (Law of Oath): after both rolls the
    attacker sacrifices exactly defense - attack + 1 warbands if that is at most what is left
    and at most `sac_cap`, else nothing. `committed` True (New Foundations): after its own
    roll, before the defense roll, the attacker commits min(what would beat a defense total of
    `commit_to`, what is left, `sac_cap`). Wins only if attack + sacrifice > defense; the loser kills half its
    army rounded down; the defender loses `defender_loss` warbands if it loses.
    """
    killed = np.minimum(skulls, warbands)
    left = warbands - killed
    if committed:
        sac = np.minimum(np.minimum(np.maximum(commit_to - attack + 1, 0), left), sac_cap)
        win = 1 * (attack + sac > defense)
    else:
        needed = np.maximum(defense - attack + 1, 0)
        win = 1 * ((needed <= left) & (needed <= sac_cap))
        sac = needed * win
    lost = 1 - win
    return win, killed + sac + lost * ((left - sac) // 2), win * defender_loss


def outcome_grid(a_top, k_top, d_top, warbands, defender_loss, sac_cap, commit_to, committed):
    """T[attack, skulls, defense]: the flat index into joint[win, attacker losses, defender
    losses] of every roll below (a_top, k_top, d_top)."""
    a = np.arange(a_top)[:, None, None]
    k = np.arange(k_top)[None, :, None]
    d = np.arange(d_top)[None, None, :]
    win, al, dl = resolve(a, k, d, warbands, defender_loss, sac_cap, commit_to, committed)
    return (win * (warbands + 1) + al) * (defender_loss + 1) + dl
