"""`trace`: one battle told round by round (moves, shots, melee, damage, morale tests, who
leaves the board), from the events the kernel records when asked (kernel.note)."""
from __future__ import annotations

from ...config import MAX_TRIALS
from ...errors import check_int
from ..simulator import state as S
from .battle import one_battle, scenario_of, script
from ..scenario import SIDES

MAX_EVENTS = 200_000


def trace(scenario, *, seed=0, index=0, overrides=(), dice=None) -> str:
    """The text of battle `index` (0 to MAX_TRIALS - 1, as in a run of `seed`) of `seed` (or
    with scripted morale `dice`), one line per event."""
    seed = check_int("seed", 0 if seed is None else seed, 0, 2**63 - 1)
    index = check_int("index", index, 0, MAX_TRIALS - 1)
    sc = scenario_of(scenario, overrides)
    _, final, log = one_battle(sc, script(None if dice is None else list(dice)), seed, index,
                               events=MAX_EVENTS)
    code, rnd, first, ok, n = (int(v) for v in final[S.NFU, :5])
    U = final[:S.NFU, :n]
    name = lambda j: f"{SIDES[U[S.USIDE, j]]} {sc.type_names[U[S.UTYPE, j]]}#{j}"
    how = f"scripted dice {list(dice)}" if dice is not None else f"battle {index} of seed {seed}"
    lines = [f"{sc.title}: {how}, {n} units on the board, {SIDES[first]} moves first"]
    side = 0
    for kind, a, b, c, d, e in log[1:log[0, 0] + 1].tolist():
        if kind == S.EV_TURN:
            side = b
            lines.append(f"round {a}, {SIDES[b]}:")
        elif kind == S.EV_MOVE:
            if lines[-1].startswith(f"  {name(a)} moves to"):
                lines[-1] += f", ({b}, {c})"
            else:
                lines.append(f"  {name(a)} moves to ({b}, {c})")
        elif kind == S.EV_SHOT:
            lines.append(f"  {name(a)} shoots at {name(b)}")
        elif kind == S.EV_MELEE:
            lines.append(f"  {name(a)} attacks {name(b)}{' from the rear' if c else ''}")
        elif kind == S.EV_HIT:
            fate = {S.DEAD: ", killed", S.CAPTURED: ", captured (it was fleeing)"}.get(d, "")
            lines.append(f"    {name(a)} takes {b} damage{'' if e else ' (friendly fire)'}: "
                         f"health {c}{fate}")
        elif kind == S.EV_MORALE:
            if "tests morale" not in lines[-1]:
                lines.append(f"  morale of the {SIDES[1 - side]} after this turn:")
            lines.append(f"    {name(a)} tests morale (took {d} damage): rolls {b}, morale "
                         f"{sc.types[S.TMORALE, U[S.UTYPE, a]]}, modifier {c:+d}: "
                         f"{'flees' if e else 'holds'}")
        elif kind == S.EV_ESCAPE:
            lines.append(f"  {name(a)} leaves the board (fled)")
    lines.append(f"result: {S.OUTCOMES[code].replace('_', ' ')} in round {rnd}")
    return "\n".join(lines)
