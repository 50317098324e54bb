"""An Oath campaign's roll as a game's record gives it (core.rolled): the attacker's attack
dice and the defender's defense dice by their faces (`attacker_dice = ["sword", "hollow",
"swords-skull"]`, `defender_dice = ["shield", "x2", "blank"]`), as many as the answer says
each side rolls after its plans. A face is what the die shows; what it counts for is the
campaign's (a plan may rewrite it: Rusting Ray's hollow swords count nothing). The totals and
the sacrifice (the policy given, or New Foundations' commitment) turn into the outcome through
rules.py's `resolve`, as in both engines."""
from __future__ import annotations

from fractions import Fraction

from ...core.rolled import Die, Outcome
from .dice import ATTACK_DIE, DEFENSE_DIE
from .procedure import make_rules, target_dice
from .rules import attack_total, defense_total, resolve

FACES = {"hollow": "hollow sword", "sword": "sword", "swords-skull": "two swords and skull",
         "blank": "blank", "shield": "shield", "shields": "two shields", "x2": "x2"}  # as a
# record writes a face -> the face's name in dice.py


def _die(name, printed) -> Die:
    """The Die of one of Oath's dice: its faces as a record writes them, each with its chance."""
    names = [n for n, full in FACES.items() if any(f.name == full for f in printed)]
    weights = tuple(Fraction(sum(f.name == FACES[n] for f in printed), len(printed)) for n in names)
    aliases = {full: short for short, full in FACES.items() if short in names}
    aliases.update({"×2": "x2", "two swords": "swords-skull", "skull": "swords-skull",
                    "two swords and a skull": "swords-skull", "hollow-sword": "hollow",
                    "two-shields": "shields"})
    return Die(name, tuple(names), weights=weights, aliases=aliases)


ATTACK = _die("Oath attack die", ATTACK_DIE)
DEFENSE = _die("Oath defense die", DEFENSE_DIE)


def _faces(record, role, count, die, faces) -> list:
    """The campaign's faces (dice.py, after plans) of the dice the record gives."""
    by_name = {}
    for face in faces:
        by_name.setdefault(face.name, face)
    return [by_name[FACES[f]] for f in record.dice(f"{role}_dice", role, count, die)]


def read(keywords: dict, record) -> Outcome:
    """attacker_dice (attack faces: hollow, sword, swords-skull), defender_dice (defense faces:
    blank, shield, shields, x2)."""
    kw = keywords
    attack_dice = kw["warbands"] if kw["attack_dice"] is None else kw["attack_dice"]
    defense = kw["defense_dice"] if kw["defense_dice"] is not None else target_dice(
        kw["sites"], kw["relics"], kw["banners"], kw["pawn_and_favor"], kw["title"],
        kw["imperial_title"], kw["chancellor_oathkeeper"])
    r = make_rules(kw["warbands"], attack_dice, defense, kw["defenders"], kw["bandits"],
                   kw["sacrifice"], kw["plans"], kw["edition"])
    attack = _faces(record, "attacker", r.setup.attack_dice, ATTACK, r.setup.attack_die)
    shields = _faces(record, "defender", r.setup.defense_dice, DEFENSE, r.setup.defense_die)
    total = int(attack_total(sum(f.swords for f in attack), sum(f.hollow for f in attack)))
    skulls = sum(f.skulls for f in attack)
    value = int(defense_total(sum(f.shields for f in shields), sum(f.multipliers for f in shields)))
    win, a_loss, d_loss = resolve(total, skulls, min(value + r.defenders, r.cap), r.warbands,
                                  r.defender_loss, r.sac_cap, r.commit_to, r.committed)
    return Outcome(bool(win), {"attacker_losses": int(a_loss), "defender_losses": int(d_loss)})
