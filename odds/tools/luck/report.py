"""`odds.luck(record)`: how lucky each side was, roll by roll and over the whole game.

Each roll is scored for each side it names from its situation's exact distributions: the
losses it dealt (`hits`: more is luckier), the losses it took (fewer is luckier) and whether
it won (the procedure's headline event for the attacker, its complement for the defender).
A roll's `percentile` is its mid-p percentile (odds.tools.luck.percentiles) on its hits when
recorded, else on the win, else on the losses taken. The whole game sums each measure per
side over the rolls that record it: the sum's exact distribution is the convolution of the
rolls' (they are independent), its percentile is the game's luck.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...errors import OddsError
from . import dice as own
from . import percentiles as pc
from .observed import observe
from .record import Refused, titled
from .situations import Situations

SAMPLE = Path(__file__).parent / "samples" / "his_1532.toml"  # 27 rolls invented for illustration
MEASURES = {"hits": 1, "wins": 1, "losses": -1}  # measure -> +1 when more is luckier
ROLL_COLUMNS = ("line", "procedure", "side", "role", "against", "measure", "percentile",
                "p_at_least", "won", "p_win", "hits", "expected_hits", "losses", "expected_losses",
                *own.ROLL)
COLUMNS = (*ROLL_COLUMNS, "plotted", "cumulative", "band_low", "band_high", "dice_cumulative",
           "dice_band_low", "dice_band_high")
GAME = ("side", "measure", "rolls", "actual", "expected", "percentile", "p_at_least", "low", "high",
        "overall")


def luck(record, *, paths: bool = True):
    """A DataFrame with a row per roll and side (COLUMNS; `percentile` from 0 to 100, the
    `cumulative` luck of the side so far, actual minus expected, in its plotted measure, and
    its 5-95% band); `.attrs` (plain data, so frames concatenate): `game` (a dict per side
    and measure: rolls, actual, expected, percentile, p_at_least, low, high, and `overall`:
    the side's one number, its plotted measure; `whole_game(frame)` as a DataFrame), `dice`
    (the dice's own luck, a dict per side, kind of die and measure: records/dice.py; `dice(frame)`
    as a DataFrame), `refused` (lines naming the rolls not reported), `situations` (the
    distinct situations of the rolls scored), `title` (the record's own, or ""). A roll's own dice are in its `dice_*` columns
    (the hits of its hitting dice, else the total of its numbered dice, with its percentile). `record`: a .toml or .csv path, a record's text, or a list of dicts
    (docs/luck.md); `paths=False` reads a text as a record even when it looks like a path
    (the web page)."""
    import pandas as pd

    entries, refused, title = titled(record, paths)
    situations, asked, rows, pmfs, dice_pmfs, thrown = Situations(), [], [], [], [], {}
    for entry in entries:  # every roll checked, its situation estimated, before any is solved
        try:
            asked.append((entry, situations.ask(entry)))
        except OddsError as e:
            refused.append(Refused(entry.where(_field(e, entry)), str(e)))
    situations.solve()
    used = set()  # the distinct situations of the rolls scored
    for entry, key in asked:
        try:
            scored = _score(entry, situations.result(key), *situations.reading(key))
        except OddsError as e:
            refused.append(Refused(entry.where(_field(e, entry)), str(e)))
            continue
        used.add(key)
        for row, dist, dice_dist, dice in scored:
            rows.append(row)
            pmfs.append(dist)
            dice_pmfs.append(dice_dist)
            thrown.setdefault(str(row["side"]), []).extend(dice)
    refused = [str(r) for r in sorted(refused, key=lambda r: r.line)]
    if not rows:
        raise OddsError("record: no roll could be read; " + "; ".join(refused[:3]))
    frame = pd.DataFrame(rows, columns=ROLL_COLUMNS)
    game = _game(frame, pmfs)
    own.cumulative(frame, dice_pmfs)
    frame = frame[list(COLUMNS)]
    frame.attrs.update(game=game, dice=own.game(thrown), refused=refused, situations=len(used),
                       title=title)
    return frame


def whole_game(frame):
    """The whole game of `luck()`'s frame as a DataFrame: a row per side and measure (GAME)."""
    import pandas as pd

    return pd.DataFrame(frame.attrs["game"], columns=GAME)


def dice(frame):
    """The dice's own luck of `luck()`'s frame as a DataFrame: a row per side, kind of die and
    measure (records/dice.py DICE)."""
    import pandas as pd

    return pd.DataFrame(frame.attrs["dice"], columns=own.DICE)


def to_json(frame) -> dict:
    """A luck frame as strict JSON (odds luck --json, the web's /api/luck): rolls, game, dice (the dice's own luck), refused, situations
    (NaN -> null)."""
    def records(df):
        return json.loads(df.to_json(orient="records"))
    return {"title": frame.attrs.get("title", ""), "rolls": records(frame), "game": frame.attrs["game"],
            "dice": frame.attrs["dice"], "refused": frame.attrs["refused"],
            "situations": frame.attrs["situations"]}


def _field(error: OddsError, entry) -> str | None:
    """The roll's field an error names (for its line), or None."""
    head = str(error).split(":")[0]
    return head if head in entry.lines or head in entry.outcome else None


def _score(entry, result, spec, keywords) -> list:
    """[(row, {measure: (pmf, actual count)}, the side's dice (pmf, actual) or None, its dice
    thrown)] for the roll's attacker and, when it names one, its defender, from its
    situation's Result."""
    seen = observe(entry, result, spec, keywords)
    out = []
    for role, side, other in (("attacker", entry.side, entry.against),
                              ("defender", entry.against, entry.side)):
        if side is None:
            continue
        p_win = float(result.p if role == "attacker" else 1 - result.p)
        dealt, taken = seen.dealt_by(role), seen.taken_by(role)
        won = None if seen.won is None else seen.won == (role == "attacker")
        dist, actual = {}, {}
        if dealt:
            dist["hits"], actual["hits"] = result.pmfs[dealt[0]], dealt[1]
        if won is not None:
            dist["wins"], actual["wins"] = pc.bernoulli(p_win), int(won)
        if taken:
            dist["losses"], actual["losses"] = result.pmfs[taken[0]], taken[1]
        dice_row, dice_dist = own.one_roll(seen.thrown, role)
        if not dist and dice_dist is None:
            continue  # nothing of this side's to score in this roll (a defender that did not roll)
        measure = next(iter(dist), "dice")
        row = dict(line=entry.line, procedure=result.procedure, side=side, role=role, against=other,
                   measure=measure, **_luck(dist, actual, measure, dice_row),
                   won=won, p_win=p_win,
                   hits=actual.get("hits", np.nan),
                   expected_hits=_expected(result, seen.dealt_pmf(role)),
                   losses=actual.get("losses", np.nan),
                   expected_losses=_expected(result, seen.taken_pmf(role)),
                   **dice_row)
        out.append((row, {m: (dist[m], actual[m]) for m in dist}, dice_dist,
                    [t for t in seen.thrown if t.role == role]))
    if not out:
        raise OddsError(f"outcome: nothing of {entry.side}'s to score in this roll (allowed: the "
                        "winner, the losses, or the dice it rolled)")
    return out


def _luck(dist, actual, measure, dice_row) -> dict:
    """The roll's percentile in its measure (a roll that records only dice: its dice's)."""
    if measure == "dice":
        p = dice_row["dice_percentile"]
        return dict(percentile=p, p_at_least=np.nan)
    better = MEASURES[measure]
    return dict(percentile=100 * pc.percentile(dist[measure], actual[measure], better),
                p_at_least=pc.at_least(dist[measure], actual[measure], better))


def _expected(result, name) -> float:
    return pc.mean(result.pmfs[name]) if name in result.pmfs else np.nan


def _game(frame, pmfs):
    """The whole game per side and measure (dicts of GAME), and each row's cumulative luck (in
    place): in its side's hits dealt when at least half its rolls record them, else in its
    wins, else (a record of losses only) in its losses taken (`plotted`; '' for a row that
    does not count in that measure)."""
    rows = []
    frame["plotted"] = ""
    frame["cumulative"] = frame["band_low"] = frame["band_high"] = np.nan
    for side in dict.fromkeys(frame["side"]):
        index = np.flatnonzero((frame["side"] == side).to_numpy())
        counted = {m: [i for i in index if m in pmfs[i]] for m in MEASURES}
        plotted = "hits" if 2 * len(counted["hits"]) >= len(index) else "wins"
        plotted = plotted if counted[plotted] else next((m for m in MEASURES if counted[m]), None)
        for measure, better in MEASURES.items():
            mine = counted[measure]
            if not mine:
                continue
            dists = [pmfs[i][measure][0] for i in mine]
            actual = np.cumsum([pmfs[i][measure][1] for i in mine])
            expected = np.cumsum([pc.mean(d) for d in dists])
            total, low, high = pc.running(dists)
            rows.append(dict(side=str(side), measure=measure, rolls=len(mine), actual=int(actual[-1]),
                             expected=float(expected[-1]),
                             percentile=100 * pc.percentile(total, int(actual[-1]), better),
                             p_at_least=pc.at_least(total, int(actual[-1]), better),
                             low=int(low[-1]), high=int(high[-1]), overall=measure == plotted))
            if measure == plotted:
                frame.loc[mine, "plotted"] = measure
                frame.loc[mine, "cumulative"] = actual - expected
                frame.loc[mine, "band_low"] = low - expected
                frame.loc[mine, "band_high"] = high - expected
    return rows
