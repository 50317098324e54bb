"""The Diet of Worms' roll as a game's record gives it (core.rolled): the Protestant's dice
(its card's CP + 4, `attacker_dice`: the Protestant is the record's side) and the Papacy's and
Hapsburgs' together (their cards' CP, `defender_dice`), hitting on 5-6. With the cards given,
their CP fix the dice; with the hands given, each side's card is its choice, which the record
names in `choices` (`protestant_card`, and `catholic_cp`, the CP the Papacy and the
Hapsburgs committed together), each allowed with its chance under the optimal mixed choices
the answer assumes. More hits flip that many more spaces (diet.py's `summarise`)."""
from __future__ import annotations

from functools import lru_cache

from ...core.rolled import Outcome
from ...errors import check_choice, check_probability
from ..rolls.reading import BATTLE_DIE
from .diet import HANDS, PROTESTANT_BONUS, MEASURES, SIDES, Game, _cards, _hand


@lru_cache(maxsize=256)
def _chances(p_cp, papal, hapsburg, cp_value, measure) -> tuple:
    """({Protestant CP: its chance}, {Catholic CP together: its chance}) of the card game's
    optimal mixed choices (diet.py's Game), once per situation."""
    game = Game.make(list(p_cp), list(papal), list(hapsburg), cp_value, measure)
    _, rows, columns = game.solve()
    return dict(zip(p_cp, rows.tolist())), dict(zip(game.totals, columns.tolist()))


def read(keywords: dict, record) -> Outcome:
    """attacker_dice (the Protestant's), defender_dice (the Papacy's and the Hapsburgs'), hits
    on 5-6; with hands, choices: protestant_card, catholic_cp."""
    hands = [_hand(name, keywords[name]) for name in HANDS]
    p_cp, papal, hapsburg = _cards(tuple(keywords[f"{s}_card"] for s in SIDES), hands)
    if any(hands):
        protestant_chances, catholic_chances = _chances(
            tuple(p_cp), tuple(papal), tuple(hapsburg),
            check_probability("cp_value", keywords["cp_value"]),
            check_choice("measure", keywords["measure"], tuple(MEASURES)))
        protestant = record.choice("protestant_card", protestant_chances,
                                   "the CP of the card the Protestant committed, from its hand")
        catholic = record.choice("catholic_cp", catholic_chances,
                                 "the CP the Papacy and the Hapsburgs committed together, from their hands")
    else:
        protestant, catholic = p_cp[0], papal[0] + hapsburg[0]
    ph = record.hits("attacker_dice", "attacker", protestant + PROTESTANT_BONUS, BATTLE_DIE)
    ch = record.hits("defender_dice", "defender", catholic, BATTLE_DIE)
    return Outcome(ph > ch, {"protestant_flips": max(0, ph - ch), "catholic_flips": max(0, ch - ph)},
                   dealt={"attacker": "protestant_flips", "defender": "catholic_flips"})
