"""The Diet of Worms (Here I Stand §18.1): exact engine and API.

The Protestant, the Papacy and the Hapsburgs each commit one card, chosen in secret. The
Protestant rolls its card's CP + 4 dice; the Papacy and the Hapsburgs roll their cards' CP in
dice and add their hits. A die hits on 5-6. More Protestant hits flip that many more German
spaces to Protestant influence, more Catholic hits that many to Catholic; equal hits: nothing.
With the cards given, the answer is that roll; with the hands given, each side's choice is the
optimal mixed strategy of the card game (choice.py), and the answer the roll under those
choices. Outcome joint: ``joint[Protestant hits, Catholic hits]``; the kernel (kernel.py)
fills the same joint, drawing the cards from the strategies, then each side's hits.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.dice import binomial_pmf
from functools import lru_cache

from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...core.result import Result
from ...errors import OddsError, check_choice, check_int, check_list, check_probability, shown
from ...i18n import N_, _, decimal, percent
from ...registry import Example, Param, Spec, register
from ...texts import signed
from .choice import solve_game
from .thresholds import CHOSEN, Regimes, cards, mixed, sentence

PROTESTANT_BONUS = 4  # dice added to the Protestant card's CP
MAX_CP = 6  # the largest CP value of a card
DEFAULT_CARD = 3  # a card's CP when neither it nor the hands are given
MAX_HAND = 12  # cards listed in one hand
WORDS = Words("Protestant wins", (("protestant_win", "draw", "catholic_win"),))
SIDES = ("protestant", "papal", "hapsburg")
HANDS = tuple(f"{s}_hand" for s in SIDES)
MEASURES = {"spaces": N_("spaces"), "win": N_("in P(Protestant wins) minus P(Catholics win)")}  # the
# card game's payoff in words
UNITS = {"spaces": N_("spaces"), "win": N_("of P(win) minus P(loss)")}  # "a CP worth 0.1 {unit}"
MEASURE, CP_VALUE = "spaces", 0.5  # the readings chosen (READINGS): a choice measured in
# spaces, a CP kept worth half a space
MAX_CP_VALUE = 1.0  # a CP is worth at most one unit of the measure elsewhere


@dataclass(frozen=True)
class DietResult(Result):
    """A Result with the card game's answer, when the hands were given: each side's optimal
    choice and the payoff matrix (the roll's value to the Protestant in the measure's unit,
    without the cards' cost)."""

    choices: tuple = ()
    matrix: tuple = ()

    def _summary(self, width: int) -> str:
        """The answer, then the payoff matrix when the hands were given."""
        if not self.matrix:
            return super()._summary(width)
        totals = list(self.matrix[0])[1:]
        lines = ["  " + _("the roll to the Protestant, {measure} (rows: its CP; columns: the "
                          "Catholics' total CP; the cards apart):").format(
                     measure=_(MEASURES[self.settings["measure"]])),
                 "    " + " " * 6 + "".join(f"{c.split('_')[2]:>9}" for c in totals)]
        lines += [f"    {row['protestant_cp']:>6}" + "".join(f"{row[c]:>+9.3f}" for c in totals)
                  for row in self.matrix]
        return "\n".join([super()._summary(width), *lines])

    def to_json(self) -> dict:
        out = super().to_json()
        if self.choices:
            out.update(choices=[dict(c) for c in self.choices], matrix=[dict(r) for r in self.matrix])
        return out


def exact_joint(p_cp, p_weight, c_cp, c_weight) -> np.ndarray:
    """joint[Protestant hits, Catholic hits] with each side's CP drawn by its weights."""
    joint = np.zeros((max(p_cp) + PROTESTANT_BONUS + 1, max(c_cp) + 1))
    for cp, w in zip(p_cp, p_weight):
        for cc, v in zip(c_cp, c_weight):
            joint[: cp + PROTESTANT_BONUS + 1, : cc + 1] += w * v * np.outer(
                binomial_pmf(cp + PROTESTANT_BONUS), binomial_pmf(cc))
    return joint


def summarise(joint):
    """P(each side wins) and the pmfs of the spaces each side flips."""
    n, m = joint.shape
    margin = np.subtract.outer(np.arange(n), np.arange(m))
    size = max(n, m)
    protestant = np.bincount(np.clip(margin, 0, None).ravel(), joint.ravel(), size)
    catholic = np.bincount(np.clip(-margin, 0, None).ravel(), joint.ravel(), size)
    return ({"protestant_win": np.add.reduce(protestant[1:]), "draw": np.add.reduce(joint[margin == 0]),
             "catholic_win": np.add.reduce(catholic[1:])},
            {"protestant_flips": protestant, "catholic_flips": catholic})


def _cards(cards, hands):
    """Each side's card CP (a list of one) or its hand's distinct CP values: all three cards,
    or all three hands, never a mix."""
    values = [[check_int(f"{s}_hand", v, 1, MAX_CP) for v in h] for s, h in zip(SIDES, hands)]
    given = [h for h in hands if h]
    if given and len(given) < 3:
        missing = [f"{s}_hand" for s, h in zip(SIDES, hands) if not h]
        raise OddsError(_("{names}: missing (allowed: all three hands, or none and the three "
                          "cards)").format(names=", ".join(missing)))
    if given:
        for side, card in zip(SIDES, cards):
            if card is not None:
                raise OddsError(f"{side}_card: {shown(card)} given with the hands (allowed: the "
                                "cards or the hands, not both)")
        return [sorted(set(v)) for v in values]
    return [[check_int(f"{s}_card", DEFAULT_CARD if c is None else c, 1, MAX_CP)]
            for s, c in zip(SIDES, cards)]


def _hand(name, hand) -> tuple:
    hand = check_list(name, hand)
    if len(hand) > MAX_HAND:
        raise OddsError(f"{name}: {len(hand)} cards (allowed: at most {MAX_HAND})")
    return hand


def payoff(cp, catholic_cp, measure) -> float:
    """What the Protestant gains from the roll, in the measure's unit: the expected spaces
    flipped to Protestant minus to Catholic (`spaces`: the mean hits' difference,
    (cp + 4 - catholic_cp) / 3), or P(Protestant wins) - P(Catholic wins) (`win`)."""
    if measure == "spaces":
        return (cp + PROTESTANT_BONUS - catholic_cp) / 3
    p, _ = summarise(exact_joint([cp], [1.0], [catholic_cp], [1.0]))
    return p["protestant_win"] - p["catholic_win"]


@dataclass(frozen=True)
class Game:
    """The card game: the Catholic options by total CP (`pairs`: the two cards behind each),
    the roll's value to the Protestant (`roll[protestant option, catholic option]`, in the
    measure's unit), the CP it commits more than the Catholics (`spent`), the cp-value (the
    tool's or the caller's) and both optimal strategies under it."""

    p_cp: list
    totals: list
    pairs: dict
    roll: np.ndarray
    spent: np.ndarray
    cp_value: float
    measure: str

    @classmethod
    def make(cls, p_cp, papal, hapsburg, cp_value, measure):
        pairs = {}
        for a in papal:
            for b in hapsburg:
                pairs.setdefault(a + b, (a, b))
        totals = sorted(pairs)
        roll = np.array([[payoff(cp, t, measure) for t in totals] for cp in p_cp])
        return cls(p_cp, totals, pairs, roll, np.subtract.outer(p_cp, totals).astype(float),
                   cp_value, measure)

    def solve(self) -> tuple:
        """(value, Protestant strategy, Catholic strategy) at the cp-value."""
        return solve_game(self.roll - self.cp_value * self.spent)

    def protestant(self, options) -> str:
        if len(options) == 1:
            return _("a {n}-CP card").format(n=self.p_cp[options[0]])
        return _("{options} CP at random").format(options=_(" or ").join(str(self.p_cp[i]) for i in options))

    def catholic(self, options) -> str:
        if len(options) == 1:
            t = self.totals[options[0]]
            return _("{t} CP together ({a} + {b})").format(t=t, a=self.pairs[t][0], b=self.pairs[t][1])
        return _("{options} CP together at random").format(
            options=_(" or ").join(str(self.totals[i]) for i in options))

    def regimes(self) -> Regimes:
        """The game solved across cp-values 0 to MAX_CP_VALUE (kept: the same hands and
        measure give the same game whatever the cp-value)."""
        return _regimes(self.roll.tobytes(), self.spent.tobytes(), self.roll.shape)

    def advice(self, rows, columns) -> tuple:
        """Each side's choice by cp-value (each stretch where it holds, a mixed one with its
        shares), the choice at this cp-value, then the roll's value in the measure's unit
        and the cards' apart (a chance and a CP's worth elsewhere are not added up)."""
        unit = _(UNITS[self.measure])
        protestant, catholic = self.regimes().sides()
        roll = float(rows @ self.roll @ columns)
        p_cp, c_cp = float(rows @ self.p_cp), float(columns @ self.totals)
        cards_value = self.cp_value * (c_cp - p_cp)
        said = (lambda name: lambda options, w0, w1: mixed(options, w0, w1, name))
        if self.measure == "spaces":
            cards = _("at {cp} a CP that is {value} spaces to the Protestant elsewhere, {total} "
                      "spaces with the roll").format(cp=_g(self.cp_value), value=signed(cards_value, ".3f"),
                                                     total=signed(roll + cards_value, ".3f"))
        else:  # a CP's worth elsewhere and a chance do not add up to a chance
            more = c_cp - p_cp
            cards = ((_("{cp} more for the Catholics, ") if more > 0 else _("{cp} more for the Protestant, ")
                      ).format(cp=_cp(abs(more))) if abs(more) > 1e-9 else _("as many CP each, ")) + _(
                "each CP worth {cp} (the cp-value) elsewhere, apart from the roll's chances").format(
                cp=_g(self.cp_value))
        return (_("Protestant: {choice}.").format(
                    choice=sentence(protestant, said(lambda i: self.protestant((i,))), unit)),
                _("Papacy and Hapsburgs: {choice}.").format(
                    choice=sentence(catholic, said(lambda i: self.catholic((i,))), unit)),
                _("With a CP worth {cp} {unit} elsewhere (the cp-value): Protestant {p}; Papacy and "
                  "Hapsburgs {c}.").format(cp=_g(self.cp_value), unit=unit, p=_played(rows, self.protestant),
                                           c=_played(columns, self.catholic)),
                _("The roll: {value} {measure} to the Protestant.").format(
                    value=signed(roll, ".3f"), measure=_(MEASURES[self.measure])),
                _("The cards: the Protestant commits {p}, the Catholics {c}; {cards}.").format(
                    p=_cp(p_cp), c=_cp(c_cp), cards=cards))

    def values(self, rows, columns, value) -> dict:
        """The settings' values: the roll's, in the measure's unit (P(win) - P(loss) is at most
        1); in spaces also the cards' (the cp-value times the CP the Catholics commit more) and
        the game's (their sum). In `win` a CP's worth elsewhere is not a chance, so neither is
        given as one: the cp-value and the CP committed say it."""
        out = {"roll_value": round(float(rows @ self.roll @ columns), 4)}
        if self.measure == "spaces":
            out["cards_value"] = round(self.cp_value * float(columns @ self.totals - rows @ self.p_cp), 4)
            out["game_value"] = round(value, 4)
        return out


@lru_cache(maxsize=64)
def _regimes(roll: bytes, spent: bytes, shape: tuple) -> Regimes:
    return Regimes(np.frombuffer(roll).reshape(shape), np.frombuffer(spent).reshape(shape),
                   0.0, MAX_CP_VALUE)


def _cp(expected: float) -> str:
    """CP committed: '3 CP', or '4.64 CP on average' under a mixed choice."""
    return (f"{expected:g} CP" if float(expected).is_integer() else
            _("{cp} CP on average").format(cp=decimal(expected, 2)))


def _g(x: float) -> str:
    """A number as short as it reads, with the language's decimal sign (0.12; Russian 0,12)."""
    return f"{x:g}".replace(".", decimal(0.5, 1)[1])


def _played(weights, text) -> str:
    """A strategy at the cp-value in words: 'always a 1-CP card', or each option's share."""
    chosen = cards(weights)
    if len(chosen) == 1:
        return _("always {choice}").format(choice=text(chosen))
    return _("at random, ") + _(" or ").join(
        _("{choice} {share} of the time").format(choice=text((i,)), share=_percent(weights[i])) for i in chosen)


def _percent(w: float) -> str:
    """A share of the time: to the whole percent, never a played card's '0%' or '100%'."""
    return (_("under {p}").format(p=percent(0.01, 0)) if w < 0.005 else
            _("over {p}").format(p=percent(0.99, 0)) if w > 0.995 else percent(w, 0))


def diet_of_worms(*, protestant_card=None, papal_card=None, hapsburg_card=None, protestant_hand=(),
                  papal_hand=(), hapsburg_hand=(), measure=MEASURE, cp_value=CP_VALUE,
                  method="auto", trials=None,
                  seed=None, precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of the Diet of Worms (§18.1). The cards' CP (`protestant_card`, `papal_card`,
    `hapsburg_card`; None: DEFAULT_CARD), or the three hands' CP values (`*_hand`), from which each side picks its
    optimal mixed choice of the card game: the Protestant gains `measure` (`spaces`: expected
    spaces flipped to it net of those to the Catholics; `win`: P(it wins) - P(Catholics win)),
    less `cp_value` per CP it commits more than the Catholics (what a card would have done
    elsewhere this turn, in the measure's unit; `measure` and `cp_value` are readings:
    READINGS). Returns a DietResult:
    protestant_win, draw, catholic_win; pmfs protestant_flips, catholic_flips; with hands, the
    choices and the payoff matrix, and the advice."""
    hands = [_hand(f"{s}_hand", h) for s, h in zip(SIDES, (protestant_hand, papal_hand, hapsburg_hand))]
    p_cp, papal, hapsburg = _cards((protestant_card, papal_card, hapsburg_card), hands)
    cp_value = check_probability("cp_value", cp_value)  # one unit of the measure per CP at most
    measure = check_choice("measure", measure, tuple(MEASURES))
    settings = {"protestant_dice": [cp + PROTESTANT_BONUS for cp in p_cp]}
    choices, matrix, advice = (), (), ()
    if any(hands):
        game = Game.make(p_cp, papal, hapsburg, cp_value, measure)
        value, rows, columns = game.solve()
        c_cp, c_weight, p_weight = game.totals, columns, rows
        choices = tuple({"side": "Protestant", "cp": cp, "p_play": float(w)}
                        for cp, w in zip(p_cp, rows) if w > CHOSEN) + tuple(
            {"side": "Catholic", "cp": t, "p_play": float(w)} for t, w in zip(c_cp, columns)
            if w > CHOSEN)
        matrix = tuple({"protestant_cp": cp, **{f"payoff_vs_{t}_cp": round(float(x), 4)
                                                for t, x in zip(c_cp, row)}}
                       for cp, row in zip(p_cp, game.roll))
        advice = game.advice(rows, columns)
        settings.update(measure=measure, cp_value=cp_value, **game.values(rows, columns, value))
    else:
        c_cp, c_weight, p_weight = [papal[0] + hapsburg[0]], np.ones(1), np.ones(1)
    settings["catholic_dice"] = list(c_cp)
    explain = (_("Protestant rolls its card's CP + {n} dice; the Papacy and the Hapsburgs roll their "
                 "cards' CP together; each 5-6 is a hit").format(n=PROTESTANT_BONUS),)

    def kernel_args():
        from .kernel import kernel_args

        return kernel_args([cp + PROTESTANT_BONUS for cp in p_cp], p_weight, c_cp, c_weight)

    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    shape = (max(p_cp) + PROTESTANT_BONUS + 1, max(c_cp) + 1)
    proc = Procedure("his.diet_of_worms", shape, summarise, "protestant_win",
                     lambda: exact_joint(p_cp, p_weight, c_cp, c_weight),
                     ("odds.his.worms.kernel", "diet_lane"), kernel_args, settings,
                     DietResult, explain=explain, words=WORDS)
    result = solve(proc, method, mc)
    return result.with_changes(choices=choices, matrix=matrix, advice=advice)


def _hands(call: dict) -> bool:
    return all(call[h] for h in HANDS)


def cp_points(call: dict) -> list:
    """The cp-values worth trying for this call's hands: one in each stretch where both sides'
    choices hold, each end of a stretch where one mixes, and 0 and 1 (thresholds.Regimes)."""
    try:
        p_cp, papal, hapsburg = _cards((None, None, None), [_hand(h, call[h]) for h in HANDS])
        measure = check_choice("measure", call["measure"], tuple(MEASURES))
    except OddsError:
        return []
    game = Game.make(p_cp, papal, hapsburg, CP_VALUE, measure)
    current = call["cp_value"]
    return [(f"cp_value={c:g}", {"cp_value": c}) for c in game.regimes().points() if c != current]


READINGS = (
    Reading("measure", "the measure", MEASURE,
            "the tool's model of the card game: what the sides choose their cards for "
            "(expected net spaces, or P(win) minus P(loss)); the rulebook says only that each "
            "side picks a card", alternatives=tuple(m for m in MEASURES if m != MEASURE),
            when=_hands),
    Reading("cp_value", "the cp-value", CP_VALUE,
            "the tool's model of the card game: what a committed CP would have won elsewhere "
            "this turn, in the measure's unit; the rulebook fixes no such number (the advice "
            "gives the cp-values where each side's choice changes)", low=0.0, high=MAX_CP_VALUE,
            points=cp_points, when=_hands,
            tried="0 to 1: a cp-value in each stretch where both sides' choices hold, the ends of "
                  "each where one mixes"),
)


def _card(side, text):
    return Param(f"{side}_card", "int", f"{text} ({DEFAULT_CARD} when no hands are given)",
                 low=1, high=MAX_CP,
                 clears=HANDS)


def _hand_param(side, text):
    return Param(f"{side}_hand", "ints", text, low=1, high=MAX_CP,
                 clears=tuple(f"{s}_card" for s in SIDES))


register(Spec(
    "his.diet_of_worms", diet_of_worms, (
        _card("protestant", "CP of the Protestant's card, which rolls CP + 4 dice"),
        _card("papal", "CP of the Papacy's card"),
        _card("hapsburg", "CP of the Hapsburgs' card"),
        _hand_param("protestant", "the CP of a card the Protestant may commit, repeatable (all three hands: the best choice)"),
        _hand_param("papal", "the CP of a card the Papacy may commit, repeatable"),
        _hand_param("hapsburg", "the CP of a card the Hapsburgs may commit, repeatable"),
        Param("measure", "choice", "what the sides choose their cards for: spaces (expected "
              "net spaces) or win (P(Protestant wins) - P(Catholics win))",
              choices=tuple(MEASURES), needs=HANDS),
        Param("cp_value", "float", "what a committed CP would have won elsewhere, in the "
              "measure's unit (the card game's cost; the advice also gives the cp-values where "
              "each choice changes)", low=0.0, high=MAX_CP_VALUE, needs=HANDS)),
    "Diet of Worms (§18.1): CP + 4 dice against the Catholic CP", ("his", "diet-of-worms"),
    "protestant_win", kernels=("odds.his.worms.kernel",), words=WORDS, readings=READINGS,
    rolled="odds.his.worms.rolled:read",
    examples=(Example("three against three and three", {}, "Diet of Worms: 3-CP cards all round"),
              Example("hands", {"protestant_hand": [2, 3, 5], "papal_hand": [1, 3, 4],
                                "hapsburg_hand": [1, 2], "measure": "win", "cp_value": 0.12},
                      "Diet of Worms: the best card from each hand, playing to win (a mixed "
                      "choice: neither side may be predictable)", demo=True)),
    start={"protestant_card": 3, "papal_card": 3, "hapsburg_card": 3}))
