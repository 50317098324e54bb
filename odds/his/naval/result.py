"""What a naval joint means: the probabilities and loss pmfs of `summarise` (linear: the exact
joint and the kernel's counts alike) and the `NavalResult`, whose JSON carries the ruleset."""
from __future__ import annotations

import numpy as np

from ...core.result import Result
from .ruleset import RULESET_KEYS


def summarise(joint, port: bool, cards=()):
    """Probabilities and loss pmfs from the joint (linear: works on counts too).

    A side is destroyed when it has no ship and no corsair left (its naval leaders go to the
    turn track). It retreats when it has survivors and either lost or attacked a port.
    `cards`: (role, name) of the after-roll cards in play order, for how often each is played.
    """
    sa, sd, ca, cd = (n - 1 for n in joint.shape[1:])
    a_dead = joint[:, sa, :, ca, :].sum()
    d_dead = joint[:, :, sd, :, cd].sum()
    by_code = joint.sum(axis=(1, 2, 3, 4))
    code = np.arange(len(by_code))
    a_win = (by_code * (code & 1)).sum()
    d_win = (by_code * (1 - (code & 1))).sum()
    a_dead_loses = joint[0::2, sa, :, ca, :].sum()
    d_dead_loses = joint[1::2, :, sd, :, cd].sum()
    probabilities = {
        "attacker_win": a_win,
        "attacker_destroyed": a_dead,
        "defender_destroyed": d_dead,
        "both_destroyed_rule": (by_code * (code >> 1 & 1)).sum(),
        "attacker_retreats": (a_win + d_win - a_dead) if port else d_win - a_dead_loses,
        "defender_retreats": 0 * a_win if port else a_win - d_dead_loses,
    }
    for i, (role, card) in enumerate(cards, 2):
        probabilities[f"{role}_plays_{card.replace('-', '_')}"] = (by_code * (code >> i & 1)).sum()
    pmfs = {"attacker_losses": joint.sum(axis=(0, 2, 3, 4)),
            "defender_losses": joint.sum(axis=(0, 1, 3, 4)),
            "attacker_corsair_losses": joint.sum(axis=(0, 1, 2, 4)),
            "defender_corsair_losses": joint.sum(axis=(0, 1, 2, 3))}
    return probabilities, pmfs


class NavalResult(Result):
    """A Result whose JSON also carries the ruleset name and its numbers at the top level."""

    def to_json(self) -> dict:
        out = super().to_json()
        head = {"procedure": out.pop("procedure"), "ruleset": self.settings["ruleset"]}
        numbers = {k: out["settings"][k] for k in RULESET_KEYS}
        return {**head, **out, **numbers}
