"""`odds luck` on a long record: 10,000 rolls (the sample game's 27 rolls repeated, the armies
of its field battles given as losses one to 30 units larger: 114 distinct situations), read
from TOML, each roll scored, the whole game convolved.
Baseline: the same rolls scored with no situation cache (every roll's exact Result computed
again), timed on 500 rolls and scaled to 10,000. Target: under 10 s (issue 44).
And a 10,000-roll record of dice as rolled (issue 51): every procedure that reads its dice in
turn, its dice drawn at random through its own reader (`Drawing`), sizes varied: each roll's
dice read by its procedure's rules, the dice's own luck tallied. Target: under 10 s."""
import re
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, Row, table
from odds.tools.luck import report, situations
from odds.tools.luck.report import luck

ROLLS = 10_000
SAMPLE = ROOT / "odds/tools/luck/samples/his_1532.toml"


def record(rolls: int) -> str:
    """The sample's rolls repeated, the attackers of its field battles recorded by losses 0 to
    29 units larger, so situations repeat as over many games (the same battle sizes come back)."""
    blocks = SAMPLE.read_text().split("[[roll]]")[1:]
    out = []
    for i in range(rolls):
        block = blocks[i % len(blocks)]
        extra = (i // len(blocks)) % 30
        out.append(re.sub(r"(keywords = \{ attacker = )(\d+)",
                          lambda m: f"{m[1]}{int(m[2]) + extra}", block)
                   if "his.field" in block and "dice" not in block else block)
    return "".join("[[roll]]" + b for b in out)


def seconds(path) -> tuple[float, int]:
    start = time.perf_counter()
    frame = luck(str(path))
    return time.perf_counter() - start, frame.attrs["situations"]


def uncached(path) -> float:
    """Seconds of luck() with a fresh Situations for every roll (no cache)."""
    class Fresh(situations.Situations):
        def ask(self, entry):  # every roll its own situation: checked and solved again
            key = super().ask(entry)
            fresh = (key, len(self._asked))
            self._asked[fresh] = self._asked.pop(key)
            self._keywords[fresh] = self._keywords.pop(key)
            return fresh

    original, report.Situations = report.Situations, Fresh
    try:
        return seconds(path)[0]
    finally:
        report.Situations = original


def measure(quick=False):
    with tempfile.TemporaryDirectory() as folder:
        long, short = Path(folder, "long.toml"), Path(folder, "short.toml")
        long.write_text(record(ROLLS))
        short.write_text(record(500))
        luck(str(short))  # imports and the procedures' first calls
        ours, distinct = seconds(long)
        base = uncached(short) * ROLLS / 500
    return [Row(f"odds.luck, a {ROLLS:,}-roll record ({distinct} distinct situations)", ours, "s",
                base, "no situation cache, 500 rolls scaled", "< 10 s")] + measure_dice(quick)


# ---- a record of dice, every procedure that reads them mixed (issue 51) ----------------------

SITUATIONS = [  # (procedure, keywords) the mixed record draws from, sizes varied below
    ("his.field", dict(attacker=6, defender=4, attacker_leader=2, defender_power="ottoman",
                       defender_cards=["janissaries:if-needed"])),
    ("his.field", dict(attacker=5, defender=5, attacker_power="hapsburg", attacker_cards=["tercios"])),
    ("his.field", dict(attacker=4, defender=3, attacker_cards=["surprise-attack"])),
    ("his.assault", dict(attacker=6, defender=2, attacker_leader=1,
                         attacker_cards=["siege-artillery:if-needed"])),
    ("his.siege", dict(attacker=7, defender=3, assaults=3, attacker_cards=["siege-artillery:optimal"])),
    ("his.siege", dict(attacker=6, defender=2, assaults=4)),
    ("his.naval", dict(attacker_squadrons=3, defender_squadrons=2, defender_corsairs=2,
                       defender_power="ottoman", defender_cards=["janissaries:if-needed"])),
    ("vq.naval", dict(attacker_race_built=3, attacker_power="england", defender_galleons=3,
                      location="atlantic")),
    ("his.intercept", dict(leader=2)),
    ("his.avoid_battle", dict(leader=1, naval=True, other_cards=["professional-rowers:if-needed"])),
    ("his.reformation", dict(adjacent_protestant=2, adjacent_reformers=1, attempts=2)),
    ("his.counter_reformation", dict(adjacent_catholic=2, pope="paul-iii")),
    ("his.debate", dict(attacker_value=3, debater_bonus=True, defender_value=2, attacker_pool=[2, 1],
                        defender_pool=[3])),
    ("his.diet_of_worms", dict(protestant_hand=[2, 3, 5], papal_hand=[1, 3], hapsburg_hand=[1, 2])),
    ("his.piracy", dict(corsairs=2, adjacent_squadrons=1, fortresses=1, pirate="barbarossa")),
    ("his.foreign_war", dict(war="persia", leader=1)),
    ("his.exploration", dict(explorer=2)),
    ("his.conquest", dict(conquistador=2, smallpox=True)),
    ("his.raiders", dict(cards=3, galleons=True)),
    ("oath.campaign", dict(warbands=6, defense_dice=3, defenders=2, sacrifice="at-most:2")),
]
SIZES = {"his.field": ("attacker", 8), "his.assault": ("attacker", 6), "his.naval": ("attacker_squadrons", 3),
         "oath.campaign": ("warbands", 6), "his.intercept": ("leader", 3)}  # keyword varied, by how much


class Drawing:
    """A core.rolled.Record that rolls the dice a reader asks for at random, and keeps them as
    a record's fields (a roll of the mixed record)."""

    def __init__(self, rng):
        self.rng, self.fields, self.choices = rng, {}, {}

    def dice(self, name, role, count, die, round=0):
        faces = [die.faces[i] for i in self.rng.choice(len(die.faces), count, p=die.chances())]
        self.fields.setdefault(name, {})[round] = faces
        return tuple(faces)

    def hits(self, name, role, count, die, round=0):
        return sum(f in die.hits for f in self.dice(name, role, count, die, round))

    def die(self, name, role, die, index):
        face = die.faces[self.rng.choice(len(die.faces), p=die.chances())]
        self.fields.setdefault(name, {}).setdefault(0, []).append(face)
        return face

    def choice(self, name, allowed, why):
        options = list(allowed)
        weights = [float(w) for w in allowed.values()]
        self.choices[name] = options[self.rng.choice(len(options), p=[w / sum(weights) for w in weights])]
        return self.choices[name]

    def roll(self) -> dict:
        out = {}
        for name, by_round in self.fields.items():
            rolls = [by_round.get(k, []) for k in range(max(by_round) + 1)]
            out[name] = rolls[0] if len(rolls) == 1 else rolls
        if self.choices:
            out["choices"] = dict(self.choices)
        return out


def mixed_record(rolls: int, seed: int = 51) -> str:
    """A TOML record of `rolls` rolls of dice drawn at random, every procedure that reads its
    dice in turn, its size varied (so situations repeat as over many games)."""
    import numpy as np

    from odds import registry
    from odds.tools.luck.situations import defaults

    rng = np.random.default_rng(seed)
    blocks = []
    for i in range(rolls):
        name, keywords = SITUATIONS[i % len(SITUATIONS)]
        keywords = dict(keywords)
        if name in SIZES:
            key, spread = SIZES[name]
            keywords[key] += (i // len(SITUATIONS)) % spread
        spec = registry.get(name)
        drawing = Drawing(rng)
        spec.reader()({**defaults(spec.function), **spec.preset, **keywords}, drawing)
        fields = "\n".join(f"{k} = {_toml(v)}" for k, v in drawing.roll().items())
        blocks.append(f'[[roll]]\nprocedure = "{name}"\nkeywords = {_toml(keywords)}\n'
                      f'side = "A"\nagainst = "B"\n{fields}\n')
    return "\n".join(blocks)


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def measure_dice(quick=False):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "dice.toml")
        path.write_text(mixed_record(ROLLS))
        luck(mixed_record(200), paths=False)  # imports and the procedures' first calls
        start = time.perf_counter()
        frame = luck(str(path))
        took = time.perf_counter() - start
    assert not frame.attrs["refused"], frame.attrs["refused"][:3]
    return [Row(f"odds.luck, a {ROLLS:,}-roll record of dice, every procedure that reads them "
                f"({frame.attrs['situations']} distinct situations)", took, "s", None, "", "< 10 s")]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
