"""Oath campaign (docs/rules.md, Oath campaign): rules, exact engine, public function `campaign`.

Outcome joint: ``joint[win, attacker_losses, defender_losses]``. On a win the attacker loses
exactly its skulls and its sacrifice, so P(win while losing at most k to skulls and
sacrifice) is a cumulative sum of ``joint[1]``. `rules.resolve` states the rule once: it
builds `outcome_table` (the joint cell of every attack x skulls x defense), which the exact
engine weights by probability and the Monte Carlo kernel (kernel.py) counts into.

Defense totals are capped at ``cap = (largest attack) + warbands + 1``: every defense at or
above the cap beats any attack plus any sacrifice, so all of them give the same outcome.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from ...core.engine import Cost, McOptions, Procedure, checkpoint, exact_clock, memory_budget, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...core.result import Result
from ...errors import OddsError, check_bool, check_choice, check_int, check_list, shown
from ...i18n import N_, _, npgettext, pgettext
from . import decision
from .dice import attack_pmf, defense_values
from ...registry import Example, Param, Spec, register
from .plans import EDITIONS, PLANS, Setup, apply_plans
from .rules import outcome_grid

MAX_WARBANDS = 60
MAX_DICE = 60
MAX_DEFENDERS = 200
CACHED_GRID_CELLS = 20_000  # outcome grids of at most this many cells are kept (256 of them, < 41 MB)
TITLES = {"none": 0, "oathkeeper": 1, "usurper": 2, "imperial": 1}
IMPERIAL_TITLE = ("always", "chancellor-oathkeeper")
PAWN_AND_FAVOR_DICE = 2
TARGETS = ("sites", "relics", "banners", "pawn_and_favor", "title")  # instead of defense_dice

WORDS = Words(within_prefix={"win_within_losses_": ("attacker_win",)})


@dataclass(frozen=True)
class Rules:
    """Everything the engines need, after validation and plans."""

    warbands: int
    setup: Setup
    defenders: int
    defender_loss: int  # warbands the defender loses if it loses (0 for bandits)
    sac_cap: int
    commit_quantile: float | None  # New Foundations: commit to beat this quantile of defense

    @property
    def committed(self) -> bool:
        """New Foundations: the sacrifice is committed before the defense roll."""
        return self.commit_quantile is not None

    @cached_property
    def commit_to(self) -> int:
        """The defense total a New Foundations attacker commits to beat: the smallest total
        at or above which the defense falls with probability `commit_quantile` (0 in Law)."""
        if not self.committed:
            return 0
        return int(np.searchsorted(np.cumsum(self.defense_pmf), self.commit_quantile - 1e-12))

    @cached_property
    def attack(self) -> np.ndarray:
        """A[attack, skulls] of the attack dice."""
        return attack_pmf(self.setup.attack_die, self.setup.attack_dice)

    @cached_property
    def cap(self) -> int:
        return self.attack.shape[0] - 1 + self.warbands + 1

    @cached_property
    def defense_pmf(self) -> np.ndarray:
        """Pmf of the defense total (dice + defending warbands), capped at `cap`."""
        values, probs = defense_values(self.setup.defense_die, self.setup.defense_dice)
        capped = np.minimum(values + self.defenders, self.cap)
        return np.bincount(capped, weights=probs, minlength=self.cap + 1)

    @property
    def shape(self) -> tuple:
        return (2, self.warbands + 1, self.defender_loss + 1)

    @cached_property
    def outcomes(self) -> np.ndarray:
        """outcome_table of these rules."""
        return outcome_table(self)

    @property
    def grid_shape(self) -> tuple:
        """(attack totals, skulls, defense totals) of `outcomes`, from the dice faces alone
        (the pmfs' shapes: every symbol's largest face count times the dice)."""
        n = self.setup.attack_dice
        top = [n * max(face.symbols[i] for face in self.setup.attack_die) for i in range(3)]
        attack = top[0] + top[1] // 2 + 1
        return attack, top[2] + 1, attack + self.warbands + 1

    def cost(self, dice_pmf: bool = True) -> Cost:
        """The exact engine's cost: the outcome grid (a few int64 arrays of its size) and,
        with `dice_pmf`, the attack dice's pmf (dice x faces x its cells; cached, and with it
        every smaller count's). Calibrated on the development machine: 60 dice against 60,
        0.4 s and 150 MB; a decision table of 60 warbands (244 such grids, smaller), 3 s."""
        cells = int(np.prod(self.grid_shape))
        n, faces = self.setup.attack_dice, len(self.setup.attack_die)
        pmf = n * faces * (2 * n + 1) * (n + 1) * (n + 1) / 4 if dice_pmf else 0
        return Cost(0.025 * cells + 0.005 * pmf + 100, 100 * cells,
                    _("an outcome grid of {cells:,} cells").format(cells=cells), _("fewer dice or warbands"))


def outcome_table(r: Rules) -> np.ndarray:
    """T[attack, skulls, defense]: the flat index into the joint of that roll's outcome.

    The exact engine weights it by the roll's probability; the kernel counts into it. Grids
    of up to CACHED_GRID_CELLS cells are kept (repeated questions), larger ones are not.
    """
    key = (*r.attack.shape, len(r.defense_pmf), r.warbands, r.defender_loss, r.sac_cap,
           r.commit_to, r.committed)
    return _outcome_grid(*key) if np.prod(key[:3]) <= CACHED_GRID_CELLS else outcome_grid(*key)


@lru_cache(maxsize=256)
def _outcome_grid(*key):
    out = outcome_grid(*key)
    out.setflags(write=False)
    return out


def exact_joint(r: Rules) -> np.ndarray:
    """The joint outcome distribution: attack x skulls x defense, resolved on a grid."""
    weight = r.attack[:, :, None] * r.defense_pmf[None, None, :]
    index = outcome_table(r)  # not r.outcomes: a decision table's rows keep no grid
    return np.bincount(index.ravel(), weights=weight.ravel(), minlength=np.prod(r.shape)).reshape(r.shape)


def summarise(joint):
    """P(win), P(win within k losses) for every k, and both loss pmfs (linear in the joint)."""
    within = np.cumsum(joint[1].sum(axis=1))
    probabilities = {"attacker_win": joint[1].sum()}
    probabilities.update({f"win_within_losses_{k}": p for k, p in enumerate(within)})
    pmfs = {"attacker_losses": joint.sum(axis=(0, 2)), "defender_losses": joint.sum(axis=(0, 1))}
    return probabilities, pmfs


@dataclass(frozen=True)
class CampaignResult(Result):
    """A Result with the win-within-losses curve grouped and, if asked, the decision table
    (decision.py): rows of choices, the goal, and the index of the best row."""

    optimiser: tuple = ()  # rows: decision.row dicts
    goal: str = "max-win"
    best: int | None = None

    @property
    def win_within_losses(self) -> dict:
        """k -> P(win while losing at most k warbands to skulls and sacrifice)."""
        return {int(name.rsplit("_", 1)[1]): p for name, p in self.probabilities.items()
                if name.startswith("win_within_losses_")}

    def to_json(self) -> dict:
        out = super().to_json()
        within = {}
        for k, p in self.win_within_losses.items():
            out.pop(f"win_within_losses_{k}")
            out.pop(f"win_within_losses_{k}_se")
            within[str(k)] = p
        out["win_within_losses"] = within
        out["win_within_losses_se"] = {k: float(self.se(p)) for k, p in within.items()}
        if self.optimiser:
            out["optimise"] = {"table": list(self.optimiser), "goal": self.goal,
                               "best": self.optimiser[self.best]}
        return out

    def _summary(self, width: int) -> str:
        text = super()._summary(width)
        if not self.optimiser:
            return text
        return "\n".join([text, *decision.table_text(self.optimiser, self.goal, self.best)])


def _explain(rules, warbands, attack_dice, defense, defense_dice, defenders, bandits, sources) -> tuple:
    """The dice each side rolls, in Oath's words («кубы нападения», «кубы защиты»)."""
    n_attack, n_defense = rules.setup.attack_dice, rules.setup.defense_dice
    attack = npgettext("oath", "{n} attack die", "{n} attack dice", n_attack).format(n=n_attack)
    chosen = _("{n} chosen of {warbands}, after plans").format(
        n=attack_dice, warbands=npgettext("oath", "{n} warband", "{n} warbands", warbands).format(n=warbands))
    given = (_("{n} given").format(n=defense) if defense_dice is not None else " + ".join(
        _("{n} from {what}").format(n=n, what=_(what)) for what, n in sources if n)
        or _("0 from the targets"))
    side = (npgettext("oath", "{n} bandit", "{n} bandits", defenders) if bandits else
            npgettext("oath", "{n} warband", "{n} warbands", defenders)).format(n=defenders)
    return (_("{role} rolls {dice}").format(role=pgettext("oath", "attacker"), dice=f"{attack} ({chosen})"),
            _("{role} rolls {dice}").format(
                role=pgettext("oath", "defender"),
                dice=npgettext("oath", "{n} defense die", "{n} defense dice", n_defense).format(n=n_defense)
                + " (" + given + _(", after plans") + ") + " + side))


def target_sources(sites, relics, banners, pawn_and_favor, title, imperial_title,
                   chancellor_oathkeeper) -> tuple:
    """(what, dice) of each kind of target, for the explanation: sites, relics, banners, the
    pawn and favor, the title."""
    return ((N_("sites"), target_dice(sites=sites)), (N_("relics"), target_dice(relics=relics)),
            (N_("banners"), target_dice(banners=banners)),
            (N_("the pawn and favor"), target_dice(pawn_and_favor=pawn_and_favor)),
            (TITLE_WORDS.get(title, title), target_dice(title=title, imperial_title=imperial_title,
                                                        chancellor_oathkeeper=chancellor_oathkeeper)))


TITLE_WORDS = {"none": N_("the none title"), "oathkeeper": N_("the oathkeeper title"),
               "usurper": N_("the usurper title"), "imperial": N_("the imperial title")}


def target_dice(sites=(), relics=(), banners=(), pawn_and_favor=False, title="none",
                imperial_title="always", chancellor_oathkeeper=False) -> int:
    """Defense dice from the targets: each site's and relic's shield number, one per favor or
    secret on each banner, 2 for pawn-and-favor, plus one title bonus (Oathkeeper +1,
    Usurper +2, imperial +1: always by the seed's wording, or only while the Chancellor holds
    the Oathkeeper title with imperial_title='chancellor-oathkeeper')."""
    title = check_choice("title", title, tuple(TITLES))
    imperial_title = check_choice("imperial_title", imperial_title, IMPERIAL_TITLE)
    total = 0
    for field, items in (("sites", sites), ("relics", relics), ("banners", banners)):
        if isinstance(items, (int, str)):
            raise OddsError(f"{field}: {shown(items)} is not a list of numbers")
        total += sum(check_int(f"{field}[{i}]", v, 0, MAX_DICE)
                     for i, v in enumerate(check_list(field, items)))
    total += PAWN_AND_FAVOR_DICE * bool(pawn_and_favor)
    bonus = TITLES[title]
    if title == "imperial" and imperial_title == "chancellor-oathkeeper" and not chancellor_oathkeeper:
        bonus = 0
    return total + bonus


COMMIT_QUANTILE = 0.5  # New Foundations default: commit what beats the median defense
SACRIFICE_POLICIES = "as-needed, never, at-most:K (K >= 0), to-beat:P (new-foundations, P 1-100)"


def _median_commit(call: dict) -> bool:
    """True when a New Foundations attacker commits by the tool's reading of a player (what
    beats the median defense: 'as-needed', or 'at-most:K' capped)."""
    policy = str(call["sacrifice"]).strip().lower()
    return call["edition"] == "new-foundations" and (policy == "as-needed" or policy.startswith("at-most"))


def _quantiles(call: dict) -> list:
    """The commitment at other percentiles of the defense (not for a capped commitment)."""
    if str(call["sacrifice"]).strip().lower() != "as-needed":
        return []
    return [(f"sacrifice=to-beat:{q}", {"sacrifice": f"to-beat:{q}"}) for q in (25, 75, 100)]


READINGS = (
    Reading("imperial_title", "the imperial title's +1", "always",
            "the seed's wording gives the imperial defender +1 always; the printed rule only "
            "while the Chancellor holds the Oathkeeper title (docs/rules.md, Oath)",
            alternatives=("chancellor-oathkeeper",),
            when=lambda call: call["title"] == "imperial"),
    Reading("commitment", "the New Foundations commitment", "what beats the median defense",
            "New Foundations commits sacrifices before the defense roll; what a player commits "
            "is the tool's reading of 'as-needed' (docs/rules.md, Oath)", keywords=("sacrifice",),
            when=_median_commit, given_by=lambda call, given: False, points=_quantiles,
            shown=lambda call: N_("the median defense"), tried="to-beat:25, to-beat:75, to-beat:100",
            none="a capped commitment (at-most:K) has no other percentile to try; give "
                 "--sacrifice to-beat:P"),
)


def parse_sacrifice(policy, edition="law") -> tuple[int | None, float | None]:
    """(cap, commit quantile) of a sacrifice policy (any case).

    Law of Oath: 'as-needed' sacrifices what the rolls need, 'never' nothing, 'at-most:K' the
    need if it is at most K. New Foundations (committed before the defense roll): 'as-needed'
    commits what beats the median defense total, 'at-most:K' the same capped at K,
    'to-beat:P' what beats the defense total at its P-th percentile (100: every possible
    defense), 'never' nothing.
    """
    text = policy.strip().lower() if isinstance(policy, str) else None
    name, _sep, arg = (text or "").partition(":")
    quantile = COMMIT_QUANTILE if edition == "new-foundations" else None
    number = _whole(arg)
    if text in ("as-needed", "never"):
        return (0 if text == "never" else None), quantile
    if name == "at-most" and number is not None and number >= 0:
        return number, quantile
    if name == "to-beat" and number is not None and 1 <= number <= 100:
        if quantile is None:
            raise OddsError(f"sacrifice: {policy!r} commits before the defense roll, which only "
                            "the new-foundations edition does (allowed: as-needed, never, at-most:K)")
        return None, number / 100
    raise OddsError(_("sacrifice: {policy} is not a policy (allowed: {policies})").format(
        policy=repr(policy), policies=SACRIFICE_POLICIES))


def _whole(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def make_rules(warbands, attack_dice, defense, defenders, bandits, sacrifice, plans, edition) -> Rules:
    setup = apply_plans(Setup(attack_dice, defense), plans, edition)
    for field, n in ((N_("attack dice after plans"), setup.attack_dice),
                     (N_("defense dice after plans"), setup.defense_dice)):
        if n > MAX_DICE:
            raise OddsError(_("{field}: {value} is out of range (allowed: {allowed})").format(
                field=_(field), value=n, allowed=_("{low} to {high}").format(low=0, high=MAX_DICE)))
    cap, quantile = parse_sacrifice(sacrifice, edition)
    caps = [c for c in (cap, setup.sacrifice_cap) if c is not None]
    sac_cap = min([warbands] + caps)
    return Rules(warbands, setup, defenders, 0 if bandits else defenders // 2, sac_cap, quantile)


def _kernel_args(r: Rules):
    from .kernel import kernel_args

    return kernel_args(r)


def campaign(warbands, *, attack_dice=None, defense_dice=None, sites=(), relics=(), banners=(),
             pawn_and_favor=False, title="none", imperial_title="always", chancellor_oathkeeper=False,
             defenders=0, bandits=False, sacrifice="as-needed", plans=(), edition="law",
             optimise=False, goal="max-win", method="auto", trials=None, seed=None, precision=None,
             max_trials=10**9, threads=None, progress=None) -> CampaignResult:
    """Odds of an Oath campaign.

    `warbands`: the attacker's warbands on its board; `attack_dice` (default: all of them,
    fewer allowed). Defense dice are `defense_dice`, or computed from the targets (`sites`,
    `relics`: shield numbers; `banners`: favor/secret counts; `pawn_and_favor`; the
    defender's `title`: none, oathkeeper, usurper, imperial; setting `imperial_title`:
    'always' (seed) or 'chancellor-oathkeeper' (printed rule, with `chancellor_oathkeeper`)).
    `defenders`: defending warbands (bandits if `bandits`, which never die). `sacrifice`:
    'as-needed', 'never', 'at-most:K' or, in new-foundations, 'to-beat:P' (see
    parse_sacrifice). `plans`: names with optional ':ARG' (see
    odds.oath.campaigns.plans.PLANS). `edition`: 'law' or 'new-foundations' (attacker rolls first and
    commits its sacrifice before the defense roll: by default what beats the median
    defense). `optimise`: add the decision table (decision.py: every attack dice count and
    sacrifice policy, exact P(win), expected losses, losses per win, P(win within k losses)),
    the best row for `goal` ('max-win', 'min-losses', 'win-within:K') marked.

    Returns a CampaignResult: attacker_win, win_within_losses_k for every k, pmfs
    attacker_losses and defender_losses (warbands).
    """
    warbands = check_int("warbands", warbands, 0, MAX_WARBANDS)
    for name, flag in (("pawn_and_favor", pawn_and_favor), ("chancellor_oathkeeper", chancellor_oathkeeper),
                       ("bandits", bandits), ("optimise", optimise)):
        check_bool(name, flag)
    attack_dice = warbands if attack_dice is None else check_int(
        "attack_dice", attack_dice, 0, warbands, _(", at most one per warband"))
    defenders = check_int("defenders", defenders, 0, MAX_DEFENDERS)
    edition = check_choice("edition", edition, EDITIONS)
    title = check_choice("title", title, tuple(TITLES))
    imperial_title = check_choice("imperial_title", imperial_title, IMPERIAL_TITLE)
    parse_sacrifice(sacrifice, edition)
    decision.parse_goal(goal)
    plans = list(check_list("plans", plans))
    targets = bool(sites or relics or banners or pawn_and_favor or title != "none")
    if defense_dice is not None and targets:
        raise OddsError(_("defense_dice: give either defense_dice or targets ({targets}), not both"
                          ).format(targets=", ".join(TARGETS)))
    if defense_dice is None and not targets:
        raise OddsError(_("defense_dice: missing (give defense_dice or at least one target)"))
    if bandits and title != "none":
        raise OddsError(f"title: {title!r} is not allowed when the defender is bandits (allowed: none)")
    if defense_dice is None:
        defense = target_dice(sites, relics, banners, pawn_and_favor, title, imperial_title,
                              chancellor_oathkeeper)
    else:
        defense = check_int("defense_dice", defense_dice, 0, MAX_DICE)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    rules = make_rules(warbands, attack_dice, defense, defenders, bandits, sacrifice, plans, edition)
    settings = {"warbands": warbands, "attack_dice": attack_dice,
                "attack_dice_rolled": rules.setup.attack_dice, "defense_dice": defense,
                "defense_dice_rolled": rules.setup.defense_dice, "defenders": defenders,
                "bandits": bool(bandits), "sacrifice": sacrifice, "plans": plans, "edition": edition}
    explain = _explain(rules, warbands, attack_dice, defense, defense_dice, defenders, bandits,
                       target_sources(sites, relics, banners, pawn_and_favor, title, imperial_title,
                                      chancellor_oathkeeper))
    if title == "imperial":
        settings["imperial_title"] = imperial_title
        settings["chancellor_oathkeeper"] = bool(chancellor_oathkeeper)
    if rules.committed and rules.sac_cap:
        settings["commitment"] = _("what beats the defense's {q}th percentile").format(
            q=round(100 * rules.commit_quantile))
    proc = Procedure("oath.campaign", rules.shape, summarise, "attacker_win",
                     lambda: exact_joint(rules), ("odds.oath.campaigns.kernel", "campaign_lane"),
                     lambda: _kernel_args(rules), settings, CampaignResult,
                     explain=explain,
                     cost=rules.cost, words=WORDS)
    if not optimise:
        return solve(proc, method, mc)
    table = {choice: make_rules(warbands, choice[0], defense, defenders, bandits, choice[1],
                                plans, edition)
             for choice in decision.choices(warbands, edition, sacrifice)}
    check_table(list(table.values()))
    result = solve(proc, method, mc)
    rows = []
    with exact_clock():
        for (n, policy), r in table.items():
            checkpoint()
            rows.append(decision.row(n, policy, exact_joint(r)))
    return result.with_changes(optimiser=tuple(rows), goal=goal, best=decision.best(rows, goal))


def check_table(table):
    """Refuse a decision table beyond the exact bounds (it is exact only: no Monte Carlo):
    its rows' costs (Rules.cost) add up; its memory is one row's at a time."""
    costs = [r.cost(dice_pmf=False) for r in table]  # the largest dice count's pmf: once
    largest = max(costs, key=lambda c: c.bytes)
    pmf = max(r.cost().work - c.work for r, c in zip(table, costs))
    total = Cost(sum(c.work for c in costs) + pmf, largest.bytes,
                 _("{n} rows, the largest {what}").format(n=len(costs), what=largest.what))
    why = total.refusal(memory_budget())
    if why:
        raise OddsError(f"optimise: the decision table is exact only: {why}; use fewer "
                        "warbands or optimise=False")


SPEC = register(Spec(
    "oath.campaign", campaign, (
        Param("warbands", "int", "the attacker's warbands on its board", low=0, high=MAX_WARBANDS,
              metavar="W"),
        Param("attack_dice", "int", "attack dice (default: one per warband)", low=0,
              high=MAX_WARBANDS, metavar="N"),
        Param("defense_dice", "int", "defense dice, instead of targets", low=0, high=MAX_DICE,
              metavar="D", clears=TARGETS),
        Param("sites", "ints", "a target site (its shield number, default 1), repeatable",
              low=0, high=MAX_DICE, flag="site", metavar="SHIELDS", cli={"nargs": "?", "const": 1},
              clears=("defense_dice",)),
        Param("relics", "ints", "a target relic (its shield number), repeatable", low=0,
              high=MAX_DICE, flag="relic", metavar="SHIELDS", clears=("defense_dice",)),
        Param("banners", "ints", "a target banner with this many favor or secrets, repeatable",
              low=0, high=MAX_DICE, flag="banner", metavar="TOKENS", clears=("defense_dice",)),
        Param("pawn_and_favor", "bool", "target the defender's pawn and favor (2 dice)",
              clears=("defense_dice",)),
        Param("title", "choice", "the defender's title", choices=tuple(TITLES),
              clears=("defense_dice",),  # bandits hold no title
              only_with={t: ({"bandits": (False,)},) for t in TITLES if t != "none"}),
        Param("imperial_title", "choice", "the imperial +1: always (one text of the rules) or only with "
              "the Chancellor holding the Oathkeeper title (the printed rule)", choices=IMPERIAL_TITLE),
        Param("chancellor_oathkeeper", "bool", "the Chancellor holds the Oathkeeper title"),
        Param("defenders", "int", "defending warbands (or bandits)", low=0, high=MAX_DEFENDERS,
              metavar="K"),
        Param("bandits", "bool", "the defender is bandits (never killed)"),
        Param("sacrifice", "text", "sacrifice policy: " + SACRIFICE_POLICIES, metavar="POLICY"),
        Param("plans", "cards", "a battle plan, repeatable: " + ", ".join(PLANS), flag="plan",
              choices=tuple(PLANS), metavar="NAME[:ARG]",
              policies={name: plan.args for name, plan in PLANS.items() if plan.args}),
        Param("edition", "choice", "rules edition", choices=EDITIONS),
        Param("optimise", "bool", "add the decision table: every dice count and sacrifice "
              "policy, exact P(win), expected losses, losses per win, P(win within k losses)"),
        Param("goal", "text", "the best row of the decision table: " + decision.GOALS,
              metavar="GOAL", needs=("optimise",))),
    "campaign: attack and defense dice, sacrifice, battle plans", ("oath", "campaign"),
    "attacker_win", kernels=("odds.oath.campaigns.kernel",), start={"warbands": 6, "defense_dice": 4},
    readings=READINGS,
    rolled="odds.oath.campaigns.rolled:read",
    examples=(
        Example("optimise two sites", dict(warbands=8, sites=[1, 1], defenders=2,
                                           sacrifice="at-most:1", optimise=True,
                                           goal="win-within:2"),
                "Oath campaign: 8 warbands against two sites and 2 defending warbands, "
                "sacrificing at most 1: the dice count that wins most is not the one that "
                "loses fewest", demo=True),
        Example("new foundations usurper", dict(warbands=6, sites=[2], relics=[1],
                                                title="usurper", defenders=2,
                                                edition="new-foundations",
                                                sacrifice="at-most:2"),
                "Oath: 6 warbands against a 2-shield site and a relic of the Usurper "
                "(2 warbands), New Foundations, committing at most 2 sacrifices, Monte Carlo",
                demo=True, mc={"method": "mc", "seed": 1}),
        Example("6v4+2", dict(warbands=6, defense_dice=4, defenders=2)),
        Example("fewer dice, x2 heavy", dict(warbands=5, attack_dice=3, defense_dice=5,
                                             defenders=1)),
        Example("never, 2 words", dict(warbands=9, defense_dice=6, defenders=1,
                                       sacrifice="never")),
        Example("at-most:2", dict(warbands=7, defense_dice=4, defenders=3, sacrifice="at-most:2")),
        Example("bandits + plans", dict(warbands=6, defense_dice=2, defenders=3, bandits=True,
                                        plans=["rusting-ray", "war-tortoise:defender",
                                               "attack:-1"])),
        Example("tortoise attacker + patrol + vow", dict(
            warbands=8, defense_dice=2,
            plans=["war-tortoise:attacker", "mounted-patrol", "vow-of-peace"])),
        Example("missing die", dict(warbands=1, attack_dice=0, defense_dice=1,
                                    plans=["attack:-2"])),
        Example("new foundations", dict(warbands=6, defense_dice=3, defenders=2,
                                        edition="new-foundations")),
        Example("13 vs 14 dice", dict(warbands=13, defense_dice=14, defenders=4)),
    ), words=WORDS))
