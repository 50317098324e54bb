"""The Diet's card choice as a zero-sum game between the Protestant (rows: its cards' CP) and the
Papacy with the Hapsburgs (columns: the pair of CP they commit), solved exactly.

A matrix game's value and an optimal mixed strategy are a vertex of the linear program
max v subject to x·A[:, j] >= v for every column j, sum(x) = 1, x >= 0. With m rows and n
columns a vertex makes m + 1 of those m + n constraints (and sum(x) = 1) tight, so trying every
choice of them (at most C(m + n, m + 1) small linear systems, solved together by numpy) finds the
optimum even when the game is degenerate (equal payoffs, cards of equal CP).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

TOLERANCE = 1e-9


def _row_strategy(a: np.ndarray) -> tuple:
    """(value, optimal mixed strategy of the maximising row player) of payoff matrix `a`."""
    m, n = a.shape
    # unknowns (x_1..x_m, v); constraints: column j: x·a[:, j] - v >= 0; row i: x_i >= 0
    rows = np.vstack([np.c_[a.T, -np.ones(n)], np.c_[np.eye(m), np.zeros(m)]])
    total = np.r_[np.ones(m), 0.0]
    picks = np.array(list(combinations(range(m + n), m)))
    systems = np.concatenate([rows[picks], np.broadcast_to(total, (len(picks), 1, m + 1))], 1)
    rhs = np.zeros((len(picks), m + 1))
    rhs[:, -1] = 1.0
    solvable = np.abs(np.linalg.det(systems)) > TOLERANCE
    sol = np.linalg.solve(systems[solvable], rhs[solvable][..., None])[..., 0]
    feasible = (sol[:, :m] >= -TOLERANCE).all(1) & \
        ((sol[:, :m] @ a) >= sol[:, m:] - TOLERANCE).all(1)
    best = sol[feasible][np.argmax(sol[feasible, m])]
    x = np.clip(best[:m], 0.0, None)
    return float(best[m]), x / x.sum()


def solve_game(a) -> tuple:
    """(value, row strategy, column strategy) of the zero-sum game with row payoffs `a`."""
    a = np.asarray(a, dtype=float)
    value, rows = _row_strategy(a)
    _, columns = _row_strategy(-a.T)
    return value, rows, columns
