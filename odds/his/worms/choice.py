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


def undominated(a: np.ndarray) -> tuple:
    """(rows, columns) left once every strictly dominated row (worse than another in every
    column) and column (worse for the column player in every row) is removed, repeatedly: no
    optimal strategy plays them, and the vertices to try shrink with the game."""
    rows, columns = np.arange(a.shape[0]), np.arange(a.shape[1])
    for _ in range(sum(a.shape)):  # each pass removes at least one, or ends
        sub = a[np.ix_(rows, columns)]
        keep_r = ~(sub[None, :, :] > sub[:, None, :] + TOLERANCE).all(2).any(1)
        keep_c = ~(sub[:, None, :] < sub[:, :, None] - TOLERANCE).all(0).any(1)
        if keep_r.all() and keep_c.all():
            break
        rows, columns = rows[keep_r], columns[keep_c]
    return rows, columns


def solve_game(a) -> tuple:
    """(value, row strategy, column strategy) of the zero-sum game with row payoffs `a`."""
    a = np.asarray(a, dtype=float)
    kept_rows, kept_columns = undominated(a)
    sub = a[np.ix_(kept_rows, kept_columns)]
    value, sub_rows = _row_strategy(sub)
    _, sub_columns = _row_strategy(-sub.T)
    rows, columns = np.zeros(a.shape[0]), np.zeros(a.shape[1])
    rows[kept_rows], columns[kept_columns] = sub_rows, sub_columns
    return value, rows, columns
