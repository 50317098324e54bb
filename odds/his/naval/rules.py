"""Naval combat casualty rule (docs/rules.md, Naval combat, see naval/procedure.py for the reading), numpy only: the
exact engine calls it on arrays and the kernel compiles `outcome_index`. Counts are ships,
corsairs, hits and dice."""
import numpy as np

from ..field.rules import needs_help  # noqa: F401  (`if-needed`: the side would not win)


def take(hits, ships, corsairs, lost, k, kc):
    """(ships sunk, corsairs sunk) by `hits` on a fleet; `lost` is True for the battle's loser."""
    sunk = np.minimum(ships, hits // k)
    left = hits - k * sunk
    gone = sunk == ships
    cors = np.minimum(corsairs, left // kc) * gone
    return sunk + ((sunk < ships) & lost & (left > 0)), cors


def settle(win, ha, hd, more, sa, sd, ca, cd, k, kc):
    """(code, attacker ships lost, defender ships lost, attacker corsairs, defender corsairs).

    `win`: the attacker won; `ha`/`hd`: the hits each side takes as casualties; `more`: the
    attacker rolled more dice (for the both-destroyed rule). Written with ufuncs and
    comparisons only, so numpy arrays and scalars read it alike.
    """
    a_sunk, a_cors = take(ha, sa, ca, win == 0, k, kc)
    d_sunk, d_cors = take(hd, sd, cd, win != 0, k, kc)
    both = (a_sunk == sa) & (a_cors == ca) & (d_sunk == sd) & (d_cors == cd)
    keep_a = both & (more != 0)
    keep_d = both & (more == 0)
    return ((win != 0) + 2 * both, a_sunk - (keep_a & (sa > 0)), d_sunk - (keep_d & (sd > 0)),
            a_cors - (keep_a & (sa == 0)), d_cors - (keep_d & (sd == 0)))


def settle_grid(sa, sd, ca, cd, k, kc):
    """Flat joint index of `settle` for every (attacker won, attacker rolled more dice, hits
    taken by the attacker, hits taken by the defender), hits capped at what wipes a fleet out."""
    cap_a, cap_d = k * sa + kc * ca, k * sd + kc * cd
    win, more, ha, hd = np.meshgrid([0, 1], [0, 1], np.arange(cap_a + 1), np.arange(cap_d + 1),
                                    indexing="ij")
    out = settle(win, ha, hd, more, sa, sd, ca, cd, k, kc)
    shape = (4, sa + 1, sd + 1, ca + 1, cd + 1)
    return np.ravel_multi_index(tuple(np.asarray(x, np.int64) for x in out), shape)


def outcome_index(table, ah, dh, af, df, adice, ddice, ra, rd, cap_a, cap_d):
    """Joint cell of each roll: race-built cancel up to `ra`/`rd` enemy 5s for casualties
    only (the winner, more hits with ties to the defender, counts every hit)."""
    ha = np.minimum(dh - np.minimum(ra, df), cap_a)
    hd = np.minimum(ah - np.minimum(rd, af), cap_d)
    return table[(ah > dh) * 1, (adice > ddice) * 1, ha, hd]


def five_share(threshold):
    """P(a hit is a 5) for a die hitting on `threshold`+ (0 when 5 is not a hit)."""
    return 1.0 / (7 - threshold) if threshold <= 5 else 0.0
